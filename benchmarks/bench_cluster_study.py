"""A study on a Dask cluster against the same study here: wall time and identical output.

    python benchmarks/bench_cluster_study.py [--repeat 1]

Runs ``azul-fast strength`` (cheap levels: greedy and mcts:50 at 2 and 3 players, a short ladder
first) as a command, once with ``--workers 2`` (two threads here) and once with ``--scheduler``
pointing at a LocalCluster of two single-threaded worker processes on the loopback, in turns so
that both see the same load. The cluster's start-up is not timed (a real cluster is started once
and reused); everything else is: the connection, the tasks, the results coming back. Checks that
both wrote the same first_player_by_strength.csv, byte for byte, and appends one row per repeat
to benchmarks/results/cluster.csv (docs/cluster.md quotes it), with the machine's load average
when the run started: other work on the machine slows both sides.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from distributed import LocalCluster

from azul_fast import __version__

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "cluster.csv"
STUDY = ["strength", "--policy", "greedy", "--policy", "mcts:50", "--players", "2", "3", "--seconds", "2",
         "--ladder-games", "40", "--seed", "7", "--quiet"]


def timed(arguments: list[str], out: Path) -> float:
    """Wall seconds of ``azul-fast`` with `arguments`, writing into `out`."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "azul_fast", *arguments, "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            return next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def page_table(frame: pd.DataFrame) -> str:
    """The results as docs/cluster.md shows them (tests/report/test_cluster_page.py checks the page)."""
    lines = ["| date | games | here, 2 threads | LocalCluster, 2 workers | cluster / here | same CSV | load average |",
             "|---|---:|---:|---:|---:|---|---:|"]
    for row in frame.itertuples():
        lines.append(f"| {row.date} | {row.games:,} | {row.local_seconds:.1f} s | {row.cluster_seconds:.1f} s | "
                     f"{row.cluster_seconds / row.local_seconds:.2f} | {'yes' if row.identical_csv else 'no'} | "
                     f"{row.load_average:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="pairs of runs (each adds a row)")
    args = parser.parse_args()
    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, tempfile.TemporaryDirectory() as scratch:
        for k in range(args.repeat):
            load = os.getloadavg()[0]
            local = timed([*STUDY, "--workers", "2"], Path(scratch) / f"local-{k}")
            dask = timed([*STUDY, "--scheduler", cluster.scheduler_address], Path(scratch) / f"dask-{k}")
            files = [(Path(scratch) / f"{where}-{k}" / "first_player_by_strength.csv").read_bytes()
                     for where in ("local", "dask")]
            table = pd.read_csv(Path(scratch) / f"local-{k}" / "first_player_by_strength.csv")
            rows.append({
                "date": datetime.date.today().isoformat(), "azul_fast": __version__,
                "command": "azul-fast " + " ".join(STUDY), "games": int(table.games.sum()),
                "local_workers": 2, "cluster_workers": 2, "local_seconds": round(local, 2),
                "cluster_seconds": round(dask, 2), "identical_csv": files[0] == files[1],
                "load_average": round(load, 1), "cpus": os.cpu_count(), "cpu": cpu_model(),
            })
            print(rows[-1], flush=True)
    RESULTS.parent.mkdir(exist_ok=True)
    frame = pd.DataFrame(rows)
    if RESULTS.exists():
        frame = pd.concat([pd.read_csv(RESULTS), frame], ignore_index=True)
    frame.to_csv(RESULTS, index=False)
    print(page_table(frame))
    if not all(row["identical_csv"] for row in rows):
        raise SystemExit("the cluster's first_player_by_strength.csv differs from the local one")


if __name__ == "__main__":
    main()
