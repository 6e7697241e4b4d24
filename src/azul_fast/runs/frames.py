"""Result arrays of a batch of games, and the DataFrame they become (one row per game).

The native runner fills preallocated arrays (`allocate`); `to_frame` turns them into the
documented columns with compact dtypes (at most 64 bytes a row for 4 players).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from azul_fast.core.rules.moves import Move

__all__ = ["GAME_COLUMNS", "OPENING_NAMES", "SEAT_COLUMNS", "allocate", "concat_arrays", "runner_views", "seat_columns",
           "to_frame"]

# Per-game arrays: name -> dtype; per-seat arrays are 2-D with one contiguous row per seat
# (players, games), so each seat's column becomes a DataFrame column without a copy.
_GAME_ARRAYS = {"seed": np.uint64, "rounds": np.uint8, "turns": np.uint16, "truncated": np.bool_, "opening": np.uint16}
_SEAT_ARRAYS = {"score": np.int16, "win": np.bool_, "rows": np.uint8, "cols": np.uint8, "colors": np.uint8,
                "wall": np.uint32}
#: The per-game columns of every result frame, in order (a seat-rotated run adds ``deal`` and ``rotation``).
GAME_COLUMNS = ("game", "seed", "players", "first_player", "rounds", "turns", "truncated", "opening")
#: Per-seat column stems: column `f"{stem}_{seat}"` exists for every seat of the game.
SEAT_COLUMNS = ("policy", "score", "win", "rows", "cols", "colors", "wall")
#: Notation of every move code 0..299: the categories of the `opening` column.
OPENING_NAMES = [str(Move.from_code(code)) for code in range(300)]


def allocate(n_games: int, players: int) -> dict[str, np.ndarray]:
    """Empty result arrays for `n_games` games of `players` players (per seat: one row per seat).

    >>> arrays = allocate(3, players=2)
    >>> arrays["seed"].shape, arrays["score"].shape, arrays["score"].dtype
    ((3,), (2, 3), dtype('int16'))
    """
    out: dict[str, np.ndarray] = {name: np.zeros(n_games, dtype) for name, dtype in _GAME_ARRAYS.items()}
    out.update({name: np.zeros((players, n_games), dtype) for name, dtype in _SEAT_ARRAYS.items()})
    return out


def runner_views(arrays: dict[str, np.ndarray], start: int, stop: int) -> dict[str, np.ndarray]:
    """Views of games start..stop-1 as the native runner takes them (booleans as uint8)."""
    views = {}
    for name, a in arrays.items():
        part = a[..., start:stop]
        views[name] = part.view(np.uint8) if part.dtype == np.bool_ else part
    return views


def concat_arrays(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Join the arrays of consecutive game ranges."""
    return {name: np.concatenate([p[name] for p in parts], axis=-1) for name in parts[0]}


def seat_columns(stem: str, players: int) -> list[str]:
    """The per-seat columns of a stem.

    >>> seat_columns("score", 3)
    ['score_0', 'score_1', 'score_2']
    """
    return [f"{stem}_{seat}" for seat in range(players)]


def to_frame(
    arrays: dict[str, np.ndarray],
    *,
    first_game: int,
    players: int,
    first_player: int,
    seat_policies: list[str],
    rotations: int = 1,
    attrs: dict[str, Any] | None = None,
) -> pd.DataFrame:
    """Assemble the result DataFrame.

    `seat_policies` is one policy name per seat (before rotation). With `rotations` > 1 (the
    seat-rotated design) game i moves them round the table by i % rotations seats, and the frame
    also has `deal` and `rotation` columns.
    """
    n = len(arrays["seed"])
    index = np.arange(first_game, first_game + n, dtype=np.int64)
    columns: dict[str, Any] = {"game": index.astype(np.uint32)}
    if rotations > 1:
        columns["deal"] = (index // rotations).astype(np.uint32)
        columns["rotation"] = (index % rotations).astype(np.uint8)
    columns.update(
        seed=arrays["seed"],
        players=np.full(n, players, np.uint8),
        first_player=np.full(n, first_player, np.uint8),
        rounds=arrays["rounds"],
        turns=arrays["turns"],
        truncated=arrays["truncated"],
    )
    # Every possible move is a category (in code order), so frames of one run, written in parts
    # or on a cluster, concatenate without losing the categorical dtype.
    columns["opening"] = pd.Categorical.from_codes(
        arrays["opening"].astype(np.int16), categories=pd.Index(OPENING_NAMES)
    )
    names = sorted(set(seat_policies))
    for seat in range(players):
        columns[f"policy_{seat}"] = pd.Categorical.from_codes(
            _seat_policy_codes(seat_policies, names, seat, index, rotations), categories=pd.Index(names)
        )
        for stem in SEAT_COLUMNS[1:]:
            columns[f"{stem}_{seat}"] = arrays[stem][seat]
    frame = pd.DataFrame(columns, copy=False)  # the arrays are ours alone: no need to copy them
    frame.attrs.update(attrs or {})
    return frame


def _seat_policy_codes(
    seat_policies: list[str], names: list[str], seat: int, index: np.ndarray, rotations: int
) -> npt.NDArray[np.int8]:
    """Category codes of the policy in `seat` for every game: fixed, or moved round the table."""
    codes = np.array([names.index(p) for p in seat_policies], dtype=np.int8)
    if rotations == 1:
        return np.full(len(index), codes[seat], dtype=np.int8)
    return codes.take((seat - index % rotations) % len(seat_policies))
