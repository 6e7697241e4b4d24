"""Runs past one machine: a RunPlan's games as Dask tasks, gathered or written as a parquet dataset.

The run is cut into shards of `shard_size` games; each shard is one Dask task that calls
`RunPlan.run`, which is a pure function of the plan and the game range. So the rows do not depend
on the number of workers, and a task that Dask retries after a failure or a lost worker gives the
same rows again. Task keys and part file names follow from the plan and the range, so a retried
shard replaces its own result (or its own file) instead of adding a second copy; the run is still
checked at the end to hold every game exactly once.

A dataset folder (``dataset=DIR``) is a run folder, the same layout as `azul_fast.runs.folders`: one
parquet part per shard, written on the workers (atomically, the run metadata in every file), and
the manifest, written by the client before any task starts. A worker writes a part only while
the folder's lock is the client's (`azul_fast.runs.lock.check_holder`), so workers orphaned by a
scheduler that died write nothing once the client has let the folder go::

    DIR/
      _manifest.json               the run: arguments, root seed, shard size, part names, df.attrs
      part-000000000000.parquet    games 0..shard_size-1
      part-000000050000.parquet    ...

`azul_fast.load(DIR)`, `pandas.read_parquet(DIR)` and `dask.dataframe.read_parquet(DIR)` read it
as the games alone (pandas skips names that start with ``_`` or ``.``, dask names that do not end
in ``.parquet``: the manifest and half-written temporary files); the zero-padded names sort in game
order. The client adds each part's digest to the manifest as the receipts come back. With
``moves=True`` every move and round is recorded too (`azul_fast.runs.move_records`): gathered as the
`MoveRecords` of `simulate_moves`, or written as a move run folder (``DIR/_moves/`` and
``DIR/_rounds/`` beside the games parts, laid out so that these readers skip them).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

import pandas as pd

from azul_fast._version import __version__
from azul_fast.core.bots.policies import PolicySpec, available_policies
from azul_fast.core.errors import AzulFastError
from azul_fast.core.output import check_not_link
from azul_fast.core.rules.checks import check_bool, check_int, check_seconds
from azul_fast.runs.dask_client import (
    CONNECT_TIMEOUT,
    SchedulerUnreachableError,  # noqa: F401 (still importable from here)
    connect,
    import_distributed,
    own_client_quiet,
)
from azul_fast.runs.folders import record_digests, write_part
from azul_fast.runs.frames import concat_arrays
from azul_fast.runs.lock import is_lock_file, run_lock
from azul_fast.runs.manifest import MANIFEST, check_run, new_manifest, part_name, read_manifest, write_manifest
from azul_fast.runs.move_records import MoveRecords, RecordedPart, assemble, record_games
from azul_fast.runs.plan import RunPlan
from azul_fast.runs.progress import progress_bar
from azul_fast.runs.tasks import task_size

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = [
    "CONNECT_TIMEOUT", "NO_WORKERS_TIMEOUT", "SHARD_SIZE", "IncompleteRunError", "NoWorkersError",
    "SchedulerLostError", "Task", "cluster_threads", "run_on_cluster",
    "default_shard_size", "run_tasks",
]

#: The most games a task: enough that Dask's per-task overhead (milliseconds) is lost in the noise.
SHARD_SIZE = 50_000
#: Seconds a run waits while the cluster has no worker at all before NoWorkersError. Dask itself
#: would wait for ever (a scheduler whose workers all died, or never came, looks like a hang).
NO_WORKERS_TIMEOUT = 300.0
_POLL_SECONDS = 0.25  # how often a run that sees no task finish looks whether the cluster has workers


class SchedulerLostError(AzulFastError, ConnectionError):
    """The connection to the Dask scheduler was lost while the run's tasks were out; `why` is Dask's reason."""

    def __init__(self, message: str, why: str = "") -> None:
        super().__init__(message)
        self.why = why


class NoWorkersError(AzulFastError, RuntimeError):
    """The cluster had no worker for longer than the run was willing to wait."""


class IncompleteRunError(AzulFastError, RuntimeError):
    """A run's results do not hold every game exactly once."""


@overload
def run_on_cluster(
    plan: RunPlan, *, scheduler: str | None = ..., client: Client | None = ..., shard_size: int | None = ...,
    dataset: None = ..., progress: bool | None = ..., retries: int = ..., connect_timeout: float = ...,
    no_workers_timeout: float | None = ..., moves: Literal[False] = ...,
) -> pd.DataFrame: ...


@overload
def run_on_cluster(
    plan: RunPlan, *, scheduler: str | None = ..., client: Client | None = ..., shard_size: int | None = ...,
    dataset: None = ..., progress: bool | None = ..., retries: int = ..., connect_timeout: float = ...,
    no_workers_timeout: float | None = ..., moves: Literal[True],
) -> MoveRecords: ...


