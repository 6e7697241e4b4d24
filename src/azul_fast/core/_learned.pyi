# Stubs for the Python-visible names of _learned.pyx (azul_fast.core.learned validates weights files;
# use its functions instead).
import numpy as np
import numpy.typing as npt

WEIGHT_SHAPE: tuple[int, int, int, int]
LEFTOVER_SHAPE: tuple[int, int, int]

def install_weights(weights: npt.ArrayLike, leftover: npt.ArrayLike) -> None: ...
def installed_weights() -> tuple[np.ndarray, np.ndarray] | None: ...
