# Stubs for the Python-visible names of _training.pyx (azul_fast.training.pipeline is the Python face).
import numpy as np
import numpy.typing as npt

def collect(
    root: int, start: int, n_games: int, players: int, seat_policy: npt.NDArray[np.uint32], variant: int,
    max_rounds: int, net: bool = ...,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
def collect_leftovers(
    root: int, start: int, n_games: int, players: int, seat_policy: npt.NDArray[np.uint32], variant: int,
    max_rounds: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
