"""Recording every move of a range of games in the native core, and the tables the records become.

The bottom of `simulate_moves` (`azul_fast.runs.simulate_moves`), of move runs on disk (`azul_fast.runs.folders`)
and on a Dask cluster (`azul_fast.runs.cluster`): `record_games` plays games start..stop-1 of a
`RunPlan` into arrays, without the GIL, growing them by chunk; `assemble` turns the arrays of
consecutive ranges into `MoveRecords`. Every way of running calls these two, so every way gives
the same rows.

Move codes
----------
A recorded move is a small integer, the category code of the ``move`` column: a take keeps the
engine's dense id ``(source * 5 + colour) * 6 + line`` (0..299); a gray-wall placement, whose
engine id holds only the column, is recorded as ``PLACE_CODE + 5 * line + column`` (300..324), so
the code alone names it. `MOVE_NAMES` lists the notation of every code, and `decode_move` turns a
code back into a `Move` or `Placement`.

>>> decode_move(73), decode_move(PLACE_CODE + 5 * 1 + 2)
(Move.from_notation('3R2'), Placement.from_notation('@2.3'))
>>> MOVE_NAMES[73], len(MOVE_NAMES)
('3R2', 325)
>>> from azul_fast.runs.plan import plan_run
>>> plan = plan_run(10, policies="greedy", seed=1)
>>> games, moves, rounds = assemble(plan, [record_games(plan, 0, 4), record_games(plan, 4, 10)])
>>> len(games), bool(len(moves) == games.turns.sum()), moves.attrs["table"]
(10, True, 'moves')
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from azul_fast.core.rules.moves import PLACE_CODE, AnyMove, InvariantError, Move, Placement
from azul_fast.runs._simulate import MOVE_ARRAYS, ROUND_ARRAYS, run_moves_batch
from azul_fast.runs.frames import OPENING_NAMES, allocate, concat_arrays, runner_views
from azul_fast.runs.plan import RunPlan

__all__ = ["MOVE_NAMES", "MOVE_TABLES", "N_MOVE_CODES", "MoveRecords", "RecordedPart", "assemble", "decode_move",
           "record_bytes", "record_games"]

#: The tables of a move run besides the games (`MoveRecords` fields after ``games``).
MOVE_TABLES = ("moves", "rounds")

#: Recorded move codes: takes 0..299 as the engine numbers them, then the 25 placements.
N_MOVE_CODES = PLACE_CODE + 25
#: Notation of every recorded move code (the categories of the ``move`` column).
MOVE_NAMES = OPENING_NAMES + [f"@{line + 1}.{column + 1}" for line in range(5) for column in range(5)]

# dtypes of the native record arrays (_simulate.MOVE_ARRAYS and ROUND_ARRAYS).
_MOVE_DTYPES = {"game": np.uint32, "seed": np.uint64, "ply": np.uint16, "code": np.uint16, "round": np.uint8,
                "seat": np.uint8, "color": np.uint8, "tiles": np.uint8, "to_floor": np.uint8, "took_marker": np.bool_}
_ROUND_DTYPES = {"game": np.uint32, "round": np.uint8, "seat": np.uint8, "score": np.int16, "tiles_placed": np.uint8,
                 "points": np.uint8, "floor_penalty": np.uint8, "bonus": np.uint8}
assert tuple(_MOVE_DTYPES) == MOVE_ARRAYS and tuple(_ROUND_DTYPES) == ROUND_ARRAYS
_Arrays = dict[str, np.ndarray]
#: One range's game, move and round arrays, as `record_games` returns them.
RecordedPart = tuple[_Arrays, _Arrays, _Arrays]
# Room for moves and rounds a game per player, above the usual (random gray-wall games average
# about 50 moves a player): np.empty only reserves address space, so unused room costs no memory,
# and a chunk that needs more grows its arrays.
_MOVES_PER_PLAYER, _ROUNDS_PER_GAME = 64, 8


def decode_move(code: int) -> AnyMove:
    """The move a recorded code stands for (see the module docstring).

    Parameters
    ----------
    code : int
        A ``move`` code of `simulate_moves`'s move table: a take's `Move.code` (0..299), or
        ``PLACE_CODE + line * 5 + column`` for a gray-wall placement.

    Returns
    -------
    Move or Placement

    Raises
    ------
    ValueError
        If `code` is not a recorded move's code.

    Examples
    --------
    >>> decode_move(0), decode_move(PLACE_CODE + 24)
    (Move.from_notation('1B1'), Placement.from_notation('@5.5'))
    """
    if not 0 <= code < N_MOVE_CODES:
        raise ValueError(f"recorded move code must be 0..{N_MOVE_CODES - 1}, got {code}")
    if code >= PLACE_CODE:
        return Placement(*divmod(code - PLACE_CODE, 5))
    return Move.from_code(code)


def _code_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """source, line and column of every recorded code (-1 where the move has none)."""
    source = np.full(N_MOVE_CODES, -1, np.int8)
    line = np.zeros(N_MOVE_CODES, np.uint8)
    column = np.full(N_MOVE_CODES, -1, np.int8)
    for code in range(N_MOVE_CODES):
        move = decode_move(code)
        if isinstance(move, Move):
            source[code], line[code] = move.source, move.line
        else:
            line[code], column[code] = move.line, move.column
    return source, line, column


_SOURCE, _LINE, _COLUMN = _code_tables()


class MoveRecords(NamedTuple):
    """The three tables of one `simulate_moves` run; each carries the run's ``attrs``.

    games
        `simulate`'s rows for the same arguments, unchanged.
    moves
        One row per move in play order: ``game`` (uint32), ``seed`` (uint64, the game's), ``ply``
        (uint16, 0 for the opening), ``round`` (uint8, from 1), ``seat`` (uint8, the mover),
        ``move`` (categorical: notation, with the recorded code as category code), ``source``
        (int8: factory 0..8, `CENTER` 9, -1 for a placement), ``color`` (uint8, a `Color`),
        ``line`` (uint8: pattern line 0..4 or `FLOOR` 5; for a placement the line tiled),
        ``tiles`` (uint8, tiles taken), ``to_floor`` (uint8, those that did not fit on the line:
        to the floor, or the lid once the floor is full), ``took_marker`` (bool: this take
        brought the first-player marker along); gray wall also ``column`` (int8, the placement's
        column, -1 for a take). 24 bytes a move (25 on the gray wall).
    rounds
        One row per round and seat: ``game``, ``round``, ``seat``, ``score_after_round``
        (int16, after the floor and, in the last round, the end bonus), ``tiles_placed``,
        ``points_scored`` (the tiling's points), ``floor_penalty`` (points the floor actually
        took: its penalty less what the score's floor at zero absorbed), ``end_bonus`` (last
        round only); so ``score_after_round`` = previous + points_scored - floor_penalty +
        end_bonus. 12 bytes a row.
    """

    games: pd.DataFrame
    moves: pd.DataFrame
    rounds: pd.DataFrame



def record_bytes(plan: RunPlan) -> int:
    """The fewest bytes the move and round records of the whole run take (`RunPlan.fewest_moves`
    and `fewest_rounds` a game), besides its games: `simulate_moves` holds them all at once.

    >>> from azul_fast.runs.plan import plan_run
    >>> record_bytes(plan_run(1000, players=2))    # 25 moves of 22 bytes, 10 round rows of 12 bytes
    670000
    """
    move_row = sum(np.dtype(t).itemsize for t in _MOVE_DTYPES.values())
    round_row = sum(np.dtype(t).itemsize for t in _ROUND_DTYPES.values())
    return plan.total * (plan.fewest_moves * move_row + plan.fewest_rounds * plan.players * round_row)


def record_games(plan: RunPlan, start: int, stop: int) -> RecordedPart:
    """Play games start..stop-1 with their moves and rounds, growing the record arrays as needed."""
    plan.check_learned()
    n = stop - start
    games = allocate(n, plan.players)
    moves: _Arrays = {name: np.empty(n * _MOVES_PER_PLAYER * plan.players, dtype)
                      for name, dtype in _MOVE_DTYPES.items()}
    rounds: _Arrays = {name: np.empty(n * _ROUNDS_PER_GAME * plan.players, dtype)
                       for name, dtype in _ROUND_DTYPES.items()}
    played = n_moves = n_rounds = 0
    while played < n:
        views = runner_views(games, played, n)
        if plan.check_invariants:
            views["violations"] = np.zeros(n - played, np.uint8)
        done, new_moves, new_rounds = run_moves_batch(
            plan.root, start + played, plan.players, plan.native_codes, plan.first_player, plan.max_rounds,
            plan.rotations, views, _tail(moves, n_moves), _tail(rounds, n_rounds), plan.check_invariants,
            plan.variant_index,
        )
        broken = np.flatnonzero(views.get("violations", ())[:done])
        if broken.size:
            raise InvariantError(f"game {start + played + broken[0]} broke an invariant; "
                                 "replay it with play_game and State.check_invariants()")
        played, n_moves, n_rounds = played + done, n_moves + new_moves, n_rounds + new_rounds
        if played < n:  # out of room: grow by half, at least one game's worth
            moves = _grown(moves, n_moves, 600 * plan.players)
            rounds = _grown(rounds, n_rounds, plan.max_rounds * plan.players)
    return games, _head(moves, n_moves), _head(rounds, n_rounds)


def _tail(arrays: _Arrays, used: int) -> _Arrays:
    """The free part of record arrays, booleans as uint8 as the native runner takes them."""
    return {name: a[used:].view(np.uint8) if a.dtype == np.bool_ else a[used:] for name, a in arrays.items()}


def _head(arrays: _Arrays, used: int) -> _Arrays:
    return {name: a[:used] for name, a in arrays.items()}


def _grown(arrays: _Arrays, used: int, at_least: int) -> _Arrays:
    grown = {}
    for name, a in arrays.items():
        grown[name] = np.empty(max(len(a) * 3 // 2, used + at_least), a.dtype)
        grown[name][:used] = a[:used]
    return grown


def assemble(plan: RunPlan, parts: list[RecordedPart], first_game: int = 0) -> MoveRecords:
    """The three frames of consecutive ranges' records, from game `first_game` on (`parts` is emptied).

    Each record column is joined across ranges one at a time, to bound memory.
    """
    game_arrays = concat_arrays([p[0] for p in parts]) if len(parts) > 1 else parts[0][0]
    games = plan.frame(game_arrays, first_game=first_game)
    moves_arrays = _join([p[1] for p in parts])
    rounds_arrays = _join([p[2] for p in parts])
    parts.clear()
    moves = _moves_frame(moves_arrays, plan.variant)
    rounds = _rounds_frame(rounds_arrays)
    for frame, table in ((moves, "moves"), (rounds, "rounds")):
        frame.attrs.update(plan.attrs, table=table)
    return MoveRecords(games, moves, rounds)


def _join(chunks: list[_Arrays]) -> _Arrays:
    joined = {}
    for name in list(chunks[0]):
        joined[name] = np.concatenate([c.pop(name) for c in chunks]) if len(chunks) > 1 else chunks[0].pop(name)
    return joined


def _moves_frame(arrays: _Arrays, variant: str) -> pd.DataFrame:
    code = arrays.pop("code")
    columns: dict[str, Any] = {name: arrays.pop(name) for name in ("game", "seed", "ply", "round", "seat")}
    # Codes are below 325, so the uint16 array serves as the categorical's int16 codes as it is.
    columns["move"] = pd.Categorical.from_codes(code.view(np.int16), categories=pd.Index(MOVE_NAMES))
    columns["source"] = _SOURCE[code]
    columns["color"] = arrays.pop("color")
    columns["line"] = _LINE[code]
    columns.update((name, arrays.pop(name)) for name in ("tiles", "to_floor", "took_marker"))
    if variant == "gray":
        columns["column"] = _COLUMN[code]
    return pd.DataFrame(columns, copy=False)


def _rounds_frame(arrays: _Arrays) -> pd.DataFrame:
    names = {"game": "game", "round": "round", "seat": "seat", "score": "score_after_round",
             "tiles_placed": "tiles_placed", "points": "points_scored", "floor_penalty": "floor_penalty",
             "bonus": "end_bonus"}
    return pd.DataFrame({names[name]: arrays.pop(name) for name in ROUND_ARRAYS}, copy=False)
