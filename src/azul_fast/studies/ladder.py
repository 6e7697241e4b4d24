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

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.rules.seeds import resolve_seed, spawn_seed
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.simulate import simulate
from azul_fast.runs.timing import doubling_runs
from azul_fast.runs.where import run_where
from azul_fast.studies.settings import LADDER_GAMES, LADDER_POLICIES

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "DEFAULT_GAMES", "DEFAULT_POLICIES", "ELO_PER_LOGIT", "PRIOR_SD", "add_to_ladder", "estimated_ladder_seconds",
    "fit_ratings",
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
#: The largest change of a rating (logits) in one step of the fit (`fit_ratings`): a damped Newton's method.
MAX_STEP = 2.0


def play_pairs(
    policies: Sequence[str | PolicySpec], games: int = DEFAULT_GAMES, seed: Any = 0, workers: int | None = None,
    added: Sequence[str | PolicySpec] = (),
    new: Sequence[str] | None = None,
    *,
    scheduler: str | None = None, client: Client | None = None,
) -> pd.DataFrame:
    """Every pair of `policies` plays `games` deals at 2 players, each deal once per seat, on
    `workers` threads or on the Dask cluster of `scheduler` or `client` (`azul_fast.runs.where`).

    Returns one row per pair: ``a, b, games, wins_a`` (a shared victory counts half),
    ``score_a, score_b`` (mean scores) and ``seed`` (the pair's root seed, spawned from `seed`).
    With `added`, only the pairs of the policies added to the ladder of `policies` are played: each added
    policy against every ladder policy and every added policy before it, their seeds spawned after the
    ladder's pairs (pair k of the ladder and its additions has seed ``spawn_seed(seed, k)``), so a policy
    added later leaves the games of every pair before it as they were; `new` (default: all of `added`)
    names the added policies whose pairs are played (the others were rated before).
    """
    ladder_specs = [parse_policy(policy) for policy in policies]  # an unknown name: UnknownPolicyError
    added_specs = [parse_policy(policy) for policy in added]
    spec_of = {spec.name: spec for spec in [*ladder_specs, *added_specs]}
    names = [spec.name for spec in ladder_specs]
    added_names = [spec.name for spec in added_specs]
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError(f"policies: give at least two different policies, got {names}")
    if len(set([*names, *added_names])) != len(names) + len(added_names):
        raise ValueError(f"added: give policies that are not on the ladder, each once, got {added_names}")
    root = resolve_seed(seed)
    pairs = list(itertools.combinations(names, 2))
    if added_names:
        first = len(pairs)
        pairs += [(a, b) for j, b in enumerate(added_names) for a in [*names, *added_names[:j]]]
        numbered = [(k, pair) for k, pair in list(enumerate(pairs))[first:] if new is None or pair[1] in new]
    else:
        numbered = list(enumerate(pairs))
    rows = []
    with run_where(workers, scheduler, client) as where:
        for k, (a, b) in numbered:
            pair_seed = spawn_seed(root, k)
            df = simulate(games, 2, [spec_of[a], spec_of[b]], seed=pair_seed, workers=where.workers,
                          client=where.client, progress=False, seat_rotation=True)
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


