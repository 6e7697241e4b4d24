"""Statistics of simulated games: seat advantage, seat-rotated comparisons and openings.

pandas in, pandas out. Every interval and test comes from scipy or statsmodels: Wilson intervals
for win rates (`proportion_confint(method="wilson")`), chi-square for "all seats equal", paired
t and Wilcoxon tests per deal, McNemar tests with a Holm correction for opening rollouts.

A *win* counts every winner of a game (highest score, then most complete rows; everyone still
tied shares the victory), so in a shared victory each winner has a win; such wins are also
counted as ``ties``.

>>> from azul_fast import simulate
>>> df = simulate(400, players=3, policies="greedy", seed=7, workers=1)
>>> table = seat_advantage(df)
>>> list(table.seat), int(table.games.iloc[0])
([0, 1, 2], 400)
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import math
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from azul_fast._state import State
from azul_fast.checks import check_int, check_seconds
from azul_fast.moves import CENTER, COLOR_LETTERS, FLOOR, Move
from azul_fast.plan import estimated_seconds_per_game as estimated_game_seconds
from azul_fast.policies import native_policy_id
from azul_fast.results import seat_columns
from azul_fast.simulate import simulate
from azul_fast.studies import LADDER_POLICIES

__all__ = [
    "ALPHA",
    "CONVERGENCE_PRECISION",
    "MIN_TYPE_DEALS",
    "OPENING_FEATURES",
    "OPENING_TYPE_FEATURES",
    "opening_features",
    "opening_rollouts",
    "opening_study",
    "opening_types",
    "paired_rotation_stats",
    "check_budget",
    "estimated_seconds_per_game",
    "first_player_by_strength",
    "games_for_budget",
    "seat_advantage",
    "strength_verdict",
    "short_lineup",
    "variant_comparison",
    "variant_difference",
    "win_interval",
]

#: Significance level of every interval (95 %) and test.
ALPHA = 0.05
#: Columns of `opening_features` that `opening_study` groups by.
OPENING_FEATURES = ("tiles", "line", "overflow", "source")


def win_interval(wins: Any, games: Any, alpha: float = ALPHA) -> tuple[Any, Any]:
    """Wilson score interval of a win rate (statsmodels), elementwise for arrays.

    >>> low, high = win_interval(50, 100)
    >>> round(float(low), 4), round(float(high), 4)
    (0.4038, 0.5962)
    """
    low, high = proportion_confint(wins, games, alpha=alpha, method="wilson")
    return low, high


def _mean_interval(values: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """Mean and its t interval (scipy); NaN bounds when fewer than two values or no spread."""
    values = np.asarray(values, dtype=float)
    if len(values) == 0:
        return np.nan, np.nan, np.nan
    mean = float(values.mean())
    if len(values) < 2:
        return mean, np.nan, np.nan
    if np.ptp(values) == 0:
        return mean, mean, mean
    ci = stats.ttest_1samp(values, 0.0).confidence_interval(1 - alpha)
    return mean, float(ci.low), float(ci.high)


def _deals(part: pd.DataFrame) -> np.ndarray:
    """The deal of every row, numbered from 0: in a seat-rotated run the rotations of one deal share
    it (they are one sample, not several); otherwise every game is its own deal."""
    if "deal" not in part.columns:
        return np.arange(len(part))
    return part.groupby(["deal", "seed"], sort=False).ngroup().to_numpy()


def _clustered_rate(values: np.ndarray, deal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rate of each column of `values` (0/1 per row) and its design effect over the deals.

    The design effect is the variance of the rate with the deals as independent units (ratio
    estimator) over the variance if every row were independent; it lies between 1 (rows
    independent) and the rows per deal (the rotations of a deal identical).
    """
    values = np.asarray(values, dtype=float).reshape(len(deal), -1)
    rows = len(deal)
    counts = np.bincount(deal).astype(float)
    sums = np.stack([np.bincount(deal, weights=column) for column in values.T], axis=1)
    rate = sums.sum(axis=0) / rows
    clustered = ((sums - rate * counts[:, None]) ** 2).sum(axis=0) / rows**2
    naive = rate * (1 - rate) / rows
    with np.errstate(invalid="ignore", divide="ignore"):
        effect = np.where(naive > 0, clustered / naive, counts.max())
    return rate, np.clip(effect, 1.0, counts.max())