@overload
def run_on_cluster(
    plan: RunPlan, *, scheduler: str | None = ..., client: Client | None = ..., shard_size: int | None = ...,
    dataset: str | os.PathLike[str], progress: bool | None = ..., retries: int = ..., connect_timeout: float = ...,
    no_workers_timeout: float | None = ..., moves: bool = ...,
) -> Path: ...


def run_on_cluster(
    plan: RunPlan,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
    shard_size: int | None = None,
    dataset: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
    retries: int = 3,
    connect_timeout: float = CONNECT_TIMEOUT,
    no_workers_timeout: float | None = NO_WORKERS_TIMEOUT,
    moves: bool = False,
) -> pd.DataFrame | MoveRecords | Path:
    """Play every game of `plan` on a Dask cluster.

    Parameters
    ----------
    plan : RunPlan
        From `plan_run`; its policies must be built-in names (user callables cannot be shipped).
    scheduler : str, optional
        Address of a running scheduler, e.g. ``"tcp://host:8786"``; a client is opened and closed.
    client : distributed.Client, optional
        A client you already have (left open). Give `scheduler` or `client`, not both; with
        neither, the current default client is used.
    shard_size : int or None
        Games per task (None: `default_shard_size`, by the policies' cost and the cluster's
        threads). Results never depend on it.
    dataset : path, optional
        Write one parquet file per shard into this new or empty folder (on storage that every
        worker can write and this process can read) instead of gathering the rows, and return it.
    progress : bool or None
        A progress bar (None: only on a terminal).
    retries : int
        Times Dask reruns a shard whose task raised. A worker that dies is rescheduled by Dask
        itself (``distributed.scheduler.allowed-failures``).
    connect_timeout : float
        Seconds `scheduler` has to greet a connection (and then again for the client to connect)
        before SchedulerUnreachableError. A TCP address is checked first with one plain connection
        that must receive a Dask handshake, so a silent port, an HTTP server (the dashboard) or
        another service's banner are refused in time instead of hanging or crashing Dask's client.
    no_workers_timeout : float or None
        Seconds the run waits while the cluster has no worker at all (none started, or all lost)
        before it cancels its tasks and raises NoWorkersError; None waits for ever (an adaptive
        cluster that starts workers only on demand, from a slow batch queue).
    moves : bool
        Record every move and round too (`azul_fast.runs.move_records`): the result is the same
        `MoveRecords` as `simulate_moves` gives, and a `dataset` is a move run folder
        (`azul_fast.runs.folders`: the games parts plus ``moves/`` and ``rounds/``).

    Returns
    -------
    pandas.DataFrame, MoveRecords or pathlib.Path
        The same DataFrame as `simulate` (with `moves`, the same `MoveRecords` as
        `simulate_moves`) for the same arguments, or the dataset folder.

    Raises
    ------
    SchedulerUnreachableError
        No scheduler answered at `scheduler` within `connect_timeout` seconds.
    SchedulerLostError
        The scheduler went away mid-run; a `dataset`'s parts written so far are whole, and
        ``run_to_folder(dataset, ..., resume=True)`` (``--resume``) finishes the run.
    NoWorkersError
        The cluster had no worker for `no_workers_timeout` seconds; the run's tasks are cancelled.
    IncompleteRunError
        The results do not hold every game exactly once (never expected; checked anyway).
    TypeError
        An argument of the wrong type (`azul_fast.core.rules.checks`).
    ValueError
        A bad argument, or a policy that is a Python callable (those run only locally).
    """
    distributed = import_distributed()
    if not plan.native:
        custom = [name for seat, name in zip(plan.seats, plan.names) if not isinstance(seat, PolicySpec)]
        raise ValueError(
            f"only built-in policies ({', '.join(available_policies())}) can run on a cluster, "
            f"not the Python callable {custom[0]!r}: run it locally, with simulate() and no scheduler"
        )
    if shard_size is not None:
        shard_size = check_int(shard_size, "shard_size", 1, math.inf)
    retries = check_int(retries, "retries", 0, math.inf)
    if no_workers_timeout is not None:
        no_workers_timeout = check_seconds(no_workers_timeout, "no_workers_timeout")
    if client is not None and scheduler is not None:
        raise ValueError("give scheduler= (an address) or client= (a distributed.Client), not both")
    moves = check_bool(moves, "moves")
    folder = None if dataset is None else _empty_folder(Path(dataset))
    shards = _Shards(plan, shard_size, folder, retries, no_workers_timeout, moves)
    if scheduler is not None:
        with own_client_quiet(), connect(distributed, scheduler, connect_timeout) as own_client:
            return shards.run(own_client, progress)
    if client is None:
        try:
            client = distributed.default_client()
        except ValueError:
            raise ValueError(
                "no Dask cluster given: pass scheduler='tcp://host:8786' or client=distributed.Client(...)"
            ) from None
    return shards.run(client, progress)


