"""The thread pool a run plays its tasks on, and how an interrupted run stops it.

Every local run (`azul_fast.simulate`, `simulate_moves`, a run folder) plays its tasks on one
`run_pool`. When the run stops (Ctrl-C, SIGTERM in a folder run, an error) the tasks not started
are dropped and the pool waits for the running ones, so no thread is left playing behind the
caller's back. On Ctrl-C or SIGTERM it first asks the searches in play to stop
(`azul_fast.core.policies.stop_searches`): a task in the middle of a game of ``mcts:1000000``
ends within milliseconds instead of finishing its game (about a minute), and its result is
dropped with it. A run that is not interrupted plays exactly the same games.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
from collections.abc import Iterator

from azul_fast.core.policies import stop_searches

__all__ = ["run_pool"]


@contextlib.contextmanager
def run_pool(workers: int, tasks: int) -> Iterator[cf.ThreadPoolExecutor]:
    """A pool of at most `workers` threads (and no more than `tasks`) that is shut down on leaving:
    on KeyboardInterrupt the running searches are stopped before the wait (see the module docstring).

    >>> with run_pool(workers=2, tasks=3) as pool:
    ...     sorted(pool.map(abs, [-1, -2, 3]))
    [1, 2, 3]
    """
    pool = cf.ThreadPoolExecutor(max_workers=max(1, min(workers, tasks)), thread_name_prefix="azul_fast")
    interrupted = False
    try:
        yield pool
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        if interrupted:
            stop_searches()
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            if interrupted:  # the stop is for this run's tasks only: later searches play again
                stop_searches(False)
