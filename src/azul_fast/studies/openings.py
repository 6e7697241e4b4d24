"""Openings: what a first move does (tiles, line, overflow, source), how often each kind wins in
simulated games, and the first moves of one deal ranked by paired rollouts (McNemar tests with a
Holm correction).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.moves import CENTER, COLOR_LETTERS, FLOOR, Move
from azul_fast.core.state import State
from azul_fast.runs import rollouts as native
from azul_fast.runs.where import run_where
from azul_fast.studies.analyse import analyse
from azul_fast.studies.intervals import (
    ALPHA,
    clustered_mean_interval,
    clustered_rate,
    clustered_win_interval,
    deal_numbers,
    mcnemar_pvalue,
    mean_interval,
    share_interval,
    win_interval,
)
from azul_fast.studies.seats import by_players, lineup_name, lineups, seat_matrix, split_wins, with_sample_size
from azul_fast.studies.settings import ANALYSIS_POLICY

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["OPENING_FEATURES", "informative_features", "opening_analysis", "opening_features", "opening_rollouts",
           "opening_study", "redundant_features"]


# -- openings ------------------------------------------------------------------------------
#: Columns of `opening_features` that `opening_study` groups by.
OPENING_FEATURES = ("tiles", "line", "overflow", "source")


def move_features(state: State, move: Move) -> dict[str, Any]:
    """What a first move does on an empty board: tiles taken, line, tiles overflowed, source."""
    if move.source == CENTER:
        tiles = int(state.center[move.color])
    else:
        tiles = int(state.factories[move.source, move.color])
    capacity = 0 if move.line == FLOOR else move.line + 1
    return {
        "tiles": tiles,
        "line": "F" if move.line == FLOOR else str(move.line + 1),
        "overflow": max(0, tiles - capacity),
        "source": "centre" if move.source == CENTER else "factory",
        "color": COLOR_LETTERS[move.color],
    }


def redundant_features(table: pd.DataFrame, features: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The `features` (columns of `table`) that do not tell its rows apart, with why: those that
    take one value in every row, and those that relabel an earlier kept one (the same partition of
    the rows under other names, as ``line`` repeats ``tiles`` when a policy always fills a line exactly).

    Parameters
    ----------
    table : DataFrame
        One row per move or game, with a column per feature.
    features : sequence of str
        The columns to consider, in order of preference: of two that relabel each other, the
        first is kept.

    Returns
    -------
    constant : dict of str to str
        Each constant feature and the one value it takes (as text).
    repeated : dict of str to str
        Each relabelling feature and the kept feature it repeats.

    Raises
    ------
    ValueError
        If a feature is not a column of `table` (the missing ones are named).

    Examples
    --------
    >>> table = pd.DataFrame({"tiles": [1, 2, 2], "line": ["1", "2", "2"], "source": "factory"})
    >>> redundant_features(table, ["tiles", "line", "source"])
    ({'source': 'factory'}, {'line': 'tiles'})
    """
    missing = [f for f in features if f not in table.columns]
    if missing:
        raise ValueError(f"the table has no feature column {missing}")
    kept: list[str] = []
    constant: dict[str, str] = {}
    repeated: dict[str, str] = {}
    for feature in features:
        codes = table[feature].astype(str)
        if codes.nunique() < 2:
            constant[feature] = next(iter(codes), "")
            continue
        same = [other for other in kept
                if table.groupby(codes)[other].nunique().max() == 1
                and table.groupby(table[other].astype(str))[feature].nunique().max() == 1]
        if same:
            repeated[feature] = same[0]
            continue
        kept.append(feature)
    return constant, repeated


def informative_features(table: pd.DataFrame, features: Sequence[str]) -> list[str]:
    """The `features` (columns of `table`) that tell its rows apart: those `redundant_features`
    leaves, in the order given.

    Parameters
    ----------
    table, features
        As `redundant_features` takes them.

    Returns
    -------
    list of str
        The kept features.

    Raises
    ------
    ValueError
        As `redundant_features` raises it.

    Examples
    --------
    >>> moves = pd.DataFrame({"tiles": [1, 2, 2], "line": ["1", "2", "2"], "overflow": [0, 1, 0]})
    >>> informative_features(moves, ["line", "tiles", "overflow"])
    ['line', 'overflow']
    """
    constant, repeated = redundant_features(table, features)
    return [f for f in features if f not in constant and f not in repeated]


