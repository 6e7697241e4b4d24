"""A position as one line of text, what FEN is to chess: `State.to_text` and `State.from_text`.

The line is a list of fields separated by spaces, in this order::

    variant players round/max_rounds status to_move start marker factories centre bag lid board...

- ``variant``: ``colored`` or ``gray``; ``players``: 2, 3 or 4;
- ``round/max_rounds``: the round being played (1 is the first) and the round cap;
- ``status``: ``play``, ``tile<line>`` (the gray tiling waits for the column of that pattern line,
  1-based), ``over`` or ``truncated`` (the game ended without a complete row);
- ``to_move``, ``start``: the seat to move and the seat that started the round (0-based);
- ``marker``: ``C`` while the first-player marker is in the centre, else the seat that took it;
- ``factories``: the factories' tiles as colour letters, comma-separated, ``-`` for an empty one;
- ``centre``: the centre's tiles (``-`` if none);
- ``bag``, ``lid``: tile counts of blue, yellow, red, black, white, comma-separated (the order
  of the bag is hidden, as it is at a real table, so only its counts are written);
- one ``board`` a player: ``score:lines:wall:floor`` with the five pattern lines as their tiles
  (``-`` when empty) and the five wall rows as 5 cells (``.`` or a letter), both ``/``-separated,
  and the floor's slots left to right (``M`` the marker, ``-`` if empty);
- an optional last field ``rng=<bag>,<policy>``: the game's two random streams, written only
  when asked (``to_text(rng=True)``), so that a line can carry a simulation exactly; without it
  the streams start from 0 (they decide future deals and policy coin flips, not the position).

Colour letters are those of the move notation: ``B`` blue, ``Y`` yellow, ``R`` red, ``K`` black,
``W`` white. The functions here convert between this line and the dict of `State.to_dict`; a
malformed line raises one NotationError (a ValueError) naming the field.

>>> from azul_fast import State
>>> state = State.new(players=2, seed=7)
>>> state.play("1R2")
>>> text = state.to_text()
>>> text.split()[:9]
['colored', '2', '1/100', 'play', '1', '0', 'C', '-,BBKK,BYKW,YRWW,BRKW', 'BY']
>>> text.split()[11]
'0:-/RR/-/-/-:...../...../...../...../.....:-'
>>> State.from_text(text).to_text() == text
True
>>> State.from_text(text.replace("1/100", "1/x"))
Traceback (most recent call last):
...
azul_fast.NotationError: position text field 'round' must be <round>/<max_rounds> with two ints, got '1/x'
"""

from __future__ import annotations

from typing import Any

from azul_fast.core.formats.position_json import POSITION_FORMAT
from azul_fast.core.rules.moves import COLOR_LETTERS, VARIANTS, NotationError, factory_count

__all__ = ["position_from_text", "position_to_text"]

#: The fields of the line before the boards, in order (the names errors give).
FIELDS = ("variant", "players", "round", "status", "to_move", "start", "marker", "factories", "centre", "bag",
          "lid")
_RNG_PREFIX = "rng="


def _tiles(counts: list[int]) -> str:
    return "".join(letter * n for letter, n in zip(COLOR_LETTERS, counts)) or "-"


def _status(d: dict[str, Any]) -> str:
    if d["game_over"]:
        return "truncated" if d["truncated"] else "over"
    tiling = d.get("tiling")
    return "play" if tiling is None else f"tile{tiling['line'] + 1}"


def _board_text(board: dict[str, Any]) -> str:
    lines = "/".join((color or "") * count or "-" for color, count in board["lines"])
    return f"{board['score']}:{lines}:{'/'.join(board['wall'])}:{board['floor'] or '-'}"


def position_to_text(d: dict[str, Any], rng: bool = False) -> str:
    """The one-line text of a position dict (`State.to_dict`); `rng` adds the random streams.

    >>> from azul_fast import State
    >>> position_to_text(State.new(players=2, seed=7).to_dict()).split()[7]
    'BYRR,BBKK,BYKW,YRWW,BRKW'
    """
    fields = [
        d.get("variant", "colored"),
        str(d["players"]),
        f"{d['round']}/{d['max_rounds']}",
        _status(d),
        str(d["current_player"]),
        str(d["start_player"]),
        "C" if d["marker_holder"] is None else str(d["marker_holder"]),
        ",".join(_tiles(f) for f in d["factories"]),
        _tiles(d["center"]),
        ",".join(map(str, d["bag"])),
        ",".join(map(str, d["lid"])),
        *(_board_text(b) for b in d["boards"]),
    ]
    if rng:
        fields.append(f"{_RNG_PREFIX}{d['rng']['bag']},{d['rng']['policy']}")
    return " ".join(fields)


def _error(field: str, what: str, got: str) -> NotationError:
    return NotationError(f"position text field {field!r} must be {what}, got {got!r}")


def _int(text: str, field: str, what: str = "a non-negative int") -> int:
    if not text.isdigit():
        raise _error(field, what, text)
    return int(text)


