"""`azul_fast.web` under its old name: importing it warns, and the name goes in the next release.

Its submodules (``azul_fast.board.app`` and the others) are read from `azul_fast.web`'s folder.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from azul_fast.web import EXTRA, serve

__all__ = ["EXTRA", "serve"]
__path__ = [str(Path(__file__).resolve().parent.parent / "web")]

warnings.warn("azul_fast.board is now azul_fast.web (the analysis board's web app); the old name goes in the next "
              "release", DeprecationWarning, stacklevel=2)
