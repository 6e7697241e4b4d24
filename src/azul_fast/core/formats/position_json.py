"""The JSON position format (docs/engine-spec.md, section 9) and its validation.

`State.to_dict()` writes this format and `State.from_dict()` reads it through `validate_position`,
which rejects anything that is not a reachable-looking Azul position with a ValueError naming the
field, so a corrupted file never becomes a corrupted game. Which unreachable positions it still
accepts, and why, is written in `_check_walls` and in docs/engine-spec.md, section 9.
"""

from __future__ import annotations

from typing import Any

from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.moves import COLOR_LETTERS, FLOOR_PENALTIES, VARIANTS, factory_count, printed_color

__all__ = ["POSITION_FORMAT", "validate_position"]

POSITION_FORMAT = "azul_fast/position/1"
_TILES_PER_COLOR = 20
_FLOOR_SLOTS = len(FLOOR_PENALTIES) - 1


def _int(value: Any, field: str, low: int, high: int) -> int:
    # A position is data: a field of the wrong type is a bad value of the position (ValueError).
    try:
        return check_int(value, f"position field {field!r}", low, high)
    except TypeError as error:
        raise ValueError(str(error)) from None


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"position field {field!r} must be true or false, got {value!r}")
    return value


def _counts(value: Any, field: str, high: int) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != 5:
        raise ValueError(f"position field {field!r} must be a list of 5 colour counts, got {value!r}")
    return [_int(v, f"{field}[{i}]", 0, high) for i, v in enumerate(value)]


def _color(letter: Any, field: str) -> int:
    if not isinstance(letter, str) or len(letter) != 1 or letter not in COLOR_LETTERS:
        raise ValueError(f"position field {field!r} must be one of {list(COLOR_LETTERS)}, got {letter!r}")
    return COLOR_LETTERS.index(letter)


def _wall(rows: Any, field: str, variant: str) -> list[int]:
    """Parse 5 strings of 5 characters ('.' or a colour letter) into the cells of each colour.

    On the colored wall a letter must be the colour printed on its cell; on the gray wall any
    letter may sit anywhere, but a colour at most once in a row and once in a column.
    """
    if not isinstance(rows, (list, tuple)) or len(rows) != 5:
        raise ValueError(f"position field {field!r} must be a list of 5 row strings")
    cells = [0] * 5
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != 5:
            raise ValueError(f"position field {field}[{r}] must be a string of 5 characters, got {row!r}")
        for col, ch in enumerate(row):
            if ch == ".":
                continue
            color = _color(ch, f"{field}[{r}] column {col}")
            if variant == "colored" and color != printed_color(r, col):
                raise ValueError(
                    f"position field {field}[{r}] column {col}: the colored wall has "
                    f"{printed_color(r, col).letter!r} there, got {ch!r}"
                )
            if any(cells[color] >> (r * 5 + c) & 1 for c in range(5)):
                raise ValueError(f"position field {field}[{r}] holds {ch} twice; a colour appears once a row")
            if any(cells[color] >> (q * 5 + col) & 1 for q in range(5)):
                raise ValueError(f"position field {field} column {col} holds {ch} twice; "
                                 "a colour appears once a column")
            cells[color] |= 1 << (r * 5 + col)
    return cells


def _row_has(cells: list[int], row: int, color: int) -> bool:
    return bool(cells[color] >> (row * 5) & 0x1F)


def _board(board: Any, field: str, variant: str) -> dict[str, Any]:
    if not isinstance(board, dict):
        raise ValueError(f"position field {field!r} must be an object")
    _require(board, ("score", "wall", "lines", "floor"), field)
    cells = _wall(board["wall"], f"{field}.wall", variant)
    lines = board["lines"]
    if not isinstance(lines, (list, tuple)) or len(lines) != 5:
        raise ValueError(f"position field {field}.lines must be a list of 5 [colour, count] pairs")
    parsed_lines: list[tuple[int | None, int]] = []
    for r, entry in enumerate(lines):
        name = f"{field}.lines[{r}]"
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise ValueError(f"position field {name} must be a [colour or null, count] pair, got {entry!r}")
        letter, count = entry
        count = _int(count, f"{name} count", 0, r + 1)
        if count == 0:
            if letter is not None:
                raise ValueError(f"position field {name}: an empty line has colour null, got {letter!r}")
            parsed_lines.append((None, 0))
            continue
        color = _color(letter, f"{name} colour")
        if _row_has(cells, r, color):
            raise ValueError(f"position field {name}: wall row {r} already holds {letter}, the line cannot")
        parsed_lines.append((color, count))
    floor = board["floor"]
    if not isinstance(floor, str) or len(floor) > _FLOOR_SLOTS:
        raise ValueError(f"position field {field}.floor must be a string of at most 7 letters, got {floor!r}")
    if floor.count("M") > 1:
        raise ValueError(f"position field {field}.floor holds the marker more than once")
    parsed_floor = [None if ch == "M" else _color(ch, f"{field}.floor") for ch in floor]
    return {
        "score": _int(board["score"], f"{field}.score", 0, 10_000),
        "wall": cells[0] | cells[1] | cells[2] | cells[3] | cells[4],
        "cells": cells,
        "lines": parsed_lines,
        "floor": parsed_floor,
    }


