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
import importlib
import logging
import math
import os
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, overload

import pandas as pd

from azul_fast._version import __version__
from azul_fast.core.checks import check_bool, check_int, check_seconds
from azul_fast.core.policies import available_policies
from azul_fast.runs.folders import record_digests, write_part
from azul_fast.runs.frames import concat_arrays
from azul_fast.runs.lock import is_lock_file, run_lock
from azul_fast.runs.manifest import MANIFEST, check_run, new_manifest, part_name, read_manifest, write_manifest
from azul_fast.runs.move_records import MoveRecords, RecordedPart, assemble, record_games
from azul_fast.runs.plan import RunPlan
from azul_fast.runs.progress import progress_bar

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = [
    "CONNECT_TIMEOUT", "NO_WORKERS_TIMEOUT", "SHARD_SIZE", "IncompleteRunError", "NoWorkersError",
    "SchedulerLostError", "SchedulerUnreachableError", "run_on_cluster",
]

#: Games per task: big enough that Dask's per-task overhead (milliseconds) is lost in the noise.
SHARD_SIZE = 50_000
#: Seconds a scheduler has to greet a new connection (it does so at once; a service that is not
#: one never does) before SchedulerUnreachableError. With Python's start, a command given a wrong
#: address ends within 5 s.
CONNECT_TIMEOUT = 2.0
#: The largest first message a scheduler sends (its handshake: a few dozen bytes of msgpack).
_HANDSHAKE_MAX_BYTES = 1 << 16
#: Seconds a run waits while the cluster has no worker at all before NoWorkersError. Dask itself
#: would wait for ever (a scheduler whose workers all died, or never came, looks like a hang).
NO_WORKERS_TIMEOUT = 300.0
_POLL_SECONDS = 0.25  # how often a run looks at its tasks and the workers while it waits
_INSTALL_HINT = 'Running on a Dask cluster needs the dask extra: pip install "azul_fast[dask]"'


class SchedulerUnreachableError(ConnectionError):
    """No Dask scheduler answered at the given address in time."""


class SchedulerLostError(ConnectionError):
    """The connection to the Dask scheduler was lost while the run's tasks were out."""


class NoWorkersError(RuntimeError):
    """The cluster had no worker for longer than the run was willing to wait."""


class IncompleteRunError(RuntimeError):
    """A run's results do not hold every game exactly once."""


@overload
def run_on_cluster(
    plan: RunPlan, *, scheduler: str | None = ..., client: Client | None = ..., shard_size: int = ...,
    dataset: None = ..., progress: bool | None = ..., retries: int = ..., connect_timeout: float = ...,
    no_workers_timeout: float | None = ..., moves: Literal[False] = ...,
) -> pd.DataFrame: ...


@overload
def run_on_cluster(
    plan: RunPlan, *, scheduler: str | None = ..., client: Client | None = ..., shard_size: int = ...,
    dataset: None = ..., progress: bool | None = ..., retries: int = ..., connect_timeout: float = ...,
    no_workers_timeout: float | None = ..., moves: Literal[True],
) -> MoveRecords: ...


@overload
def run_on_cluster(
    plan: RunPlan, *, scheduler: str | None = ..., client: Client | None = ..., shard_size: int = ...,
    dataset: str | os.PathLike[str], progress: bool | None = ..., retries: int = ..., connect_timeout: float = ...,
    no_workers_timeout: float | None = ..., moves: bool = ...,
) -> Path: ...


