"""Seat advantage: how often each seat wins, seat-rotated comparisons of policies, and the
colored wall against the gray.

pandas in, pandas out. A *win* counts every winner of a game (highest score, then most complete
rows; everyone still tied shares the victory), so in a shared victory each winner has a win; such
wins are also counted as ``ties``.

>>> from azul_fast import simulate
>>> df = simulate(400, players=3, policies="greedy", seed=7, workers=1)
>>> table = seat_advantage(df)
>>> list(table.seat), int(table.games.iloc[0])
([0, 1, 2], 400)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd
from scipy import stats

from azul_fast.runs.frames import seat_columns
from azul_fast.studies.intervals import (
    ALPHA,
    clustered_mean_interval,
    clustered_win_interval,
    deal_numbers,
    mean_interval,
    share_interval,
    wilcoxon_pvalue,
    win_interval,
)

__all__ = ["first_player_shares", "paired_rotation_stats", "seat_advantage", "split_wins", "variant_comparison",
           "variant_difference"]


def by_players(df: pd.DataFrame) -> Iterable[tuple[int, pd.DataFrame]]:
    """Split a frame (possibly concatenated from several player counts) by player count."""
    if df.empty:
        raise ValueError("no games: the DataFrame is empty")
    missing = {"players", "first_player", "win_0", "score_0", "policy_0"} - set(df.columns)
    if missing:
        raise ValueError(f"not a simulate() result: missing columns {sorted(missing)}")
    for players, part in df.groupby("players", sort=True):
        yield int(cast("np.integer[Any]", players)), part


def lineups(part: pd.DataFrame, players: int, cyclic: bool = False) -> dict[tuple[str, ...], np.ndarray]:
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


def seat_matrix(part: pd.DataFrame, stem: str, players: int, dtype: Any) -> np.ndarray:
    return np.column_stack([part[c].to_numpy() for c in seat_columns(stem, players)]).astype(dtype)


def lineup_name(lineup: Sequence[str]) -> str:
    return " v ".join(lineup)



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

    Raises
    ------
    ValueError
        If `df` is empty or is not a `simulate` result (the missing columns are named).

    Examples
    --------
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
    for players, by_count in by_players(df):
        fair = 1.0 / players
        for first, part in by_count.groupby("first_player", sort=True):
            rows.extend(_seat_rows(part, players, int(cast("np.integer[Any]", first)), fair, alpha))
    return with_sample_size(pd.DataFrame(rows), df)


def with_sample_size(table: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """`table` with attrs saying how many games and how many independent deals `df` holds."""
    rotated = "deal" in df.columns
    deals = df.groupby(["players", "deal", "seed"]).ngroups if rotated else len(df)
    table.attrs.update(games=len(df), deals=int(deals), seat_rotation=rotated)
    return table


def _seat_rows(part: pd.DataFrame, players: int, first: int, fair: float, alpha: float) -> list[dict[str, Any]]:
    rows = []
    for lineup, index in lineups(part, players).items():
        group = part.iloc[index]
        wins = seat_matrix(group, "win", players, bool)
        scores = seat_matrix(group, "score", players, float)
        winners = wins.sum(axis=1)
        shared = wins & (winners > 1)[:, None]
        split = split_wins(wins)
        seat_wins = wins.sum(axis=0)
        games = len(group)
        deal = deal_numbers(group)
        low, high, effect = clustered_win_interval(wins, deal, alpha)
        chi2, chi2_p = (np.nan, np.nan)
        if players >= 3 and seat_wins.sum() > 0:
            # Rao-Scott's first-order correction: the statistic over the mean design effect.
            statistic = float(stats.chisquare(seat_wins).statistic) / float(effect.mean())
            chi2, chi2_p = statistic, float(stats.chi2.sf(statistic, players - 1))
        for seat in range(players):
            rate = seat_wins[seat] / games
            share, share_low, share_high = clustered_mean_interval(split[:, seat], deal, alpha)
            rows.append({
                "players": players,
                "first_player": first,
                "policies": lineup_name(lineup),
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

    Parameters
    ----------
    df : DataFrame
        A seat-rotated run of `simulate` (it has the ``deal`` and ``rotation`` columns).
    alpha : float
        1 - confidence level of the intervals.

    Returns
    -------
    DataFrame
        One row per (players, lineup, effect, level), where effect is ``"policy"`` (level: a
        policy name) or ``"seat"`` (level: ``"seat 0"``, ...); the columns are listed below.

    Raises
    ------
    ValueError
        If `df` is not a seat-rotated `simulate` result, or is empty.

    Notes
    -----
    The columns:

    - ``deals, games`` (seat places taken), ``wins, win_rate, ci_low, ci_high`` (Wilson on the
      effective sample size: the places of one deal are not independent, so the deal is the unit),
      ``fair_share``, ``mean_score``;
    - paired per deal: ``score_diff`` = mean score of the policy (seat) minus the mean score of the
      other places at the same games, with its t interval ``score_diff_low, score_diff_high``,
      ``t_pvalue`` (scipy ``ttest_rel``) and ``wilcoxon_pvalue`` (scipy ``wilcoxon``); ``win_diff``
      and its interval, the same for the win rate. A policy that fills every seat has no
      comparison (NaN).

    Examples
    --------
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
    for players, part in by_players(df):
        for lineup, index in lineups(part, players, cyclic=True).items():
            group = part.iloc[index]
            deal = group.groupby(["deal", "seed"], sort=False).ngroup().to_numpy()
            scores = seat_matrix(group, "score", players, float)
            wins = seat_matrix(group, "win", players, float)
            policies = seat_matrix(group, "policy", players, str)
            seat_of = np.broadcast_to(np.arange(players), scores.shape)
            units = [("policy", name, policies == name) for name in sorted(set(lineup))]
            units += [("seat", f"seat {s}", seat_of == s) for s in range(players)]
            for effect, level, mask in units:
                row = {"players": players, "policies": lineup_name(lineup), "effect": effect, "level": level}
                row.update(_paired_unit(deal, scores, wins, mask, players, alpha))
                rows.append(row)
    return with_sample_size(pd.DataFrame(rows), df)


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
    low, high, _ = clustered_win_interval(wins[mask], np.repeat(deal, mask.shape[1])[mask.ravel()], alpha)
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
    win_mean, win_low, win_high = mean_interval(
        _per_deal_mean(deal, wins, mask) - _per_deal_mean(deal, wins, ~mask), alpha
    )
    return out | {
        "score_diff": float(np.mean(own - other)),
        "score_diff_low": float(ci.low),
        "score_diff_high": float(ci.high),
        "t_pvalue": float(paired.pvalue),
        "wilcoxon_pvalue": wilcoxon_pvalue(own - other),
        "win_diff": win_mean,
        "win_diff_low": win_low,
        "win_diff_high": win_high,
    }


def variant_difference(colored: pd.DataFrame, gray: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """The first player's share of wins on the colored and the gray wall, paired deal by deal.

    `colored` and `gray` are simulate() results with the same arguments and seed except
    ``variant``, so game i of both starts from the same deal; pairing them takes the deals' own
    luck out of the difference. Shares split a shared victory between its winners (their mean is
    the fair share when seats are equal). One row per player count: each wall's share with its
    t interval, the difference gray minus colored in percentage points with its paired interval
    and t-test p-value, and the mean score per seat on each wall with the paired difference.

    Parameters
    ----------
    colored, gray : DataFrame
        The two runs: `simulate` with the same arguments and seed, ``variant="colored"`` and
        ``variant="gray"``.
    alpha : float
        1 - confidence level of the intervals.

    Returns
    -------
    DataFrame
        One row per player count: ``players, games``, each wall's share with its interval, the
        difference in points with its interval and p-value, and the scores per seat.

    Raises
    ------
    ValueError
        If the runs are not the same games on the two walls (different seeds, sizes or lineups),
        or not `simulate` results.

    Examples
    --------
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
    for (players, part), (_, other) in zip(by_players(colored), by_players(gray)):
        first = int(part.first_player.iloc[0])
        on_colored, on_gray = _first_player_share(part, players, first), _first_player_share(other, players, first)
        share_c, low_c, high_c = mean_interval(on_colored, alpha)
        share_g, low_g, high_g = mean_interval(on_gray, alpha)
        diff, diff_low, diff_high = mean_interval(on_gray - on_colored, alpha)
        scores_c = seat_matrix(part, "score", players, float).mean(axis=1)
        scores_g = seat_matrix(other, "score", players, float).mean(axis=1)
        score_diff, score_low, score_high = mean_interval(scores_g - scores_c, alpha)
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
    """One row per run: its variant and player count, the first player's wins, mean score, rounds
    and complete colours per seat, and the share of truncated games.

    The first player's wins are counted two ways: ``first_player_share`` splits a shared victory
    between its winners (the mean of the first player's share of each game, as
    `variant_difference` counts it) with its 95% t interval ``share_low, share_high``
    (`intervals.share_interval`: over the per-deal means in a seat-rotated run, cut to [0, 1]);
    ``first_player_win_rate`` counts a shared victory as a win, with its Wilson 95% interval
    ``ci_low, ci_high``.

    Parameters
    ----------
    runs : sequence of DataFrame
        `simulate` results, each of one wall and player count (``df.attrs["variant"]`` names the
        wall).

    Returns
    -------
    DataFrame
        One row per run, in the order given.

    Raises
    ------
    ValueError
        If a run is empty or not a `simulate` result.

    Examples
    --------
    >>> from azul_fast import simulate
    >>> runs = [simulate(200, players=2, policies="greedy", seed=5, workers=1, variant=v) for v in ("colored", "gray")]
    >>> variant_comparison(runs)[["variant", "players", "games"]]
       variant  players  games
    0  colored        2    200
    1     gray        2    200
    """
    rows = []
    for df in runs:
        players = int(df.attrs["players"])
        first = int(df.attrs["first_player"])
        wins = int(df[f"win_{first}"].sum())
        low, high = win_interval(wins, len(df))
        share, share_low, share_high = share_interval(_first_player_share(df, players, first), deal_numbers(df))
        seats = range(players)
        rows.append({
            "players": players,
            "variant": df.attrs.get("variant", "colored"),
            "games": len(df),
            "first_player_win_rate": wins / len(df),
            "ci_low": float(low),
            "ci_high": float(high),
            "first_player_share": share,
            "share_low": share_low,
            "share_high": share_high,
            "mean_score": float(np.mean([df[f"score_{p}"].mean() for p in seats])),
            "mean_rounds": float(df.rounds.mean()),
            "mean_colors": float(np.mean([df[f"colors_{p}"].mean() for p in seats])),
            "truncated": float(df.truncated.mean()),
        })
    return pd.DataFrame(rows)


