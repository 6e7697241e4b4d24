# Stubs for the Python-visible names of _learned.pyx (azul_fast.core.bots.learned validates weights files;
# use its functions instead).
import numpy as np
import numpy.typing as npt

WEIGHT_SHAPE: tuple[int, int, int, int]
LEFTOVER_HIDDEN_SHAPE: tuple[int, int, int, int]
LEFTOVER_OUTPUT_SHAPE: tuple[int, int, int]

def install_weights(weights: npt.ArrayLike, hidden: npt.ArrayLike, output: npt.ArrayLike) -> None: ...
def installed_weights() -> tuple[np.ndarray, np.ndarray, np.ndarray] | None: ...
