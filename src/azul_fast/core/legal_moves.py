"""`LegalMoves`: the live, read-only sequence of a State's legal moves (`State.legal_moves`).

It reads the position through the State's private hooks (the legal move codes, the awaited tiling
line, why a move is illegal), so it holds no copy of the moves and always shows the current ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from azul_fast.core.rules.moves import AnyMove, Move, Placement, move_from_code

if TYPE_CHECKING:
    from azul_fast.core._state import State

__all__ = ["LegalMoves"]


class LegalMoves(Sequence[AnyMove]):
    """A live view of the legal moves of a State: a read-only sequence (len, index, ``in``).

    Moves come in the engine's canonical order (by colour, source, destination); while a gray
    wall tiling waits, they are the Placement moves of the legal columns, left to right.

    >>> from azul_fast import State
    >>> moves = State.new(players=2, seed=7).legal_moves
    >>> len(moves), moves[0], moves[-1], moves[:2]
    (96, Move.from_notation('1B1'), Move.from_notation('5WF'), [Move.from_notation('1B1'), Move.from_notation('1B2')])
    """

    __slots__ = ("_state",)

    def __init__(self, state: State) -> None:
        self._state = state

    def __len__(self) -> int:
        return len(self._state._legal_codes())

    def __bool__(self) -> bool:
        return not self._state.is_game_over()

    def __iter__(self) -> Iterator[AnyMove]:
        line = self._state._tile_line()
        return iter([move_from_code(code, line) for code in self._state._legal_codes()])

    @overload
    def __getitem__(self, index: int) -> AnyMove: ...
    @overload
    def __getitem__(self, index: slice) -> list[AnyMove]: ...

    def __getitem__(self, index: int | slice) -> AnyMove | list[AnyMove]:
        codes, line = self._state._legal_codes(), self._state._tile_line()
        if isinstance(index, slice):
            return [move_from_code(code, line) for code in codes[index]]
        try:
            return move_from_code(codes[index], line)
        except IndexError:
            raise IndexError(f"legal move index {index} is out of range: there are {len(codes)} legal moves") from None

    def __contains__(self, move: object) -> bool:
        return isinstance(move, (Move, Placement)) and self._state._why_illegal(move) is None

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"