def _empty_folder(folder: Path) -> Path:
    """`folder` as an absolute path, if it is new or empty (but for a lock): a dataset never mixes with other files."""
    folder = check_not_link(folder.expanduser(), "dataset").absolute()
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"dataset {folder} exists and is not a folder")
    if (folder / MANIFEST).exists() or any(folder.glob("part-*.parquet")):
        raise FileExistsError(f"dataset {folder} already holds a run; give a new or empty folder")
    if folder.exists() and any(not is_lock_file(entry.name) for entry in folder.iterdir()):
        raise FileExistsError(f"dataset {folder} is not empty and holds no run; give a new or empty folder")
    return folder


class _Shards:
    """One run cut into tasks of `size` games (every move too if `moves`); gathered, or written to `folder`."""

    def __init__(self, plan: RunPlan, size: int | None, folder: Path | None, retries: int,
                 no_workers_timeout: float | None, moves: bool = False):
        self.plan, self.size, self.folder, self.retries, self.moves = plan, size, folder, retries, moves
        self.no_workers_timeout = no_workers_timeout
        self.token = ""  # the folder lock's token while a run writes into a folder

    def run(self, client: Client, progress: bool | None) -> pd.DataFrame | MoveRecords | Path:
        if self.size is None:
            self.size = default_shard_size(self.plan, client)
        if self.folder is None:
            return self._run(client, progress)
        self.folder.mkdir(parents=True, exist_ok=True)
        with run_lock(self.folder) as token:  # this process writes the run (its workers, the parts)
            _empty_folder(self.folder)  # again, now that no other run can start in it
            # The manifest first: a folder always says which run it holds.
            write_manifest(new_manifest(self.plan, self.size, moves=self.moves, writers=[token]), self.folder)
            self.token = token  # a worker writes a part only while the lock holds it (an orphan cannot)
            return self._run(client, progress)

    def _run(self, client: Client, progress: bool | None) -> pd.DataFrame | MoveRecords | Path:
        from dask.base import tokenize

        # Keys follow from the code, the plan and the range: a retried shard can only replace itself.
        token = tokenize(__version__, self.plan, str(self.folder), self.moves, self.token)
        size = self.size or SHARD_SIZE  # set by run
        bounds = [(a, min(a + size, self.plan.total)) for a in range(0, self.plan.total, size)]
        tasks = [self._task(token, a, b) for a, b in bounds]
        results = run_tasks(client, tasks, [b - a for a, b in bounds], progress, retries=self.retries,
                            no_workers_timeout=self.no_workers_timeout, lost=self._lost)
        if self.folder is None:
            return self._assemble(bounds, results)
        manifest = read_manifest(self.folder)
        record_digests(self.folder, manifest, {receipt["file"]: receipt["digests"] for receipt in results})
        self._check_folder(self.folder)
        return self.folder

    def _lost(self, why: str) -> str:
        """What a run whose scheduler went away has kept, and how to finish it."""
        if self.folder is None:
            return f"the Dask scheduler was lost mid-run ({why}); no rows were returned: run it again"
        return (f"the Dask scheduler was lost mid-run ({why}); the parts in {self.folder} are whole: finish the run "
                "here with the same arguments and --resume (run_to_folder(..., resume=True))")

    def _task(self, token: str, a: int, b: int) -> Task:
        call: tuple[Any, ...]
        if self.folder is not None:
            kind, call = "write", (_write_shard, self.plan, a, b, str(self.folder), self.moves, self.token)
        elif self.moves:
            kind, call = "record", (record_games, self.plan, a, b)
        else:
            kind, call = "play", (self.plan.run, a, b)
        return Task(f"azul_fast-{kind}-{token}-{a}-{b}", call)

    def _assemble(self, bounds: list[tuple[int, int]], results: list[Any]) -> pd.DataFrame | MoveRecords:
        """Every game exactly once: each shard came back once with exactly its number of games."""
        for (a, b), result in zip(bounds, results):
            arrays = result[0] if self.moves and result is not None else result
            if arrays is None or len(arrays["seed"]) != b - a:
                raise IncompleteRunError(f"the shard of games {a}..{b - 1} did not come back whole")
        if self.moves:
            parts: list[RecordedPart] = results
            return assemble(self.plan, parts)
        return self.plan.frame(concat_arrays(results) if len(results) > 1 else results[0], first_game=0)

    def _check_folder(self, folder: Path) -> None:
        """Every game exactly once: one part per shard, no strays, each stamped with exactly its range."""
        try:
            check_run(folder)
        except ValueError as error:
            raise IncompleteRunError(f"dataset {folder}: {error}") from None


