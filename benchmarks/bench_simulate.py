"""Games per second of simulate(), beside two references measured in the same run.

    python benchmarks/bench_simulate.py            # the table (about 2 minutes)
    python benchmarks/bench_simulate.py --full     # also 1M greedy games to parquet
    python benchmarks/bench_simulate.py --gray     # also the gray wall beside the colored one
    (memory by run size: benchmarks/bench_memory.py)

References:
- the project's pure-Python reference engine (src/azul_fast/core/rules/reference.py), same rules and seeds;
- a C speed-of-light program (--sol PATH; random play only, simplified rules; docs/performance.md
  says what it is), compiled here with gcc -O2 -DFAST when present; it is not part of the project.

Prints a markdown table with the date and the machine; ratios are this run's own.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import azul_fast
from azul_fast import save, simulate

#: Where the development machine keeps the speed-of-light program (beside the clone).
from azul_fast.core.rules import reference

SOL_SOURCE = Path(__file__).resolve().parents[1] / ".." / "shared" / "bench" / "azul_sol.c"


def compile_sol(source: Path, directory: Path) -> Path | None:
    """Build the speed-of-light reference from `source`; None if it is not there."""
    if not source.exists():
        return None
    binary = directory / "azul_sol"
    subprocess.run(["gcc", "-O2", "-DFAST", "-o", str(binary), str(source)], check=True)
    return binary


def sol_rate(binary: Path | None, players: int, games: int) -> float | None:
    if binary is None:
        return None
    out = subprocess.run([str(binary), str(games), str(players), "1"], check=True, capture_output=True, text=True)
    return float(re.search(r"games_per_s=([0-9.]+)", out.stdout).group(1))


def core_rate(players: int, policy: str, workers: int, games: int, variant: str = "colored") -> float:
    simulate(min(games, 20_000), players=players, policies=policy, seed=0, workers=workers,
             variant=variant, progress=False)  # warm up
    start = time.perf_counter()
    simulate(games, players=players, policies=policy, seed=1, workers=workers, variant=variant, progress=False)
    return games / (time.perf_counter() - start)


def reference_rate(players: int, policy: str, games: int) -> float:
    start = time.perf_counter()
    for i in range(games):
        reference.play_game(players=players, policies=policy, seed=i)
    return games / (time.perf_counter() - start)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def parquet_run() -> None:
    """One million greedy 2-player games from simulate() to a parquet file, on every core."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.parquet"
        start = time.perf_counter()
        save(simulate(1_000_000, policies="greedy", seed=3, progress=False), path)
        elapsed = time.perf_counter() - start
        size = path.stat().st_size / 1e6
    print(f"\n1,000,000 greedy 2-player games -> parquet: {elapsed:.1f} s (file {size:.0f} MB)")


def gray_table(games: int) -> None:
    """The gray wall beside the colored one on one worker, alternating to share the noise."""
    print("\nGray wall (free placement) beside the colored wall, 1 worker, best of 3 alternating runs:\n")
    print("| policy | players | colored (games/s) | gray (games/s) | gray / colored |")
    print("|---|---|---|---|---|")
    for policy in ("random", "greedy"):
        n = games if policy == "random" else games // 4
        for players in (2, 3, 4):
            best = {"colored": 0.0, "gray": 0.0}
            for _ in range(3):
                for variant in best:
                    best[variant] = max(best[variant], core_rate(players, policy, 1, n, variant))
            print(f"| {policy} | {players} | {best['colored']:,.0f} | {best['gray']:,.0f} | "
                  f"{best['gray'] / best['colored']:.2f}x |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200_000, help="games per random measurement")
    parser.add_argument("--full", action="store_true", help="also 1M greedy games to parquet")
    parser.add_argument("--gray", action="store_true", help="also the gray wall beside the colored wall")
    parser.add_argument("--sol", type=Path, default=SOL_SOURCE, metavar="PATH",
                        help="C source of the speed-of-light program (default: the development machine's)")
    args = parser.parse_args()
    all_workers = os.cpu_count() or 1
    print(f"azul_fast {azul_fast.__version__}, {datetime.date.today()}, {machine()}\n")
    print("The C speed-of-light program plays random moves only; greedy rows compare against it too.\n")
    print("| policy | players | 1 worker (games/s) | vs reference | vs C speed-of-light | "
          f"{all_workers} workers (games/s) | scaling |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        sol = compile_sol(args.sol, Path(tmp))
        for policy in ("random", "greedy"):
            games = args.games if policy == "random" else args.games // 4
            for players in (2, 3, 4):
                one = core_rate(players, policy, 1, games)
                many = core_rate(players, policy, all_workers, games)
                ref = reference_rate(players, policy, 150)
                light = sol_rate(sol, players, args.games)
                vs_light = f"{one / light:.2f}x ({light:,.0f}/s)" if light else "n/a"
                print(f"| {policy} | {players} | {one:,.0f} | {one / ref:,.0f}x ({ref:,.0f}/s) | "
                      f"{vs_light} | {many:,.0f} | {many / one:.2f}x |", flush=True)
    if sol is None:
        print(f"\n(the C speed-of-light reference was not found at {args.sol}; give it with --sol PATH)")
    if args.gray:
        gray_table(args.games // 2)
    if args.full:
        parquet_run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