def _require(mapping: dict[str, Any], keys: tuple[str, ...], field: str) -> None:
    missing = [k for k in keys if k not in mapping]
    if missing:
        raise ValueError(f"position {field or 'object'} is missing {', '.join(map(repr, missing))}")


def validate_position(d: Any, reachable: bool = True) -> dict[str, Any]:
    """Check a position dict and return it parsed (walls as masks, colours as ints, marker as None).

    Raises ValueError naming the first bad field. With `reachable` (the default) a position that no
    game reaches is refused too (`_check_walls`): a wall with more tiles than the rounds played
    allow, a complete row while play goes on; the rules tests pass False to set up one rule's case.
    ``variant`` (default ``"colored"``) and ``tiling`` (default null) may be absent, so positions
    written before the gray wall still load.

    >>> from azul_fast import State
    >>> position = State.new(players=2, seed=7).to_dict()
    >>> validate_position(position)["factories"][0]
    [1, 1, 2, 0, 0]
    >>> position["bag"][0] -= 1
    >>> validate_position(position)
    Traceback (most recent call last):
    ...
    ValueError: position accounts for 19 B tiles; every colour must appear exactly 20 times
    """
    if not isinstance(d, dict):
        raise ValueError(f"a position must be a dict, got {type(d).__name__}")
    _require(
        d,
        ("format", "players", "round", "max_rounds", "current_player", "start_player", "marker_holder",
         "game_over", "truncated", "factories", "center", "center_has_marker", "bag", "lid", "boards", "rng"),
        "",
    )
    if d["format"] != POSITION_FORMAT:
        raise ValueError(f"position field 'format' must be {POSITION_FORMAT!r}, got {d['format']!r}")
    players = _int(d["players"], "players", 2, 4)
    seat = players - 1
    variant = d.get("variant", "colored")
    if variant not in VARIANTS:
        raise ValueError(f"position field 'variant' must be one of {list(VARIANTS)}, got {variant!r}")
    out: dict[str, Any] = {
        "variant": variant,
        "tiling": _tiling(d.get("tiling"), variant, seat),
        "players": players,
        "max_rounds": _int(d["max_rounds"], "max_rounds", 1, 255),
        "current_player": _int(d["current_player"], "current_player", 0, seat),
        "start_player": _int(d["start_player"], "start_player", 0, seat),
        "marker_holder": None if d["marker_holder"] is None else _int(d["marker_holder"], "marker_holder", 0, seat),
        "game_over": _bool(d["game_over"], "game_over"),
        "truncated": _bool(d["truncated"], "truncated"),
        "center_has_marker": _bool(d["center_has_marker"], "center_has_marker"),
        "center": _counts(d["center"], "center", 100),
        "bag": _counts(d["bag"], "bag", 20),
        "lid": _counts(d["lid"], "lid", 20),
    }
    out["round"] = _int(d["round"], "round", 1, out["max_rounds"])
    if out["truncated"] and not out["game_over"]:
        raise ValueError("position field 'truncated' is true but 'game_over' is false")
    if out["center_has_marker"] != (out["marker_holder"] is None):
        raise ValueError("position fields 'center_has_marker' and 'marker_holder' disagree: the marker is in one place")
    factories = d["factories"]
    if not isinstance(factories, (list, tuple)) or len(factories) != factory_count(players):
        raise ValueError(f"position field 'factories' must list {factory_count(players)} factories "
                         f"for {players} players")
    out["factories"] = [_counts(f, f"factories[{i}]", 4) for i, f in enumerate(factories)]
    for i, f in enumerate(out["factories"]):
        if sum(f) > 4:
            raise ValueError(f"position field 'factories[{i}]' holds {sum(f)} tiles; a factory holds at most 4")
    boards = d["boards"]
    if not isinstance(boards, (list, tuple)) or len(boards) != players:
        raise ValueError(f"position field 'boards' must list {players} boards")
    out["boards"] = [_board(b, f"boards[{i}]", variant) for i, b in enumerate(boards)]
    if out["game_over"] and not out["truncated"] and not any(
        b["wall"] >> (r * 5) & 0x1F == 0x1F for b in out["boards"] for r in range(5)
    ):
        raise ValueError("position: a game over without a complete row must be marked 'truncated'")
    markers_on_floors = [i for i, b in enumerate(out["boards"]) if None in b["floor"]]
    if markers_on_floors and markers_on_floors != [out["marker_holder"]]:
        raise ValueError(f"position: the marker lies on the floor of seat(s) {markers_on_floors} "
                         f"but 'marker_holder' is {out['marker_holder']}")
    if reachable:
        _check_walls(out)
    _check_reachable(out)
    rng = d["rng"]
    if not isinstance(rng, dict):
        raise ValueError("position field 'rng' must be an object with 'bag' and 'policy'")
    _require(rng, ("bag", "policy"), "rng")
    out["rng"] = {k: _int(rng[k], f"rng.{k}", 0, 2**64 - 1) for k in ("bag", "policy")}
    _check_tile_count(out)
    return out