def opening_features(df: pd.DataFrame) -> pd.DataFrame:
    """The opening move of every game, described: replays only the first move (about 6 us a game).

    Columns ``tiles`` (taken), ``line`` (``"1"``..``"5"`` or ``"F"`` for the floor), ``overflow``
    (tiles that fell to the floor), ``source`` (``"factory"``/``"centre"``), ``color``; same index
    as `df`.

    Parameters
    ----------
    df : DataFrame
        Rows from `simulate` (the ``seed``, ``players``, ``first_player`` and ``opening`` columns
        replay each game's first move).

    Returns
    -------
    DataFrame
        The five columns above, one row per game.

    Raises
    ------
    ValueError
        If `df` is empty or is not a `simulate` result (the missing columns are named).

    Examples
    --------
    >>> from azul_fast import simulate
    >>> df = simulate(3, players=2, policies="greedy", seed=1, workers=1)
    >>> opening_features(df).columns.tolist()
    ['tiles', 'line', 'overflow', 'source', 'color']
    """
    records = []
    cache: dict[str, Move] = {}
    for players, seed, first, opening in zip(df["players"], df["seed"], df["first_player"], df["opening"].astype(str)):
        move = cache.get(opening) or cache.setdefault(opening, Move.from_notation(opening))
        state = State.new(int(players), seed=int(seed), first_player=int(first))
        records.append(move_features(state, move))
    return pd.DataFrame.from_records(records, index=df.index, columns=["tiles", "line", "overflow", "source", "color"])