def cluster_threads(client: Client) -> int:
    """The threads of the cluster's workers now (at least 1: a cluster may still be starting them)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(info.get("nthreads", 1)) for info in workers.values()))


def default_shard_size(plan: RunPlan, client: Client) -> int:
    """Games a task when a run does not say: `azul_fast.runs.tasks.task_size` over the cluster's threads, at
    most `SHARD_SIZE`, so a short run of a slow search (a study's level) still spreads over the cluster.
    Results never depend on it."""
    return task_size(plan.total, plan.seconds_per_game, cluster_threads(client), largest=SHARD_SIZE)


class Task(NamedTuple):
    """One Dask task: its key (following from what it computes, so a retry replaces only itself) and
    its call, ``(function, *arguments)``, run on a worker."""

    key: str
    call: tuple[Any, ...]


def run_tasks(
    client: Client,
    tasks: Sequence[Task],
    sizes: Sequence[int],
    progress: bool | None,
    *,
    retries: int = 3,
    no_workers_timeout: float | None = NO_WORKERS_TIMEOUT,
    lost: Callable[[str], str] | None = None,
) -> list[Any]:
    """Run `tasks` on the cluster of `client` and return their results in order: the run loop of
    every cluster run (`run_on_cluster`, `azul_fast.runs.rollouts`).

    A progress bar counts the `sizes` (games) of the tasks that finished. A task that raises is
    rerun `retries` times; one whose worker died is rescheduled by Dask. Any interrupt (Ctrl-C) or
    failure cancels the tasks still out, so a shared cluster does not go on with an abandoned run.
    A lost scheduler raises SchedulerLostError with ``lost(why)`` (default: nothing was returned).
    The cluster having no worker for `no_workers_timeout` seconds raises NoWorkersError.
    """
    from distributed.comm.core import CommClosedError

    futures = [client.submit(*task.call, key=task.key, retries=retries) for task in tasks]
    index_of = {future.key: i for i, future in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    bar = progress_bar(sum(sizes), progress)
    try:
        for future in _as_completed(client, futures, no_workers_timeout):
            i = index_of[future.key]
            results[i] = future.result()  # a task that failed for good raises its error here
            if bar is not None:
                bar.update(sizes[i])
    # Dask cancels every future when it loses the scheduler; or, when the loss reaches the client
    # first (a loaded machine), the client's own connection reports it as closed.
    except (cf.CancelledError, CommClosedError) as error:
        with contextlib.suppress(OSError, TimeoutError):  # nothing to cancel on a scheduler that is gone
            client.cancel(futures)
        why = getattr(error, "reason", None) or " ".join(str(error).split())
        raise SchedulerLostError((lost or _nothing_returned)(why), why=why) from None
    except BaseException:
        client.cancel(futures)  # a shared cluster should not go on with an abandoned run
        raise
    finally:
        if bar is not None:
            bar.close()
    return results


def _nothing_returned(why: str) -> str:
    return f"the Dask scheduler was lost mid-run ({why}); no results were returned: run it again"


def _as_completed(client: Client, futures: list[Future[Any]], no_workers_timeout: float | None,
                  ) -> Iterator[Future[Any]]:
    """The futures as they finish (each as soon as it does, so a study's many short runs do not
    wait on a poll), watching that the cluster keeps at least one worker."""
    from distributed import wait

    pending, idle_since = set(futures), None
    while pending:
        try:
            with client.as_current():  # Dask's wait asks for the current client
                done, pending = wait(pending, timeout=_POLL_SECONDS, return_when="FIRST_COMPLETED")
        except TimeoutError:  # none finished within the poll
            done = set()
        yield from done
        if done or client.scheduler_info().get("workers"):
            idle_since = None
        else:
            idle_since = idle_since or time.monotonic()
            if no_workers_timeout is not None and time.monotonic() - idle_since > no_workers_timeout:
                raise NoWorkersError(
                    f"the Dask cluster has had no workers for {no_workers_timeout:g} s with "
                    f"{len(pending)} of {len(futures)} shards left; start workers with "
                    "`dask worker tcp://HOST:8786`, or pass no_workers_timeout=None to wait for ever"
                )


def _write_shard(plan: RunPlan, start: int, stop: int, folder: str, moves: bool, token: str) -> dict[str, Any]:
    """Runs on a worker: the shard's rows go straight to disk; only a receipt comes back.

    Written only while the folder's lock holds the client's `token`: a worker that outlives its
    scheduler and client (orphaned) finds the lock released or another's, and writes nothing.
    """
    # Atomic: a retry replaces the part's files, never adds one.
    digests = write_part(plan, Path(folder), start, stop, moves, token)
    return {"file": part_name(start), "first_game": start, "n_games": stop - start, "digests": digests}
