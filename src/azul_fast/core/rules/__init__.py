"""The rules of Azul: the native engine over packed boards (`_board`), moves and their notation,
argument checks, seeds and scoring kernels, and the pure-Python reference engine that checks the native one
move for move."""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