def _letters(text: str, field: str) -> list[int]:
    """Counts by colour of a run of colour letters (``-`` for none)."""
    if text == "-":
        return [0] * 5
    if not text or any(ch not in COLOR_LETTERS for ch in text):
        raise _error(field, f"colour letters of {COLOR_LETTERS} (or - for none)", text)
    return [text.count(letter) for letter in COLOR_LETTERS]


def _counts(text: str, field: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != 5 or not all(p.isdigit() for p in parts):
        raise _error(field, "5 comma-separated tile counts (blue, yellow, red, black, white)", text)
    return [int(p) for p in parts]


def _parse_board(text: str, field: str) -> dict[str, Any]:
    parts = text.split(":")
    if len(parts) != 4:
        raise _error(field, "score:lines:wall:floor", text)
    score, lines, wall, floor = parts
    line_texts = lines.split("/")
    if len(line_texts) != 5:
        raise _error(f"{field} lines", "5 pattern lines separated by /", lines)
    parsed_lines: list[list[Any]] = []
    for r, line in enumerate(line_texts):
        counts = _letters(line, f"{field} line {r + 1}")
        colors = [letter for letter, n in zip(COLOR_LETTERS, counts) if n]
        if len(colors) > 1:
            raise _error(f"{field} line {r + 1}", "tiles of one colour", line)
        parsed_lines.append([colors[0], sum(counts)] if colors else [None, 0])
    rows = wall.split("/")
    if len(rows) != 5:
        raise _error(f"{field} wall", "5 rows of 5 cells separated by /", wall)
    if floor != "-" and (not floor or any(ch not in COLOR_LETTERS + "M" for ch in floor)):
        raise _error(f"{field} floor", "colour letters and M (the marker), or - for none", floor)
    return {"score": _int(score, f"{field} score"), "wall": rows, "lines": parsed_lines,
            "floor": "" if floor == "-" else floor}


def position_from_text(text: str) -> dict[str, Any]:
    """The position dict (`State.from_dict`'s input) of a one-line text; NotationError naming a bad field.

    The dict's own checks (tile counts, walls, lines) run when `State.from_dict` reads it.

    >>> position_from_text("colored 2 1/100 play 0 0 C -")
    Traceback (most recent call last):
    ...
    azul_fast.NotationError: position text has 8 fields; 2 players need 13 (11 and a board a player), ...
    """
    if not isinstance(text, str):
        raise TypeError(f"a position text must be a str, got {type(text).__name__}")
    fields = text.split()
    rng = {"bag": 0, "policy": 0}
    if fields and fields[-1].startswith(_RNG_PREFIX):
        last = fields.pop()
        streams = last[len(_RNG_PREFIX):].split(",")
        if len(streams) != 2 or not all(s.isdigit() for s in streams):
            raise _error("rng", "rng=<bag>,<policy> with two non-negative ints", last)
        rng = {"bag": int(streams[0]), "policy": int(streams[1])}
    if not fields or fields[0] not in VARIANTS:
        raise _error("variant", f"one of {list(VARIANTS)}", fields[0] if fields else text)
    if len(fields) < 2 or fields[1] not in ("2", "3", "4"):
        raise _error("players", "2, 3 or 4", fields[1] if len(fields) > 1 else "")
    players = int(fields[1])
    if len(fields) != len(FIELDS) + players:
        raise NotationError(f"position text has {len(fields)} fields; {players} players need "
                         f"{len(FIELDS) + players} ({len(FIELDS)} and a board a player), and rng= may follow")
    value = dict(zip(FIELDS, fields))
    round_parts = value["round"].split("/")
    if len(round_parts) != 2 or not all(p.isdigit() for p in round_parts):
        raise _error("round", "<round>/<max_rounds> with two ints", value["round"])
    status = value["status"]
    tiling = None
    if status.startswith("tile") and status[4:] in ("1", "2", "3", "4", "5"):
        tiling = {"player": _int(value["to_move"], "to_move"), "line": int(status[4:]) - 1}
    elif status not in ("play", "over", "truncated"):
        raise _error("status", "play, tile<line 1-5>, over or truncated", status)
    marker = value["marker"]
    holder = None if marker == "C" else _int(marker, "marker", "C (in the centre) or the seat that took it")
    factories = value["factories"].split(",")
    if len(factories) != factory_count(players):
        raise _error("factories", f"{factory_count(players)} comma-separated factories for {players} players",
                     value["factories"])
    return {
        "format": POSITION_FORMAT,
        "variant": value["variant"],
        "players": players,
        "round": int(round_parts[0]),
        "max_rounds": int(round_parts[1]),
        "current_player": _int(value["to_move"], "to_move"),
        "start_player": _int(value["start"], "start"),
        "marker_holder": holder,
        "game_over": status in ("over", "truncated"),
        "truncated": status == "truncated",
        "tiling": tiling,
        "factories": [_letters(f, f"factories[{i}]") for i, f in enumerate(factories)],
        "center": _letters(value["centre"], "centre"),
        "center_has_marker": holder is None,
        "bag": _counts(value["bag"], "bag"),
        "lid": _counts(value["lid"], "lid"),
        "boards": [_parse_board(b, f"board {i}") for i, b in enumerate(fields[len(FIELDS):])],
        "rng": rng,
    }
