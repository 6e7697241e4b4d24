"""Games per second: local threads vs the same run through a Dask LocalCluster, and the overhead.

    python benchmarks/bench_dask.py [--scale 1.0] [--repeat 3]

Local is ``simulate(workers=2)`` (two threads in this process); Dask is ``simulate(client=...)``
on a LocalCluster of two single-threaded worker processes on the loopback, with the default
shard size. The cluster's start-up is not timed (a real cluster is started once and reused); the
transfer of the results and the DataFrame assembly are. Best of `--repeat` runs, since the
machine may be shared; local and Dask runs take turns. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

import pandas as pd
from distributed import Client, LocalCluster

from azul_fast import __version__, simulate

# (policy, games at --scale 1): about ten seconds each on two cores.
CASES = [("random", 1_000_000), ("greedy", 400_000)]


def timed(n_games: int, seed: int, **kwargs) -> tuple[float, pd.DataFrame]:
    start = time.perf_counter()
    df = simulate(n_games, players=2, seed=seed, progress=False, **kwargs)
    return time.perf_counter() - start, df


def rates(n_games: int, repeat: int, policy: str, client: Client) -> tuple[float, float]:
    """Best games/s of local and Dask runs, taken in turns so both see the same load.

    Every repeat has a new seed: the cluster's task keys follow from the run, so repeating the
    same run could be answered from results the scheduler still holds.
    """
    local_best = dask_best = float("inf")
    for seed in range(2024, 2024 + repeat):
        local_time, local_df = timed(n_games, seed, policies=policy, workers=2)
        dask_time, dask_df = timed(n_games, seed, policies=policy, client=client)
        pd.testing.assert_frame_equal(local_df, dask_df)  # same rows, or the numbers mean nothing
        local_best, dask_best = min(local_best, local_time), min(dask_best, dask_time)
    return n_games / local_best, n_games / dask_best


def cpu_model() -> str:
    """platform.processor() is empty on most Linux systems; /proc/cpuinfo names the CPU."""
    try:
        with open("/proc/cpuinfo") as info:
            return next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the number of games")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the best counts")
    args = parser.parse_args()
    rows = []
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, Client(cluster) as client:
        simulate(1_000, client=client, progress=False)  # workers import azul_fast before the clock starts
        for policy, games in CASES:
            n = max(1, int(games * args.scale))
            local, dask = rates(n, args.repeat, policy, client)
            rows.append((policy, n, local, dask, (local / dask - 1) * 100))
    uname = platform.uname()
    print(f"Date: {datetime.date.today()}; machine: {uname.system} {uname.release} {uname.machine}, "
          f"{os.cpu_count()} CPUs ({cpu_model()}); "
          f"Python {platform.python_version()}; azul_fast {__version__}")
    print()
    print("| policies (2 players) | games | local, 2 threads (games/s) | Dask, 2 workers (games/s) | overhead |")
    print("|---|---:|---:|---:|---:|")
    for policy, n, local, dask, overhead in rows:
        print(f"| {policy} | {n:,} | {local:,.0f} | {dask:,.0f} | {overhead:+.1f} % |")


if __name__ == "__main__":
    main()
