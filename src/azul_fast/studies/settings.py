"""The defaults of the standard studies: the ladder's levels, its deals per pair, the review's thresholds,
and the games a stated precision needs. The report's sizes built on them are `azul_fast.report.settings`.

Plain data, so that the command line can show them in ``--help`` without importing the
statistics behind the studies (scipy, statsmodels, matplotlib): `azul_fast.studies.ladder`,
`azul_fast.studies.strength`, `azul_fast.studies.analyse` and the report take them from here.

>>> LADDER_POLICIES[0].name, LADDER_GAMES
('random', 100)
"""

from __future__ import annotations

import math
from statistics import NormalDist

from azul_fast.core.bots.policies import parse_policy

__all__ = ["ANALYSIS_POLICY", "BLUNDER", "LADDER_GAMES", "LADDER_POLICIES", "MISTAKE", "games_for_precision"]

#: The built-in policies and a few search budgets, weakest first: the levels of the ladder, of
#: `strength.first_player_by_strength` and of the report's strength study (a policy added here
#: joins all three; the report takes those its setting can afford). `azul_fast.studies.ladder.DEFAULT_POLICIES`.
#: Parsed here, once: the studies carry the specs.
LADDER_POLICIES = tuple(parse_policy(name) for name in
                        ("random", "greedy", "heuristic", "mcts:50", "mcts:200", "fast", "learned", "mcts"))
#: Deals per pair of the ladder (each played once per seat: twice as many games).
#: `azul_fast.studies.ladder.DEFAULT_GAMES`.
LADDER_GAMES = 100

#: Losses of win share (fractions) from which `azul_fast.studies.analyse.review_game` flags a
#: move: a mistake, and a blunder. `azul-fast review --help` names them in percentage points.
MISTAKE = 0.10
BLUNDER = 0.25
#: The policy of every seat in the rollouts that judge moves (`analyse`, `review_game`, the opening
#: rankings, their commands and the analysis board) unless one is given: the default strong bot, since a weak
#: bot's rollouts rank moves by its own habits (docs/policies.md).
ANALYSIS_POLICY = "learned"


def games_for_precision(precision: float, confidence: float = 0.95) -> int:
    """Games that give a tie-split share (a mean of values in [0, 1], variance at most 1/4) a t
    interval no wider than +/-`precision` whatever the share: ``1 + (z / (2 precision))**2``, with
    the normal quantile `z` raised by 0.1 % to cover the t quantile's excess (and the sample variance's n / (n - 1)).

    Parameters
    ----------
    precision : float
        The half-width, a fraction (0.01 is one point).
    confidence : float
        The interval's confidence level.

    Returns
    -------
    int
        The games.

    Raises
    ------
    ValueError
        If `precision` is not in (0, 0.5).

    Examples
    --------
    >>> games_for_precision(0.01), games_for_precision(0.05)
    (9624, 386)
    """
    if not 0 < precision < 0.5:
        raise ValueError(f"precision must be a fraction in (0, 0.5), got {precision!r}")
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2) * 1.001
    return 1 + math.ceil((z / (2 * precision)) ** 2)
