"""Where a study's work runs: this machine's threads, or a Dask cluster, said once at the boundary.

Every study (the ladder, the first player by strength, the opening rollouts, `analyse`, `review`,
the report) takes ``workers=``, ``scheduler=`` and ``client=``; `run_where` checks them once and
gives a `Where`, which the study hands to every `simulate` and `rollouts` it calls. A scheduler
address is connected to once for the whole study (`azul_fast.runs.dask_client.connect`: one line
within seconds if nothing answers) and the connection closed at its end; a client given is used
and left open. Games and rollouts are pure functions of their seeds and ranges, cut into fixed
tasks, so a study gives the same numbers wherever it runs.

>>> with run_where(workers=2) as where:
...     where
Where(workers=2, client=None)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from azul_fast._version import __version__
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.runs.cluster import SchedulerLostError, Task, run_tasks
from azul_fast.runs.dask_client import CONNECT_TIMEOUT, connect, import_distributed, own_client_quiet
from azul_fast.runs.signals import check_stop

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["Where", "run_where"]

T = TypeVar("T")


@dataclass(frozen=True)
class Where:
    """`workers` threads of this process, or, with `client`, the Dask cluster it is connected to."""

    workers: int = 1
    client: Client | None = None

    @property
    def on_cluster(self) -> bool:
        return self.client is not None

    def map(self, function: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]:
        """``function(*arguments)`` for every tuple of `calls`, in order: here one after another, on
        the cluster one task each (a module-level function, which the workers import). For work
        cut into independent pieces that are pure functions of their arguments (a study's games).
        """
        if self.client is None:
            return [_checked(function, arguments) for arguments in calls]
        from dask.base import tokenize

        name = f"azul_fast-{function.__module__}.{function.__qualname__}"
        tasks = [Task(f"{name}-{tokenize(__version__, arguments)}", (function, *arguments)) for arguments in calls]
        return run_tasks(self.client, tasks, [1] * len(tasks), progress=False)


def _checked(function: Callable[..., T], arguments: tuple[Any, ...]) -> T:
    check_stop()  # between pieces: a stop swallowed on its way ends the study here
    return function(*arguments)


@contextlib.contextmanager
def run_where(
    workers: int | None = None,
    scheduler: str | None = None,
    client: Client | None = None,
    *,
    lost: str = "nothing of it was returned: run it again",
) -> Iterator[Where]:
    """The `Where` of a study, checked once: `workers` threads (None: every core), or the cluster of
    `scheduler` (an address such as ``"tcp://host:8786"``, connected to here and closed at the end)
    or of `client` (a ``distributed.Client``, left open); not both.

    A scheduler lost while the study runs ends it with one SchedulerLostError saying so and what
    was kept (`lost`, e.g. where the finished parts are and how to resume).

    Raises
    ------
    ValueError
        For both `scheduler` and `client`, or a malformed address.
    SchedulerUnreachableError
        No scheduler answered at `scheduler` in time.
    ImportError
        Dask's ``distributed`` is not installed (the message names the extra).
    """
    if scheduler is not None and client is not None:
        raise ValueError("give scheduler= (an address) or client= (a distributed.Client), not both")
    threads = resolve_workers(workers)
    if scheduler is None and client is None:
        yield Where(threads)
        return
    distributed = import_distributed()
    if client is not None and not isinstance(client, distributed.Client):
        raise TypeError(f"client must be a distributed.Client, got {type(client).__name__}")
    try:
        if client is not None:
            yield Where(threads, client)
            return
        with own_client_quiet(), connect(distributed, scheduler, CONNECT_TIMEOUT) as own:
            yield Where(threads, own)
    except SchedulerLostError as error:  # the study's words, not those of the one run that noticed
        why = error.why or str(error)
        raise SchedulerLostError(f"the Dask scheduler was lost mid-study ({why}); {lost}", why=why) from None
