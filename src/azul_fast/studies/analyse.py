"""Analyse a position: every legal move ranked by its value, with intervals (`analyse`).

Where the rest of the round can be solved and the game ends at this round's end on every line,
the rows come from `azul_fast.core.bots.solve.solve` and are exact (intervals of width zero).
Otherwise every move is rolled out by the native rollout engine (`azul_fast.runs.rollouts`) with
common random numbers, and the rollouts go where they decide the ranking: racing with paired
comparisons (`allocation="adaptive"`), or the same number for every move (``"uniform"``).

Adaptive allocation (racing), stage by stage: every move still in the race gets continuations
0..n-1 (the same continuations for all, so comparisons are paired), then the leader (the highest
win share among the moves raced longest, then margin) is compared with every other move by a
one-sided paired t test of the per-continuation difference of win share, on the continuations
the two share, Holm-corrected over the other moves at level `alpha`. A move the test separates
leaves the race; n doubles. It stops when the leader is separated from every other move
(``stopped == "separated"``) or the budget is spent (``"budget"``). The final table marks
``worse_than_best`` by the same test. The tests are repeated at every stage, so `alpha` is spent
across the looks (a union bound: the chance that any look separates a move that is not worse stays
below `alpha`): with a rollout budget the most looks it allows are known and each gets an equal part
of `alpha` (Bonferroni); with only a time budget look k (0, 1, ...) gets ``alpha / 2**(k + 1)``.
A single look (uniform allocation with a rollout budget) gets all of `alpha`. (Successive
halving, which drops the weaker half unseparated, was tried first: the moves it drops never get
the rollouts that would separate them, so it stopped on the budget where uniform allocation separated the best move.)
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.bots.solve import DEFAULT_MAX_NODES, SolveBudgetError, final_round, solve
from azul_fast.core.played_game import replay_document, simulated_positions
from azul_fast.core.rules.checks import check_int, check_seconds
from azul_fast.core.rules.moves import AnyMove
from azul_fast.core.rules.seeds import check_seed
from azul_fast.core.state import State
from azul_fast.runs.rollouts import continuation_seeds, rollouts
from azul_fast.runs.rollouts import rollouts as rollouts_of  # `rollouts` is also analyse's budget argument
from azul_fast.runs.where import Where, run_where
from azul_fast.studies.intervals import ALPHA, mean_interval, win_interval
from azul_fast.studies.settings import ANALYSIS_POLICY, BLUNDER, MISTAKE  # --help names them without scipy

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["ANALYSIS_COLUMNS", "BLUNDER", "MISTAKE", "REVIEW_COLUMNS", "analyse", "review_game"]

#: The columns of `analyse`'s table, in order.
ANALYSIS_COLUMNS = ["rank", "move", "win_share", "ci_low", "ci_high", "margin", "margin_low", "margin_high",
                    "rollouts", "exact", "worse_than_best"]
#: Continuations each move gets in the first stage of adaptive allocation.
FIRST_STAGE = 8
#: Rollouts when neither `rollouts` nor `seconds` is given.
DEFAULT_ROLLOUTS = 4000
#: A hook that `analyse` calls after every stage of its race and `review_game` after every move,
#: with the table so far; returning True stops the work there (None or False: go on).
Progress = Callable[[pd.DataFrame], "bool | None"]
#: The columns of `review_game`'s table, in order.
REVIEW_COLUMNS = ["ply", "round", "seat", "move", "best_move", "win_share", "best_win_share", "loss", "exact",
                  "flag", "first_player_share"]


def analyse(
    state: State,
    policy: str | PolicySpec = ANALYSIS_POLICY,
    rollouts: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    alpha: float = ALPHA,
    allocation: str = "adaptive",
    max_nodes: int = DEFAULT_MAX_NODES,
    workers: int | None = 1,
    progress: Progress | None = None,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> pd.DataFrame:
    """Rank every legal move of `state` by win share and margin, best first.

    Parameters
    ----------
    state : State
        The position (not changed); its game must not be over.
    policy : str
        The built-in policy that plays every seat in the rollouts.
    rollouts, seconds : int or float, optional
        The budget: rollouts in all (at least 2 a legal move), or seconds of rolling out; at most
        one of them (neither: ``DEFAULT_ROLLOUTS`` rollouts).
    seed : int
        Root of the continuation seeds (continuation k is the same for every move).
    alpha : float
        Level of the paired tests (the intervals are 1 - alpha).
    allocation : str
        ``"adaptive"`` (racing, see the module docstring) or ``"uniform"``.
    max_nodes : int
        The budget of `solve` for exact rows; 0 skips the solver.
    workers : int or None
        Threads for the rollouts (None: every core); the table does not depend on it.
    progress : callable, optional
        Called after every stage of the rollouts (not for an exact table) with the table so far,
        whose ``attrs`` hold the ``rollouts`` and ``seconds`` so far; when it returns True the
        analysis stops there and returns that table with ``stopped == "interrupted"``.
    scheduler, client : str or distributed.Client, optional
        Play the rollouts on a Dask cluster instead of `workers` threads
        (`azul_fast.runs.where.run_where`); the same table.

    Returns
    -------
    pandas.DataFrame
        One row a legal move with `ANALYSIS_COLUMNS`: the mover's tie-split win share with its
        interval, its margin (own score minus the best opponent's) with its interval, the rollouts
        it got, whether the row is exact, and whether the paired test finds it worse than the best.
        An exact row's win share is 1, 1/2 or 0 for a positive, zero or negative margin (at 3 and
        4 players the margin is the paranoid one of `solve`). ``attrs`` holds ``stopped``
        (``"exact"``, ``"separated"``, ``"budget"`` or ``"interrupted"``), ``rollouts`` (used), ``seconds``, ``level``
        (the level of each paired test after spending `alpha` over the looks; None for an exact
        table) and the arguments.

    Raises
    ------
    TypeError
        If `state` is not a State.
    ValueError
        If the game is over, if both `rollouts` and `seconds` are given, if the rollouts are too few
        for the legal moves, or if `policy`, `allocation` or `alpha` is not valid.

    Examples
    --------
    >>> from azul_fast import State
    >>> table = analyse(State.new(players=2, seed=7), rollouts=400, seed=1, policy="greedy")
    >>> table.columns.tolist() == ANALYSIS_COLUMNS, len(table), table.attrs["stopped"]
    (True, 96, 'budget')
    >>> int(table.rollouts.sum()) <= 400, bool(table.exact.any())
    (True, False)
    """
    if not isinstance(state, State):
        raise TypeError(f"analyse() takes a State, got {type(state).__name__}")
    if state.is_game_over():
        raise ValueError("analyse: the game is over, there is no move to analyse")
    spec = parse_policy(policy)   # parsed once: the rollouts carry it
    if rollouts is not None and seconds is not None:
        raise ValueError("analyse takes rollouts or seconds, not both")
    if allocation not in ("adaptive", "uniform"):
        raise ValueError(f"allocation must be 'adaptive' or 'uniform', got {allocation!r}")
    if not isinstance(alpha, float) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a float in (0, 1), got {alpha!r}")
    max_nodes = check_int(max_nodes, "max_nodes", 0, 2**62)
    seed = check_seed(seed)
    moves = list(state.legal_moves)
    started = time.perf_counter()
    attrs: dict[str, Any] = {"policy": spec.name, "seed": seed, "alpha": alpha, "allocation": allocation}
    exact = _exact_table(state, moves, max_nodes)
    if exact is not None:
        exact.attrs.update(attrs, stopped="exact", rollouts=0, seconds=round(time.perf_counter() - started, 3),
                           level=None)
        return exact
    if seconds is not None:
        seconds = check_seconds(seconds, "seconds")
        budget = math.inf
    else:
        budget = DEFAULT_ROLLOUTS if rollouts is None else check_int(rollouts, "rollouts", 1, 2**40)
        if budget < 2 * len(moves):
            raise ValueError(f"rollouts={budget} is too few: this position has {len(moves)} legal moves, "
                             f"and each needs at least 2 (rollouts >= {2 * len(moves)})")
    with run_where(workers, scheduler, client) as where:
        race = _Race(state, moves, spec, seed, alpha, where)

        def so_far() -> pd.DataFrame:
            table = race.table()
            table.attrs.update(attrs, rollouts=int(table.rollouts.sum()),
                               seconds=round(time.perf_counter() - started, 3), level=race.level)
            return table

        stop = None if progress is None else lambda: bool(progress(so_far()))
        stopped = race.run(budget, seconds, adaptive=allocation == "adaptive", started=started, stop=stop)
        table = so_far()
    table.attrs["stopped"] = stopped
    return table


def _exact_table(state: State, moves: list[AnyMove], max_nodes: int) -> pd.DataFrame | None:
    """The solved rows when the round fits `max_nodes` and ends the game on every line, else None."""
    if max_nodes == 0 or not final_round(state):   # the cheap test first: before the final round solve is never exact
        return None
    try:
        result = solve(state, max_nodes=max_nodes)
    except SolveBudgetError:
        return None
    if not result.exact:
        return None
    best = result.value
    rows = []
    for move in moves:
        margin = result.move_values[move]
        share = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        rows.append({"move": str(move), "win_share": share, "ci_low": share, "ci_high": share, "margin": margin,
                     "margin_low": margin, "margin_high": margin, "rollouts": 0, "exact": True,
                     "worse_than_best": margin < best})
    return _ranked(rows)


def _ranked(rows: list[dict[str, Any]]) -> pd.DataFrame:
    # A move that survived longer ranks higher: it beat, in its paired stages, those dropped before it.
    table = pd.DataFrame(rows).sort_values(["rollouts", "win_share", "margin"], ascending=False, kind="stable")
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table.reset_index(drop=True)[ANALYSIS_COLUMNS]


def _paired_p(best: np.ndarray, other: np.ndarray) -> float:
    """One-sided paired t test that `best` beats `other` on the same continuations."""
    d = best - other
    if len(d) < 2 or np.ptp(d) == 0:
        return 0.0 if len(d) >= 2 and d[0] > 0 else 1.0
    return float(stats.ttest_1samp(d, 0.0, alternative="greater").pvalue)


def _holm(pvalues: np.ndarray, alpha: float) -> np.ndarray:
    """Holm's step-down rejections of the p-values at family level `alpha`."""
    order = np.argsort(pvalues, kind="stable")
    reject = np.zeros(len(pvalues), dtype=bool)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        reject[i] = True
    return reject