def _first_player_share(part: pd.DataFrame, players: int, first: int) -> np.ndarray:
    """The first player's share of each game's victory (1 alone, 1/k of a k-way shared one)."""
    return split_wins(seat_matrix(part, "win", players, float))[:, first]


def first_player_shares(games: pd.DataFrame) -> np.ndarray:
    """Each game's first player's share of its victory (1 alone, 1/k of a k-way shared one), for games of
    one player count (`azul_fast.simulate`'s table).

    Parameters
    ----------
    games : pandas.DataFrame
        Games of one player count, with ``players``, ``first_player`` and ``win_<seat>`` columns.

    Returns
    -------
    numpy.ndarray
        One share a game, in the table's order.

    Raises
    ------
    KeyError
        When a column above is missing.

    Examples
    --------
    >>> games = pd.DataFrame({"players": 2, "first_player": [0, 1], "win_0": [True, True], "win_1": [False, True]})
    >>> first_player_shares(games).tolist()
    [1.0, 0.5]
    """
    players = int(games.players.iloc[0])
    split = split_wins(seat_matrix(games, "win", players, float))
    return np.asarray(split[np.arange(len(games)), games.first_player.to_numpy(int)], dtype=float)


def split_wins(wins: np.ndarray) -> np.ndarray:
    """Each seat's share of each game's victory: a shared victory split between its winners.

    Parameters
    ----------
    wins : numpy.ndarray
        ``(games, seats)``: 1 where the seat won (alone or shared), else 0.

    Returns
    -------
    numpy.ndarray
        ``(games, seats)`` floats: 1/k for each of a game's k winners, 0 for the others.

    Raises
    ------
    ValueError
        When `wins` is not two-dimensional.

    Examples
    --------
    >>> split_wins(np.array([[1, 0], [1, 1]])).tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    wins = np.asarray(wins)
    if wins.ndim != 2:
        raise ValueError(f"wins must be a (games, seats) array, got {wins.ndim} dimensions")
    return np.asarray(wins / np.maximum(wins.sum(axis=1), 1)[:, None], dtype=float)
