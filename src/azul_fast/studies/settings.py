"""The sizes and defaults of the standard studies: the ladder's levels and the report's settings.

Plain data, so that the command line can show them in ``--help`` without importing the
statistics behind the studies (scipy, statsmodels, matplotlib): `azul_fast.studies.ladder`,
`azul_fast.report.build` and the studies take them from here.

>>> LADDER_POLICIES[0], default_policy()
('random', 'heuristic')
>>> SETTINGS["quick"].levels()
('random', 'greedy', 'heuristic', 'mcts:50', 'fast', 'learned')
"""

from __future__ import annotations

from dataclasses import dataclass

from azul_fast.core.moves import PLAYER_COUNTS
from azul_fast.core.policies import available_policies
from azul_fast.runs.plan import estimated_seconds_per_game

__all__ = [
    "DEFAULT_OUT",
    "DEFAULT_PLAYERS",
    "DEFAULT_SEED",
    "LADDER_GAMES",
    "LADDER_POLICIES",
    "SETTINGS",
    "StudySize",
    "default_policy",
]

#: The built-in policies and a few search budgets, weakest first: the levels of the ladder, of
#: `strength.first_player_by_strength` and of the report's strength study (a policy added here
#: joins all three; the report takes those its setting can afford). `azul_fast.studies.ladder.DEFAULT_POLICIES`.
LADDER_POLICIES = ("random", "greedy", "heuristic", "mcts:50", "mcts:200", "fast", "learned", "mcts")
#: Deals per pair of the ladder (each played once per seat: twice as many games).
#: `azul_fast.studies.ladder.DEFAULT_GAMES`.
LADDER_GAMES = 100

#: The report's defaults: player counts, seed and output folder.
DEFAULT_PLAYERS = PLAYER_COUNTS
DEFAULT_SEED = 2024
DEFAULT_OUT = "azul-fast-report"
# Preference for the default policy: strongest first among those fast enough for the default study
# (see the ladder). A search plays a game in milliseconds, thousands of times slower: --policy mcts:N.
_FAST_POLICIES_BY_STRENGTH = ("heuristic", "greedy", "random")


@dataclass(frozen=True)
class StudySize:
    """How much a report plays: one of `SETTINGS` (``--quick``, the default, ``--thorough``).

    `max_cost` picks the levels of the strength study: every policy of the ladder
    (`LADDER_POLICIES`) whose estimated cost per 2-player game is at most this many seconds
    (`plan.estimated_seconds_per_game`), so the study reaches the strongest level that fits the
    budget. `seconds` is the budget of one core per level and player count. The move-level
    studies (`azul_fast.report.move_section`) record games of the strongest of those levels by the
    report's ladder: as many as `move_seconds` of one core pay for by the cost model, at least
    `min_games` and at most `move_games`.
    """

    games: int            # games per player count in the seat study (the report's policy)
    max_cost: float       # seconds per game of the strongest level studied
    seconds: float        # budget per level and player count in the strength study
    min_games: int        # games per level at least
    ladder_games: int     # deals per pair of the strength ladder
    deals: int            # deals of the opening-type study
    rollouts: int         # rollouts per first move in it
    timing: float         # seconds of self-play timed per ladder policy (the strength-for-time chart)
    move_seconds: float   # budget of one core (by the cost model) for the games recorded move by move
    move_games: int       # at most this many of them
    marker_games: int     # games whose rounds give the marker's paired-rollout positions
    marker_rollouts: int  # finishes per candidate move at each of those positions
    minutes: float        # what the README promises on 2 free cores (measured with /usr/bin/time)

    def levels(self) -> tuple[str, ...]:
        """The ladder's policies that fit `max_cost`, weakest first."""
        return tuple(p for p in LADDER_POLICIES if estimated_seconds_per_game([p, p], 2) <= self.max_cost)


#: The report's sizes. The default finishes in about `minutes` on 2 free cores.
SETTINGS = {
    "quick": StudySize(games=2_000, max_cost=0.01, seconds=0.1, min_games=50, ladder_games=10, deals=3,
                       rollouts=2, timing=0.05, move_seconds=1.0, move_games=2_000,
                       marker_games=4, marker_rollouts=4, minutes=0.5),
    "default": StudySize(games=100_000, max_cost=0.05, seconds=12.0, min_games=200, ladder_games=40, deals=30,
                         rollouts=8, timing=0.3, move_seconds=20.0, move_games=50_000, marker_games=80,
                         marker_rollouts=12,
                         minutes=3.0),
    "thorough": StudySize(games=300_000, max_cost=1.0, seconds=120.0, min_games=1_000, ladder_games=100,
                          deals=100, rollouts=20, timing=2.0, move_seconds=200.0, move_games=200_000,
                          marker_games=400,
                          marker_rollouts=30, minutes=25.0),
}


def default_policy() -> str:
    """The strongest built-in policy fast enough for the default study (``heuristic`` today).

    >>> default_policy() in available_policies()
    True
    """
    names = available_policies()
    return next((name for name in _FAST_POLICIES_BY_STRENGTH if name in names), names[0])
