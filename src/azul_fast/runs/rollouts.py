"""Rollouts of one position in the native core: candidate moves, continuations, common random numbers.

`rollouts` plays each candidate move from a position and then finishes the game once per
continuation seed with a policy in every seat, in the core without the GIL (_rollouts.pyx) over
worker threads. Continuation k of every move uses the same pair of stream seeds (the tile draws
and the policies' randomness): the moves are compared on the same futures, so their comparison is
paired. Every job (one move, one continuation) is its own deterministic game, so the arrays do not
depend on `workers` nor on how the jobs are cut: on this machine's threads they go in chunks of
`ROLLOUT_CHUNK`; on a Dask cluster (``client=``) in tasks of about `azul_fast.runs.tasks.TASK_SECONDS` of play each
(`azul_fast.runs.cluster.run_tasks`: a lost worker's task is redone, Ctrl-C cancels the rest).
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.moves import AnyMove, IllegalMoveError, Move, Placement, parse_move
from azul_fast.core.rules.seeds import spawn_words
from azul_fast.core.state import State
from azul_fast.runs import _rollouts
from azul_fast.runs.cluster import Task, cluster_threads, run_tasks
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.pool import run_ranges
from azul_fast.runs.tasks import task_size

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["ROLLOUT_CHUNK", "RolloutResult", "continuation_seeds", "rollouts"]

#: Jobs (one move, one continuation) a thread takes at a time: fixed, so results never depend on workers.
ROLLOUT_CHUNK = 64


@dataclass(frozen=True)
class RolloutResult:
    """Final scores ``scores[move, k, seat]`` and winners ``winners[move, k]`` (bit p: seat p shares
    the win) of every candidate move's continuations; `seat` is the player who moved."""

    moves: tuple[AnyMove | None, ...]
    seat: int
    scores: npt.NDArray[np.int16]
    winners: npt.NDArray[np.uint8]

    @property
    def wins(self) -> npt.NDArray[np.bool_]:
        """Whether the mover is among the winners (ties count for every winner)."""
        return (self.winners >> self.seat & 1).astype(bool)

    @property
    def shares(self) -> npt.NDArray[np.float64]:
        """The mover's tie-split share of the win: 1 alone, 1/n among n winners, else 0."""
        return self.share_of(self.seat)

    def share_of(self, seat: int) -> npt.NDArray[np.float64]:
        """`seat`'s tie-split share of the win in every continuation."""
        n = np.zeros(self.winners.shape, dtype=np.int64)
        for p in range(self.scores.shape[2]):
            n += self.winners >> p & 1
        won = (self.winners >> seat & 1).astype(bool)
        return np.where(won, 1.0 / np.maximum(n, 1), 0.0)

    @property
    def margins(self) -> npt.NDArray[np.int64]:
        """The mover's final score minus the best opponent's."""
        own = self.scores[:, :, self.seat].astype(np.int64)
        others = np.delete(self.scores, self.seat, axis=2).max(axis=2).astype(np.int64)
        margins: npt.NDArray[np.int64] = own - others
        return margins


def continuation_seeds(seed: int, n: int, first: int = 0) -> npt.NDArray[np.uint64]:
    """Stream seeds (bag, policy) of continuations first..first+n-1, spawned from `seed` and k.

    >>> continuation_seeds(7, 3).shape, (continuation_seeds(7, 3)[2] == continuation_seeds(7, 1, first=2)[0]).all()
    ((3, 2), np.True_)
    """
    rows = [spawn_words(seed, k, n=2) for k in range(first, first + n)]
    return np.array(rows, dtype=np.uint64).reshape(n, 2)


