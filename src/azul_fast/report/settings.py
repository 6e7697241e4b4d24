"""The report's sizes and defaults: its three settings (`SETTINGS`: ``--quick``, the default,
``--thorough``), its policy (`default_policy`), player counts, seed and folder.

Plain data over the studies' defaults (`azul_fast.studies.settings`), so that the command line can
show them in ``--help`` without importing the statistics behind the report.

>>> default_policy().name
'learned'
>>> [level.name for level in SETTINGS["quick"].levels()]
['random', 'greedy', 'heuristic', 'mcts:50', 'fast', 'learned']
>>> SETTINGS["default"].top_games(2)   # +/-1 point at 2 players for the report's policy
9624
"""

from __future__ import annotations

from dataclasses import dataclass

from azul_fast.core.bots.policies import PolicySpec
from azul_fast.core.rules.moves import PLAYER_COUNTS
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.studies.settings import LADDER_POLICIES, games_for_precision

__all__ = ["DEFAULT_OUT", "DEFAULT_PLAYERS", "DEFAULT_SEED", "SETTINGS", "StudySize", "default_policy"]

#: The report's defaults: player counts, seed and output folder.
DEFAULT_PLAYERS = PLAYER_COUNTS
DEFAULT_SEED = 2024
DEFAULT_OUT = "azul-fast-report"
# The report's policy: the first of these (strongest first by the ladder, analysis/results/
# ladder_for_strength.csv; fast is the learned search with a narrower tree and a thirteenth of mcts:200's cost)
# whose 2-player game costs at most `StudySize.policy_cost` by the cost model. Plain mcts is left
# out: weaker than learned at ten times its cost.
_POLICIES_BY_STRENGTH = tuple({spec.name: spec for spec in LADDER_POLICIES}[name] for name in
                              ("learned", "fast", "mcts:200", "mcts:50", "heuristic", "greedy", "random"))


@dataclass(frozen=True)
class StudySize:
    """How much a report plays: one of `SETTINGS` (``--quick``, the default, ``--thorough``).

    `max_cost` picks the levels of the strength study: every policy of the ladder
    (`LADDER_POLICIES`) whose estimated cost per 2-player game is at most this many seconds
    (`plan.estimated_seconds_per_game`), so the study reaches the strongest level that fits the
    budget. `seconds` is the budget of one core per level and player count.

    The report's policy (`policy`, the default of ``--policy``) is the strongest level whose
    2-player game costs at most `policy_cost`: it plays the seat study, the openings and the
    marker rollouts, so every study of the report is played at that strength. Its row of the
    strength study is the headline, and the seat study reuses those games (one source for the
    numbers both show), so it gets more than the budget: at least `games` games a player count,
    and at 2 players enough for a 95 % interval of at most +/-`precision` whatever the share
    (`top_games`, `games_for_precision`). The move-level studies (`azul_fast.report.move_section`)
    record games of the strongest of the levels by the report's ladder: as many as `move_seconds`
    of one core pay for by the cost model, at least `min_games` and at most `move_games`.

    The opening types add deals in doubling stages up to `deals` and stop once the best type is
    separated from every other (`azul_fast.studies.opening_types`); the drill-down deal is ranked
    by `azul_fast.studies.analyse.analyse` (racing) with `drill_rollouts` rollouts a legal move
    on average.
    """

    games: int            # games of the report's policy per player count, at least (the seat study)
    max_cost: float       # seconds per game of the strongest level studied
    policy_cost: float    # seconds per 2-player game of the report's policy, at most
    precision: float      # +/- half-width (a fraction) of its 2-player share's interval, at most
    seconds: float        # budget per level and player count in the strength study
    min_games: int        # games per level at least
    ladder_games: int     # deals per pair of the strength ladder
    deals: int            # deals of the opening-type study, at most
    rollouts: int         # rollouts per first move in it
    drill_rollouts: int   # rollouts per legal first move (on average) of the drill-down deal
    timing: float         # seconds of self-play timed per ladder policy (the strength-for-time chart)
    move_seconds: float   # budget of one core (by the cost model) for the games recorded move by move
    move_games: int       # at most this many of them
    marker_games: int     # games whose rounds give the marker's paired-rollout positions
    marker_rollouts: int  # finishes per candidate move at each of those positions
    minutes: float        # what the README promises on 2 free cores (measured with /usr/bin/time)

    def levels(self) -> tuple[PolicySpec, ...]:
        """The ladder's policies that fit `max_cost`, weakest first."""
        return tuple(p for p in LADDER_POLICIES if estimated_seconds_per_game([p, p], 2) <= self.max_cost)

    def policy(self) -> PolicySpec:
        """The strongest built-in policy whose 2-player game costs at most `policy_cost`."""
        fitting = [p for p in _POLICIES_BY_STRENGTH if estimated_seconds_per_game([p, p], 2) <= self.policy_cost]
        return fitting[0] if fitting else _POLICIES_BY_STRENGTH[-1]

    def top_games(self, players: int, games: int | None = None) -> int:
        """Games of the report's policy at `players` players: `games` (None: the setting's), and at
        2 players at least enough for +/-`precision` (`games_for_precision`)."""
        games = self.games if games is None else games
        return max(games, games_for_precision(self.precision)) if players == 2 else games


