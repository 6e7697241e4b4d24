# Policies stronger than greedy: a static board evaluation, a one-ply heuristic on it, and UCT
# over the moves left in the current round (the design is described in _search.pyx).
from azul_fast.core.rules._board cimport Game

# The named searches of choose_search (their parameters: _search_named.pxi): which evaluation values
# the leaves, and which tree it grows. cpdef: also the Python class _search.SearchId, which the rows of
# azul_fast.core.bots.families name (each search belongs to one row; tests/core/test_constants.py checks).
cpdef enum SearchId:
    SEARCH_MCTS = 0         # the static evaluation, full rollouts
    SEARCH_LEARNED = 1      # the learned evaluation, rollouts cut short
    SEARCH_FAST = 2         # the learned evaluation, a narrower and greedier tree
    SEARCH_TRAINING = 3     # the learned evaluation, full rollouts: the board weights' training games
    SEARCH_LEFTOVER_TRAINING = 4    # rollouts cut short, a narrower tree: the leftover model's training games
    SEARCH_LEARNED_FULL = 5  # full rollouts in a wider tree than SEARCH_TRAINING's
    SEARCH_LEARNED_OWN = 6         # SEARCH_LEARNED playing for its own score: no opponent, denial or proof
    SEARCH_LEARNED_FULL_OWN = 7    # SEARCH_LEARNED_FULL so
    SEARCH_LEARNED_MARGIN = 8      # SEARCH_LEARNED without denial
    SEARCH_LEARNED_FULL_MARGIN = 9  # SEARCH_LEARNED_FULL so
    SEARCH_LEARNED_HALF = 10       # SEARCH_LEARNED_MARGIN, the opponent weighted half
    SEARCH_LEARNED_FULL_HALF = 11  # SEARCH_LEARNED_FULL_MARGIN so
    SEARCH_STRONG = 12             # SEARCH_LEARNED with the value network at the leaves
    SEARCH_STRONG_FULL = 13        # SEARCH_LEARNED_FULL so
    N_SEARCHES

# From this budget on, a family with a cut and a full search plays the full one (_policies.choose_move).
cpdef enum:
    FULL_ROLLOUTS_FROM = 500

cdef int choose_heuristic(Game *g) noexcept nogil            # best move by the one-ply heuristic
cdef void settle(Game *g) noexcept nogil     # a paused gray tiling finished as the search does (greedy columns)
cdef int choose_search(Game *g, int budget, int search) except -1 nogil    # UCT, `budget` iterations, a SEARCH_;
                                                                        # MemoryError if the tree cannot be had;
                                                                        # KeyboardInterrupt after request_stop()
