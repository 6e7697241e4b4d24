"""azul_fast: exact Azul rules in a native core, for Monte Carlo studies.

>>> import azul_fast
>>> state = azul_fast.State.new(players=3, seed=1)
>>> state.n_factories
7
"""

from azul_fast._state import LegalMoves, State
from azul_fast._version import RULES_VERSION, __version__
from azul_fast.kernels import end_bonus, floor_penalty, score_tile
from azul_fast.moves import CENTER, FLOOR, MARKER, Color, IllegalMoveError, Move
from azul_fast.policies import available_policies
from azul_fast.render import render_svg, save_svg
from azul_fast.simulate import GameRecord, play_game, simulate
from azul_fast.storage import load, save

__all__ = [
    "CENTER",
    "FLOOR",
    "MARKER",
    "RULES_VERSION",
    "Color",
    "GameRecord",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "State",
    "available_policies",
    "end_bonus",
    "floor_penalty",
    "load",
    "play_game",
    "render_svg",
    "save",
    "save_svg",
    "simulate",
    "score_tile",
]