#: The report's sizes. The default finishes in about `minutes` on 2 free cores. Why the default is
#: sized so: its headline is the report's policy (``learned``) at 2 players, which needs 9,624 games
#: for +/-1 point (`games_for_precision`); by the cost model (2.5 ms a game) that is 24 s of one
#: core, the largest step of the report. Every other level keeps 2.5 s a player count (the ladder's
#: walk: enough to see the trend, not to quote), 3 and 4 players get 1,000 games of the policy
#: (+/-3 points), and the openings (up to 12 deals, 4 rollouts a move), the drill-down (24 rollouts
#: a move) and the marker (50 games, 8 rollouts a candidate) are sized to leave the whole report
#: within `minutes`. A fresh clone's CI rehearsal, on 2 cores with little else running, wrote the
#: default report in 98 s (2026-12-01): hence about 2 minutes. The quick setting checks the pipeline
#: in well under a minute (24 s and 34 s measured); the thorough one quotes the headline to +/-0.5
#: points (38,493 games), in 9 min 13 s on the idle 2 cores (978 s of CPU, 2026-12-03; the cost model
#: estimated 9.4 min): hence about 10 minutes.
#: The budgets in seconds are seconds by the cost model of 2026-12-03 (`plan.GAME_COSTS`, within 8 %
#: of measured self-play). The model before it, fitted before the searches stopped early once their
#: move was decided, overestimated every search about 3.5 times, so these budgets were cut as much to
#: keep the studies' sizes: 9 s a level became 2.5 s (0.1 s 0.03 s, 120 s 35 s), the move studies'
#: 20 s 5.5 s (1 s 0.3 s, 200 s 55 s), and `max_cost` keeps each setting's levels (quick stops below
#: mcts:200, 6.1 ms a game; the default below plain mcts, 25 ms).
SETTINGS = {
    "quick": StudySize(games=100, max_cost=0.005, policy_cost=0.01, precision=0.05, seconds=0.03, min_games=50,
                       ladder_games=10, deals=3, rollouts=2, drill_rollouts=2, timing=0.05, move_seconds=0.3,
                       move_games=2_000, marker_games=4, marker_rollouts=4, minutes=0.6),
    "default": StudySize(games=1_000, max_cost=0.02, policy_cost=0.01, precision=0.01, seconds=2.5, min_games=200,
                         ladder_games=40, deals=12, rollouts=4, drill_rollouts=24, timing=0.3, move_seconds=5.5,
                         move_games=50_000, marker_games=50, marker_rollouts=8, minutes=2.0),
    "thorough": StudySize(games=5_000, max_cost=1.0, policy_cost=0.01, precision=0.005, seconds=35.0,
                          min_games=1_000, ladder_games=100, deals=64, rollouts=8, drill_rollouts=100, timing=2.0,
                          move_seconds=55.0, move_games=200_000, marker_games=200, marker_rollouts=20,
                          minutes=10.0),
}


def default_policy(setting: str = "default") -> PolicySpec:
    """The report's policy under `setting`: the strongest built-in policy whose 2-player game the
    setting affords for its seat, opening and marker studies (`StudySize.policy`; ``learned`` today).

    Parameters
    ----------
    setting : str
        A key of `SETTINGS`.

    Returns
    -------
    PolicySpec
        The policy (a `str`: its name).

    Raises
    ------
    ValueError
        For an unknown setting.

    Examples
    --------
    >>> default_policy(), default_policy("quick") == "learned"
    (PolicySpec(name='learned', family='learned', budget=120), True)
    """
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {list(SETTINGS)}, got {setting!r}")
    return SETTINGS[setting].policy()
