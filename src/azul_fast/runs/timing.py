"""How long games take: runs of a policy timed on this machine, for benchmarks and cost tables.

Timings are never an input of a study's numbers (those use the fixed cost model of
`azul_fast.runs.plan`): they only describe the machine.

>>> import itertools
>>> sizes = [games for games, _ in itertools.islice(doubling_runs("greedy", 2, first=10), 3)]
>>> sizes
[10, 20, 40]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from azul_fast.runs.simulate import simulate

if TYPE_CHECKING:
    from azul_fast.core.bots.policies import PolicySpec

__all__ = ["doubling_runs", "seconds_for"]


def seconds_for(games: int, policy: str | PolicySpec, players: int, workers: int = 1,
                variant: str = "colored") -> float:
    """Wall seconds of ``simulate(games, players, policy)`` on `workers` threads (seed `games`)."""
    started = time.perf_counter()
    simulate(games, players, policy, seed=games, workers=workers, progress=False, variant=variant)
    return time.perf_counter() - started


def doubling_runs(policy: str | PolicySpec, players: int, workers: int = 1, first: int = 10,
                  variant: str = "colored") -> Iterator[tuple[int, float]]:
    """``(games, seconds)`` of runs of `first`, 2 `first`, 4 `first`, ... games, for as long as asked."""
    games = first
    while True:
        yield games, seconds_for(games, policy, players, workers, variant)
        games *= 2
