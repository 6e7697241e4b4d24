# Stubs for the Python-visible names of _rollouts.pyx (use azul_fast.runs.rollouts instead).
from typing import Any

import numpy as np
import numpy.typing as npt

from azul_fast.core._state import State

NO_MOVE: int

def rollout_batch(
    state: State,
    codes: npt.NDArray[np.uint16],
    seeds: npt.NDArray[np.uint64],
    seat_policy: npt.NDArray[np.uint32],
    start: int,
    stop: int,
    scores: npt.NDArray[Any],
    winners: npt.NDArray[np.uint8],
) -> None: ...
