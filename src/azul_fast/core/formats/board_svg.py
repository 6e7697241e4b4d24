"""SVG diagrams of positions: the table, each player's board, and an optional highlighted move.

The picture is plain SVG text built with the standard library, so it needs no dependency and
shows in a notebook, a browser or an article as it is. Every colour is told apart twice: by a
colour-blind-safe hue (Okabe-Ito) and by a mark drawn on the tile (blue circle, yellow
triangle, red diamond, black cross, white square), so a diagram still reads in grey print.

Elements carry classes and ids so a diagram can be styled or checked: each tile is a
``<g class="tile tile-red">``, each faint printed wall cell a ``<g class="wall-empty wall-red">``,
the first-player marker a ``<g class="marker">``; areas are ``factory-1``..``factory-9``,
``centre``, ``player-0``, ``player-0-line-1``..``player-0-line-5``, ``player-0-wall`` and
``player-0-floor``. A highlighted move adds the class ``highlight`` to the tiles it takes and
to the line (or floor) it fills; a highlighted wall placement (gray wall) to the pattern line
being tiled and to the chosen wall cell, ``<g class="wall-target highlight">``, where the tile
is drawn faint.

>>> from azul_fast import State
>>> svg = render_svg(State.new(players=2, seed=7), move="1B1")
>>> svg.startswith("<svg") and svg.count('class="tile ') == 20
True
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Final, NamedTuple

from azul_fast.core.output import OVERWRITE_HINT, write_new
from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.moves import (
    CENTER,
    FLOOR,
    FLOOR_PENALTIES,
    AnyMove,
    Color,
    Move,
    Placement,
    parse_move,
    printed_color,
)
from azul_fast.core.state import State

__all__ = ["render_svg", "save_svg"]

SVG_NS: Final = "http://www.w3.org/2000/svg"

TILE: Final = 30  # side of a tile, in SVG user units
GAP: Final = 4
STEP: Final = TILE + GAP
MARGIN: Final = 20
BOARD_PAD: Final = 28  # room left of the pattern lines for their numbers
WALL_GAP: Final = 22
BOARD_W: Final = BOARD_PAD + 5 * STEP + WALL_GAP + 5 * STEP + 12
BOARD_H: Final = 42 + 5 * STEP + 20 + STEP + 10
BOARD_SPACING: Final = 20
FACTORY_R: Final = 48  # a 2x2 block of tiles fits inside
FACTORY_STEP: Final = 2 * FACTORY_R + 10

#: The penalty printed above each floor slot (1, 1, 2, 2, 2, 3, 3).
SLOT_PENALTIES: Final = tuple(b - a for a, b in zip(FLOOR_PENALTIES, FLOOR_PENALTIES[1:]))

INK: Final = "#222222"
FAINT_INK: Final = "#6b6b6b"
HIGHLIGHT: Final = "#CC0077"
FONT: Final = "DejaVu Sans, Helvetica, Arial, sans-serif"


class _Look(NamedTuple):
    fill: str
    edge: str
    mark_ink: str
    mark: str


_LOOKS: Final = {
    Color.BLUE: _Look("#0072B2", "#004b75", "#ffffff", "circle"),
    Color.YELLOW: _Look("#F0E442", "#9c9420", "#333333", "triangle"),
    Color.RED: _Look("#D55E00", "#8a3d00", "#ffffff", "diamond"),
    Color.BLACK: _Look("#2b2b2b", "#000000", "#ffffff", "cross"),
    Color.WHITE: _Look("#FAFAFA", "#8c8c8c", "#333333", "square"),
}


# -- small builders ---------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
    """A child element; ``class_`` becomes ``class`` and ``font_size`` becomes ``font-size``."""
    names = {key.rstrip("_").replace("_", "-"): value for key, value in attrs.items() if value is not None}
    element = ET.SubElement(
        parent, tag, {k: _num(v) if isinstance(v, float) else str(v) for k, v in names.items()}
    )
    element.text = text
    return element


def _label(parent: ET.Element, x: float, y: float, text: str, size: int = 12, **attrs: object) -> ET.Element:
    return _el(parent, "text", text, x=x, y=y, font_size=size, fill=attrs.pop("fill", INK), **attrs)


def _xy(x: float, y: float) -> str:
    return f"{_num(x)},{_num(y)}"


def _points(*corners: tuple[float, float]) -> str:
    return " ".join(_xy(x, y) for x, y in corners)


def _mark(parent: ET.Element, look: _Look, x: float, y: float, size: float) -> None:
    """The colour's own glyph, centred in the tile at (x, y)."""
    cx, cy, r = x + size / 2, y + size / 2, size * 0.22
    ink = look.mark_ink
    if look.mark == "circle":
        _el(parent, "circle", cx=cx, cy=cy, r=r, fill=ink)
    elif look.mark == "triangle":
        low = cy + 0.8 * r
        _el(parent, "polygon", points=_points((cx, cy - 1.1 * r), (cx + r, low), (cx - r, low)), fill=ink)
    elif look.mark == "diamond":
        d = 1.2 * r
        _el(parent, "polygon", points=_points((cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)), fill=ink)
    elif look.mark == "cross":
        d = 0.85 * r
        path = f"M{_xy(cx - d, cy - d)}L{_xy(cx + d, cy + d)}M{_xy(cx + d, cy - d)}L{_xy(cx - d, cy + d)}"
        _el(parent, "path", d=path, stroke=ink, stroke_width=size * 0.09, stroke_linecap="round")
    else:
        side = 1.5 * r
        _el(parent, "rect", x=cx - side / 2, y=cy - side / 2, width=side, height=side, fill=ink)