def rollouts(
    state: State,
    moves: Sequence[AnyMove | str | None],
    policy: str | PolicySpec,
    seeds: npt.ArrayLike,
    workers: int | None = 1,
    *,
    client: Client | None = None,
) -> RolloutResult:
    """Play each of `moves` from `state`, then finish the game once per row of `seeds` with `policy`.

    Parameters
    ----------
    state : State
        The position (not changed); its game must not be over.
    moves : sequence of Move, Placement, notation or None
        Candidate moves, legal in `state`; None continues from the position itself.
    policy : str or PolicySpec
        A built-in policy name, played in every seat (``"greedy"``, ``"mcts:100"``, ...).
    seeds : numpy.ndarray
        Shape (n, 2): the (bag, policy) stream seeds of each continuation (`continuation_seeds`),
        the same for every move.
    workers : int or None
        Threads (None: every core); the result does not depend on it.
    client : distributed.Client, optional
        Play the rollouts as tasks on this client's Dask cluster instead (`workers` does not
        apply); the same result.

    Returns
    -------
    RolloutResult

    Examples
    --------
    >>> from azul_fast import State
    >>> state = State.new(players=2, seed=7)
    >>> result = rollouts(state, ["1R2", "1R1"], "greedy", continuation_seeds(1, 8))
    >>> result.scores.shape, result.wins.shape, result.margins.dtype
    ((2, 8, 2), (2, 8), dtype('int64'))
    """
    if not isinstance(state, State):
        raise TypeError(f"rollouts() takes a State, got {type(state).__name__}")
    if state.is_game_over():
        raise ValueError("rollouts: the game is over, there is nothing to roll out")
    parsed = [_legal(state, m) for m in moves]
    if not parsed:
        raise ValueError("rollouts: moves is empty")
    seed_array = np.ascontiguousarray(seeds, dtype=np.uint64)
    if seed_array.ndim != 2 or seed_array.shape[1] != 2 or seed_array.shape[0] == 0:
        raise ValueError(f"seeds must have shape (n, 2) with n >= 1, got {seed_array.shape}")
    workers = resolve_workers(workers)
    codes = np.array([_rollouts.NO_MOVE if m is None else m.code for m in parsed], dtype=np.uint16)
    seat_policy = np.full(state.players, parse_policy(policy).code, dtype=np.uint32)
    if client is not None:
        scores, winners = _on_cluster(client, state, codes, seed_array, seat_policy, policy)
        return RolloutResult(tuple(parsed), state.current_player, scores, winners)
    n_moves, n_seeds = len(parsed), seed_array.shape[0]
    scores = np.zeros((n_moves, n_seeds, state.players), dtype=np.int16)
    winners = np.zeros((n_moves, n_seeds), dtype=np.uint8)
    total = n_moves * n_seeds
    bounds = [(a, min(a + ROLLOUT_CHUNK, total)) for a in range(0, total, ROLLOUT_CHUNK)]

    def run(start: int, stop: int) -> None:
        _rollouts.rollout_batch(state, codes, seed_array, seat_policy, start, stop, scores, winners)

    if workers == 1 or len(bounds) == 1:
        run(0, total)  # a search here runs the signal handlers itself (Ctrl-C stops it)
    else:  # Ctrl-C stops the searches of the pool's threads too, and waits for none (run_ranges)
        run_ranges(run, bounds, workers, total, progress=False)
    return RolloutResult(tuple(parsed), state.current_player, scores, winners)


def _on_cluster(client: Client, state: State, codes: npt.NDArray[np.uint16], seeds: npt.NDArray[np.uint64],
                seat_policy: npt.NDArray[np.uint32], policy: str | PolicySpec,
                ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint8]]:
    """The rollouts' arrays, played as Dask tasks (`azul_fast.runs.tasks.task_size`, at least ROLLOUT_CHUNK
    jobs), gathered in job order."""
    from dask.base import tokenize

    n_moves, n_seeds, players = len(codes), len(seeds), state.players
    total = n_moves * n_seeds
    # A job finishes the game from a move of it: a whole game's cost bounds it.
    size = task_size(total, estimated_seconds_per_game([policy] * players, players), cluster_threads(client),
                     smallest=ROLLOUT_CHUNK)
    bounds = [(a, min(a + size, total)) for a in range(0, total, size)]
    # Keys follow from what the jobs compute: a retried task can only replace itself.
    token = tokenize(pickle.dumps(state), codes, seeds, seat_policy)
    tasks = [Task(f"azul_fast-rollouts-{token}-{a}-{b}", (rollout_jobs, state, codes, seeds, seat_policy, a, b))
             for a, b in bounds]
    parts = run_tasks(client, tasks, [b - a for a, b in bounds], progress=False)
    scores = np.concatenate([part[0] for part in parts]).reshape(n_moves, n_seeds, players)
    winners = np.concatenate([part[1] for part in parts]).reshape(n_moves, n_seeds)
    return scores, winners


def rollout_jobs(state: State, codes: npt.NDArray[np.uint16], seeds: npt.NDArray[np.uint64],
                 seat_policy: npt.NDArray[np.uint32], start: int, stop: int,
                 ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint8]]:
    """Runs on a worker: jobs start..stop-1 (job j: move j // len(seeds), continuation j % len(seeds)),
    their scores (one row a job) and winners."""
    first, last = start // len(seeds), (stop - 1) // len(seeds) + 1  # the moves the jobs touch
    scores = np.zeros((last - first, len(seeds), state.players), dtype=np.int16)
    winners = np.zeros((last - first, len(seeds)), dtype=np.uint8)
    offset = first * len(seeds)
    _rollouts.rollout_batch(state, codes[first:last], seeds, seat_policy, start - offset, stop - offset,
                            scores, winners)
    rows = slice(start - offset, stop - offset)
    return scores.reshape(-1, state.players)[rows].copy(), winners.reshape(-1)[rows].copy()


def _legal(state: State, move: AnyMove | str | None) -> AnyMove | None:
    if move is None:
        return None
    if not isinstance(move, (str, Move, Placement)):
        raise TypeError(f"a move must be a Move, a Placement or its notation, got {type(move).__name__}")
    parsed = parse_move(move) if isinstance(move, str) else move
    if parsed not in state.legal_moves:
        raise IllegalMoveError(f"rollouts: {parsed} is not a legal move here")
    return parsed
