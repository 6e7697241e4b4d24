# Built-in policies of the native core, and whole games played with them (no GIL, no Python).
from libc.stdint cimport uint8_t, uint16_t, uint64_t

from azul_fast._board cimport Game

cdef enum PolicyId:
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    N_POLICIES

cdef int choose_random(Game *g) noexcept nogil
cdef int choose_greedy(Game *g) noexcept nogil
cdef int choose_move(Game *g, int policy) noexcept nogil
cdef int play_to_end(Game *g, const uint8_t *seat_policy, int *first_move, bint check, int *violations) noexcept nogil
