# Policies stronger than greedy: a static board evaluation, a one-ply heuristic on it, and UCT
# over the moves left in the current round (the design is described in _search.pyx).
from azul_fast.core.rules._board cimport Game

# The searches of choose_search: which evaluation values the leaves, and which tree it grows.
cdef enum:
    SEARCH_MCTS = 0         # the static evaluation (policy mcts)
    SEARCH_LEARNED = 1      # the learned evaluation (policy learned)
    SEARCH_FAST = 2         # the learned evaluation, a narrower and greedier tree (policy fast)
    SEARCH_FULL = 3         # the learned evaluation, full rollouts (learned up to version 2): the training games
                            # (policy learned from FULL_ROLLOUTS_FROM iterations on played it up to version 12)
    SEARCH_CUT_TRAINING = 4  # the learned search as version 4 shipped it: the leftover model's training games
    SEARCH_LEARNED_FULL = 5  # SEARCH_FULL in a wider tree (more root moves, and more replies at 2 players):
    #                          policy learned from FULL_ROLLOUTS_FROM iterations on (search version 13)
    SEARCH_LEARNED_OWN = 6         # SEARCH_LEARNED playing for its own score: no opponent, denial or proof
    SEARCH_LEARNED_FULL_OWN = 7    # SEARCH_LEARNED_FULL so (policy learned-own)
    SEARCH_LEARNED_MARGIN = 8      # SEARCH_LEARNED without denial (policy learned-margin)
    SEARCH_LEARNED_FULL_MARGIN = 9  # SEARCH_LEARNED_FULL so
    SEARCH_LEARNED_HALF = 10       # SEARCH_LEARNED_MARGIN, the opponent weighted half (policy learned-half)
    SEARCH_LEARNED_FULL_HALF = 11  # SEARCH_LEARNED_FULL_MARGIN so

# From this budget on, policy learned plays SEARCH_LEARNED_FULL (_search.pyx, LEARNED_FULL; _policies.choose_move).
cpdef enum:
    FULL_ROLLOUTS_FROM = 500

cdef int choose_heuristic(Game *g) noexcept nogil            # best move by the one-ply heuristic
cdef void settle(Game *g) noexcept nogil     # a paused gray tiling finished as the search does (greedy columns)
cdef int choose_search(Game *g, int budget, int search) except -1 nogil    # UCT, `budget` iterations, a SEARCH_;
                                                                        # MemoryError if the tree cannot be had;
                                                                        # KeyboardInterrupt after request_stop()
