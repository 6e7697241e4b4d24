"""Openings: what a first move does (tiles, line, overflow, source), how often each kind wins in
simulated games, and the first moves of one deal ranked by paired rollouts (McNemar tests with a
Holm correction).
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import multiprocessing
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

from azul_fast.core._state import State
from azul_fast.core.checks import check_int
from azul_fast.core.moves import CENTER, COLOR_LETTERS, FLOOR, Move
from azul_fast.core.policies import native_policy_id
from azul_fast.studies.intervals import (
    ALPHA,
    _clustered_mean_interval,
    _clustered_rate,
    _clustered_win_interval,
    _deals,
    _mcnemar,
    mean_interval,
    win_interval,
)
from azul_fast.studies.seats import by_players, lineup_name, lineups, seat_matrix, with_sample_size

__all__ = ["OPENING_FEATURES", "opening_features", "opening_rollouts", "opening_study"]


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


def _first_player_outcome(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Did the first player win (shared wins count), and their score minus the best opponent's."""
    players = int(df["players"].iloc[0])
    wins = seat_matrix(df, "win", players, bool)
    scores = seat_matrix(df, "score", players, float)
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

    Parameters
    ----------
    df : DataFrame
        Rows from `simulate`.
    features : sequence of str
        Which of `opening_features`' columns to group by, each on its own.
    alpha : float
        1 - confidence level of the intervals.

    Returns
    -------
    DataFrame
        One row per (players, lineup, feature, value), with the columns above.

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
    for players, part in by_players(df):
        for lineup, index in lineups(part, players).items():
            group = part.iloc[index]
            described = opening_features(group)
            won, margin = _first_player_outcome(group)
            deal = _deals(group)
            for feature in features:
                rows.extend(_feature_rows(players, lineup, feature, described[feature].to_numpy(), won, margin, deal,
                                          alpha))
    return with_sample_size(pd.DataFrame(rows), df)


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

    Returns
    -------
    DataFrame
        One row per legal first move, best first: ``rank, move, rollouts, wins, win_rate``, its
        interval, the p-value against the best (raw and corrected) and ``worse_than_best``;
        ``attrs`` holds the settings and the ``seconds`` taken.

    Raises
    ------
    TypeError
        For an argument of the wrong type.
    ValueError
        For a bad value: an unknown policy or correction, fewer than 2 rollouts, a seat out of range.

    Examples
    --------
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
        margin, margin_low, margin_high = mean_interval(margins[i], alpha)
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
            **move_features(start, Move.from_notation(move)),
        })
    table = pd.DataFrame(rows).sort_values(["win_rate", "mean_margin"], ascending=False, kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)
