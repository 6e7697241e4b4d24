"""azul_fast: exact Azul rules in a native core, for Monte Carlo studies.

>>> import azul_fast
>>> state = azul_fast.State.new(players=3, seed=1)
>>> state.n_factories
7
"""

from azul_fast._state import LegalMoves, State
from azul_fast.kernels import end_bonus, floor_penalty, score_tile
from azul_fast.moves import CENTER, FLOOR, MARKER, Color, IllegalMoveError, Move
from azul_fast.policies import available_policies

__version__ = "0.1.0"
#: Bumped whenever a rule or a random draw changes what a seed plays (not for speed-ups).
RULES_VERSION = "azul-rules/1"

__all__ = [
    "CENTER",
    "FLOOR",
    "MARKER",
    "RULES_VERSION",
    "Color",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "State",
    "available_policies",
    "end_bonus",
    "floor_penalty",
    "score_tile",
]
