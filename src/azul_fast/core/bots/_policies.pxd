# Built-in policies of the native core, and whole games played with them (no GIL, no Python).
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core.rules._board cimport Game

# cpdef: also the Python class _policies.PolicyId, from which azul_fast.core.bots.policies takes the ids.
cpdef enum PolicyId:
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_HEURISTIC = 2    # _search.choose_heuristic
    POLICY_MCTS = 3         # _search.choose_search: UCT over the round, budget in the code
    POLICY_LEARNED = 4      # the same search, its leaves valued by the learned evaluation
    POLICY_FAST = 5         # the learned search with a narrower, greedier tree, for small budgets
    POLICY_TRAINING = 6     # the learned evaluation with full rollouts: plays the training games (no name)
    POLICY_LEFTOVER_TRAINING = 7  # learned's search version 4: plays the leftover model's training games (no name)
    POLICY_LEARNED_OWN = 8  # the learned search playing for its own score (_search.pyx, LEARNED_OWN)
    POLICY_LEARNED_MARGIN = 9  # the learned search playing for its margin without denial (LEARNED_MARGIN)
    POLICY_LEARNED_HALF = 10  # the learned search playing for its score less half the opponent's (LEARNED_HALF)
    N_POLICIES

# A policy code (as choose_move takes it) is a PolicyId in the low byte and the search budget above
# (cpdef: Python ints of _policies too, for azul_fast.core.bots.policies).
cpdef enum:
    POLICY_ID_MASK = 0xFF
    POLICY_BUDGET_SHIFT = 8

cdef int choose_random(Game *g) noexcept nogil
cdef int choose_greedy(Game *g) noexcept nogil
# A search that cannot allocate its tree raises MemoryError (except -1): the error reaches Python
# through every caller, never a quiet switch to another policy.
cdef int choose_move(Game *g, int policy) except -1 nogil
cdef int play_to_end(Game *g, const uint32_t *seat_policy, int *first_move, bint check, int *violations) except -1 nogil
