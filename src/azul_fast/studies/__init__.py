"""Studies of simulated games, pandas in and pandas out: seat advantage, first player by strength,
openings, the in-game studies (marker, bonuses, scores), the strength ladder, and the intervals and
tests they share.

Imports `azul_fast.core` and `azul_fast.runs`, never the report.
"""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