def _outline(parent: ET.Element, x: float, y: float, width: float, height: float) -> None:
    pad = 3.0
    _el(parent, "rect", x=x - pad, y=y - pad, width=width + 2 * pad, height=height + 2 * pad, rx=6,
        fill="none", stroke=HIGHLIGHT, stroke_width=3)


def _tile(parent: ET.Element, x: float, y: float, color: Color, highlight: bool = False) -> None:
    look = _LOOKS[color]
    name = color.name.lower()
    group = _el(parent, "g", class_=f"tile tile-{name}" + (" highlight" if highlight else ""))
    _el(group, "rect", x=x, y=y, width=TILE, height=TILE, rx=4, fill=look.fill, stroke=look.edge, stroke_width=1.2)
    _mark(group, look, x, y, TILE)
    if highlight:
        _outline(group, x, y, TILE, TILE)


def _printed(parent: ET.Element, x: float, y: float, color: Color) -> None:
    """An empty wall cell: the colour printed on the board, faint."""
    look = _LOOKS[color]
    group = _el(parent, "g", class_=f"wall-empty wall-{color.name.lower()}", opacity=0.32)
    _el(group, "rect", x=x, y=y, width=TILE, height=TILE, rx=4, fill=look.fill, stroke=look.edge, stroke_width=1)
    _mark(group, look, x, y, TILE)


def _marker(parent: ET.Element, x: float, y: float, size: float = TILE, class_: str = "marker") -> None:
    """The first-player marker: a cream token printed with a 1."""
    group = _el(parent, "g", class_=class_)
    _el(group, "rect", x=x, y=y, width=size, height=size, rx=4, fill="#FFF3C4", stroke="#7a6a2a", stroke_width=1.5)
    font = round(size * 0.56)
    _label(group, x + size / 2, y + size / 2 + font * 0.35, "1", font, font_weight="bold", text_anchor="middle")


def _slot(parent: ET.Element, x: float, y: float) -> None:
    _el(parent, "rect", class_="slot", x=x, y=y, width=TILE, height=TILE, rx=4, fill="#ffffff",
        fill_opacity=0.6, stroke="#b3a990", stroke_width=1)


def _pill(parent: ET.Element, x: float, y: float, text: str, fill: str) -> float:
    """A small rounded tag; returns its right edge."""
    width = 7 * len(text) + 14
    group = _el(parent, "g", class_="tag")
    _el(group, "rect", x=x, y=y - 13, width=width, height=18, rx=9, fill=fill)
    _label(group, x + width / 2, y, text, 11, fill="#ffffff", text_anchor="middle", font_weight="bold")
    return x + width


# -- checks -----------------------------------------------------------------------------------


def _check_player(state: State, player: object) -> int | None:
    if player is None:
        return None
    return check_int(player, "player", 0, state.players - 1)


def _check_move(state: State, move: object) -> AnyMove | None:
    if move is None:
        return None
    if isinstance(move, str):
        move = parse_move(move)
    elif not isinstance(move, (Move, Placement)):
        raise TypeError(f"move must be a Move, a Placement, its notation or None, got {type(move).__name__}")
    # Playing it on a copy gives the engine's own reason when the move is illegal.
    state.copy().play(move)
    return move


