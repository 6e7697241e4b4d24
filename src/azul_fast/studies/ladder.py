"""A strength ladder: every pair of policies plays seat-swapped 2-player games, and a
Bradley-Terry model turns the results into ratings with intervals.

The model: policy ``i`` beats policy ``j`` with probability ``1 / (1 + exp(r_j - r_i))``. A shared
victory counts half a win for each side. The ratings maximise the log-likelihood of the results
plus a weak Gaussian prior (``r ~ N(0, PRIOR_SD**2)``, in logits), which keeps them finite when a
policy wins or loses every game (random against any search) and hardly moves the others. The fit
is Newton's method on that concave objective; the intervals are Wald intervals from the inverse
Hessian (the observed information) at the optimum, for ratings relative to the anchor. Ratings are
reported on the Elo scale (``400 / ln 10`` points per logit), the anchor policy at 0.

>>> results = pd.DataFrame({"a": ["x", "x", "y"], "b": ["y", "z", "z"],
...                         "games": [100, 100, 100], "wins_a": [70.0, 85.0, 70.0]})
>>> fit_ratings(results, anchor="x").policy.tolist()
['x', 'y', 'z']
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats

from azul_fast.core.bots.policies import parse_policy
from azul_fast.core.rules.seeds import resolve_seed, spawn_seed
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.simulate import simulate
from azul_fast.runs.timing import doubling_runs
from azul_fast.runs.where import run_where
from azul_fast.studies.settings import LADDER_GAMES, LADDER_POLICIES

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "DEFAULT_GAMES", "DEFAULT_POLICIES", "ELO_PER_LOGIT", "PRIOR_SD", "estimated_ladder_seconds", "fit_ratings",
    "ladder", "ms_per_game", "play_pairs",
]

#: The levels of the ladder, weakest first (`azul_fast.studies.settings.LADDER_POLICIES`).
DEFAULT_POLICIES = LADDER_POLICIES
#: Deals per pair, each played once per seat (`azul_fast.studies.settings.LADDER_GAMES`).
DEFAULT_GAMES = LADDER_GAMES
#: Elo points per logit of the Bradley-Terry model.
ELO_PER_LOGIT = 400 / math.log(10)
#: Standard deviation of the prior on every rating, in logits (about 1,700 Elo).
PRIOR_SD = 4.0


def play_pairs(
    policies: Sequence[str], games: int = DEFAULT_GAMES, seed: Any = 0, workers: int | None = None, *,
    scheduler: str | None = None, client: Client | None = None,
) -> pd.DataFrame:
    """Every pair of `policies` plays `games` deals at 2 players, each deal once per seat, on
    `workers` threads or on the Dask cluster of `scheduler` or `client` (`azul_fast.runs.where`).

    Returns one row per pair: ``a, b, games, wins_a`` (a shared victory counts half),
    ``score_a, score_b`` (mean scores) and ``seed`` (the pair's root seed, spawned from `seed`).
    """
    names = [parse_policy(name).name for name in policies]  # an unknown name: UnknownPolicyError
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError(f"policies: give at least two different policies, got {names}")
    root = resolve_seed(seed)
    rows = []
    with run_where(workers, scheduler, client) as where:
        for k, (a, b) in enumerate(itertools.combinations(names, 2)):
            pair_seed = spawn_seed(root, k)
            df = simulate(games, 2, [a, b], seed=pair_seed, workers=where.workers, client=where.client,
                          progress=False, seat_rotation=True)
            a_seat = df.policy_0 == a
            win_a = df.win_0.where(a_seat, df.win_1).astype(float)
            win_b = df.win_1.where(a_seat, df.win_0).astype(float)
            rows.append({
                "a": a, "b": b, "games": len(df), "wins_a": float((win_a * (1 - 0.5 * win_b)).sum()),
                "score_a": float(df.score_0.where(a_seat, df.score_1).mean()),
                "score_b": float(df.score_1.where(a_seat, df.score_0).mean()),
                "seed": pair_seed,
            })
    return pd.DataFrame(rows)


def estimated_ladder_seconds(policies: Sequence[str], games: int = DEFAULT_GAMES) -> float:
    """Seconds of one core that `ladder` takes, by the cost model (`plan.estimated_seconds_per_game`).

    Progress reports weigh the ladder by it; the games played never depend on it.

    Parameters
    ----------
    policies : sequence of str
        The ladder's policies.
    games : int
        Deals per pair, each played once per seat.

    Returns
    -------
    float
        The estimate (divide by the workers for the wall time).

    Raises
    ------
    ValueError
        For an unknown policy.

    Examples
    --------
    >>> estimated_ladder_seconds(["greedy", "mcts"], 10) > estimated_ladder_seconds(["greedy", "random"], 10)
    True
    """
    return sum(2 * games * estimated_seconds_per_game([a, b], 2) for a, b in itertools.combinations(policies, 2))


def ms_per_game(policy: str, min_seconds: float = 1.0, variant: str = "colored", players: int = 2) -> float:
    """Milliseconds per game of `policy` in every seat (2 players unless told), on one core.

    Runs of 10, 20, 40, ... games until one lasts `min_seconds`; the time is the difference of
    the last two runs over their difference in games, which cancels what a call costs whatever its
    size (threads, the result table), so even a fraction of a second measures the fast policies.

    >>> ms_per_game("greedy", 0.05) < ms_per_game("mcts:50", 0.05)
    True
    """
    before = None
    for games, seconds in doubling_runs(policy, players, workers=1, first=10, variant=variant):
        if before is not None and seconds >= min_seconds and seconds > before[1]:
            return 1000 * (seconds - before[1]) / (games - before[0])
        before = (games, seconds)
    raise AssertionError("unreachable: doubling_runs never ends")


def fit_ratings(results: pd.DataFrame, anchor: str | None = None, level: float = 0.95) -> pd.DataFrame:
    """Bradley-Terry ratings (Elo scale) from pair results ``a, b, games, wins_a``.

    `anchor` (default: ``greedy`` if present, else the first policy) is rated 0 and the others
    relative to it, with `level` Wald intervals. Rows come strongest first, with each policy's
    games and win share over all its games.
    """
    names = list(dict.fromkeys(list(results.a) + list(results.b)))
    anchor = anchor if anchor is not None else ("greedy" if "greedy" in names else names[0])
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not among the policies {names}")
    index = {name: i for i, name in enumerate(names)}
    ia = results.a.map(index).to_numpy()
    ib = results.b.map(index).to_numpy()
    n = results.games.to_numpy(float)
    w = results.wins_a.to_numpy(float)
    free = [i for i in range(len(names)) if i != index[anchor]]
    design = np.zeros((len(results), len(names)))
    design[np.arange(len(results)), ia] = 1
    design[np.arange(len(results)), ib] = -1
    design = design[:, free]  # the anchor's rating is fixed at 0
    theta = np.zeros(len(free))
    for _ in range(100):
        p = 1 / (1 + np.exp(-design @ theta))
        gradient = design.T @ (w - n * p) - theta / PRIOR_SD**2
        hessian = design.T @ (design * (n * p * (1 - p))[:, None]) + np.eye(len(free)) / PRIOR_SD**2
        step = np.linalg.solve(hessian, gradient)
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(-design @ theta))
    hessian = design.T @ (design * (n * p * (1 - p))[:, None]) + np.eye(len(free)) / PRIOR_SD**2
    se = np.sqrt(np.diag(np.linalg.inv(hessian)))
    z = stats.norm.ppf(0.5 + level / 2)
    rating = np.zeros(len(names))
    half = np.zeros(len(names))
    rating[free] = theta * ELO_PER_LOGIT
    half[free] = z * se * ELO_PER_LOGIT
    games = np.bincount(ia, n, len(names)) + np.bincount(ib, n, len(names))
    wins = np.bincount(ia, w, len(names)) + np.bincount(ib, n - w, len(names))
    table = pd.DataFrame({
        "policy": names, "rating": rating, "ci_low": rating - half, "ci_high": rating + half,
        "games": games.astype(int), "win_share": wins / games,
    })
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    table.attrs.update(anchor=anchor, level=level, scale="Elo", prior_sd_logits=PRIOR_SD)
    return table


def ladder(
    policies: Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    seed: Any = 0,
    workers: int | None = None,
    anchor: str | None = None,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> pd.DataFrame:
    """Play every pair of `policies` (default `DEFAULT_POLICIES`) and rate them, strongest first.

    Parameters
    ----------
    policies : sequence of str or None
        Policy names, search budgets included (``"mcts:200"``).
    games : int
        Deals per pair; each is played once per seat, so a pair plays ``2 * games`` games.
    seed : None, int or numpy.random.SeedSequence
        Root seed; every pair's run gets its own seed spawned from it.
    workers : int or None
        Threads (None: every core). The result does not depend on it.
    anchor : str or None
        The policy rated 0 (default: greedy if present).
    scheduler, client : str or distributed.Client, optional
        Play the games on a Dask cluster instead (`azul_fast.runs.where.run_where`); the same table.

    Returns
    -------
    pandas.DataFrame
        ``rank, policy, rating, ci_low, ci_high, games, win_share`` (Elo scale, 95% intervals);
        ``df.attrs["pairs"]`` holds the pair results (`play_pairs`) as a list of records.

    >>> table = ladder(["random", "greedy"], games=20, seed=1, workers=1)
    >>> table.policy.tolist()
    ['greedy', 'random']
    """
    started = time.perf_counter()
    pairs = play_pairs(DEFAULT_POLICIES if policies is None else policies, games, seed, workers,
                       scheduler=scheduler, client=client)
    table = fit_ratings(pairs, anchor=anchor)
    table.attrs.update(pairs=pairs.to_dict("records"), games_per_pair=int(pairs.games.iloc[0]),
                       seconds=round(time.perf_counter() - started, 2))
    return table
