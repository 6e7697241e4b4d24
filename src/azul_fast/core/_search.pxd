# Policies stronger than greedy: a static board evaluation, a one-ply heuristic on it, and UCT
# over the moves left in the current round (the design is described in _search.pyx).
from azul_fast.core._board cimport Game

cdef int choose_heuristic(Game *g) noexcept nogil            # best move by the one-ply heuristic
cdef int choose_search(Game *g, int budget, bint learned) except -1 nogil    # UCT, `budget` iterations;
                                                                        # leaves by the learned evaluation;
                                                                        # MemoryError if the tree cannot be had;
                                                                        # KeyboardInterrupt after request_stop()
