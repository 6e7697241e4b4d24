# Built-in policies of the native core, and whole games played with them (no GIL, no Python).
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core.rules._board cimport Game

# cpdef: also the Python class _policies.PolicyId, which the rows of azul_fast.core.bots.families name
# (each id has its row there; tests/core/test_constants.py checks).
cpdef enum PolicyId:
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_HEURISTIC = 2    # _search.choose_heuristic
    # The searches (_search.choose_search, the budget in the code): which SearchId each plays is its row's.
    POLICY_MCTS = 3
    POLICY_LEARNED = 4
    POLICY_FAST = 5
    POLICY_TRAINING = 6
    POLICY_LEFTOVER_TRAINING = 7
    POLICY_LEARNED_OWN = 8
    POLICY_LEARNED_MARGIN = 9
    POLICY_LEARNED_HALF = 10
    POLICY_STRONG = 11
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
