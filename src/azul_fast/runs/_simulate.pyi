# Stubs for the Python-visible names of _simulate.pyx: whole batches of games in the core.
from typing import Any

import numpy as np
import numpy.typing as npt

GAME_ARRAYS: tuple[str, ...]
SEAT_ARRAYS: tuple[str, ...]

def derive_game_seed(root: int, index: int) -> int: ...
def run_batch(
    root: int,
    start: int,
    players: int,
    seat_policy: npt.NDArray[np.uint32],
    first_player: int,
    max_rounds: int,
    rotations: int,
    out: dict[str, npt.NDArray[Any]],
    check: bool = False,
    variant: int = 0,
) -> None: ...

MOVE_ARRAYS: tuple[str, ...]
ROUND_ARRAYS: tuple[str, ...]

def run_moves_batch(
    root: int,
    start: int,
    players: int,
    seat_policy: npt.NDArray[np.uint32],
    first_player: int,
    max_rounds: int,
    rotations: int,
    out: dict[str, npt.NDArray[Any]],
    moves: dict[str, npt.NDArray[Any]],
    rounds: dict[str, npt.NDArray[Any]],
    check: bool = False,
    variant: int = 0,
) -> tuple[int, int, int]: ...
