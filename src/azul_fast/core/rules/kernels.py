"""Scoring kernels of the native core, with their inputs checked.

>>> score_tile(0, 2, 2)            # a lone tile
1
>>> floor_penalty(5)
8
>>> end_bonus(0b11111)             # one complete row
2
"""

from __future__ import annotations

import math
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from azul_fast.core.rules import _board
from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.moves import FLOOR_PENALTIES, WALL_CELLS, wall_bit

__all__ = ["WallLike", "complete_counts", "end_bonus", "floor_penalty", "score_tile", "wall_to_mask"]

#: A wall: a 25-bit int (bit row*5+col) or a 5x5 array-like of bools.
WallLike = Union[int, np.integer[Any], npt.ArrayLike]

FULL_WALL = (1 << WALL_CELLS) - 1


def wall_to_mask(wall: WallLike) -> int:
    """Accept a wall as a 25-bit int or a 5x5 array-like of bools, return the int mask.

    >>> wall_to_mask(np.eye(5, dtype=bool)) == sum(1 << (6 * i) for i in range(5))
    True
    """
    if isinstance(wall, (bool, np.bool_)):
        raise TypeError("wall must be a 25-bit int or a 5x5 bool array, got bool")
    if isinstance(wall, (int, np.integer)):
        mask = int(wall)
        if not 0 <= mask <= FULL_WALL:
            raise ValueError(f"wall mask must be in 0..2**25-1, got {mask}")
        return mask
    array = np.asarray(wall)
    if array.shape != (5, 5):
        raise ValueError(f"wall array must have shape (5, 5), got {array.shape}")
    if array.dtype != bool and not np.isin(array, (0, 1)).all():
        raise ValueError("wall array must hold only booleans (or 0/1)")
    bits = array.astype(bool).ravel()
    return sum(1 << i for i in range(WALL_CELLS) if bits[i])


def score_tile(wall: WallLike, row: int, col: int) -> int:
    """Points for placing a tile at the empty cell (`row`, `col`) of `wall`.

    1 for a tile without neighbours, else the horizontal run plus the vertical run through it
    (each counted only if longer than 1).

    Parameters
    ----------
    wall : int or 5x5 array-like of bool
        The wall before the tile: a 25-bit mask (bit ``row * 5 + col``) or a bool array.
    row, col : int
        The cell, 0..4 each.

    Returns
    -------
    int
        The points, 1..10.

    Raises
    ------
    TypeError
        If `wall`, `row` or `col` has the wrong type.
    ValueError
        If a value is out of range, or the cell is already filled.

    Examples
    --------
    >>> score_tile(0b111 << 5, 1, 3)   # joins a row of 3: a run of 4
    4
    """
    mask = wall_to_mask(wall)
    row, col = check_int(row, "row", 0, 4), check_int(col, "col", 0, 4)
    if mask >> wall_bit(row, col) & 1:
        raise ValueError(f"wall cell ({row}, {col}) is already filled")
    return int(_board._score_tile(mask, row, col))


def floor_penalty(n_tiles: int) -> int:
    """Cumulative floor penalty for `n_tiles` fallen tiles; 7 or more cost 14.

    Parameters
    ----------
    n_tiles : int
        Tiles (and the marker) on the floor line, at least 0.

    Returns
    -------
    int
        Points lost, 0..14 (a positive number: the score drops by it, never below 0).

    Raises
    ------
    TypeError
        If `n_tiles` is not an int.
    ValueError
        If it is negative.

    Examples
    --------
    >>> [floor_penalty(n) for n in range(8)]
    [0, 1, 2, 4, 6, 8, 11, 14]
    """
    return FLOOR_PENALTIES[min(check_int(n_tiles, "n_tiles", 0, math.inf), 7)]


def end_bonus(wall: WallLike) -> int:
    """End-of-game bonus of a colored wall: 2 per row, 7 per column, 10 per complete colour.

    Parameters
    ----------
    wall : int or 5x5 array-like of bool
        A colored wall as a 25-bit mask (bit ``row * 5 + col``) or a bool array.

    Returns
    -------
    int
        The bonus, 0..95.

    Raises
    ------
    TypeError
        If `wall` is neither an int nor an array (a bool is refused).
    ValueError
        If the mask is out of range or the array is not 5x5 of booleans.

    Examples
    --------
    >>> end_bonus(0b00001_00001_00001_00001_00001)   # column 1 complete
    7
    >>> end_bonus((1 << 25) - 1)                     # 5 rows, 5 columns, 5 colours
    95
    """
    return int(_board._end_bonus(wall_to_mask(wall)))


def complete_counts(wall: WallLike) -> tuple[int, int, int]:
    """Complete rows, complete columns and complete colours of a colored-side wall.

    >>> complete_counts(0b11111), complete_counts((1 << 25) - 1)
    ((1, 0, 0), (5, 5, 5))
    """
    rows, cols, colors = _board._complete_counts(wall_to_mask(wall))
    return int(rows), int(cols), int(colors)