def run_on_cluster(
    plan: RunPlan,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
    shard_size: int = SHARD_SIZE,
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
    shard_size : int
        Games per task. Results never depend on it.
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
        An argument of the wrong type (`azul_fast.core.checks`).
    ValueError
        A bad argument, or a policy that is a Python callable (those run only locally).
    """
    distributed = _import_distributed()
    if not plan.native:
        custom = [name for seat, name in zip(plan.seats, plan.names) if not isinstance(seat, str)]
        raise ValueError(
            f"only built-in policies ({', '.join(available_policies())}) can run on a cluster, "
            f"not the Python callable {custom[0]!r}: run it locally, with simulate() and no scheduler"
        )
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
        with _own_client_quiet(), _connect(distributed, scheduler, connect_timeout) as own_client:
            return shards.run(own_client, progress)
    if client is None:
        try:
            client = distributed.default_client()
        except ValueError:
            raise ValueError(
                "no Dask cluster given: pass scheduler='tcp://host:8786' or client=distributed.Client(...)"
            ) from None
    return shards.run(client, progress)


def _import_distributed() -> ModuleType:
    # import_module, not `import distributed`: typed as a module whether or not the dask extra is
    # installed (without it mypy sees the import as Any and --strict rejects returning it).
    try:
        return importlib.import_module("distributed")
    except ImportError as error:
        raise ImportError(_INSTALL_HINT) from error


def _connect(distributed: ModuleType, address: object, timeout: float) -> Client:
    """A client for `address`, or a one-line error within `timeout` seconds (never a hang)."""
    if not isinstance(address, str):
        raise ValueError(f"scheduler must be an address such as 'tcp://host:8786', got {address!r}")
    deadline = time.monotonic() + timeout
    scheme, location = distributed.comm.parse_address(address, strict=False)
    if scheme == "tcp":  # other schemes (tls, ucx, inproc) go straight to Dask
        try:
            host, port = distributed.comm.parse_host_port(location)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
        except ValueError as error:  # no port, a port that is not a number, ...
            raise _malformed(address, error) from None
        _expect_scheduler(address, host, port, deadline)
    # Made in two steps so that a failed connection can be let go: Client.__del__ would otherwise try
    # to close it, wait seconds, and print a traceback after the one-line error.
    client: Client = distributed.Client.__new__(distributed.Client)
    try:
        distributed.Client.__init__(client, address, timeout=timeout, set_as_default=False)
    except BaseException as error:
        _abandon(client)
        if isinstance(error, ValueError):  # malformed: an unknown scheme (http://), inproc:// without its parts
            raise _malformed(address, error) from None
        if isinstance(error, TypeError):  # tls:// without security settings, ucx:// without ucx
            raise ValueError(f"scheduler {address!r}: Dask cannot connect to it from here ({error}); a tls:// "
                             "scheduler needs security settings: pass client=distributed.Client(address, "
                             "security=...)") from None
        if isinstance(error, OSError):  # refused, unknown host, timed out
            raise _unreachable(address, f"no answer within {timeout:g} s: {error}") from None
        raise
    return client


@contextlib.contextmanager
def _own_client_quiet() -> Iterator[None]:
    """Only critical log records from Dask's client while a run uses its own: a lost scheduler is
    reported by SchedulerLostError, in one line, not also by the client's reconnection errors."""
    logger = logging.getLogger("distributed.client")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _abandon(client: Client) -> None:
    """Mark a client whose constructor failed as closed and stop its event loop thread."""
    client.status = "closed"
    runner = getattr(client, "_loop_runner", None)
    if runner is not None:
        runner.stop()


def _expect_scheduler(address: str, host: str, port: int, deadline: float) -> None:
    """Check that a Dask scheduler listens at host:port before Dask's client tries, by its first message.

    A scheduler greets every connection with its handshake (a frame length, then msgpack naming
    its pickle protocol) before reading anything. A silent service or an HTTP server (the
    dashboard's port) never sends one, and Dask's client would wait for ever; another service's
    banner would be read by Dask as an absurd frame length. Only this address is contacted.
    """
    try:
        with socket.create_connection((host, port), timeout=max(0.01, deadline - time.monotonic())) as sock:
            header = _receive(sock, 8, deadline)
            (size,) = struct.unpack("Q", header)  # as Dask's TCP comm frames a message, in native order
            if not 16 <= size <= _HANDSHAKE_MAX_BYTES:
                raise _not_dask(address, f"it sent {header!r}")
            greeting = _receive(sock, size, deadline)
    except TimeoutError:
        raise _not_dask(address, "it accepted the connection but sent nothing; is it the dashboard's port?") from None
    except OSError as error:  # refused, unknown host, unreachable network
        raise _unreachable(address, error.strerror or str(error)) from None
    if b"pickle-protocol" not in greeting:
        raise _not_dask(address, f"its first message was {greeting[:40]!r}...")


def _receive(sock: socket.socket, n: int, deadline: float) -> bytes:
    """Exactly `n` bytes from `sock` by `deadline` (socket.timeout if they do not come)."""
    data = b""
    while len(data) < n:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionResetError(0, f"the connection closed after {len(data)} bytes")
        data += chunk
    return data


def _malformed(address: str, error: ValueError) -> ValueError:
    return ValueError(f"scheduler {address!r} is not a Dask address such as 'tcp://host:8786' ({error})")


def _not_dask(address: str, why: str) -> SchedulerUnreachableError:
    return SchedulerUnreachableError(
        f"no Dask scheduler at {address!r}: {why} (a scheduler listens on port 8786 unless told otherwise)")


def _unreachable(address: str, why: str) -> SchedulerUnreachableError:
    return SchedulerUnreachableError(
        f"no Dask scheduler answered at {address!r} ({why}); "
        "start one with `dask scheduler` and workers with `dask worker tcp://HOST:8786`"
    )


def _empty_folder(folder: Path) -> Path:
    """`folder` as an absolute path, if it is new or empty (but for a lock): a dataset never mixes with other files."""
    folder = folder.expanduser().absolute()
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"dataset {folder} exists and is not a folder")
    if (folder / MANIFEST).exists() or any(folder.glob("part-*.parquet")):
        raise FileExistsError(f"dataset {folder} already holds a run; give a new or empty folder")
    if folder.exists() and any(not is_lock_file(entry.name) for entry in folder.iterdir()):
        raise FileExistsError(f"dataset {folder} is not empty and holds no run; give a new or empty folder")
    return folder