def _check_walls(p: dict[str, Any]) -> None:
    """Refuse walls that no game reaches by round `round`: a tiling (at the end of each round) adds
    at most one tile to each wall row, so before round r's tiling a row holds at most r-1 tiles
    and a wall 5(r-1); and a complete row ends the game at that tiling, so while play goes on (no
    game over, no gray tiling under way) no row is complete.

    Accepted on purpose, although no game from the opening deal reaches them: points that no wall
    explains, and a marker holder whose floor does not show the marker (the rules tests set such
    positions up to try one rule, and both engines play them alike).
    """
    tilings = p["round"] - 1 + (p["game_over"] or p["tiling"] is not None)  # the tilings done, or under way
    for seat, board in enumerate(p["boards"]):
        rows = [bin(board["wall"] >> (r * 5) & 0x1F).count("1") for r in range(5)]
        if max(rows) > tilings:
            r = rows.index(max(rows))
            raise ValueError(f"position field 'boards[{seat}].wall': row {r} holds {rows[r]} tiles in round "
                             f"{p['round']}, after {tilings} tiling(s) of the wall at most {tilings} a row; "
                             "no game reaches it")
        if 5 in rows and not p["game_over"] and p["tiling"] is None:
            raise ValueError(f"position field 'boards[{seat}].wall': row {rows.index(5)} is complete but the game "
                             "goes on ('game_over' false); a complete row ends the game at the tiling that "
                             "completes it")


def _check_reachable(p: dict[str, Any]) -> None:
    """Refuse a game over that no game reaches: a game ends only at the end of a round (spec section 7),
    which leaves the table and the floors empty and the marker back in the centre."""
    if not p["game_over"]:
        return
    if any(map(any, p["factories"])) or any(p["center"]):
        raise ValueError("position: the game is over but tiles lie on the factories or in the centre; "
                         "a game ends only when the table is empty")
    floors = [i for i, b in enumerate(p["boards"]) if b["floor"]]
    if floors:
        raise ValueError(f"position: the game is over but the floor of seat(s) {floors} is not empty; "
                         "the end of the round empties the floors")
    if p["marker_holder"] is not None:
        raise ValueError(f"position: the game is over but 'marker_holder' is {p['marker_holder']}; "
                         "the end of the round returns the marker to the centre")


def _tiling(value: Any, variant: str, seat: int) -> dict[str, int] | None:
    """The cursor of a paused gray tiling: the seat and pattern line awaiting a column."""
    if value is None:
        return None
    if variant != "gray":
        raise ValueError("position field 'tiling' must be null on the colored wall (its tiling never waits)")
    if not isinstance(value, dict):
        raise ValueError(f"position field 'tiling' must be null or an object with 'player' and 'line', got {value!r}")
    _require(value, ("player", "line"), "tiling")
    return {"player": _int(value["player"], "tiling.player", 0, seat), "line": _int(value["line"], "tiling.line", 0, 4)}


def _check_tile_count(p: dict[str, Any]) -> None:
    """All 100 tiles accounted for: every colour exactly 20 times."""
    for color, letter in enumerate(COLOR_LETTERS):
        n = p["bag"][color] + p["lid"][color] + p["center"][color] + sum(f[color] for f in p["factories"])
        for b in p["boards"]:
            n += sum(count for c, count in b["lines"] if c == color)
            n += b["floor"].count(color)
            n += bin(b["cells"][color]).count("1")
        if n != _TILES_PER_COLOR:
            raise ValueError(f"position accounts for {n} {letter} tiles; every colour must appear exactly 20 times")
