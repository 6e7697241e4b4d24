"""Result arrays of a batch of games, and the DataFrame they become (one row per game).

The native runner fills preallocated arrays (`allocate`); `to_frame` turns them into the
documented columns with compact dtypes (at most 64 bytes a row for 4 players).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from azul_fast.moves import Move

__all__ = ["SEAT_COLUMNS", "allocate", "to_frame", "seat_columns"]

# Per-game arrays: name -> dtype; per-seat arrays are 2-D (games, players).
_GAME_ARRAYS = {"seed": np.uint64, "rounds": np.uint8, "turns": np.uint16, "truncated": np.uint8, "opening": np.uint16}
_SEAT_ARRAYS = {"score": np.int16, "win": np.uint8, "rows": np.uint8, "cols": np.uint8, "colors": np.uint8, "wall": np.uint32}
#: Per-seat column stems: column `f"{stem}_{seat}"` exists for every seat of the game.
SEAT_COLUMNS = ("policy", "score", "win", "rows", "cols", "colors", "wall")
#: Notation of every move code 0..299: the categories of the `opening` column.
OPENING_NAMES = [str(Move.from_code(code)) for code in range(300)]


def allocate(n_games: int, players: int) -> dict[str, np.ndarray]:
    """Empty result arrays for `n_games` games of `players` players."""
    out = {name: np.zeros(n_games, dtype) for name, dtype in _GAME_ARRAYS.items()}
    out.update({name: np.zeros((n_games, players), dtype) for name, dtype in _SEAT_ARRAYS.items()})
    return out


def slice_arrays(arrays: dict[str, np.ndarray], start: int, stop: int) -> dict[str, np.ndarray]:
    """Views of games start..stop-1 (rows of C-contiguous arrays stay contiguous)."""
    return {name: a[start:stop] for name, a in arrays.items()}


def concat_arrays(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def seat_columns(stem: str, players: int) -> list[str]:
    """`seat_columns("score", 3)` -> ['score_0', 'score_1', 'score_2']."""
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
        truncated=arrays["truncated"].astype(bool),
    )
    # Every possible move is a category (in code order), so frames of one run, written in parts
    # or on a cluster, concatenate without losing the categorical dtype.
    columns["opening"] = pd.Categorical.from_codes(arrays["opening"].astype(np.int16), categories=OPENING_NAMES)
    names = sorted(set(seat_policies))
    for seat in range(players):
        seat_names = _seat_policy_column(seat_policies, seat, players, index, rotations)
        columns[f"policy_{seat}"] = pd.Categorical(seat_names, categories=names)
        columns[f"score_{seat}"] = arrays["score"][:, seat]
        columns[f"win_{seat}"] = arrays["win"][:, seat].astype(bool)
        columns[f"rows_{seat}"] = arrays["rows"][:, seat]
        columns[f"cols_{seat}"] = arrays["cols"][:, seat]
        columns[f"colors_{seat}"] = arrays["colors"][:, seat]
        columns[f"wall_{seat}"] = arrays["wall"][:, seat]
    frame = pd.DataFrame(columns)
    frame.attrs.update(attrs or {})
    return frame


def _seat_policy_column(
    seat_policies: list[str], seat: int, players: int, index: np.ndarray, rotations: int
) -> np.ndarray:
    """Policy name of `seat` in every game: fixed, or moved round the table by the rotation."""
    names = np.array(seat_policies, dtype=object)
    shift = index % rotations
    return names[(seat - shift) % players]