class _Shards:
    """One run cut into tasks of `size` games (every move too if `moves`); gathered, or written to `folder`."""

    def __init__(self, plan: RunPlan, size: int, folder: Path | None, retries: int, no_workers_timeout: float | None,
                 moves: bool = False):
        self.plan, self.size, self.folder, self.retries, self.moves = plan, size, folder, retries, moves
        self.no_workers_timeout = no_workers_timeout
        self.bounds = [(a, min(a + size, plan.total)) for a in range(0, plan.total, size)]
        self.token = ""

    def run(self, client: Client, progress: bool | None) -> pd.DataFrame | MoveRecords | Path:
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
        from distributed.comm.core import CommClosedError

        # Keys follow from the code, the plan and the range: a retried shard can only replace itself.
        token = tokenize(__version__, self.plan, str(self.folder), self.moves, self.token)
        futures = [self._submit(client, token, a, b) for a, b in self.bounds]
        shard_of = {future.key: i for i, future in enumerate(futures)}
        results: list[Any] = [None] * len(self.bounds)
        bar = progress_bar(self.plan.total, progress)
        try:
            for future in self._as_completed(client, futures):
                i = shard_of[future.key]
                results[i] = future.result()  # a shard that failed for good raises its error here
                if bar is not None:
                    bar.update(self.bounds[i][1] - self.bounds[i][0])
        # Dask cancels every future when it loses the scheduler; or, when the loss reaches the client
        # first (a loaded machine), the client's own connection reports it as closed.
        except (cf.CancelledError, CommClosedError) as error:
            with contextlib.suppress(OSError, TimeoutError):  # nothing to cancel on a scheduler that is gone
                client.cancel(futures)
            raise SchedulerLostError(self._lost(error)) from None
        except BaseException:
            client.cancel(futures)  # a shared cluster should not go on with an abandoned run
            raise
        finally:
            if bar is not None:
                bar.close()
        if self.folder is None:
            return self._assemble(results)
        manifest = read_manifest(self.folder)
        record_digests(self.folder, manifest, {receipt["file"]: receipt["digests"] for receipt in results})
        self._check_folder(self.folder)
        return self.folder

    def _lost(self, error: BaseException) -> str:
        """What a run whose scheduler went away has kept, and how to finish it."""
        why = getattr(error, "reason", None) or " ".join(str(error).split())
        if self.folder is None:
            return f"the Dask scheduler was lost mid-run ({why}); no rows were returned: run it again"
        return (f"the Dask scheduler was lost mid-run ({why}); the parts in {self.folder} are whole: finish the run "
                "here with the same arguments and --resume (run_to_folder(..., resume=True))")

    def _as_completed(self, client: Client, futures: list[Future[Any]]) -> Iterator[Future[Any]]:
        """The futures as they finish, watching that the cluster keeps at least one worker."""
        from distributed import as_completed

        finished, idle_since = as_completed(futures, loop=client.loop), None
        while not finished.is_empty():
            batch = finished.next_batch(block=False)
            yield from batch
            if batch or client.scheduler_info().get("workers"):
                idle_since = None
            else:
                idle_since = idle_since or time.monotonic()
                if self.no_workers_timeout is not None and time.monotonic() - idle_since > self.no_workers_timeout:
                    raise NoWorkersError(
                        f"the Dask cluster has had no workers for {self.no_workers_timeout:g} s with "
                        f"{finished.count()} of {len(futures)} shards left; start workers with "
                        "`dask worker tcp://HOST:8786`, or pass no_workers_timeout=None to wait for ever"
                    )
            if not batch:
                time.sleep(_POLL_SECONDS)

    def _submit(self, client: Client, token: str, a: int, b: int) -> Future[Any]:
        task: tuple[Any, ...]
        if self.folder is not None:
            kind, task = "write", (_write_shard, self.plan, a, b, str(self.folder), self.moves, self.token)
        elif self.moves:
            kind, task = "record", (record_games, self.plan, a, b)
        else:
            kind, task = "play", (self.plan.run, a, b)
        return client.submit(*task, key=f"azul_fast-{kind}-{token}-{a}-{b}", retries=self.retries)

    def _assemble(self, results: list[Any]) -> pd.DataFrame | MoveRecords:
        """Every game exactly once: each shard came back once with exactly its number of games."""
        for (a, b), result in zip(self.bounds, results):
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


def _write_shard(plan: RunPlan, start: int, stop: int, folder: str, moves: bool, token: str) -> dict[str, Any]:
    """Runs on a worker: the shard's rows go straight to disk; only a receipt comes back.

    Written only while the folder's lock holds the client's `token`: a worker that outlives its
    scheduler and client (orphaned) finds the lock released or another's, and writes nothing.
    """
    # Atomic: a retry replaces the part's files, never adds one.
    digests = write_part(plan, Path(folder), start, stop, moves, token)
    return {"file": part_name(start), "first_game": start, "n_games": stop - start, "digests": digests}