def _clustered_win_interval(
    values: np.ndarray, deal: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wilson intervals of 0/1 rates over rows grouped in deals, on the effective sample size.

    With one row per deal this is `win_interval`; with the rotations of every deal identical it
    is `win_interval` of one row per deal. Returns the intervals and the design effects.
    """
    rate, effect = _clustered_rate(values, np.unique(deal, return_inverse=True)[1])
    effective = len(deal) / effect
    low, high = win_interval(rate * effective, effective, alpha)
    return np.atleast_1d(low), np.atleast_1d(high), effect


def _clustered_mean_interval(values: np.ndarray, deal: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """Mean of `values` and its t interval, over the per-deal means (every deal has as many rows)."""
    deal = np.unique(deal, return_inverse=True)[1]
    return _mean_interval(np.bincount(deal, weights=np.asarray(values, dtype=float)) / np.bincount(deal), alpha)


def _by_players(df: pd.DataFrame) -> Iterable[tuple[int, pd.DataFrame]]:
    """Split a frame (possibly concatenated from several player counts) by player count."""
    if df.empty:
        raise ValueError("no games: the DataFrame is empty")
    missing = {"players", "first_player", "win_0", "score_0", "policy_0"} - set(df.columns)
    if missing:
        raise ValueError(f"not a simulate() result: missing columns {sorted(missing)}")
    for players, part in df.groupby("players", sort=True):
        yield int(cast("np.integer[Any]", players)), part


def _lineups(part: pd.DataFrame, players: int, cyclic: bool = False) -> dict[tuple[str, ...], np.ndarray]:
    """Row positions of `part` by seat lineup (policy of seat 0, 1, ...).

    With `cyclic`, lineups that are rotations of each other are one group (named by the
    smallest rotation), which is how a seat-rotated run plays one deal.
    """
    groups = part.groupby(seat_columns("policy", players), observed=True, sort=True).indices
    out: dict[tuple[str, ...], list[np.ndarray]] = {}
    for key, rows in groups.items():
        key = tuple(str(k) for k in (key if isinstance(key, tuple) else (key,)))
        if cyclic:
            key = min(key[i:] + key[:i] for i in range(players))
        out.setdefault(key, []).append(np.asarray(rows))
    return {key: np.sort(np.concatenate(rows)) for key, rows in sorted(out.items())}


def _seat_matrix(part: pd.DataFrame, stem: str, players: int, dtype: Any) -> np.ndarray:
    return np.column_stack([part[c].to_numpy() for c in seat_columns(stem, players)]).astype(dtype)


def _lineup_name(lineup: Sequence[str]) -> str:
    return " v ".join(lineup)


def short_lineup(policies: str) -> str:
    """A lineup name for people: one policy in every seat is just its name.

    >>> short_lineup("greedy v greedy v greedy"), short_lineup("greedy v random")
    ('greedy', 'greedy v random')
    """
    names = policies.split(" v ")
    return names[0] if len(set(names)) == 1 else policies


def seat_advantage(df: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Win rate of every seat against its fair share, per player count and lineup.

    Parameters
    ----------
    df : DataFrame
        Rows from `simulate` (or several runs concatenated; seat columns of seats a game does
        not have may be NaN).
    alpha : float
        1 - confidence level of the intervals.

    Returns
    -------
    DataFrame
        One row per (players, first_player, policies, seat): ``games, wins`` (shared victories included),
        ``ties`` (the shared ones), ``win_rate`` and its Wilson interval ``ci_low, ci_high``,
        ``fair_share`` = 1/players, ``diff_pp`` = win rate minus fair share in percentage
        points with ``diff_pp_low, diff_pp_high``; ``win_share``: wins with a shared victory split
        between its winners, whose mean is exactly the fair share when seats are equal (the win
        rate counts a tie as a win for each winner, so with many ties every seat beats its fair
        share), with its t interval ``share_low, share_high``; ``mean_score, median_score``, and for 3 and 4
        players ``chi2, chi2_pvalue``: scipy's chi-square test that every seat wins equally often
        (NaN for 2 players, where the interval of seat 0 answers the same question).
        ``policies`` names the lineup, seat 0 first (``"greedy v random"``); ``deals`` counts the
        independent deals behind the row's games.

    Notes
    -----
    In a seat-rotated run (``simulate(..., seat_rotation=True)``) the rotations of one deal share
    their tiles, so they are not independent games (with one policy in every seat they are the
    same game). Every interval then treats the deal as the unit: the shares' t intervals are
    taken over per-deal means, the Wilson intervals use the effective sample size (games over the
    design effect), and the chi-square statistic is divided by the mean design effect (Rao and
    Scott's first-order correction). ``table.attrs`` holds ``games``, ``deals`` and
    ``seat_rotation``.

    >>> import pandas as pd
    >>> games = pd.DataFrame({"players": 2, "first_player": 0, "policy_0": "greedy", "policy_1": "greedy",
    ...                       "win_0": [True, True, False, True], "win_1": [False, True, True, False],
    ...                       "score_0": [30, 20, 10, 25], "score_1": [12, 20, 15, 5]})
    >>> seat_advantage(games)[["seat", "games", "wins", "ties", "win_rate", "diff_pp"]]
       seat  games  wins  ties  win_rate  diff_pp
    0     0      4     3     1      0.75     25.0
    1     1      4     2     1      0.50      0.0
    """
    rows = []
    for players, by_count in _by_players(df):
        fair = 1.0 / players
        for first, part in by_count.groupby("first_player", sort=True):
            rows.extend(_seat_rows(part, players, int(cast("np.integer[Any]", first)), fair, alpha))
    return _with_sample_size(pd.DataFrame(rows), df)


def _with_sample_size(table: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """`table` with attrs saying how many games and how many independent deals `df` holds."""
    rotated = "deal" in df.columns
    deals = df.groupby(["players", "deal", "seed"]).ngroups if rotated else len(df)
    table.attrs.update(games=len(df), deals=int(deals), seat_rotation=rotated)
    return table


def _seat_rows(part: pd.DataFrame, players: int, first: int, fair: float, alpha: float) -> list[dict[str, Any]]:
    rows = []
    for lineup, index in _lineups(part, players).items():
        group = part.iloc[index]
        wins = _seat_matrix(group, "win", players, bool)
        scores = _seat_matrix(group, "score", players, float)
        winners = wins.sum(axis=1)
        shared = wins & (winners > 1)[:, None]
        split = _split_wins(wins)
        seat_wins = wins.sum(axis=0)
        games = len(group)
        deal = _deals(group)
        low, high, effect = _clustered_win_interval(wins, deal, alpha)
        chi2, chi2_p = (np.nan, np.nan)
        if players >= 3 and seat_wins.sum() > 0:
            # Rao-Scott's first-order correction: the statistic over the mean design effect.
            statistic = float(stats.chisquare(seat_wins).statistic) / float(effect.mean())
            chi2, chi2_p = statistic, float(stats.chi2.sf(statistic, players - 1))
        for seat in range(players):
            rate = seat_wins[seat] / games
            share, share_low, share_high = _clustered_mean_interval(split[:, seat], deal, alpha)
            rows.append({
                "players": players,
                "first_player": first,
                "policies": _lineup_name(lineup),
                "seat": seat,
                "policy": lineup[seat],
                "games": games,
                "deals": int(deal.max()) + 1,
                "wins": int(seat_wins[seat]),
                "ties": int(shared[:, seat].sum()),
                "win_rate": rate,
                "ci_low": float(low[seat]),
                "ci_high": float(high[seat]),
                "fair_share": fair,
                "diff_pp": 100 * (rate - fair),
                "diff_pp_low": 100 * (float(low[seat]) - fair),
                "diff_pp_high": 100 * (float(high[seat]) - fair),
                "win_share": share,
                "share_low": share_low,
                "share_high": share_high,
                "mean_score": float(scores[:, seat].mean()),
                "median_score": float(np.median(scores[:, seat])),
                "chi2": chi2,
                "chi2_pvalue": chi2_p,
            })
    return rows


def paired_rotation_stats(df: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Policy and seat effects of a seat-rotated run (``simulate(..., seat_rotation=True)``).

    Every deal is played once per rotation of the policies round the table with the same tile
    draws, so within a deal each policy sits in every seat and each seat hosts every policy:
    comparing within deals (paired) removes the luck of the deal, and far fewer games are needed.

    Returns one row per (players, lineup, effect, level), where effect is ``"policy"`` (level: a
    policy name) or ``"seat"`` (level: ``"seat 0"``, ...):

    - ``deals, games`` (seat places taken), ``wins, win_rate, ci_low, ci_high`` (Wilson on the
      effective sample size: the places of one deal are not independent, so the deal is the unit),
      ``fair_share``, ``mean_score``;
    - paired per deal: ``score_diff`` = mean score of the policy (seat) minus the mean score of the
      other places at the same games, with its t interval ``score_diff_low, score_diff_high``,
      ``t_pvalue`` (scipy ``ttest_rel``) and ``wilcoxon_pvalue`` (scipy ``wilcoxon``); ``win_diff``
      and its interval, the same for the win rate. A policy that fills every seat has no
      comparison (NaN).

    >>> from azul_fast import simulate
    >>> df = simulate(300, players=2, policies=["greedy", "random"], seed=3, workers=1, seat_rotation=True)
    >>> stats_ = paired_rotation_stats(df)
    >>> stats_[["effect", "level", "deals", "games"]]
       effect   level  deals  games
    0  policy  greedy    300    600
    1  policy  random    300    600
    2    seat  seat 0    300    600
    3    seat  seat 1    300    600
    >>> bool(stats_.score_diff[0] > 10 and stats_.t_pvalue[0] < 1e-6)
    True
    """
    if not {"deal", "rotation"} <= set(df.columns):
        raise ValueError("paired_rotation_stats needs a seat-rotated run: simulate(..., seat_rotation=True)")
    rows = []
    for players, part in _by_players(df):
        for lineup, index in _lineups(part, players, cyclic=True).items():
            group = part.iloc[index]
            deal = group.groupby(["deal", "seed"], sort=False).ngroup().to_numpy()
            scores = _seat_matrix(group, "score", players, float)
            wins = _seat_matrix(group, "win", players, float)
            policies = _seat_matrix(group, "policy", players, str)
            seat_of = np.broadcast_to(np.arange(players), scores.shape)
            units = [("policy", name, policies == name) for name in sorted(set(lineup))]
            units += [("seat", f"seat {s}", seat_of == s) for s in range(players)]
            for effect, level, mask in units:
                row = {"players": players, "policies": _lineup_name(lineup), "effect": effect, "level": level}
                row.update(_paired_unit(deal, scores, wins, mask, players, alpha))
                rows.append(row)
    return _with_sample_size(pd.DataFrame(rows), df)


def _per_deal_mean(deal: np.ndarray, values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of `values` over the places selected by `mask`, for every deal."""
    deals = np.repeat(deal, values.shape[1])
    total = np.bincount(deals, weights=(values * mask).ravel())
    count = np.bincount(deals, weights=mask.ravel().astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count


def _paired_unit(
    deal: np.ndarray, scores: np.ndarray, wins: np.ndarray, mask: np.ndarray, players: int, alpha: float
) -> dict[str, Any]:
    n_wins = int(wins[mask].sum())
    games = int(mask.sum())
    low, high, _ = _clustered_win_interval(wins[mask], np.repeat(deal, mask.shape[1])[mask.ravel()], alpha)
    out: dict[str, Any] = {
        "deals": int(deal.max()) + 1,
        "games": games,
        "wins": n_wins,
        "win_rate": n_wins / games,
        "ci_low": float(low[0]),
        "ci_high": float(high[0]),
        "fair_share": 1.0 / players,
        "mean_score": float(scores[mask].mean()),
    }
    nan = dict.fromkeys(
        ["score_diff", "score_diff_low", "score_diff_high", "t_pvalue", "wilcoxon_pvalue",
         "win_diff", "win_diff_low", "win_diff_high"], np.nan)
    if mask.all():
        return out | nan
    own, other = _per_deal_mean(deal, scores, mask), _per_deal_mean(deal, scores, ~mask)
    paired = stats.ttest_rel(own, other)
    ci = paired.confidence_interval(1 - alpha)
    win_mean, win_low, win_high = _mean_interval(
        _per_deal_mean(deal, wins, mask) - _per_deal_mean(deal, wins, ~mask), alpha
    )
    return out | {
        "score_diff": float(np.mean(own - other)),
        "score_diff_low": float(ci.low),
        "score_diff_high": float(ci.high),
        "t_pvalue": float(paired.pvalue),
        "wilcoxon_pvalue": _wilcoxon(own - other),
        "win_diff": win_mean,
        "win_diff_low": win_low,
        "win_diff_high": win_high,
    }


def _wilcoxon(differences: np.ndarray) -> float:
    """Wilcoxon signed-rank p-value; NaN when every difference is zero (nothing to rank)."""
    if not np.any(differences):
        return np.nan
    return float(stats.wilcoxon(differences).pvalue)


def variant_difference(colored: pd.DataFrame, gray: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """The first player's share of wins on the colored and the gray wall, paired deal by deal.

    `colored` and `gray` are simulate() results with the same arguments and seed except
    ``variant``, so game i of both starts from the same deal; pairing them takes the deals' own
    luck out of the difference. Shares split a shared victory between its winners (their mean is
    the fair share when seats are equal). One row per player count: each wall's share with its
    t interval, the difference gray minus colored in percentage points with its paired interval
    and t-test p-value, and the mean score per seat on each wall with the paired difference.

    >>> from azul_fast import simulate
    >>> colored = simulate(300, players=2, policies="greedy", seed=5, workers=1)
    >>> gray = simulate(300, players=2, policies="greedy", seed=5, workers=1, variant="gray")
    >>> table = variant_difference(colored, gray)
    >>> list(table.players), int(table.games.iloc[0])
    ([2], 300)
    """
    if len(colored) != len(gray) or not np.array_equal(colored["seed"].to_numpy(), gray["seed"].to_numpy()):
        raise ValueError("variant_difference needs the same games on both walls: simulate() with the same "
                         "n_games, players, policies and seed, once per variant")
    rows = []
    for (players, part), (_, other) in zip(_by_players(colored), _by_players(gray)):
        first = int(part.first_player.iloc[0])
        on_colored, on_gray = _first_player_share(part, players, first), _first_player_share(other, players, first)
        share_c, low_c, high_c = _mean_interval(on_colored, alpha)
        share_g, low_g, high_g = _mean_interval(on_gray, alpha)
        diff, diff_low, diff_high = _mean_interval(on_gray - on_colored, alpha)
        scores_c = _seat_matrix(part, "score", players, float).mean(axis=1)
        scores_g = _seat_matrix(other, "score", players, float).mean(axis=1)
        score_diff, score_low, score_high = _mean_interval(scores_g - scores_c, alpha)
        rows.append({
            "players": players,
            "games": len(part),
            "colored_share": share_c, "colored_low": low_c, "colored_high": high_c,
            "gray_share": share_g, "gray_low": low_g, "gray_high": high_g,
            "diff_pp": 100 * diff, "diff_pp_low": 100 * diff_low, "diff_pp_high": 100 * diff_high,
            "t_pvalue": float(stats.ttest_rel(on_gray, on_colored).pvalue) if np.any(on_gray - on_colored) else np.nan,
            "colored_mean_score": float(scores_c.mean()),
            "gray_mean_score": float(scores_g.mean()),
            "score_diff": score_diff, "score_diff_low": score_low, "score_diff_high": score_high,
        })
    return pd.DataFrame(rows)


def variant_comparison(runs: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """One row per run: its variant and player count, the first player's win rate (Wilson 95%),
    mean score, rounds and complete colours per seat, and the share of truncated games."""
    rows = []
    for df in runs:
        players = int(df.attrs["players"])
        first = int(df.attrs["first_player"])
        wins = int(df[f"win_{first}"].sum())
        low, high = win_interval(wins, len(df))
        seats = range(players)
        rows.append({
            "players": players,
            "variant": df.attrs.get("variant", "colored"),
            "games": len(df),
            "first_player_win_rate": wins / len(df),
            "ci_low": float(low),
            "ci_high": float(high),
            "mean_score": float(np.mean([df[f"score_{p}"].mean() for p in seats])),
            "mean_rounds": float(df.rounds.mean()),
            "mean_colors": float(np.mean([df[f"colors_{p}"].mean() for p in seats])),
            "truncated": float(df.truncated.mean()),
        })
    return pd.DataFrame(rows)


def _first_player_share(part: pd.DataFrame, players: int, first: int) -> np.ndarray:
    """The first player's share of each game's victory (1 alone, 1/k of a k-way shared one)."""
    return _split_wins(_seat_matrix(part, "win", players, float))[:, first]


def _split_wins(wins: np.ndarray) -> np.ndarray:
    """Each seat's share of each game's victory: a shared victory split between its winners."""
    return np.asarray(wins / np.maximum(wins.sum(axis=1), 1)[:, None], dtype=float)


# -- the first player along the strength ladder -------------------------------------------


#: Half-width (a fraction) the interval of the two strongest levels' difference must not exceed
#: for `strength_verdict` to call the share converged.
CONVERGENCE_PRECISION = 0.025


def estimated_seconds_per_game(policy: str, players: int) -> float:
    """Estimated seconds of one core for one game of `policy` in every seat: the fixed cost model of
    `plan.estimated_seconds_per_game`. It only shares a time budget among the levels: the games
    played follow from it deterministically, so a study's numbers never depend on the machine.

    >>> estimated_seconds_per_game("mcts:200", 2) < estimated_seconds_per_game("mcts", 2)
    True
    """
    return estimated_game_seconds([policy] * players, players)


def games_for_budget(policy: str, players: int, seconds: float, min_games: int = 100,
                     max_games: int = 100_000) -> int:
    """Games of `policy` that fit in `seconds` of one core by `estimated_seconds_per_game`, clipped.

    >>> games_for_budget("greedy", 2, 10.0), games_for_budget("mcts", 4, 10.0)
    (100000, 100)
    """
    return int(np.clip(seconds / estimated_seconds_per_game(policy, players), min_games, max_games))


def check_budget(seconds: float, min_games: int = 100, max_games: int = 100_000) -> None:
    """Raise unless `seconds` > 0 (`check_seconds`) and 2 <= `min_games` <= `max_games` (`first_player_by_strength`).

    >>> check_budget(0.0)
    Traceback (most recent call last):
    ValueError: seconds must be positive (a number of seconds), got 0.0
    """
    check_seconds(seconds, "seconds")
    if not 2 <= min_games <= max_games:
        raise ValueError(f"need 2 <= min_games <= max_games, got min_games={min_games!r}, max_games={max_games!r}")


def _level_seed(seed: int, players: int, policy: str) -> int:
    """Root seed of one level's run, spawned from the study seed, the player count and the policy's name
    (so adding a level to the ladder leaves the other levels' games unchanged)."""
    key = int.from_bytes(hashlib.sha256(policy.encode()).digest()[:4], "little")
    return int(np.random.SeedSequence(seed, spawn_key=(players, key)).generate_state(1, np.uint64)[0])


def first_player_by_strength(
    ratings: pd.DataFrame,
    levels: Sequence[str] | None = None,
    players: Sequence[int] = (2, 3, 4),
    seconds: float = 20.0,
    min_games: int = 100,
    max_games: int = 100_000,
    seed: int = 0,
    workers: int | None = None,
    log: Callable[[str], Any] | None = None,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """The first player's tie-split share of wins along a ladder of policies, at each player count.

    For every level (one policy in every seat) and player count, `simulate` plays the games that
    fit in `seconds` of one core (`games_for_budget`; at least `min_games`, at most `max_games`),
    seat 0 moving first. Each game's victory is split between its winners; the first player's
    mean share, and every seat's, comes with its t interval. With one policy in every seat there is
    nothing to rotate: every game is its own deal.

    Parameters
    ----------
    ratings : DataFrame
        A `azul_fast.ladder.ladder` table (``policy, rating, ci_low, ci_high``) that rates every
        level: the x axis of the study (2-player Elo, also used at 3 and 4 players).
    levels : sequence of str or None
        Policies to study, weakest first (None: `azul_fast.ladder.DEFAULT_POLICIES`).
    players : sequence of int
        Player counts.
    seconds : float
        Budget of one core per level and player count, by the cost model.
    min_games, max_games : int
        Bounds on the games of one level.
    seed : int
        Study seed; each level's run gets its own seed spawned from it and the policy's name.
    workers : int or None
        Threads (None: every core). The numbers do not depend on it.
    log : callable or None
        Called with a line of text before each run.
    alpha : float
        1 - confidence level.

    Returns
    -------
    DataFrame
        One row per (players, policy), strongest level last: ``players, policy, elo, elo_low,
        elo_high, games, first_player_share, ci_low, ci_high, fair_share, se`` and every seat's
        ``share_k, share_k_low, share_k_high`` (NaN for seats the table does not have), plus
        ``mean_score``, ``ties`` (share of games with a shared victory) and ``seed``: the root seed
        of the level's run (``simulate(games, players, policy, seed=seed)`` replays it). ``attrs`` holds
        ``seed, seconds, levels, games`` (total).

    >>> from azul_fast.ladder import ladder
    >>> ratings = ladder(["random", "greedy"], games=20, seed=1, workers=1)
    >>> table = first_player_by_strength(ratings, ["random", "greedy"], players=[2], seconds=0.01, workers=1)
    >>> table[["players", "policy", "games"]]
       players  policy  games
    0        2  random    833
    1        2  greedy    285
    """
    levels = list(LADDER_POLICIES if levels is None else levels)
    check_budget(seconds, min_games, max_games)
    elo = _ratings_of(ratings, levels)
    say = log or (lambda line: None)
    counts = sorted(set(int(p) for p in players))
    if not counts or not set(counts) <= {2, 3, 4}:
        raise ValueError(f"players must be among 2, 3, 4, got {list(players)}")
    rows = []
    for n in counts:
        for policy in levels:
            games = games_for_budget(policy, n, seconds, min_games, max_games)
            say(f"first player by strength: {n} players, {policy} in every seat, {games:,} games")
            level_seed = _level_seed(int(seed), n, policy)
            df = simulate(games, n, policy, seed=level_seed, workers=workers, progress=False)
            rows.append(_strength_row(df, n, policy, elo[policy], alpha) | {"seed": level_seed})
    table = pd.DataFrame(rows)
    table.attrs.update(seed=int(seed), seconds=seconds, levels=levels, games=int(table.games.sum()))
    return table


def _ratings_of(ratings: pd.DataFrame, levels: Sequence[str]) -> dict[str, tuple[float, float, float]]:
    """Each level's Elo and interval from a ladder table, checked."""
    if not {"policy", "rating", "ci_low", "ci_high"} <= set(ratings.columns):
        raise ValueError("ratings must be a ladder() table with columns policy, rating, ci_low, ci_high")
    missing = [level for level in levels if level not in set(ratings.policy)]
    if missing:
        raise ValueError(f"the ratings do not rate {missing}: play the ladder with every level")
    for level in levels:
        native_policy_id(level)
    return {str(p): (float(r), float(lo), float(hi))
            for p, r, lo, hi in zip(ratings.policy, ratings.rating, ratings.ci_low, ratings.ci_high)}


def _strength_row(
    df: pd.DataFrame, players: int, policy: str, rating: tuple[float, float, float], alpha: float
) -> dict[str, Any]:
    wins = _seat_matrix(df, "win", players, float)
    split = _split_wins(wins)
    first = int(df.first_player.iloc[0])
    share, low, high = _mean_interval(split[:, first], alpha)
    row: dict[str, Any] = {
        "players": players, "policy": policy, "elo": rating[0], "elo_low": rating[1], "elo_high": rating[2],
        "games": len(df), "first_player_share": share, "ci_low": low,
        "ci_high": high, "fair_share": 1 / players, "se": float(stats.sem(split[:, first])),
    }
    for seat in range(4):
        seat_share = _mean_interval(split[:, seat], alpha) if seat < players else (np.nan,) * 3
        row.update(zip((f"share_{seat}", f"share_{seat}_low", f"share_{seat}_high"), seat_share))
    row["mean_score"] = float(_seat_matrix(df, "score", players, float).mean())
    row["ties"] = float((wins.sum(axis=1) > 1).mean())
    return row


def strength_verdict(
    table: pd.DataFrame, players: int, alpha: float = ALPHA, precision: float = CONVERGENCE_PRECISION
) -> dict[str, Any]:
    """Has the first player's share converged at the top of the ladder, at `players` players?

    Compares the two strongest levels (highest Elo) of `first_player_by_strength`: they
    ``agree`` when the interval of their difference (independent runs, normal approximation)
    holds 0, that is when they agree within their intervals; ``converged`` when they agree and
    that interval's half-width is at most `precision` (wide intervals agree with anything, which
    the text calls inconclusive). Returns ``agree, converged`` (bools), ``strongest``
    and ``runner_up`` (the two table rows as dicts), ``diff, diff_low, diff_high`` (strongest
    minus runner-up, as fractions) and ``text``, the verdict in words.

    >>> table = pd.DataFrame({"players": 2, "policy": ["a", "b"], "elo": [0.0, 100.0], "games": 1000,
    ...                       "first_player_share": [0.52, 0.51], "ci_low": [0.49, 0.48],
    ...                       "ci_high": [0.55, 0.54], "se": [0.0155, 0.0155]})
    >>> verdict = strength_verdict(table, 2)
    >>> verdict["agree"], verdict["converged"], verdict["text"].split(". ")[1][:12]
    (True, False, 'Inconclusive')
    """
    rows = table[table.players == players].sort_values("elo")
    if len(rows) < 2:
        raise ValueError(f"the study has fewer than two levels at {players} players")
    runner_up, strongest = rows.iloc[-2], rows.iloc[-1]
    diff = float(strongest.first_player_share - runner_up.first_player_share)
    half = float(stats.norm.ppf(1 - alpha / 2) * np.hypot(strongest.se, runner_up.se))
    converged = abs(diff) <= half
    precise = half <= precision
    level = f"{strongest.policy} ({strongest.elo:+.0f} Elo)"
    share = (f"{100 * strongest.first_player_share:.1f}% "
             f"[{100 * strongest.ci_low:.1f}, {100 * strongest.ci_high:.1f}] of wins for the first player "
             f"(fair share {100 / players:.1f}%, {int(strongest.games):,} games)")
    against = (f"{runner_up.policy} ({runner_up.elo:+.0f} Elo) gives {100 * runner_up.first_player_share:.1f}%, "
               f"a difference of {100 * diff:+.1f} points [{100 * (diff - half):+.1f}, {100 * (diff + half):+.1f}]")
    if not converged:
        verdict = f"Not converged yet: {against}, so stronger play may still move it."
    elif precise:
        verdict = f"Converged: {against}, so the two strongest levels agree within their intervals."
    else:
        verdict = (f"Inconclusive: {against}; they agree, but the interval is wider than +/-{100 * precision:.1f} "
                   "points, too wide to call it converged (play more games: --thorough).")
    text = f"{players} players, strongest level {level}: {share}. {verdict}"
    return {"converged": bool(converged and precise), "agree": bool(converged), "strongest": strongest.to_dict(),
            "runner_up": runner_up.to_dict(),
            "diff": diff, "diff_low": diff - half, "diff_high": diff + half, "text": text}


# -- openings ------------------------------------------------------------------------------


def _move_features(state: State, move: Move) -> dict[str, Any]:
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


def opening_features(df: pd.DataFrame) -> pd.DataFrame:
    """The opening move of every game, described: replays only the first move (about 6 us a game).

    Columns ``tiles`` (taken), ``line`` (``"1"``..``"5"`` or ``"F"`` for the floor), ``overflow``
    (tiles that fell to the floor), ``source`` (``"factory"``/``"centre"``), ``color``; same index
    as `df`.

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
        records.append(_move_features(state, move))
    return pd.DataFrame.from_records(records, index=df.index, columns=["tiles", "line", "overflow", "source", "color"])


def _first_player_outcome(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Did the first player win (shared wins count), and their score minus the best opponent's."""
    players = int(df["players"].iloc[0])
    wins = _seat_matrix(df, "win", players, bool)
    scores = _seat_matrix(df, "score", players, float)
    rows = np.arange(len(df))
    first = df["first_player"].to_numpy().astype(int)
    own = scores[rows, first]
    others = scores.copy()
    others[rows, first] = -np.inf
    return wins[rows, first], own - others.max(axis=1)


def opening_study(
    df: pd.DataFrame, features: Sequence[str] = OPENING_FEATURES, alpha: float = ALPHA
) -> pd.DataFrame:
    """First player's win rate and score margin by type of opening move, from simulated games.

    For each player count, lineup, feature (see `opening_features`) and value: ``games``,
    ``share`` of games, ``wins, win_rate, ci_low, ci_high`` (Wilson), ``mean_margin`` (first
    player's score minus the best opponent's) with its t interval ``margin_low, margin_high``,
    and ``pvalue``: scipy's chi-square test of independence between the feature and winning
    (one value per feature; NaN when the feature takes a single value).

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
    for players, part in _by_players(df):
        for lineup, index in _lineups(part, players).items():
            group = part.iloc[index]
            described = opening_features(group)
            won, margin = _first_player_outcome(group)
            deal = _deals(group)
            for feature in features:
                rows.extend(_feature_rows(players, lineup, feature, described[feature].to_numpy(), won, margin, deal,
                                          alpha))
    return _with_sample_size(pd.DataFrame(rows), df)


def _feature_rows(
    players: int, lineup: tuple[str, ...], feature: str, values: np.ndarray, won: np.ndarray, margin: np.ndarray,
    deal: np.ndarray, alpha: float,
) -> list[dict[str, Any]]:
    levels = sorted(set(values), key=str)
    counts = np.array([[np.sum(won & (values == v)), np.sum(~won & (values == v))] for v in levels])
    pvalue = np.nan
    if len(levels) > 1 and counts[:, 0].sum() > 0 and counts[:, 1].sum() > 0:
        test = stats.chi2_contingency(counts)
        # Rao-Scott's first-order correction for the rotations of a deal (1 without rotation).
        statistic = float(test.statistic) / float(_clustered_rate(won, np.unique(deal, return_inverse=True)[1])[1][0])
        pvalue = float(stats.chi2.sf(statistic, test.dof))
    rows = []
    for level, (n_won, n_lost) in zip(levels, counts):
        games = int(n_won + n_lost)
        here = values == level
        low, high, _ = _clustered_win_interval(won[here], deal[here], alpha)
        low, high = low[0], high[0]
        mean, margin_low, margin_high = _clustered_mean_interval(margin[here], deal[here], alpha)
        rows.append({
            "players": players,
            "policies": _lineup_name(lineup),
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
        })
    return rows


def _continuation_seeds(seed: int, rollouts: int) -> list[tuple[int, int]]:
    """Stream states (bag, policy) for rollout k: spawned from the position's seed and k."""
    seeds = []
    for k in range(rollouts):
        bag, policy = np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(2, np.uint64)
        seeds.append((int(bag), int(policy)))
    return seeds


def _roll_out(
    position: dict[str, Any], moves: list[str], policy: str, seeds: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Play each move then finish the game `len(seeds)` times; the mover's wins and margins."""
    mover = position["current_player"]
    wins = np.zeros((len(moves), len(seeds)), dtype=bool)
    margins = np.zeros((len(moves), len(seeds)))
    for i, move in enumerate(moves):
        after = State.from_dict(position)
        after.play(move)
        template = after.to_dict()
        for k, (bag, choice) in enumerate(seeds):
            template["rng"] = {"bag": bag, "policy": choice}
            state = State.from_dict(template)
            while not state.is_game_over():
                state.play(state.choose(policy))
            scores = list(state.scores)
            wins[i, k] = mover in state.winners
            margins[i, k] = scores[mover] - max(s for p, s in enumerate(scores) if p != mover)
    return wins, margins


def opening_rollouts(
    seed: int,
    players: int = 2,
    policy: str = "greedy",
    rollouts: int = 200,
    workers: int = 1,
    first_player: int = 0,
    alpha: float = ALPHA,
    correction: str = "holm",
    variant: str = "colored",
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

    Cost: (legal moves) x `rollouts` games played through the Python State API, about 0.35 ms a
    game at 2 players with greedy: a 2-player deal has 60-100 legal first moves, so 200
    rollouts take about 6 s on one core. `workers` > 1 splits the moves over processes (at most one
    per 5,000 games, so small jobs stay in this process); the result does not depend on it.

    >>> ranking = opening_rollouts(seed=7, rollouts=4)
    >>> len(ranking), ranking.columns[:4].tolist()
    (96, ['rank', 'move', 'rollouts', 'wins'])
    """
    native_policy_id(policy)  # an unknown name raises ValueError listing the valid ones
    rollouts = check_int(rollouts, "rollouts", 2, math.inf)
    workers = check_int(workers, "workers", 1, math.inf)
    if correction not in ("holm", "fdr_bh"):
        raise ValueError(f"correction must be 'holm' or 'fdr_bh', got {correction!r}")
    started = time.perf_counter()
    start = State.new(players, seed=seed, first_player=first_player, variant=variant)
    position = start.to_dict()
    moves = [str(m) for m in start.legal_moves]
    seeds = _continuation_seeds(int(seed), int(rollouts))
    wins, margins = _run_rollouts(position, moves, policy, seeds, int(workers))
    table = _rank_moves(start, moves, wins, margins, alpha, correction)
    table.attrs.update(
        seed=int(seed), players=players, first_player=first_player, policy=policy, rollouts=int(rollouts),
        correction=correction, variant=variant, seconds=round(time.perf_counter() - started, 2),
    )
    return table


#: Games a worker process should have to play before starting one pays off.
_GAMES_PER_PROCESS = 5_000


def _run_rollouts(
    position: dict[str, Any], moves: list[str], policy: str, seeds: list[tuple[int, int]], workers: int
) -> tuple[np.ndarray, np.ndarray]:
    workers = min(workers, len(moves), max(1, len(moves) * len(seeds) // _GAMES_PER_PROCESS))
    if workers == 1:
        return _roll_out(position, moves, policy, seeds)
    parts = [moves[i::workers] for i in range(workers)]
    # Processes, not threads: a rollout is a Python loop that holds the GIL between short native
    # calls. Fork is cheap and safe while this process has no other thread; otherwise spawn.
    method = "fork" if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method)) as pool:
        results = list(pool.map(_roll_out, [position] * workers, parts, [policy] * workers, [seeds] * workers))
    order = {move: i for i, move in enumerate(moves)}
    wins = np.zeros((len(moves), len(seeds)), dtype=bool)
    margins = np.zeros((len(moves), len(seeds)))
    for part, (part_wins, part_margins) in zip(parts, results):
        rows = [order[m] for m in part]
        wins[rows], margins[rows] = part_wins, part_margins
    return wins, margins


def _rank_moves(
    start: State, moves: list[str], wins: np.ndarray, margins: np.ndarray, alpha: float, correction: str
) -> pd.DataFrame:
    n = wins.shape[1]
    won = wins.sum(axis=1)
    mean_margin = margins.mean(axis=1)
    best = max(range(len(moves)), key=lambda i: (won[i], mean_margin[i]))
    others = np.arange(len(moves)) != best
    pvalues = np.array([_mcnemar(wins[best], wins[i]) if others[i] else np.nan for i in range(len(moves))])
    adjusted = np.full(len(moves), np.nan)
    reject = np.zeros(len(moves), dtype=bool)
    if others.any():
        reject[others], adjusted[others], _, _ = multipletests(pvalues[others], alpha=alpha, method=correction)
    low, high = win_interval(won, n, alpha)
    rows = []
    for i, move in enumerate(moves):
        margin, margin_low, margin_high = _mean_interval(margins[i], alpha)
        rows.append({
            "move": move,
            "rollouts": n,
            "wins": int(won[i]),
            "win_rate": won[i] / n,
            "ci_low": float(low[i]),
            "ci_high": float(high[i]),
            "mean_margin": margin,
            "margin_low": margin_low,
            "margin_high": margin_high,
            "p_vs_best": pvalues[i],
            "p_adjusted": adjusted[i],
            "worse_than_best": bool(reject[i]),
            **_move_features(start, Move.from_notation(move)),
        })
    table = pd.DataFrame(rows).sort_values(["win_rate", "mean_margin"], ascending=False, kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)


def _mcnemar(best: np.ndarray, other: np.ndarray) -> float:
    """McNemar's exact test on paired win/loss outcomes of two moves over the same rollouts."""
    table = [[np.sum(best & other), np.sum(best & ~other)], [np.sum(~best & other), np.sum(~best & ~other)]]
    return float(mcnemar(table, exact=True).pvalue)


# -- opening types across deals ------------------------------------------------------------


#: What kind of opening a first move is: tiles taken, pattern line (F: the floor), whether tiles
#: fall to the floor, whether it takes the first-player marker. `opening_types` drops those that
#: carry no information in its deals (constant, or the same partition as an earlier one).
OPENING_TYPE_FEATURES = ("tiles", "line", "to_floor", "marker")
#: Deals a type must be seen in before it is tested against the best.
MIN_TYPE_DEALS = 3


def _type_features(state: State, move: Move) -> dict[str, Any]:
    features = _move_features(state, move)
    features["to_floor"] = bool(features["overflow"] > 0 or move.line == FLOOR)
    # Taking from the centre while the marker lies there takes the marker too.
    features["marker"] = bool(move.source == CENTER and state.center_has_marker)
    return features


def _informative(moves: pd.DataFrame, features: Sequence[str]) -> list[str]:
    """The features that tell moves apart: not constant, and not a relabelling of an earlier one."""
    kept: list[str] = []
    for feature in features:
        codes = moves[feature].astype(str)
        if codes.nunique() < 2:
            continue
        if any(moves.groupby(codes)[other].nunique().max() == 1 and moves.groupby(moves[other].astype(str))[feature]
               .nunique().max() == 1 for other in kept):
            continue
        kept.append(feature)
    return kept


def opening_types(
    deals: int | Sequence[int] = 20,
    players: int = 2,
    policy: str = "greedy",
    rollouts: int = 20,
    seed: int = 0,
    workers: int = 1,
    alpha: float = ALPHA,
    correction: str = "holm",
    log: Callable[[str], Any] | None = None,
    variant: str = "colored",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Which kind of opening is best: every first move of many deals rolled out, grouped by type.

    Each deal (`deals` game seeds, or that many seeds spawned from `seed`) is ranked by `opening_rollouts`
    (`rollouts` paired rollouts per legal first move, `policy` in every seat). A move's *type*
    is its `OPENING_TYPE_FEATURES` after dropping those that carry no information here (on the
    first move nothing can be taken from the centre, so ``marker`` is always dropped). In each deal
    a type scores the mean win rate of its moves minus the mean of all the deal's moves (its
    *edge*; subtracting the deal's mean takes out how good the deal is for the first player).
    Types are ranked by their mean edge over the deals they occur in, with a t interval: first the
    ``common`` types (seen in at least half the deals), then the rare ones. Each is compared with
    the top type by a paired t test over the deals where both occur (at least `MIN_TYPE_DEALS`),
    corrected for the number of types (`correction`). ``worse_than_best`` marks the rejections.

    Returns
    -------
    (types, moves) : tuple of DataFrame
        ``types``: ``rank, type``, the kept features, ``deals, moves, win_rate`` (mean over
        deals), ``edge, edge_low, edge_high``, ``common``, ``common_deals, p_vs_best, p_adjusted,
        worse_than_best``; ``attrs`` holds the settings and ``features`` (kept) and ``dropped``.
        ``moves``: the per-deal rankings (the drill-down), one row per move with its ``deal`` seed.

    >>> types, moves = opening_types(deals=3, rollouts=2, seed=1)
    >>> types.attrs["dropped"], int(types["rank"].iloc[0]), moves.deal.nunique()
    (['marker'], 1, 3)
    """
    seeds = _deal_seeds(deals, seed)
    say = log or (lambda line: None)
    started = time.perf_counter()
    tables = []
    for k, deal_seed in enumerate(seeds):
        if k % 5 == 0:
            say(f"opening types: deal {k + 1} of {len(seeds)}")
        ranking = opening_rollouts(deal_seed, players=players, policy=policy, rollouts=rollouts, workers=workers,
                                   alpha=alpha, correction=correction, variant=variant)
        start = State.new(players, seed=deal_seed, variant=variant)
        extra = pd.DataFrame([_type_features(start, Move.from_notation(m)) for m in ranking.move])
        ranking = ranking.assign(to_floor=extra.to_floor.to_numpy(), marker=extra.marker.to_numpy())
        tables.append(ranking.assign(deal=np.full(len(ranking), deal_seed, dtype=np.uint64)))
    moves = pd.concat(tables, ignore_index=True)
    kept = _informative(moves, OPENING_TYPE_FEATURES)
    types = _rank_types(moves, kept, alpha, correction)
    types.attrs.update(deals=len(seeds), players=players, policy=policy, rollouts=int(rollouts), seed=int(seed),
                       correction=correction, variant=variant, features=kept,
                       dropped=[f for f in OPENING_TYPE_FEATURES if f not in kept],
                       seconds=round(time.perf_counter() - started, 2))
    return types, moves


def _deal_seeds(deals: int | Sequence[int], seed: int) -> list[int]:
    if isinstance(deals, (int, np.integer)) and not isinstance(deals, bool):
        return [int(np.random.SeedSequence(int(seed), spawn_key=(k,)).generate_state(1, np.uint64)[0])
                for k in range(check_int(deals, "deals", 2, math.inf))]
    seeds = [int(s) for s in cast("Sequence[int]", deals)]
    if len(seeds) < 2 or len(set(seeds)) != len(seeds):
        raise ValueError(f"deals: give at least two different game seeds, got {seeds}")
    return seeds


def _type_name(features: Sequence[str], values: Sequence[Any]) -> str:
    """A type in words: ``2 tile(s), line 2, none to the floor``."""
    parts = []
    named = dict(zip(features, values))
    for feature, value in named.items():
        if feature == "to_floor" and named.get("line") == "F":
            continue  # the floor line says it already
        parts.append({"tiles": f"{value} tile(s)", "line": "to the floor line" if value == "F" else f"line {value}",
                      "to_floor": "some to the floor" if value else "none to the floor",
                      "marker": "takes the marker" if value else ""}[feature])
    return ", ".join(p for p in parts if p)


def _rank_types(moves: pd.DataFrame, features: list[str], alpha: float, correction: str) -> pd.DataFrame:
    deal_mean = moves.groupby("deal").win_rate.transform("mean")
    moves = moves.assign(edge=moves.win_rate - deal_mean, type=[_type_name(features, v) for v in
                                                                 moves[features].itertuples(index=False)])
    per_deal = moves.groupby(["type", "deal"]).agg(edge=("edge", "mean"), win_rate=("win_rate", "mean"))
    edges = per_deal.edge.unstack("deal")  # type x deal, NaN where the deal has no move of the type
    rows = []
    for name, values in edges.iterrows():
        name = str(name)
        present = values.dropna().to_numpy()
        mean, low, high = _mean_interval(present, alpha)
        first = moves[moves.type == name].iloc[0]
        rows.append({"type": name, **{f: first[f] for f in features}, "deals": len(present),
                     "moves": int((moves.type == name).sum()),
                     "win_rate": float(per_deal.xs(name, level="type").win_rate.mean()), "edge": mean, "edge_low": low,
                     "edge_high": high})
    table = pd.DataFrame(rows)
    # A type that few deals allow (4 tiles of a colour in one factory) has a wide interval and would
    # often top the table by luck; ranking the common types first keeps the reference type
    # comparable with the others over many deals.
    table["common"] = table.deals >= edges.shape[1] / 2
    table = table.sort_values(["common", "edge"], ascending=[False, False], kind="stable").reset_index(drop=True)
    best = edges.loc[table.type.iloc[0]]
    common, pvalues = [], []
    for name in table.type:
        both = edges.loc[name].notna() & best.notna()
        common.append(int(both.sum()))
        diff = (best - edges.loc[name])[both].to_numpy()
        testable = name != table.type.iloc[0] and both.sum() >= MIN_TYPE_DEALS and np.any(diff)
        pvalues.append(float(stats.ttest_1samp(diff, 0.0).pvalue) if testable else np.nan)
    table["common_deals"] = common
    table["p_vs_best"] = pvalues
    tested = table.p_vs_best.notna().to_numpy()
    table["p_adjusted"] = np.nan
    table["worse_than_best"] = False
    if tested.any():
        reject, adjusted, _, _ = multipletests(table.p_vs_best[tested], alpha=alpha, method=correction)
        table.loc[tested, "p_adjusted"] = adjusted
        table.loc[tested, "worse_than_best"] = reject
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table
