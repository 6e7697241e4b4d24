"""The game: the native rules over packed boards, the policies and searches, the learned evaluation,
and their Python face (`State`, `Move`, positions, text and SVG diagrams), beside the pure-Python
reference engine that checks them.

Nothing here imports from the other subpackages: `runs`, `studies` and `report` build on this.
"""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
