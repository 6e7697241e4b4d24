# State's C-level face: the packed Game it wraps, so that other kernels (the solver, the rollouts)
# can read a position without a round trip through to_dict.
from azul_fast.core.rules._board cimport Game


cdef class State:
    cdef Game g
