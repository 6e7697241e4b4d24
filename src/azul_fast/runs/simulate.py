"""Monte Carlo runs: many complete games in the native core, results as a pandas DataFrame.

Game ``i`` of a run gets its own seed, a hash of the root seed and ``i`` (docs/engine-spec.md,
section 2), and each game seed drives two separate streams: tile draws and policy choices. So a
run's result does not depend on how it is split into chunks or over how many threads it ran,
and the same deal can be replayed with other policies or seats (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from azul_fast.core.game import Policy
from azul_fast.core.rules.checks import check_int, resolve_workers
from azul_fast.core.rules.seeds import SeedLike
from azul_fast.runs.cluster import run_on_cluster
from azul_fast.runs.frames import allocate
from azul_fast.runs.plan import RunPlan, check_memory, plan_run
from azul_fast.runs.pool import run_ranges
from azul_fast.runs.progress import progress_bar
from azul_fast.runs.tasks import task_size

# isort: split
# Defined in azul_fast.core.game, azul_fast.core.rules.moves and the core, and still importable from here, where
# code written before they moved finds them (the API pages document them at home).
from azul_fast.core.game import GameRecord as GameRecord
from azul_fast.core.game import play_game as play_game
from azul_fast.core.rules.moves import InvariantError as InvariantError
from azul_fast.runs._simulate import derive_game_seed as derive_game_seed

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["CHUNK_SIZE", "simulate", "thread_chunks"]

#: The most games per task. Results never depend on it; it only sets how often progress is reported.
CHUNK_SIZE = 20_000


def simulate(
    n_games: int,
    players: int = 2,
    policies: Policy | Sequence[Policy] = "random",
    seed: SeedLike = None,
    workers: int | None = None,
    first_player: int = 0,
    max_rounds: int = 100,
    progress: bool | None = None,
    *,
    seat_rotation: bool = False,
    chunk_size: int | None = None,
    scheduler: str | None = None,
    client: Client | None = None,
    check_invariants: bool = False,
    variant: str = "colored",
) -> pd.DataFrame:
    """Play `n_games` complete games and return one row per game.

    Parameters
    ----------
    n_games : int
        Number of games (with `seat_rotation`, the number of deals; each is played once per seat).
    players : int
        2, 3 or 4.
    policies : str, PolicySpec, callable, or a sequence with one per seat
        Built-in names (`available_policies()`, a search with its budget as ``"mcts:400"``), or
        their `parse_policy` specs (parsed once by a caller), run in the native core without the GIL.
        A callable ``policy(state) -> Move`` runs on a slower Python path (one game at a time).
    seed : None, int or numpy.random.SeedSequence
        Root seed of the run; game ``i`` gets the seed in its row, derived from it and ``i``.
    workers : int or None
        Threads running native batches (None: every core). The result does not depend on it.
    first_player : int
        Seat that moves first in every game (0..players-1); with `seat_rotation` the policies
        move round the table instead, so each moves first in turn.
    max_rounds : int
        1..255: a game not finished after that many rounds stops there, marked ``truncated``
        (its scores have no end bonuses). Real games end by round 5 to 8; the cap guards
        against a policy that never completes a row.
    progress : bool or None
        Show a progress bar (tqdm) on stderr; None: only when stderr is a terminal.
    seat_rotation : bool
        Play every deal once per seat rotation (policies moved round the table, same tile draws).
    chunk_size : int or None
        Games per thread task (None: at least four tasks a worker, each about `TASK_SECONDS` of
        play by the policies' cost, at most `CHUNK_SIZE`). The result does not depend on it.
    scheduler : str, optional
        Address of a Dask scheduler (``"tcp://host:8786"``): the games run as tasks on its
        workers (built-in policies only; needs ``pip install "azul_fast[dask]"``). The rows are
        the same as a local run's; `workers` and `chunk_size` do not apply.
    client : distributed.Client, optional
        Run on the cluster of a client you already have, instead of `scheduler`.
    check_invariants : bool
        Verify the rules' invariants after every move in the core (all 100 tiles accounted for,
        scores >= 0, floors <= 7 slots, lines consistent with walls); a violation raises
        `InvariantError`. Runs about four times slower; meant for soak tests and debugging.
    variant : str
        ``"colored"`` (the printed wall) or ``"gray"`` (the rulebook's variant: every tiled
        line's player picks its column; the policies decide, docs/engine-spec.md section 10).
        Recorded in ``df.attrs["variant"]``; `turns` counts the placements of a gray game.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, seed, players, first_player, rounds, turns, truncated, opening`` and per
        seat ``policy_i, score_i, win_i, rows_i, cols_i, colors_i, wall_i``; with `seat_rotation`
        also ``deal`` and ``rotation``. ``df.attrs`` records the run.

    Raises
    ------
    TypeError, ValueError
        An argument of the wrong type, or a bad value (the message names it).
    MemoryError
        The results cannot fit in this process's memory (refused before any game is played,
        `azul_fast.runs.plan.check_memory`), or a search (mcts, learned) could not allocate its
        tree; no rows are returned.

    Examples
    --------
    >>> df = simulate(1000, players=2, policies=["greedy", "random"], seed=1, workers=1)
    >>> len(df), bool(df.win_0.mean() > 0.9)
    (1000, True)
    """
    plan = plan_run(
        n_games, players, policies, seed, first_player, max_rounds,
        seat_rotation=seat_rotation, check_invariants=check_invariants, variant=variant,
    )
    check_memory(plan.result_bytes(), f"the results of {plan.total:,} games")
    if scheduler is not None or client is not None:
        return run_on_cluster(plan, scheduler=scheduler, client=client, progress=progress)
    workers, chunk_size = thread_chunks(plan, workers, chunk_size)
    if plan.native:
        arrays = _run_chunks(plan, workers, chunk_size, progress)
    else:
        arrays = _run_here(plan, progress)
    return plan.frame(arrays, first_game=0)


def thread_chunks(plan: RunPlan, workers: int | None, chunk_size: int | None) -> tuple[int, int]:
    """The checked `workers` (None: every core) and `chunk_size` (None: `azul_fast.runs.tasks.task_size`,
    at most CHUNK_SIZE games)."""
    workers = resolve_workers(workers)
    if chunk_size is None:
        chunk_size = task_size(plan.total, plan.seconds_per_game, workers, largest=CHUNK_SIZE)
    return workers, check_int(chunk_size, "chunk_size", 1, 2**31)


def _run_here(plan: RunPlan, progress: bool | None) -> dict[str, np.ndarray]:
    """Play a run of Python policies in the calling thread, one game at a time.

    They hold the GIL, so threads would only take turns; and here Ctrl-C stops the run at once
    instead of waiting for a thread's chunk of slow games.
    """
    arrays = allocate(plan.total, plan.players)
    bar = progress_bar(plan.total, progress)
    try:
        for game in range(plan.total):
            plan.run_into(arrays, game, game + 1)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return arrays


def _run_chunks(plan: RunPlan, workers: int, chunk_size: int, progress: bool | None) -> dict[str, np.ndarray]:
    """Run chunks on the run loop's threads (`run_ranges`), each writing its own slice of the result
    arrays: nothing is copied or concatenated."""
    arrays = allocate(plan.total, plan.players)
    bounds = [(a, min(a + chunk_size, plan.total)) for a in range(0, plan.total, chunk_size)]
    run_ranges(lambda a, b: plan.run_into(arrays, a, b), bounds, workers, plan.total, progress)
    return arrays