def estimated_ladder_seconds(policies: Sequence[str | PolicySpec], games: int = DEFAULT_GAMES) -> float:
    """Seconds of one core that `ladder` takes, by the cost model (`plan.estimated_seconds_per_game`).

    Progress reports weigh the ladder by it; the games played never depend on it.

    Parameters
    ----------
    policies : sequence of str or PolicySpec
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
    specs = [parse_policy(policy) for policy in policies]
    return sum(2 * games * estimated_seconds_per_game([a, b], 2) for a, b in itertools.combinations(specs, 2))


def ms_per_game(policy: str | PolicySpec, min_seconds: float = 1.0, variant: str = "colored",
                players: int = 2) -> float:
    """Milliseconds per game of `policy` in every seat (2 players unless told), on one core.

    Runs of 10, 20, 40, ... games until one lasts `min_seconds`; the time is the difference of
    the last two runs over their difference in games, which cancels what a call costs whatever its
    size (threads, the result table), so even a fraction of a second measures the fast policies.

    >>> ms_per_game("greedy", 0.05) < ms_per_game("mcts:50", 0.05)
    True
    """
    spec = parse_policy(policy)  # once, not in every run
    before = None
    for games, seconds in doubling_runs(spec, players, workers=1, first=10, variant=variant):
        if before is not None and seconds >= min_seconds and seconds > before[1]:
            return 1000 * (seconds - before[1]) / (games - before[0])
        before = (games, seconds)
    raise AssertionError("unreachable: doubling_runs never ends")


def fit_ratings(results: pd.DataFrame, anchor: str | None = None, level: float = 0.95,
                fixed: pd.DataFrame | None = None) -> pd.DataFrame:
    """Bradley-Terry ratings (Elo scale) from pair results ``a, b, games, wins_a``.

    `anchor` (default: ``greedy`` if present, else the first policy) is rated 0 and the others
    relative to it, with `level` Wald intervals. Rows come strongest first, with each policy's
    games and win share over all its games. `fixed` (a table of `fit_ratings` itself: ``policy,
    rating, ci_low, ci_high``) holds ratings that stay as they are: only the other policies are fitted,
    against them, and only theirs are returned (`add_to_ladder`). An interval then adds in quadrature
    the fitted rating's own (given the fixed ratings) and what the fixed ratings' intervals carry into
    it: a fitted rating moves by ``S[i, j]`` for a point of fixed rating j (``S = -I_ff^-1 I_fh``, the
    blocks of the information matrix), and the fixed ratings' errors are taken to move together (they
    were all measured against the same ladder), so the half-widths add: ``sum_j |S[i, j]| half_j``.

    >>> results = pd.DataFrame({"a": ["x", "x", "y"], "b": ["y", "z", "z"],
    ...                         "games": [100, 100, 100], "wins_a": [70.0, 85.0, 70.0]})
    >>> base = fit_ratings(results[results.b == "y"], anchor="x")
    >>> fit_ratings(results[results.b == "z"], fixed=base).policy.tolist()
    ['z']
    """
    names = list(dict.fromkeys(list(results.a) + list(results.b)))
    held = {} if fixed is None else dict(zip(fixed.policy, fixed.rating / ELO_PER_LOGIT))
    held_half = {} if fixed is None else dict(zip(fixed.policy, (fixed.ci_high - fixed.ci_low) / 2 / ELO_PER_LOGIT))
    if fixed is None:
        anchor = anchor if anchor is not None else ("greedy" if "greedy" in names else names[0])
        if anchor not in names:
            raise ValueError(f"anchor {anchor!r} is not among the policies {names}")
        held = {anchor: 0.0}
        held_half = {anchor: 0.0}
    index = {name: i for i, name in enumerate(names)}
    ia = results.a.map(index).to_numpy()
    ib = results.b.map(index).to_numpy()
    n = results.games.to_numpy(float)
    w = results.wins_a.to_numpy(float)
    free = [i for i in range(len(names)) if names[i] not in held]
    if not free:
        raise ValueError(f"no policy to rate: every one of {names} is fixed")
    design = np.zeros((len(results), len(names)))
    design[np.arange(len(results)), ia] = 1
    design[np.arange(len(results)), ib] = -1
    known = np.array([held.get(name, 0.0) for name in names])
    offset = design @ known   # the held ratings' part of every pair's logit
    design = design[:, free]
    theta = np.zeros(len(free))
    for _ in range(200):
        p = 1 / (1 + np.exp(-(design @ theta + offset)))
        gradient = design.T @ (w - n * p) - theta / PRIOR_SD**2
        hessian = design.T @ (design * (n * p * (1 - p))[:, None]) + np.eye(len(free)) / PRIOR_SD**2
        step = np.linalg.solve(hessian, gradient)
        # Newton's step from far away can overshoot where a policy wins nearly every game (a level far above the
        # held ones): at most MAX_STEP logits a rating per step, which changes no converged fit.
        step *= min(1.0, MAX_STEP / max(np.max(np.abs(step)), 1e-300))
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(-(design @ theta + offset)))
    information = n * p * (1 - p)
    hessian = design.T @ (design * information[:, None]) + np.eye(len(free)) / PRIOR_SD**2
    covariance = np.linalg.inv(hessian)
    se = np.sqrt(np.diag(covariance))
    z = stats.norm.ppf(0.5 + level / 2)
    rating = np.zeros(len(names))
    half = np.zeros(len(names))
    rating[free] = theta * ELO_PER_LOGIT
    half[free] = z * se * ELO_PER_LOGIT
    if fixed is not None:   # what the held ratings' own intervals carry into the fitted ones
        full = np.zeros((len(results), len(names)))
        full[np.arange(len(results)), ia] = 1
        full[np.arange(len(results)), ib] = -1
        heldi = [i for i in range(len(names)) if names[i] in held]
        cross = design.T @ (full[:, heldi] * information[:, None])   # I_fh
        moves = -covariance @ cross                                   # S
        carried = np.abs(moves) @ np.array([held_half[names[j]] for j in heldi]) * ELO_PER_LOGIT
        half[free] = np.hypot(half[free], carried)
    games = np.bincount(ia, n, len(names)) + np.bincount(ib, n, len(names))
    wins = np.bincount(ia, w, len(names)) + np.bincount(ib, n - w, len(names))
    table = pd.DataFrame({
        "policy": names, "rating": rating, "ci_low": rating - half, "ci_high": rating + half,
        "games": games.astype(int), "win_share": wins / games,
    })
    table = table.iloc[free] if fixed is not None else table
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    table.attrs.update(anchor=anchor, level=level, scale="Elo", prior_sd_logits=PRIOR_SD)
    return table


def add_to_ladder(
    ratings: pd.DataFrame,
    added: Sequence[str],
    policies: Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    seed: Any = 0,
    workers: int | None = None,
) -> pd.DataFrame:
    """Rate `added` policies on the ladder `ratings` of `policies` (default `DEFAULT_POLICIES`) without
    moving it: each added policy plays every ladder policy and every added one before it (`play_pairs`),
    and is fitted with the ratings of `ratings` held (`fit_ratings`). An added policy `ratings` rates already
    (added before, in the same order) is held too, and its pairs are not played again.

    `games` and `seed` must be those the ladder was played with, so that the additions' pairs follow its
    own. Returns the rows of the policies rated now (the columns of `ladder`, ``rank`` among them).

    >>> base = ladder(["random", "greedy"], games=10, seed=1, workers=1)
    >>> add_to_ladder(base, ["heuristic"], ["random", "greedy"], games=10, seed=1, workers=1).policy.tolist()
    ['heuristic']
    """
    names = list(DEFAULT_POLICIES if policies is None else policies)
    missing = sorted(set(names) - set(ratings.policy))
    if missing:
        raise ValueError(f"ratings: the ladder table does not rate {', '.join(missing)}")
    new = [policy for policy in added if policy not in set(ratings.policy)]
    if not new:
        raise ValueError(f"added: the ladder table rates every one of {list(added)} already")
    started = time.perf_counter()
    pairs = play_pairs(names, games, seed, workers, added=list(added), new=new)
    table = fit_ratings(pairs, fixed=ratings[~ratings.policy.isin(new)])
    table.attrs.update(pairs=pairs.to_dict("records"), games_per_pair=games,
                       seconds=round(time.perf_counter() - started, 2))
    return table


def ladder(
    policies: Sequence[str | PolicySpec] | None = None,
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
    policies : sequence of str or PolicySpec, or None
        Policy names, search budgets included (``"mcts:200"``), or their `parse_policy` specs.
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
