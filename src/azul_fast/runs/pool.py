"""The one run loop: ranges of games on a thread pool, with a progress bar and a clean stop.

`simulate`, `simulate_moves` and run folders all play their chunks through `run_ranges`, so they
share how many threads run, how progress is counted and what Ctrl-C does: the chunks not yet
started are dropped, the searches in play are asked to stop (`azul_fast.core.bots.policies.stop_searches`:
they notice between their iterations, so a game of ``mcts:1000000`` stops within milliseconds
instead of playing on for a minute, and its chunk's result is dropped), the other running chunks
(each a few seconds of play) finish, and the interrupt is raised again, leaving no thread behind.
A run that is not interrupted plays exactly the same games. The native batches release the GIL,
so threads scale.

>>> run_ranges(lambda a, b: b - a, [(0, 3), (3, 5)], workers=2, total=5, progress=False)
[3, 2]
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Sequence
from typing import Any

from azul_fast.core.bots.policies import stop_searches
from azul_fast.runs.progress import progress_bar
from azul_fast.runs.signals import check_stop

__all__ = ["run_ranges"]


def run_ranges(
    play: Callable[[int, int], Any],
    ranges: Sequence[tuple[int, int]],
    workers: int,
    total: int,
    progress: bool | None,
    *,
    done: int = 0,
    on_done: Callable[[int, int, Any], object] | None = None,
) -> list[Any]:
    """``play(start, stop)`` for every range on up to `workers` threads; the results in range order.

    The bar counts `total` games, `done` of them finished before (a resumed run); each finished
    range adds its games. ``on_done(start, stop, result)`` runs in the calling thread as each range
    finishes, and, after an interrupt or a failure, for every range that finished meanwhile (a part
    already on disk is reported even when the run stops).
    """
    results: dict[int, Any] = {}
    futures: dict[cf.Future[Any], int] = {}
    bar = progress_bar(total, progress)
    if bar is not None and done:
        bar.update(done)
    pool = cf.ThreadPoolExecutor(max_workers=max(1, min(workers, len(ranges))), thread_name_prefix="azul_fast")
    interrupted = False
    try:
        futures.update((pool.submit(play, a, b), k) for k, (a, b) in enumerate(ranges))
        for future in cf.as_completed(futures):
            check_stop()  # a stop swallowed on its way stops the run all the same
            k = futures[future]
            results[k] = future.result()
            if bar is not None:
                bar.update(ranges[k][1] - ranges[k][0])
            if on_done is not None:
                on_done(*ranges[k], results[k])
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM/SIGHUP turned into it (folders.interrupt_on_signals)
        interrupted = True
        raise
    finally:  # on Ctrl-C (or a failed chunk): drop the chunks not started, let the running ones finish
        if interrupted:
            stop_searches()
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            if interrupted:  # the stop was for this run's chunks: later searches play again
                stop_searches(False)
        if on_done is not None:
            for future, k in futures.items():
                if k not in results and future.done() and not future.cancelled() and future.exception() is None:
                    on_done(*ranges[k], future.result())
        if bar is not None:
            bar.close()
    return [results[k] for k in range(len(ranges))]
