# Stubs for the Python-visible names of _learned.pyx (azul_fast.core.bots.learned and value_net validate weights
# files; use their functions instead).
import numpy as np
import numpy.typing as npt

WEIGHT_SHAPE: tuple[int, int, int, int]
LEFTOVER_HIDDEN_SHAPE: tuple[int, int, int, int]
LEFTOVER_OUTPUT_SHAPE: tuple[int, int, int]

def install_weights(weights: npt.ArrayLike, hidden: npt.ArrayLike, output: npt.ArrayLike) -> None: ...
def installed_weights() -> tuple[np.ndarray, np.ndarray, np.ndarray] | None: ...

NET_HIDDEN_SHAPE: tuple[int, int, int, int]
NET_OUTPUT_SHAPE: tuple[int, int, int]

def install_net(hidden: npt.ArrayLike, output: npt.ArrayLike) -> None: ...
def installed_net() -> tuple[np.ndarray, np.ndarray]: ...
