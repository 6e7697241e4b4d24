"""How a run is cut into tasks: one size rule for the local threads, the Dask tasks and the rollouts.

Results never depend on the sizes (every game and rollout has its own seed); they set how long a task
runs, so how soon Ctrl-C is answered, how evenly a slow search spreads over the threads, and how much
Dask's overhead (a few milliseconds a task) weighs.

>>> task_size(1_000, 0.001, workers=2, largest=20_000)   # 1,000 games of a millisecond: 4 tasks a worker
125
>>> task_size(10**6, 0.001, workers=2, largest=20_000)   # a second of play a task
1000
"""

from __future__ import annotations

import math

__all__ = ["TASK_SECONDS", "task_size"]

#: Seconds of work a task aims at (by the cost model, `azul_fast.runs.plan.estimated_seconds_per_game`):
#: Ctrl-C waits at most about that long for the tasks running, a lost Dask worker's task is soon redone,
#: and Dask's overhead is lost in the noise.
TASK_SECONDS = 1.0


def task_size(total: int, seconds_each: float, workers: int, *, smallest: int = 1, largest: float = math.inf) -> int:
    """Items (games, rollout jobs) per task for `total` items of `seconds_each` seconds on `workers` threads:
    about `TASK_SECONDS` of work, between `smallest` and `largest`, and at least four tasks a thread so
    that the last ones leave no thread idle."""
    by_time = max(smallest, int(min(largest, TASK_SECONDS / seconds_each)))
    return max(smallest, min(by_time, -(-total // (4 * workers))))
