"""The first player along the strength ladder: the share at each level of play, a fixed cost
model that shares a time budget among the levels, and the verdict on whether the strongest levels
agree.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.rules.checks import check_int, check_seconds
from azul_fast.core.rules.moves import PLAYER_COUNTS
from azul_fast.core.rules.seeds import spawn_seed
from azul_fast.core.rules.table import check_player_counts
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.simulate import simulate
from azul_fast.runs.where import run_where
from azul_fast.studies.intervals import ALPHA, mean_interval
from azul_fast.studies.seats import seat_matrix, split_wins
from azul_fast.studies.settings import LADDER_POLICIES

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["CONVERGENCE_PRECISION", "check_budget", "estimated_study_seconds", "first_player_by_strength",
           "games_for_budget", "strength_verdict"]


# -- the first player along the strength ladder -------------------------------------------


#: Half-width (a fraction) the interval of the two strongest levels' difference must not exceed
#: for `strength_verdict` to call the share converged.
CONVERGENCE_PRECISION = 0.025


def games_for_budget(policy: str | PolicySpec, players: int, seconds: float, min_games: int = 100,
                     max_games: int = 100_000) -> int:
    """Games of `policy` (in every seat) that fit in `seconds` of one core by the fixed cost model
    (`azul_fast.runs.plan.estimated_seconds_per_game`), clipped. The cost model only shares a time
    budget among the levels: the games played follow from it deterministically, so a study's
    numbers never depend on the machine.

    Parameters
    ----------
    policy : str or PolicySpec
        A built-in policy.
    players : int
        Players at the table.
    seconds : float
        The budget of one core.
    min_games, max_games : int
        The clip.

    Returns
    -------
    int
        The games, `min_games` to `max_games`.

    Raises
    ------
    ValueError
        For an unknown policy.

    Examples
    --------
    >>> games_for_budget("greedy", 2, 10.0), games_for_budget("mcts", 4, 10.0)
    (100000, 100)
    >>> games_for_budget("learned", 2, 10.0)   # about 2.5 ms a game
    3934
    """
    seconds_per_game = estimated_seconds_per_game([policy] * players, players)
    return int(np.clip(seconds / seconds_per_game, min_games, max_games))


def _study_runs(levels: Sequence[PolicySpec], players: Sequence[int], seconds: float, min_games: int,
                max_games: int, fixed_games: Mapping[tuple[int, str], int] | None = None,
                ) -> list[tuple[int, PolicySpec, int, float]]:
    """The runs of a strength study in the order played: (players, policy, games, estimated seconds)."""
    fixed = dict(fixed_games or {})
    runs = []
    for n in players:
        for policy in levels:
            games = fixed.get((n, policy.name)) or games_for_budget(policy, n, seconds, min_games, max_games)
            runs.append((n, policy, games, games * estimated_seconds_per_game([policy] * n, n)))
    return runs


def estimated_study_seconds(levels: Sequence[str | PolicySpec], players: Sequence[int], seconds: float,
                            min_games: int = 100, max_games: int = 100_000,
                            fixed_games: Mapping[tuple[int, str], int] | None = None) -> float:
    """Seconds of one core that `first_player_by_strength` takes with these sizes, by the cost model.

    Every level and player count plays `games_for_budget` games, so a level clipped up to
    `min_games` costs more than `seconds` and one clipped down to `max_games` less.

    Parameters
    ----------
    levels : sequence of str or PolicySpec
        The study's policies.
    players : sequence of int
        Its player counts.
    seconds : float
        Budget of one core per level and player count.
    min_games, max_games : int
        Bounds on the games of one level.
    fixed_games : mapping or None
        Games of some runs, by (players, policy), in place of the budget's.

    Returns
    -------
    float
        The estimate (divide by the workers for the wall time); progress reports weigh by it.

    Raises
    ------
    ValueError
        For an unknown policy or a budget `check_budget` refuses.

    Examples
    --------
    >>> estimated_study_seconds(["mcts"], [4], seconds=10.0, min_games=100) > 10.0  # 100 games at least
    True
    """
    check_budget(seconds, min_games, max_games)
    specs = [parse_policy(level) for level in levels]
    return sum(cost for *_, cost in _study_runs(specs, players, seconds, min_games, max_games, fixed_games))


def check_budget(seconds: float, min_games: int = 100, max_games: int = 100_000) -> None:
    """Raise unless `seconds` > 0 (`check_seconds`) and 2 <= `min_games` <= `max_games` (`first_player_by_strength`).

    Parameters
    ----------
    seconds : float
        Budget of one core per level and player count.
    min_games, max_games : int
        Bounds on the games of one level.

    Raises
    ------
    TypeError
        If `seconds` is not a number.
    ValueError
        If `seconds` is not positive, or the bounds are out of order.

    Examples
    --------
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
    return spawn_seed(seed, players, key)


