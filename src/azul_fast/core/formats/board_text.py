"""A plain-text picture of a position, for terminals, logs and `azul-fast replay`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from azul_fast.core.rules.moves import COLOR_LETTERS, Color, printed_color

if TYPE_CHECKING:
    from azul_fast.core.state import State

__all__ = ["board_text"]


def _tiles(counts: Iterable[int]) -> str:
    return "".join(COLOR_LETTERS[c] * int(n) for c, n in enumerate(counts)) or "-"


def board_text(state: State) -> str:
    """Factories, centre, then each player's pattern lines beside the wall, floor and score, and
    last the position's one-line text (`State.to_text`), to paste back with `State.from_text`.

    Pattern lines fill right to left; on the wall a placed tile is its colour letter and an
    empty cell the lower-case colour printed there (``.`` on the gray wall, which has none).
    ``str(state)`` is this text.

    >>> from azul_fast import State
    >>> state = State.new(players=2, seed=7)
    >>> state.play("1R2")
    >>> print(board_text(state))
    Round 1, player 1 to move
    Factories  1:-  2:BBKK  3:BYKW  4:YRWW  5:BRKW
    Centre     BY +marker
    Player 0  score 0
          . | byrkw
         RR | wbyrk
        ... | kwbyr
       .... | rkwby
      ..... | yrkwb
      floor [       ]
    Player 1  score 0 <
          . | byrkw
         .. | wbyrk
        ... | kwbyr
       .... | rkwby
      ..... | yrkwb
      floor [       ]
    Text  colored 2 1/100 play 1 0 C -,BBKK,BYKW,YRWW,BRKW BY 15,17,16,16,16 0,0,0,0,0 0:-/RR/-/-/-:...
    """
    status = "game over" if state.is_game_over() else f"player {state.current_player} to move"
    if state.tiling is not None:
        status += f" (wall tiling: the column of pattern line {state.tiling[1] + 1})"
    out = [f"Round {state.round}{', gray wall' if state.variant == 'gray' else ''}, {status}"]
    factories = "  ".join(f"{i + 1}:{_tiles(f)}" for i, f in enumerate(state.factories))
    out.append(f"Factories  {factories}")
    marker = " +marker" if state.center_has_marker else ""
    out.append(f"Centre     {_tiles(state.center)}{marker}")
    for p in range(state.players):
        turn = " <" if p == state.current_player and not state.is_game_over() else ""
        out.append(f"Player {p}  score {state.scores[p]}{turn}")
        wall = state.wall_colors(p)
        for r in range(5):
            color, count = state.pattern_line(p, r)
            letter = "." if color is None else COLOR_LETTERS[color]
            line = "." * (r + 1 - count) + letter * count
            cells = "".join(_cell(wall[r][c], r, c, state.variant) for c in range(5))
            out.append(f"  {line:>5} | {cells}")
        floor = "".join(COLOR_LETTERS[x] if isinstance(x, Color) else "M" for x in state.floor(p))
        out.append(f"  floor [{floor:<7}]")
    out.append(f"Text  {state.to_text()}")
    return "\n".join(out)


def _cell(color: Color | None, row: int, col: int, variant: str) -> str:
    if color is not None:
        return COLOR_LETTERS[color]
    return "." if variant == "gray" else printed_color(row, col).letter.lower()
