"""The base of every error the library raises of its own: `AzulFastError`.

Each of the library's errors is also the built-in exception its kind of mistake has always been (an
illegal move is a `ValueError`, a locked run folder a `FileExistsError`), so ``except ValueError`` keeps
working, and ``except azul_fast.AzulFastError`` catches every error of the library's own.

>>> from azul_fast import AzulFastError, IllegalMoveError, State
>>> issubclass(IllegalMoveError, AzulFastError) and issubclass(IllegalMoveError, ValueError)
True
>>> try:
...     State.new(2, seed=1).play("CR1")
... except AzulFastError as error:
...     print(type(error).__name__)
IllegalMoveError
"""

from __future__ import annotations

__all__ = ["AzulFastError"]


class AzulFastError(Exception):
    """An error of azul_fast's own (each is also the built-in exception of its kind: ValueError, OSError, ...)."""


AzulFastError.__module__ = "azul_fast"   # named where users import it, as IllegalMoveError
