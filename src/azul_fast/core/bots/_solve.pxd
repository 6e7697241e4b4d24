# The exact round search of _solve.pyx, for the learned searches (_search.choose_search).
from azul_fast.core.rules._board cimport Game

# What forced_win returns when it has no move (a move's code otherwise).
cpdef enum:
    NO_FORCED_WIN = -1      # no move wins outright whatever the others reply
    UNPROVEN = -2           # the proof needs more than its positions (or memory)

cdef bint game_ends_this_round(const Game *g) noexcept nogil    # every line of play ends the game at this round's end
cdef int forced_win(const Game *g, long long max_nodes) noexcept nogil   # a move that wins outright whatever the
                                                                        # others reply, or one of the two above