def _describe(state: State, move: AnyMove) -> str:
    if isinstance(move, Placement):
        return (f"Move {move}: player {state.current_player} puts the tile of pattern line {move.line + 1} "
                f"in wall column {move.column + 1}")
    source = "the centre" if move.source == CENTER else f"factory {move.source + 1}"
    target = "the floor" if move.line == FLOOR else f"pattern line {move.line + 1}"
    return f"Move {move}: player {state.current_player} takes {move.color.name.lower()} from {source} to {target}"


# -- the table --------------------------------------------------------------------------------


def _tiles_of(counts: Iterable[int]) -> list[Color]:
    return [Color(c) for c, n in enumerate(counts) for _ in range(int(n))]


def _draw_factories(svg: ET.Element, state: State, top: float, width: float, move: Move | None) -> float:
    per_row = max(1, int((width - 2 * MARGIN) // FACTORY_STEP))
    rows = math.ceil(state.n_factories / per_row)
    per_row = math.ceil(state.n_factories / rows)  # balance the rows: 5+4, not 7+2
    for f, counts in enumerate(state.factories):
        row, col = divmod(f, per_row)
        in_row = min(per_row, state.n_factories - row * per_row)
        left = (width - in_row * FACTORY_STEP) / 2
        cx = left + (col + 0.5) * FACTORY_STEP
        cy = top + FACTORY_R + row * (FACTORY_STEP + 8)
        group = _el(svg, "g", class_="factory", id=f"factory-{f + 1}")
        _el(group, "circle", cx=cx, cy=cy, r=FACTORY_R, fill="#ECE6D8", stroke="#a39880", stroke_width=1.5)
        _label(group, cx, cy + FACTORY_R + 13, f"{f + 1}", 12, fill=FAINT_INK, text_anchor="middle")
        for i, color in enumerate(_tiles_of(counts)):
            x = cx - STEP / 2 - TILE / 2 + (i % 2) * STEP
            y = cy - STEP / 2 - TILE / 2 + (i // 2) * STEP
            hit = move is not None and move.source == f and move.color == color
            _tile(group, x, y, color, highlight=hit)
    return top + rows * (FACTORY_STEP + 8) + 4


def _draw_centre(svg: ET.Element, state: State, top: float, width: float, move: Move | None) -> float:
    tiles = _tiles_of(state.center)
    items = len(tiles) + state.center_has_marker
    inner = width - 2 * MARGIN - 24
    per_row = max(1, int((inner + GAP) // STEP))
    rows = max(1, math.ceil(items / per_row))
    height = 30 + rows * STEP + 6
    group = _el(svg, "g", class_="centre", id="centre")
    _el(group, "rect", x=MARGIN, y=top, width=width - 2 * MARGIN, height=height, rx=12, fill="#ECE6D8",
        stroke="#a39880", stroke_width=1.5)
    _label(group, MARGIN + 12, top + 19, "Centre", 12, fill=FAINT_INK)
    positions = [(MARGIN + 12 + (i % per_row) * STEP, top + 28 + (i // per_row) * STEP) for i in range(items)]
    if state.center_has_marker:
        _marker(group, *positions.pop(0))
    for (x, y), color in zip(positions, tiles):
        _tile(group, x, y, color, highlight=move is not None and move.source == CENTER and move.color == color)
    return top + height


# -- the boards -------------------------------------------------------------------------------


def _draw_board(svg: ET.Element, state: State, p: int, left: float, top: float, move: AnyMove | None) -> None:
    over = state.is_game_over()
    to_move = not over and p == state.current_player
    board = _el(svg, "g", class_="board" + (" to-move" if to_move else ""), id=f"player-{p}")
    _el(board, "rect", x=left, y=top, width=BOARD_W, height=BOARD_H, rx=10, fill="#F6F2E8",
        stroke=INK if to_move else "#bdb5a3", stroke_width=3 if to_move else 1.5)

    # Header: name, tags, score.
    name = f"Player {p}"
    _label(board, left + 12, top + 24, name, 15, font_weight="bold")
    x = left + 12 + 9.5 * len(name) + 10  # past the name, in DejaVu Sans Bold 15
    if to_move:
        x = _pill(board, x, top + 23, "to move", INK) + 6
    if over and p in state.winners:
        x = _pill(board, x, top + 23, "winner", "#009E73") + 6
    if state.marker_holder == p:
        _marker(board, x, top + 9, size=20, class_="marker-badge")
        _label(board, x + 25, top + 23, "starts next round", 11, fill=FAINT_INK)
    score = state.scores[p]
    points = f"{score} point" + ("" if score == 1 else "s")
    _label(board, left + BOARD_W - 12, top + 24, points, 15, font_weight="bold", text_anchor="end")

    lines_left = left + BOARD_PAD
    wall_left = lines_left + 5 * STEP + WALL_GAP - GAP
    rows_top = top + 40
    target = move.line if move is not None and p == state.current_player else None
    cell = (move.line, move.column) if isinstance(move, Placement) and p == state.current_player else None

    for r in range(5):
        y = rows_top + r * STEP
        color, count = state.pattern_line(p, r)
        lit = " highlight" if target == r else ""
        line = _el(board, "g", class_="pattern-line" + lit, id=f"player-{p}-line-{r + 1}")
        _label(line, left + 12, y + TILE / 2 + 4, str(r + 1), 11, fill=FAINT_INK)
        for j in range(4 - r, 5):
            x = lines_left + j * STEP
            # Lines fill right to left, from the wall side.
            if color is not None and j >= 5 - count:
                _tile(line, x, y, color)
            else:
                _slot(line, x, y)
        if target == r:
            _outline(line, lines_left + (4 - r) * STEP, y, (r + 1) * STEP - GAP, TILE)

    wall_group = _el(board, "g", class_="wall", id=f"player-{p}-wall")
    placed = state.wall_colors(p)
    for r in range(5):
        for c in range(5):
            color = placed[r][c]
            x, y = wall_left + c * STEP, rows_top + r * STEP
            if color is not None:
                _tile(wall_group, x, y, color)
            elif cell == (r, c):  # where the placement puts the tile of the line being tiled
                target_group = _el(wall_group, "g", class_="wall-target highlight")
                line_color = state.pattern_line(p, r)[0]
                assert line_color is not None  # a legal placement tiles a full line
                _printed(target_group, x, y, line_color)
                _outline(target_group, x, y, TILE, TILE)
            elif state.variant == "gray":
                _slot(wall_group, x, y)  # the gray wall has no printed colours
            else:
                _printed(wall_group, x, y, printed_color(r, c))

    floor_top = rows_top + 5 * STEP + 20
    floor = _el(board, "g", class_="floor" + (" highlight" if target == FLOOR else ""), id=f"player-{p}-floor")
    _label(floor, left + 12, floor_top + TILE / 2 + 4, "Floor", 11, fill=FAINT_INK)
    floor_left = lines_left + 22
    contents = state.floor(p)
    for i, penalty in enumerate(SLOT_PENALTIES):
        x = floor_left + i * STEP
        _label(floor, x + TILE / 2, floor_top - 5, f"\u2212{penalty}", 11, fill=FAINT_INK, text_anchor="middle")
        item = contents[i] if i < len(contents) else None
        if item is None:
            _slot(floor, x, floor_top)
        elif isinstance(item, Color):
            _tile(floor, x, floor_top, item)
        else:
            _marker(floor, x, floor_top)
    if target == FLOOR:
        _outline(floor, floor_left, floor_top, len(SLOT_PENALTIES) * STEP - GAP, TILE)


# -- the picture ------------------------------------------------------------------------------


def _status(state: State) -> str:
    if state.is_game_over():
        winners = ", ".join(f"player {p}" for p in state.winners)
        ending = " (truncated)" if state.truncated else ""
        return f"Game over after round {state.round}{ending} \u00b7 won by {winners}"
    wall = " \u00b7 gray wall" if state.variant == "gray" else ""
    if state.tiling is not None:
        seat, line = state.tiling
        return f"Round {state.round}{wall} \u00b7 wall tiling: player {seat} picks the column of line {line + 1}"
    return f"Round {state.round}{wall} \u00b7 player {state.current_player} to move"


def render_svg(state: State, player: int | None = None, move: AnyMove | str | None = None,
               columns: int = 2) -> str:
    """Draw `state` as an SVG document (a str), with a viewBox so it scales.

    Parameters
    ----------
    state : State
        The position to draw: factories, centre and the players' boards.
    player : int, optional
        Draw only this seat's board (the table is always drawn).
    move : Move or str, optional
        A legal move for the current player, outlined: the tiles it takes from its source and the
        pattern line (or floor) it fills, with a caption in words.
    columns : int
        Players' boards side by side (1 stacks them: a narrower picture, for a phone).

    Raises
    ------
    TypeError
        If `state` is not a State, or `player` / `move` has the wrong type.
    ValueError
        If `player` is not a seat of this game, `columns` is not 1..4, or `move` is malformed or
        illegal here (`IllegalMoveError`, a ValueError, says why).

    Returns
    -------
    str
        A standalone SVG document; notebooks show a State this way (``State._repr_svg_``).

    Examples
    --------
    >>> from azul_fast import State
    >>> state = State.new(players=3, seed=1)
    >>> svg = render_svg(state, player=0)
    >>> svg.count('class="board'), svg.count('class="wall-empty')
    (1, 25)
    >>> stacked = render_svg(state, columns=1)   # the three boards one under another
    >>> float(stacked.split('width="')[1].split('"')[0]) < float(render_svg(state).split('width="')[1].split('"')[0])
    True
    >>> render_svg(state, player=3)
    Traceback (most recent call last):
    ...
    ValueError: player must be in 0..2, got 3
    """
    if not isinstance(state, State):
        raise TypeError(f"render_svg() draws an azul_fast.State, got {type(state).__name__}")
    seat = _check_player(state, player)
    placed = _check_move(state, move)
    chosen = placed if isinstance(placed, Move) else None  # a placement highlights no tile
    seats = list(range(state.players)) if seat is None else [seat]

    cols = min(check_int(columns, "columns", 1, 4), len(seats))
    board_rows = math.ceil(len(seats) / cols)
    boards_width = cols * BOARD_W + (cols - 1) * BOARD_SPACING
    # At least five factories to a row, so one board alone does not stack them three high.
    width = 2 * MARGIN + max(boards_width, 5 * FACTORY_STEP)
    boards_left = (width - boards_width) / 2

    svg = ET.Element("svg", xmlns=SVG_NS, version="1.1")
    title = _status(state)
    _el(svg, "title", f"Azul position: {title}")
    body = _el(svg, "g", font_family=FONT)
    _el(body, "rect", class_="background", x=0, y=0, width="100%", height="100%", fill="#ffffff")
    _label(body, MARGIN, MARGIN + 14, title, 17, font_weight="bold", class_="status")
    y: float = MARGIN + 24
    if placed is not None:
        _label(body, MARGIN, y + 16, _describe(state, placed), 13, fill=HIGHLIGHT, class_="caption")
        y += 22
    y = _draw_factories(body, state, y + 12, width, chosen)
    y = _draw_centre(body, state, y + 4, width, chosen) + 16
    for i, p in enumerate(seats):
        row, col = divmod(i, cols)
        left = boards_left + col * (BOARD_W + BOARD_SPACING)
        _draw_board(body, state, p, left, y + row * (BOARD_H + BOARD_SPACING), placed)
    height = y + board_rows * (BOARD_H + BOARD_SPACING) - BOARD_SPACING + MARGIN

    svg.set("width", _num(width))
    svg.set("height", _num(height))
    svg.set("viewBox", f"0 0 {_num(width)} {_num(height)}")
    return ET.tostring(svg, encoding="unicode")


def save_svg(state: State, path: str | os.PathLike[str], *, player: int | None = None,
             move: AnyMove | str | None = None, columns: int = 2, overwrite: bool = False,
             hint: str = OVERWRITE_HINT) -> Path:
    """Write `render_svg(state, player, move, columns)` to a new file `path` atomically; return the path.

    The picture goes to a temporary file in the same folder first and is then put at `path`
    (`azul_fast.core.output.write_new`), so a reader never sees half a diagram, and a file or
    link already at `path` is kept unless `overwrite`.

    Parameters
    ----------
    state : State
        The position to draw.
    path : path-like
        The file to write (its folder must exist).
    player, move, columns : optional
        As in `render_svg` (keyword only).
    overwrite : bool
        Replace a file (or the link itself) at `path`; without it, FileExistsError naming `hint`
        (how to replace it: the command line names its option).

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    TypeError, ValueError
        As `render_svg` does, before anything is written.
    FileExistsError
        If something is at `path` (or appears there while writing) and not `overwrite`.
    OSError
        If the file cannot be written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from azul_fast import State
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = save_svg(State.new(players=2, seed=7), pathlib.Path(folder) / "start.svg")
    ...     out.read_text(encoding="utf-8").startswith("<svg")
    True
    """
    text = render_svg(state, player=player, move=move, columns=columns)
    return write_new(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), overwrite=overwrite, hint=hint)