class _Race:
    """The rollouts of every move so far (continuations 0..n-1 of each), and the stages that add them."""

    def __init__(self, state: State, moves: list[AnyMove], policy: PolicySpec, seed: int, alpha: float,
                 where: Where) -> None:
        self.state, self.moves, self.policy, self.seed, self.alpha, self.where = (
            state, moves, policy, seed, alpha, where)
        self.shares: list[np.ndarray] = [np.empty(0) for _ in moves]
        self.margins: list[np.ndarray] = [np.empty(0) for _ in moves]
        self.alive = list(range(len(moves)))
        self.level = alpha      # the level of the paired tests at the latest look (run sets it)

    def _play(self, indices: list[int], upto: int) -> int:
        """Continuations up to `upto` for the moves at `indices`, each from where it stopped (a move
        brought back into the race catches up); the rollouts played."""
        played = 0
        for have in sorted({len(self.shares[i]) for i in indices}):
            group = [i for i in indices if len(self.shares[i]) == have]
            if have >= upto:
                continue
            seeds = continuation_seeds(self.seed, upto - have, first=have)
            result = rollouts(self.state, [self.moves[i] for i in group], self.policy, seeds, self.where.workers,
                              client=self.where.client)
            for row, i in enumerate(group):
                self.shares[i] = np.concatenate([self.shares[i], result.shares[row]])
                self.margins[i] = np.concatenate([self.margins[i], result.margins[row].astype(float)])
            played += len(group) * (upto - have)
        return played

    def _leader(self, indices: list[int]) -> int:
        return max(indices, key=lambda i: (self.shares[i].mean(), self.margins[i].mean()))

    def _separated(self, leader: int, others: list[int]) -> np.ndarray:
        """Which of `others` the paired tests find worse than `leader` (Holm over `others`)."""
        if not others:
            return np.zeros(0, dtype=bool)
        p = np.array([_paired_p(self.shares[leader][:len(self.shares[i])], self.shares[i]) for i in others])
        return _holm(p, self.level)

    def _verdict(self) -> tuple[int, dict[int, bool]]:
        """The leader (the longest-raced move, then the best) and, for every other move, whether the
        paired test on their shared continuations finds it worse (Holm over all other moves)."""
        leader = max(range(len(self.moves)), key=lambda i: (len(self.shares[i]), self.shares[i].mean(),
                                                            self.margins[i].mean()))
        others = [i for i in range(len(self.moves)) if i != leader]
        return leader, dict(zip(others, self._separated(leader, others)))

    def run(self, budget: float, seconds: float | None, adaptive: bool, started: float,
            stop: Callable[[], bool] | None = None) -> str:
        """Race until the leader is separated from every other move, the budget is spent, or `stop`
        (asked before every stage after the first) returns True."""
        used = 0
        # uniform with a rollout budget: one stage of all of it; otherwise stages that double
        n = FIRST_STAGE if adaptive or seconds is not None else int(budget // len(self.moves))
        looks = 1 if not adaptive and seconds is None else _most_looks(n, budget)
        for look in itertools.count():
            if looks is not None and look >= looks:   # alpha is spent over this many looks
                return "budget"
            have = [len(self.shares[i]) for i in self.alive]
            target = n
            if budget != math.inf:   # the most every alive move can reach with the rollouts left
                target = min(target, (int(budget - used) + sum(have)) // len(self.alive))
            if seconds is not None and used > 0:
                rate = used / max(time.perf_counter() - started, 1e-9)
                left = int((seconds - (time.perf_counter() - started)) * rate)
                target = min(target, (left + sum(have)) // len(self.alive))
            if target <= max(have):
                return "budget"
            if look > 0 and stop is not None and stop():
                return "interrupted"
            used += self._play(self.alive, target)
            self.level = self.alpha / looks if looks else self.alpha / 2 ** (look + 1)
            leader, worse = self._verdict()
            if all(worse.values()):
                return "separated"
            if adaptive:   # racing: a move separated from the leader gets no more rollouts
                self.alive = [leader] + [i for i, w in worse.items() if not w]
            elif seconds is None:
                return "budget"
            n = 2 * target
        raise AssertionError("unreachable")  # pragma: no cover


    def table(self) -> pd.DataFrame:
        _leader, worse = self._verdict()
        rows = []
        for i, move in enumerate(self.moves):
            n = len(self.shares[i])
            share = float(self.shares[i].mean())
            low, high = win_interval(self.shares[i].sum(), n, self.alpha)   # tie-split: see win_interval
            margin, margin_low, margin_high = mean_interval(self.margins[i], self.alpha)
            rows.append({"move": str(move), "win_share": share, "ci_low": float(low), "ci_high": float(high),
                         "margin": margin, "margin_low": margin_low, "margin_high": margin_high, "rollouts": n,
                         "exact": False, "worse_than_best": bool(worse.get(i, False))})
        return _ranked(rows)


def _most_looks(first: int, budget: float) -> int | None:
    """How many looks a race with a rollout budget plans: as many as stages whose continuations
    double from `first` without one move exceeding the whole budget (None: no rollout budget).
    The race stops at that many looks, so dividing alpha among them is a valid correction."""
    if budget == math.inf:
        return None
    looks, n = 1, first
    while 2 * n <= budget:
        looks, n = looks + 1, 2 * n
    return looks


def review_game(
    players: int = 2,
    policy: str | PolicySpec = ANALYSIS_POLICY,
    seed: int = 0,
    variant: str = "colored",
    rollouts: int = 1000,
    paired: int = 400,
    max_nodes: int = DEFAULT_MAX_NODES,
    workers: int | None = 1,
    document: dict[str, Any] | None = None,
    progress: Progress | None = None,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> pd.DataFrame:
    """A game move by move: each move beside the best by `analyse`, and what it lost.

    The game is ``State.new(players, seed, variant=variant)`` played by `policy` in every seat
    (the game `play_game` replays), or, with `document`, a game people played
    (`azul_fast.core.played_game`: the deal of every round and the moves; `players`, `seed` and
    `variant` are then the document's). Before each move, `analyse` (budget `rollouts`, the
    rollouts by `policy`) names the best move; then the played and the best move are rolled out on
    the same `paired` continuations, so `loss` (best minus played win share of the mover) is a
    paired difference. Where the round is solved exactly the shares are `analyse`'s exact ones
    (1, 1/2 or 0) and `exact` is True. `flag` is ``"blunder"`` for a loss of `BLUNDER` or more,
    ``"mistake"`` from `MISTAKE`, else empty. `first_player_share` is seat 0's win share after the
    move, from the played move's rollouts (the chart of `azul_fast.report.review_chart`). The
    rollouts run on `workers` threads, or on the Dask cluster of `scheduler` or `client`
    (`azul_fast.runs.where.run_where`), with the same table. `progress`, if given, is called after
    every move with the table so far; when it returns True the review stops there and returns that
    table (``attrs["plies"]`` is the game's length).

    >>> table = review_game(seed=3, rollouts=200, paired=20, max_nodes=0, policy="greedy")
    >>> table.columns.tolist() == REVIEW_COLUMNS, int(table.ply.iloc[-1]) + 1 == len(table)
    (True, True)
    """
    check_int(paired, "paired", 2, 2**31)
    if document is not None:
        positions = replay_document(document)
    else:
        positions = simulated_positions(players, policy, seed, variant)
    rows = []
    with run_where(workers, scheduler, client) as where:
        for ply, (state, move) in enumerate(positions):
            table = analyse(state, policy=policy, rollouts=max(rollouts, 2 * len(state.legal_moves)), seed=ply,
                            max_nodes=max_nodes, workers=where.workers, client=where.client)
            best = table.move.iloc[0]
            result = rollouts_of(state, [move, best], policy, continuation_seeds(ply, paired), where.workers,
                                 client=where.client)
            if table.attrs["stopped"] == "exact":
                shares = dict(zip(table.move, table.win_share))
                played_share, best_share, exact = shares[str(move)], shares[best], True
            else:
                played_share, best_share, exact = float(result.shares[0].mean()), float(result.shares[1].mean()), False
            loss = best_share - played_share
            rows.append({"ply": ply, "round": state.round, "seat": state.current_player, "move": str(move),
                         "best_move": best, "win_share": played_share, "best_win_share": best_share, "loss": loss,
                         "exact": exact, "flag": "blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE else "",
                         "first_player_share": float(result.share_of(0)[0].mean())})
            if len(rows) < len(positions) and progress is not None and progress(
                    _review_table(rows, positions, policy, seed)):
                break
    return _review_table(rows, positions, policy, seed)


def _review_table(rows: list[dict[str, Any]], positions: list[tuple[State, AnyMove]], policy: str,
                  seed: int) -> pd.DataFrame:
    """`review_game`'s table of `rows`, with the game's facts (of all its `positions`) as attrs."""
    out = pd.DataFrame(rows, columns=REVIEW_COLUMNS)
    final = positions[-1][0].copy()
    final.play(positions[-1][1])
    out.attrs.update(players=final.players, policy=policy, seed=seed, variant=final.variant, scores=final.scores,
                     winners=final.winners, plies=len(positions))
    return out
