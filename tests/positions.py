"""Hand-made positions for tests of the State API, built through the position format."""

from __future__ import annotations

import copy

from azul_fast import State

LETTERS = "BYRKW"


def make_position(players: int = 2, *, factories=None, center=None, boards=None, **fields) -> dict:
    """A valid position dict: a fresh game with the given edits, the bag rebalanced to 20 a colour.

    `factories`/`center` replace the table (factories not listed are empty); `boards` maps a seat
    to a dict of board fields ("score", "wall", "lines", "floor") to replace.
    """
    d = State.new(players, seed=0).to_dict()
    if factories is not None:
        d["factories"] = [list(f) for f in factories] + [[0] * 5] * (len(d["factories"]) - len(factories))
    if center is not None:
        d["center"] = list(center)
    for seat, edits in (boards or {}).items():
        d["boards"][seat].update(copy.deepcopy(edits))
    d.update(fields)
    d["bag"] = [0] * 5
    totals = _totals(d)
    d["bag"] = [20 - t for t in totals]
    assert min(d["bag"]) >= 0, "test position uses more than 20 tiles of a colour"
    return d


def _totals(d: dict) -> list[int]:
    totals = [0] * 5
    for c in range(5):
        totals[c] += d["bag"][c] + d["lid"][c] + d["center"][c] + sum(f[c] for f in d["factories"])
    for b in d["boards"]:
        for row in b["wall"]:
            for ch in row:
                if ch != ".":
                    totals[LETTERS.index(ch)] += 1
        for letter, count in b["lines"]:
            if letter is not None:
                totals[LETTERS.index(letter)] += count
        for ch in b["floor"]:
            if ch != "M":
                totals[LETTERS.index(ch)] += 1
    return totals


def wall_rows(*cells: tuple[int, int]) -> list[str]:
    """Wall strings with tiles at the given (row, col) cells (each shows its printed colour)."""
    rows = [["."] * 5 for _ in range(5)]
    for r, c in cells:
        rows[r][c] = LETTERS[(c - r) % 5]
    return ["".join(row) for row in rows]

