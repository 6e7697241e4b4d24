"""azul_fast: exact Azul rules in a native core, for Monte Carlo studies.

A tour of a position (`State`, implemented in the compiled ``_state`` module):

>>> from azul_fast import Move, State
>>> state = State.new(players=2, seed=7)
>>> state
<State 2 players, round 1, player 0 to move, scores (0, 0)>
>>> state.n_factories, state.factories[0]        # factory 1: a blue, a yellow, two reds
(5, array([1, 1, 2, 0, 0], dtype=int8))
>>> len(state.legal_moves), Move.from_notation("1R2") in state.legal_moves
(96, True)
>>> state.play("1R2")                            # the two reds onto pattern line 2; the rest to the centre
>>> state.pattern_line(0, 1), state.center.tolist()
((<Color.RED: 2>, 2), [1, 1, 0, 0, 0])
>>> state.play("CBF")                            # first into the centre: the marker comes along
>>> state.floor(1), state.marker_holder
([MARKER, <Color.BLUE: 0>], 1)
>>> state.play("1B1")
Traceback (most recent call last):
...
azul_fast.IllegalMoveError: illegal move 1B1: factory 1 holds no blue tile
>>> State.from_dict(state.to_dict()) == state    # a position is plain, JSON-compatible data
True
>>> while not state.is_game_over():
...     state.play(state.choose("greedy"))
>>> state.scores, state.winners, state.round
((53, 34), (0,), 5)

Many games at once, as a DataFrame, and one replayed move by move:

>>> from azul_fast import play_game, simulate
>>> df = simulate(200, players=3, policies="greedy", seed=1, workers=1)
>>> row = df.iloc[5]
>>> record = play_game(3, "greedy", seed=int(row.seed))     # a row's seed replays that game
>>> record.scores == (row.score_0, row.score_1, row.score_2), record.opening == row.opening
(True, True)
"""

import importlib
from typing import TYPE_CHECKING

from azul_fast._version import RULES_VERSION
from azul_fast._version import __version__ as __version__  # re-exported: azul_fast.__version__
from azul_fast.core.bots.policies import UnknownPolicyError, available_policies
from azul_fast.core.bots.solve import SolveBudgetError, SolveResult, solve
from azul_fast.core.errors import AzulFastError
from azul_fast.core.formats.board_svg import render_svg, save_svg
from azul_fast.core.game import GameRecord, play_game
from azul_fast.core.lazy import lazy_submodules
from azul_fast.core.rules.kernels import end_bonus, floor_penalty, score_tile
from azul_fast.core.rules.moves import (
    CENTER,
    FLOOR,
    MARKER,
    VARIANTS,
    Color,
    IllegalMoveError,
    Move,
    NotationError,
    Placement,
    parse_move,
)
from azul_fast.core.state import LegalMoves, State
from azul_fast.runs.move_records import MoveRecords, decode_move
from azul_fast.runs.simulate import simulate
from azul_fast.runs.simulate_moves import simulate_moves
from azul_fast.runs.storage import load, save

if TYPE_CHECKING:  # for type checkers only: at run time analyse loads on first use (__getattr__)
    from azul_fast.studies.analyse import analyse

__all__ = [
    "analyse",
    "AzulFastError",
    "CENTER",
    "FLOOR",
    "MARKER",
    "RULES_VERSION",
    "VARIANTS",
    "Color",
    "GameRecord",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "MoveRecords",
    "NotationError",
    "Placement",
    "SolveBudgetError",
    "SolveResult",
    "State",
    "UnknownPolicyError",
    "available_policies",
    "decode_move",
    "end_bonus",
    "floor_penalty",
    "load",
    "parse_move",
    "play_game",
    "render_svg",
    "save",
    "save_svg",
    "simulate",
    "simulate_moves",
    "score_tile",
    "solve",
]

# The layers as attributes, imported on first use (azul_fast.studies.seats, azul_fast.report.charts);
# dir() lists them and the public names, not the modules behind them.
_submodule, __dir__ = lazy_submodules(__name__, __path__, public=["__version__", *__all__], old=["board"])
#: Functions of the upper layers offered here, imported on first use (they need scipy and pandas'
#: statistics, which `import azul_fast` does not load): name -> the module that defines it.
_LAZY_FUNCTIONS = {"analyse": "azul_fast.studies.analyse"}


#: Modules of 0.1.0 that 0.2.0 moved into the layers (docs/changelog.md has the table): an
#: attribute of the old name says where it went instead of only that it is missing.
_MOVED = {
    "analysis": "azul_fast.studies (.seats, .strength, .openings, .opening_types, .intervals)",
    "plotting": "azul_fast.report.charts", "move_studies": "azul_fast.studies.in_game",
    "move_plots": "azul_fast.report.move_charts", "move_report": "azul_fast.report.move_section",
    "formatting": "azul_fast.report.formatting", "ladder": "azul_fast.studies.ladder",
    "records": "azul_fast.runs.simulate_moves", "recording": "azul_fast.runs.move_records",
    "runlock": "azul_fast.runs.lock", "distributed": "azul_fast.runs.cluster", "results": "azul_fast.runs.frames",
    **{name: f"azul_fast.runs.{name}" for name in ("plan", "storage", "progress", "heartbeat")},
    **{name: f"azul_fast.core.rules.{name}" for name in ("moves", "checks", "kernels", "reference")},
    **{name: f"azul_fast.core.bots.{name}" for name in ("policies", "learned")},
    "game": "azul_fast.core.game",
    "position": "azul_fast.core.formats.position_json", "render": "azul_fast.core.formats.board_svg",
    "text": "azul_fast.core.formats.board_text",
}


def __getattr__(name: str) -> object:
    if name in _LAZY_FUNCTIONS:
        return getattr(importlib.import_module(_LAZY_FUNCTIONS[name]), name)
    if name in _MOVED:
        raise AttributeError(f"module 'azul_fast' has no attribute {name!r}: it is now {_MOVED[name]} "
                             "(docs/changelog.md lists every module that moved)")
    return _submodule(name)