def first_player_by_strength(
    ratings: pd.DataFrame,
    levels: Sequence[str | PolicySpec] | None = None,
    players: Sequence[int] = PLAYER_COUNTS,
    seconds: float = 20.0,
    min_games: int = 100,
    max_games: int = 100_000,
    seed: int = 0,
    workers: int | None = None,
    log: Callable[[str], Any] | None = None,
    alpha: float = ALPHA,
    progress: Callable[[float], Any] | None = None,
    fixed_games: Mapping[tuple[int, str], int] | None = None,
    keep: MutableMapping[tuple[int, str], pd.DataFrame] | None = None,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
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
        A `azul_fast.studies.ladder.ladder` table (``policy, rating, ci_low, ci_high``) that rates every
        level: the x axis of the study (2-player Elo, also used at 3 and 4 players).
    levels : sequence of str or PolicySpec, or None
        Policies to study, weakest first (None: `azul_fast.studies.ladder.DEFAULT_POLICIES`).
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
    progress : callable or None
        Called after each run with the fraction of the study done, weighing every run by its
        estimated seconds (`estimated_study_seconds`): a search level counts for what it costs.
    fixed_games : mapping or None
        Games of some runs, by (players, policy), in place of the budget's: the headline level
        gets enough for a stated precision (`azul_fast.report.settings.StudySize.top_games`).
    keep : dict or None
        If given, each run's games (the `simulate` frame) are stored in it under (players, policy),
        for a study that reads the same games (the report's seat study).
    scheduler, client : str or distributed.Client, optional
        Play the games on a Dask cluster instead of `workers` threads (`azul_fast.runs.where.run_where`);
        the same table.

    Returns
    -------
    DataFrame
        One row per (players, policy), strongest level last: ``players, policy, elo, elo_low,
        elo_high, games, first_player_share, ci_low, ci_high, fair_share, se`` and every seat's
        ``share_k, share_k_low, share_k_high`` (NaN for seats the table does not have), plus
        ``mean_score``, ``ties`` (share of games with a shared victory) and ``seed``: the root seed
        of the level's run (``simulate(games, players, policy, seed=seed)`` replays it). ``attrs`` holds
        ``seed, seconds, levels, games`` (total).

    Raises
    ------
    TypeError, ValueError
        For a bad budget (`check_budget`), player count or policy, or `ratings` that are not a
        ladder table rating every level.

    Examples
    --------
    >>> from azul_fast.studies.ladder import ladder
    >>> ratings = ladder(["random", "greedy"], games=20, seed=1, workers=1)
    >>> table = first_player_by_strength(ratings, ["random", "greedy"], players=[2], seconds=0.01, workers=1)
    >>> table[["players", "policy", "games"]]
       players  policy  games
    0        2  random   1666
    1        2  greedy    689
    """
    check_budget(seconds, min_games, max_games)
    specs = [parse_policy(level) for level in (LADDER_POLICIES if levels is None else levels)]  # parsed once, here
    names = [spec.name for spec in specs]
    elo = _ratings_of(ratings, names)
    say = log or (lambda line: None)
    counts = check_player_counts(players)
    if fixed_games is not None:
        for (n, policy), games in fixed_games.items():
            check_int(games, f"fixed_games[{n}, {policy!r}]", 2, 2**31)
    runs = _study_runs(specs, counts, seconds, min_games, max_games, fixed_games)
    total, done = sum(cost for *_, cost in runs), 0.0
    rows = []
    with run_where(workers, scheduler, client) as where:
        for k, (n, spec, games, cost) in enumerate(runs, 1):
            say(f"first player by strength: {n} players, {spec.name} in every seat, {games:,} games "
                f"(run {k} of {len(runs)})")
            level_seed = _level_seed(int(seed), n, spec.name)
            df = simulate(games, n, spec, seed=level_seed, workers=where.workers, client=where.client,
                          progress=False)
            rows.append(_strength_row(df, n, spec.name, elo[spec.name], alpha) | {"seed": level_seed})
            if keep is not None:
                keep[n, spec.name] = df
            done += cost
            if progress is not None:
                progress(done / total)
    table = pd.DataFrame(rows)
    table.attrs.update(seed=int(seed), seconds=seconds, levels=names, games=int(table.games.sum()))
    return table


def _ratings_of(ratings: pd.DataFrame, levels: Sequence[str]) -> dict[str, tuple[float, float, float]]:
    """Each level's Elo and interval from a ladder table, checked."""
    if not {"policy", "rating", "ci_low", "ci_high"} <= set(ratings.columns):
        raise ValueError("ratings must be a ladder() table with columns policy, rating, ci_low, ci_high")
    missing = [level for level in levels if level not in set(ratings.policy)]
    if missing:
        raise ValueError(f"the ratings do not rate {missing}: play the ladder with every level")
    return {str(p): (float(r), float(lo), float(hi))
            for p, r, lo, hi in zip(ratings.policy, ratings.rating, ratings.ci_low, ratings.ci_high)}


def _strength_row(
    df: pd.DataFrame, players: int, policy: str, rating: tuple[float, float, float], alpha: float
) -> dict[str, Any]:
    wins = seat_matrix(df, "win", players, float)
    split = split_wins(wins)
    first = int(df.first_player.iloc[0])
    share, low, high = mean_interval(split[:, first], alpha)
    row: dict[str, Any] = {
        "players": players, "policy": policy, "elo": rating[0], "elo_low": rating[1], "elo_high": rating[2],
        "games": len(df), "first_player_share": share, "ci_low": low,
        "ci_high": high, "fair_share": 1 / players, "se": float(stats.sem(split[:, first])),
    }
    for seat in range(4):
        seat_share = mean_interval(split[:, seat], alpha) if seat < players else (np.nan,) * 3
        row.update(zip((f"share_{seat}", f"share_{seat}_low", f"share_{seat}_high"), seat_share))
    row["mean_score"] = float(seat_matrix(df, "score", players, float).mean())
    row["ties"] = float((wins.sum(axis=1) > 1).mean())
    return row


def strength_verdict(
    table: pd.DataFrame, players: int, alpha: float = ALPHA, precision: float = CONVERGENCE_PRECISION,
    more_games: str = "--thorough",
) -> dict[str, Any]:
    """Does the first player have an advantage at the top of the ladder, and has it converged?

    Answers at `players` players from the two strongest levels (highest Elo) of
    `first_player_by_strength`. First the strongest level's answer: an ``advantage`` when its
    interval lies above the fair share, a ``disadvantage`` when below, ``none detected`` when it
    holds it. Then whether the two strongest levels agree: they ``agree`` when the interval of their
    difference (independent runs, normal approximation) holds 0; the share has ``converged`` when
    they agree and that interval's half-width is at most `precision` (a wide interval agrees with
    anything, so agreement alone is not convergence).

    Parameters
    ----------
    table : DataFrame
        A `first_player_by_strength` table.
    players : int
        The player count to judge.
    alpha : float
        1 - confidence level of the difference's interval.
    precision : float
        Widest half-width (a fraction) that can still be called converged.
    more_games : str
        How the caller's command plays more games, for the advice of a verdict that has not converged
        (``azul-fast strength`` and ``azul-fast report`` take ``--thorough``).

    Returns
    -------
    dict
        ``advantage`` ("advantage", "disadvantage" or "none detected"), ``agree`` and ``converged``
        (bools), ``strongest`` and ``runner_up`` (the two table rows as dicts), ``diff, diff_low,
        diff_high`` (strongest minus runner-up, as fractions), and the words: ``answer`` (the
        strongest level's share, with its policy, Elo, games and mean score), ``agreement`` (the
        two strongest levels compared) and ``text`` (both).

    Raises
    ------
    ValueError
        If the table has fewer than two levels at `players` players.

    Examples
    --------
    >>> table = pd.DataFrame({"players": 2, "policy": ["a", "b"], "elo": [0.0, 100.0], "games": 1000,
    ...                       "first_player_share": [0.52, 0.535], "ci_low": [0.49, 0.505],
    ...                       "ci_high": [0.55, 0.565], "se": [0.0155, 0.0155], "mean_score": 50.0})
    >>> verdict = strength_verdict(table, 2)
    >>> verdict["advantage"], verdict["agree"], verdict["converged"]
    ('advantage', True, False)
    >>> print(verdict["answer"])  # doctest: +NORMALIZE_WHITESPACE
    2 players: the first player has an advantage of +3.5 points, 53.5% [50.5, 56.5] of wins against
    a fair 50.0% (ties split; b, +100 Elo, 1,000 games, mean score 50.0 a seat).
    """
    rows = table[table.players == players].sort_values("elo")
    if len(rows) < 2:
        raise ValueError(f"the study has fewer than two levels at {players} players")
    runner_up, strongest = rows.iloc[-2], rows.iloc[-1]
    diff = float(strongest.first_player_share - runner_up.first_player_share)
    half = float(stats.norm.ppf(1 - alpha / 2) * np.hypot(strongest.se, runner_up.se))
    agree = abs(diff) <= half
    precise = half <= precision
    fair = 1 / players
    # "Inconclusive" read as "no advantage" while the interval excluded the fair share: the
    # answer is therefore judged on the strongest level's own interval, before any agreement.
    advantage = ("advantage" if strongest.ci_low > fair else "disadvantage" if strongest.ci_high < fair
                 else "none detected")
    gap = 100 * float(strongest.first_player_share - fair)
    claim = {"advantage": f"the first player has an advantage of {gap:+.1f} points",
             "disadvantage": f"the first player has a disadvantage of {gap:+.1f} points",
             "none detected": "no advantage of the first player is detected"}[advantage]
    score = f", mean score {strongest.mean_score:.1f} a seat" if pd.notna(strongest.get("mean_score")) else ""
    answer = (f"{players} players: {claim}, {100 * strongest.first_player_share:.1f}% "
              f"[{100 * strongest.ci_low:.1f}, {100 * strongest.ci_high:.1f}] of wins against a fair "
              f"{100 * fair:.1f}% (ties split; {strongest.policy}, {strongest.elo:+.0f} Elo, "
              f"{int(strongest.games):,} games{score}).")
    against = (f"{runner_up.policy} ({runner_up.elo:+.0f} Elo) gives {100 * runner_up.first_player_share:.1f}%, "
               f"a difference of {100 * diff:+.1f} points [{100 * (diff - half):+.1f}, {100 * (diff + half):+.1f}]")
    if not agree:
        agreement = f"The two strongest levels disagree: {against}, so stronger play may still move it."
    elif precise:
        agreement = f"Converged: the two strongest levels agree within +/-{100 * precision:.1f} points ({against})."
    else:
        agreement = (f"The two strongest levels agree ({against}), but that interval is wider than "
                     f"+/-{100 * precision:.1f} points: not yet converged (play more games: {more_games}).")
    return {"advantage": advantage, "converged": bool(agree and precise), "agree": bool(agree),
            "strongest": strongest.to_dict(), "runner_up": runner_up.to_dict(),
            "diff": diff, "diff_low": diff - half, "diff_high": diff + half,
            "answer": answer, "agreement": agreement, "text": f"{answer} {agreement}"}