def _first_player_outcome(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Did the first player win (shared wins count), their share of the victory (1/k of a k-way
    tie), and their score minus the best opponent's."""
    players = int(df["players"].iloc[0])
    wins = seat_matrix(df, "win", players, bool)
    scores = seat_matrix(df, "score", players, float)
    rows = np.arange(len(df))
    first = df["first_player"].to_numpy().astype(int)
    own = scores[rows, first]
    others = scores.copy()
    others[rows, first] = -np.inf
    return wins[rows, first], split_wins(wins)[rows, first], own - others.max(axis=1)


def opening_study(
    df: pd.DataFrame, features: Sequence[str] = OPENING_FEATURES, alpha: float = ALPHA, informative: bool = False,
) -> pd.DataFrame:
    """First player's share of wins and score margin by type of opening move, from simulated games.

    For each player count, lineup, feature (see `opening_features`) and value: ``games``,
    ``share`` of games, ``mean_margin`` (first player's score minus the best opponent's) with its
    t interval ``margin_low, margin_high``, and the first player's wins counted two ways:

    - tie-split, as the report counts them: ``win_share`` (the mean of the first player's share of
      each game's victory, 1/k of a k-way tie) with its t interval ``win_share_low,
      win_share_high`` (`intervals.share_interval`: cut to [0, 1], NaN when no share varies),
      and ``win_share_pvalue``, a test of independence between the feature and that share:
      the score test of a regression of the per-game share on the feature's
      values, N R^2 against chi-square with (values - 1) degrees of freedom (for 0/1 outcomes
      this is Pearson's chi-square);
    - whole, a shared victory a win: ``wins, win_rate, ci_low, ci_high`` (Wilson) and ``pvalue``,
      scipy's chi-square test of independence between the feature and winning.

    Each p-value is one value per feature, NaN when the feature takes a single value (or the
    outcome never varies).

    Parameters
    ----------
    df : DataFrame
        Rows from `simulate`.
    features : sequence of str
        Which of `opening_features`' columns to group by, each on its own.
    alpha : float
        1 - confidence level of the intervals.
    informative : bool
        Leave out, per player count and lineup, the features that say nothing about these games
        (`redundant_features`: one value in every game, or the same split of the games as an
        earlier feature, as ``line`` repeats ``tiles`` when the policy always fills a line exactly).

    Returns
    -------
    DataFrame
        One row per (players, lineup, feature, value), with the columns above; ``attrs["dropped"]``
        maps each (players, policies) of the rows to the features left out for that lineup,
        ``attrs["constant"]`` to those of them with one value (feature to value) and
        ``attrs["repeated"]`` to the others (feature to the kept feature it repeats).

    Raises
    ------
    ValueError
        For an unknown feature, or a `df` that is empty or not a `simulate` result.

    Examples
    --------
    >>> from azul_fast import simulate
    >>> df = simulate(500, players=2, policies="greedy", seed=1, workers=1)
    >>> study = opening_study(df, features=["line"])
    >>> sorted(study.value) == sorted(opening_features(df).line.unique()), int(study.games.sum())
    (True, 500)
    """
    unknown = set(features) - set(OPENING_FEATURES) - {"color"}
    if unknown:
        raise ValueError(f"unknown opening features {sorted(unknown)}; valid: {list(OPENING_FEATURES) + ['color']}")
    rows = []
    # keyed like the rows (players, policies): each lineup plays its own openings, so each drops its own
    dropped: dict[tuple[int, str], list[str]] = {}
    constant: dict[tuple[int, str], dict[str, str]] = {}
    repeated: dict[tuple[int, str], dict[str, str]] = {}
    for players, part in by_players(df):
        for lineup, index in lineups(part, players).items():
            group = part.iloc[index]
            described = opening_features(group)
            won, share, margin = _first_player_outcome(group)
            deal = deal_numbers(group)
            key = (int(players), lineup_name(lineup))
            constant[key], repeated[key] = redundant_features(described, features) if informative else ({}, {})
            shown = [f for f in features if f not in constant[key] and f not in repeated[key]]
            dropped[key] = [f for f in features if f not in shown]
            for feature in shown:
                rows.extend(_feature_rows(players, lineup, feature, described[feature].to_numpy(), won, share, margin,
                                          deal, alpha))
    study = with_sample_size(pd.DataFrame(rows), df)
    study.attrs.update(dropped=dropped, constant=constant, repeated=repeated)
    return study


def _share_independence(values: np.ndarray, share: np.ndarray, deal: np.ndarray) -> float:
    """p-value of "the feature's value and the first player's share are independent".

    The score (Lagrange multiplier) test of a regression of the per-game share on the feature's
    values: N R^2, R^2 the share's variance between the values over its total variance, against
    chi-square with (values - 1) degrees of freedom. Under independence the share has one
    distribution at every value, so one variance serves them all; for 0/1 outcomes the statistic
    is Pearson's chi-square. Games clustered in deals (seat rotations) divide it by the design
    effect of the mean share (Rao and Scott's first-order correction, as for the whole-win test).
    NaN when the feature takes one value or the share never varies.
    """
    codes = np.unique(values.astype(str), return_inverse=True)[1]
    total = float(((share - share.mean()) ** 2).sum())
    if codes.max() == 0 or total == 0:
        return np.nan
    counts = np.bincount(codes)
    between = float((counts * (np.bincount(codes, weights=share) / counts - share.mean()) ** 2).sum())
    effect = float(clustered_rate(share, deal)[1][0])
    return float(stats.chi2.sf(len(share) * between / total / effect, len(counts) - 1))


def _feature_rows(
    players: int, lineup: tuple[str, ...], feature: str, values: np.ndarray, won: np.ndarray, share: np.ndarray,
    margin: np.ndarray, deal: np.ndarray, alpha: float,
) -> list[dict[str, Any]]:
    levels = sorted(set(values), key=str)
    share_pvalue = _share_independence(values, share, deal)
    counts = np.array([[np.sum(won & (values == v)), np.sum(~won & (values == v))] for v in levels])
    pvalue = np.nan
    if len(levels) > 1 and counts[:, 0].sum() > 0 and counts[:, 1].sum() > 0:
        test = stats.chi2_contingency(counts)
        # Rao-Scott's first-order correction for the rotations of a deal (1 without rotation).
        statistic = float(test.statistic) / float(clustered_rate(won, deal)[1][0])
        pvalue = float(stats.chi2.sf(statistic, test.dof))
    rows = []
    for level, (n_won, n_lost) in zip(levels, counts):
        games = int(n_won + n_lost)
        here = values == level
        low, high, _ = clustered_win_interval(won[here], deal[here], alpha)
        low, high = low[0], high[0]
        mean, margin_low, margin_high = clustered_mean_interval(margin[here], deal[here], alpha)
        win_share, win_share_low, win_share_high = share_interval(share[here], deal[here], alpha)
        rows.append({
            "players": players,
            "policies": lineup_name(lineup),
            "feature": feature,
            "value": str(level),
            "games": games,
            "share": games / len(values),
            "wins": int(n_won),
            "win_rate": n_won / games,
            "ci_low": float(low),
            "ci_high": float(high),
            "mean_margin": mean,
            "margin_low": margin_low,
            "margin_high": margin_high,
            "pvalue": pvalue,
            "win_share": win_share,
            "win_share_low": win_share_low,
            "win_share_high": win_share_high,
            "win_share_pvalue": share_pvalue,
        })
    return rows


def opening_rollouts(
    seed: int,
    players: int = 2,
    policy: str | PolicySpec = ANALYSIS_POLICY,
    rollouts: int = 200,
    workers: int = 1,
    first_player: int = 0,
    alpha: float = ALPHA,
    correction: str = "holm",
    variant: str = "colored",
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> pd.DataFrame:
    """Rank every legal first move of one deal by the win rate of rollouts with `policy`.

    The deal is ``State.new(players, seed, first_player, variant=variant)``. Each legal first move is played and
    the game finished `rollouts` times by `policy` in every seat. Rollout k of every move uses
    the same continuation (tile draws and policy choices seeded from `seed` and k: common random
    numbers), so moves are compared on the same futures and the comparison is paired.

    Each move gets a Wilson interval of its win rate, and McNemar's exact test (statsmodels) of
    "as good as the best move" on the paired outcomes; the p-values are corrected for the number
    of moves compared (`correction`: "holm" or "fdr_bh", statsmodels' multipletests).
    ``worse_than_best`` marks the moves that test rejects.

    Cost: (legal moves) x `rollouts` games, played in the core without the GIL
    (`azul_fast.runs.rollouts`) over `workers` threads, or as tasks on the Dask cluster of
    `scheduler` or `client`; the result does not depend on where.
    benchmarks/bench_rollouts.py measures the speed.

    Parameters
    ----------
    seed : int
        The deal: the game seed of its first position.
    players : int
        2, 3 or 4.
    policy : str
        Built-in policy in every seat of the rollouts.
    rollouts : int
        Rollouts per first move, at least 2.
    workers : int
        Processes, at least 1.
    first_player : int
        Seat that makes the first move.
    alpha : float
        1 - confidence level of the intervals.
    correction : str
        ``"holm"`` or ``"fdr_bh"``.
    variant : str
        ``"colored"`` or ``"gray"``.
    scheduler, client : str or distributed.Client, optional
        Play the rollouts on a Dask cluster instead of `workers` threads
        (`azul_fast.runs.where.run_where`); the same table.

    Returns
    -------
    DataFrame
        One row per legal first move, best first: ``rank, move, rollouts, wins, win_rate``, its
        interval (a rollout the mover shares first place in counts as a win: McNemar's test pairs
        whole outcomes), ``win_share`` (the mover's tie-split share: 1/k of a k-way tie, as
        `opening_analysis` and the seat studies count), the p-value against the best (raw and
        corrected) and ``worse_than_best``; ``attrs`` holds the settings and the ``seconds`` taken.

    Raises
    ------
    TypeError
        For an argument of the wrong type.
    ValueError
        For a bad value: an unknown policy or correction, fewer than 2 rollouts, a seat out of range.

    Examples
    --------
    >>> ranking = opening_rollouts(seed=7, rollouts=4, policy="greedy")
    >>> len(ranking), ranking.columns[:4].tolist()
    (96, ['rank', 'move', 'rollouts', 'wins'])
    """
    spec = parse_policy(policy)  # an unknown name raises UnknownPolicyError listing the valid ones
    rollouts = check_int(rollouts, "rollouts", 2, math.inf)
    workers = check_int(workers, "workers", 1, math.inf)
    if correction not in ("holm", "fdr_bh"):
        raise ValueError(f"correction must be 'holm' or 'fdr_bh', got {correction!r}")
    started = time.perf_counter()
    start = State.new(players, seed=seed, first_player=first_player, variant=variant)
    moves = [str(m) for m in start.legal_moves]
    seeds = native.continuation_seeds(int(seed), int(rollouts))
    with run_where(workers, scheduler, client) as where:
        result = native.rollouts(start, moves, spec, seeds, workers=where.workers, client=where.client)
    wins, margins = result.wins, result.margins.astype(float)
    table = _rank_moves(start, moves, wins, result.shares, margins, alpha, correction)
    table.attrs.update(
        seed=int(seed), players=players, first_player=first_player, policy=spec.name, rollouts=int(rollouts),
        correction=correction, variant=variant, seconds=round(time.perf_counter() - started, 2),
    )
    return table


def _rank_moves(
    start: State, moves: list[str], wins: np.ndarray, shares: np.ndarray, margins: np.ndarray, alpha: float,
    correction: str,
) -> pd.DataFrame:
    n = wins.shape[1]
    won = wins.sum(axis=1)
    mean_margin = margins.mean(axis=1)
    best = max(range(len(moves)), key=lambda i: (won[i], mean_margin[i]))
    others = np.arange(len(moves)) != best
    pvalues = np.array([mcnemar_pvalue(wins[best], wins[i]) if others[i] else np.nan for i in range(len(moves))])
    adjusted = np.full(len(moves), np.nan)
    reject = np.zeros(len(moves), dtype=bool)
    if others.any():
        reject[others], adjusted[others], _, _ = multipletests(pvalues[others], alpha=alpha, method=correction)
    low, high = win_interval(won, n, alpha)
    rows = []
    for i, move in enumerate(moves):
        margin, margin_low, margin_high = mean_interval(margins[i], alpha)
        rows.append({
            "move": move,
            "rollouts": n,
            "wins": int(won[i]),
            "win_rate": won[i] / n,
            "ci_low": float(low[i]),
            "ci_high": float(high[i]),
            "win_share": float(shares[i].mean()),
            "mean_margin": margin,
            "margin_low": margin_low,
            "margin_high": margin_high,
            "p_vs_best": pvalues[i],
            "p_adjusted": adjusted[i],
            "worse_than_best": bool(reject[i]),
            **move_features(start, Move.from_notation(move)),
        })
    table = pd.DataFrame(rows).sort_values(["win_rate", "mean_margin"], ascending=False, kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)


def opening_analysis(
    seed: int,
    players: int = 2,
    policy: str | PolicySpec = ANALYSIS_POLICY,
    rollouts: int = 20,
    workers: int | None = 1,
    first_player: int = 0,
    alpha: float = ALPHA,
    variant: str = "colored",
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> pd.DataFrame:
    """Rank every legal first move of one deal by adaptive paired rollouts (`position.analyse`).

    The deal is ``State.new(players, seed, first_player, variant=variant)``. Unlike
    `opening_rollouts`, which gives every move the same rollouts, the moves race
    (`azul_fast.studies.analyse.analyse`, ``allocation="adaptive"``): the rollouts go to the moves
    still in contention, and the race stops when the best move is separated from every other at
    level `alpha` (Holm over the moves, paired t tests on common random numbers;
    ``attrs["stopped"] == "separated"``) or when the `rollouts` a move on average are spent
    (``"budget"``: then no move is shown to be the best).

    Parameters
    ----------
    seed : int
        The deal: the game seed of its first position; also the root of the continuation seeds.
    players : int
        2, 3 or 4.
    policy : str
        Built-in policy in every seat of the rollouts.
    rollouts : int
        Rollouts per legal first move on average: the budget is this many times the legal moves.
    workers : int or None
        Threads for the rollouts (None: every core); the table does not depend on it.
    first_player : int
        Seat that makes the first move.
    alpha : float
        1 - confidence level.
    variant : str
        ``"colored"`` or ``"gray"``.
    scheduler, client : str or distributed.Client, optional
        Play the rollouts on a Dask cluster instead of `workers` threads
        (`azul_fast.runs.where.run_where`); the same table.

    Returns
    -------
    DataFrame
        One row per legal first move, best first, with `opening_rollouts`' columns: ``rank, move,
        rollouts`` (the move's own), ``wins`` (the mover's tie-split wins), ``win_rate`` (its
        tie-split share) and interval, ``mean_margin`` and interval, ``worse_than_best`` (the
        racing's paired test; ``p_vs_best`` and ``p_adjusted`` are NaN: the race keeps only the
        decisions) and the move's features; then ``policy`` and ``stopped`` (the same in every
        row, so that the CSV says it). ``attrs`` holds the settings, ``stopped`` and ``seconds``.

    Raises
    ------
    TypeError, ValueError
        For a bad argument (`State.new`, `analyse`, or fewer than 2 `rollouts`).

    Examples
    --------
    >>> ranking = opening_analysis(seed=7, rollouts=4, policy="greedy")
    >>> len(ranking), ranking.attrs["stopped"], int(ranking.rollouts.sum()) <= 4 * len(ranking)
    (96, 'budget', True)
    """
    rollouts = check_int(rollouts, "rollouts", 2, math.inf)
    start = State.new(players, seed=seed, first_player=first_player, variant=variant)
    table = analyse(start, policy=policy, rollouts=rollouts * len(start.legal_moves), seed=int(seed), alpha=alpha,
                    max_nodes=0, workers=workers, scheduler=scheduler, client=client)
    ranking = pd.DataFrame({
        "rank": table["rank"], "move": table.move, "rollouts": table.rollouts,
        "wins": table.win_share * table.rollouts, "win_rate": table.win_share, "ci_low": table.ci_low,
        "ci_high": table.ci_high, "mean_margin": table.margin, "margin_low": table.margin_low,
        "margin_high": table.margin_high, "p_vs_best": np.nan, "p_adjusted": np.nan,
        "worse_than_best": table.worse_than_best,
    })
    features = pd.DataFrame([move_features(start, Move.from_notation(m)) for m in ranking.move])
    ranking = pd.concat([ranking, features], axis=1).assign(policy=policy, stopped=table.attrs["stopped"])
    ranking.attrs.update(seed=int(seed), players=players, first_player=first_player, policy=policy,
                         rollouts=int(rollouts), variant=variant, alpha=alpha, allocation="adaptive",
                         stopped=table.attrs["stopped"], seconds=table.attrs["seconds"])
    return ranking
