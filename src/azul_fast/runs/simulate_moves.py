"""Every move on record: `simulate_moves` plays the games of `simulate` and keeps every move and round.

The games are recorded inside the native core, without the GIL, into arrays that grow by chunk;
the result is three DataFrames of one run (`MoveRecords`):

- ``games``: exactly `simulate`'s rows for the same arguments;
- ``moves``: one row per move, in play order;
- ``rounds``: one row per seat and round.

The run goes on this machine's threads or, with ``scheduler=`` or ``client=``, on a Dask
cluster (`azul_fast.runs.cluster`), with the same rows either way; ``run_to_folder(...,
moves=True)`` and ``azul-fast simulate --moves`` write the three tables into a resumable run folder
(`azul_fast.runs.folders`). The recording itself, the move codes and `MoveRecords` live in
`azul_fast.runs.move_records` (`MOVE_NAMES`, `MoveRecords` and `decode_move` stay importable from here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from azul_fast.core.game import Policy
from azul_fast.core.rules.seeds import SeedLike
from azul_fast.runs.cluster import run_on_cluster
from azul_fast.runs.move_records import assemble, record_bytes, record_games
from azul_fast.runs.plan import check_memory, plan_run
from azul_fast.runs.pool import run_ranges
from azul_fast.runs.simulate import thread_chunks

# isort: split
from azul_fast.runs.move_records import MOVE_NAMES as MOVE_NAMES
from azul_fast.runs.move_records import MoveRecords as MoveRecords
from azul_fast.runs.move_records import decode_move as decode_move

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["simulate_moves"]


def simulate_moves(
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
) -> MoveRecords:
    """Play the games of `simulate` with the same arguments, recording every move and round.

    The arguments are `simulate`'s and mean the same: the same seed gives the same games, and
    the result does not depend on `workers` or `chunk_size`, nor on whether it runs on this
    machine's threads or, with `scheduler` or `client`, as tasks on a Dask cluster
    (`azul_fast.runs.cluster`; `workers` and `chunk_size` then do not apply). Built-in policies
    only (the moves are recorded inside the native core): a Python policy raises ValueError.

    Parameters
    ----------
    n_games, players, policies, seed, workers, first_player, max_rounds, progress
        As in `simulate`.
    seat_rotation, chunk_size, scheduler, client, check_invariants, variant
        As in `simulate` (keyword only).

    Returns
    -------
    MoveRecords
        ``(games, moves, rounds)``: `simulate`'s frame, one row per move, one row per round
        and seat (columns in `MoveRecords`).

    Raises
    ------
    TypeError, ValueError
        As `simulate` does for a bad argument; ValueError also for a Python policy.
    MemoryError
        The records cannot fit in this process's memory (`record_bytes`, refused before any game
        is played: write the run to a folder, ``run_to_folder(..., moves=True)``), or a search
        could not allocate its tree; nothing is returned.

    Examples
    --------
    >>> games, moves, rounds = simulate_moves(100, players=2, policies="greedy", seed=1, workers=1)
    >>> bool(len(moves) == games.turns.sum()), bool(len(rounds) == 2 * games.rounds.sum())
    (True, True)
    >>> moves[["game", "ply", "round", "seat", "move", "tiles", "to_floor", "took_marker"]].head(3)
       game  ply  round  seat move  tiles  to_floor  took_marker
    0     0    0      1     0  5Y1      1         0        False
    1     0    1      1     1  4K3      3         0        False
    2     0    2      1     0  1R2      2         0        False
    >>> last = rounds[rounds["round"] == rounds.groupby("game")["round"].transform("max")]
    >>> bool((last.score_after_round.to_numpy() == games[["score_0", "score_1"]].to_numpy().ravel()).all())
    True
    """
    plan = plan_run(
        n_games, players, policies, seed, first_player, max_rounds,
        seat_rotation=seat_rotation, check_invariants=check_invariants, variant=variant,
    )
    if not plan.native:
        raise ValueError(
            "simulate_moves records moves inside the native core, so it takes built-in policies only "
            f"({', '.join(map(repr, plan.names))} given); replay a Python policy's games with play_game"
        )
    check_memory(plan.result_bytes() + record_bytes(plan), f"the records of {plan.total:,} games")
    if scheduler is not None or client is not None:
        return run_on_cluster(plan, scheduler=scheduler, client=client, progress=progress, moves=True)
    workers, chunk_size = thread_chunks(plan, workers, chunk_size)
    bounds = [(a, min(a + chunk_size, plan.total)) for a in range(0, plan.total, chunk_size)]
    parts = run_ranges(lambda a, b: record_games(plan, a, b), bounds, workers, plan.total, progress)
    return assemble(plan, parts)


