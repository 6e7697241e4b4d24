"""Games per second of simulate_moves() beside simulate() for the same policy, and memory per game.

    python benchmarks/bench_moves.py                  # about a minute on 2 cores
    python benchmarks/bench_moves.py --games 200000 --workers 2
    python benchmarks/bench_moves.py --peak 1000000    # also peak memory of one big run (fresh process)
    python benchmarks/bench_moves.py --folder 200000   # also a move run folder: speed and bytes on disk

Both functions play the same games (same seed), alternating runs to share the machine's noise;
the table reports the best of three of each. Memory is the in-memory size of the three tables
(pandas memory_usage, deep) per game, and bytes per move row.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import azul_fast
from azul_fast import simulate, simulate_moves
from azul_fast.runs.folders import run_to_folder

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from bench_simulate import machine  # noqa: E402

# Run in a fresh process, so that ru_maxrss is this run's peak and nothing else's.
PEAK_CHILD = """
import resource, sys, time
import azul_fast
n = int(sys.argv[1])
start = time.perf_counter()
records = azul_fast.simulate_moves(n, policies="greedy", seed=1, progress=False)
elapsed = time.perf_counter() - start
tables = sum(f.memory_usage(index=False, deep=True).sum() for f in records) / 2**20
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{n:,} greedy 2-player games on every core: {elapsed:.1f} s, {len(records.moves):,} moves, "
      f"tables {tables:,.0f} MiB, peak RSS {peak:,.0f} MiB")
"""


def rate(function, games: int, **kwargs) -> float:
    start = time.perf_counter()
    function(games, seed=1, progress=False, **kwargs)
    return games / (time.perf_counter() - start)


def frame_bytes(frame) -> int:
    return int(frame.memory_usage(index=False, deep=True).sum())


def folder_run(games: int, workers: int) -> None:
    """A move run folder of greedy 2-player games against simulate_moves in memory, and its bytes on disk."""
    in_memory = rate(simulate_moves, games, policies="greedy", workers=workers)
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        folder = run_to_folder(Path(scratch) / "run", games, policies="greedy", seed=1, workers=workers,
                               progress=False, moves=True)
        elapsed = time.perf_counter() - start
        n_moves = len(azul_fast.load(folder, table="moves"))
        size = {where: sum(p.stat().st_size for p in (folder / where).glob("part-*"))
                for where in (".", "_moves", "_rounds")}
    print(f"\n{games:,} greedy 2-player games into a move run folder ({workers} worker(s)): {elapsed:.1f} s, "
          f"{games / elapsed:,.0f} games/s (simulate_moves in memory: {in_memory:,.0f} games/s); parquet on disk: "
          f"games {size['.'] / games:.1f} B a game, moves {size['_moves'] / n_moves:.1f} B a move, rounds "
          f"{size['_rounds'] / games:.1f} B a game; {sum(size.values()) / games:.0f} B a game in all")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50_000, help="games per measurement")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--peak", type=int, default=0, help="also the peak memory of a run of this many games")
    parser.add_argument("--folder", type=int, default=0, help="also a move run folder of this many games")
    parser.add_argument("--only-folder", action="store_true", help="skip the table (with --folder)")
    args = parser.parse_args()
    print(f"azul_fast {azul_fast.__version__}, {datetime.date.today()}, {machine()}, {args.workers} worker(s)\n")
    if args.only_folder:
        folder_run(args.folder, args.workers)
        return 0
    print("| policy | players | wall | simulate (games/s) | simulate_moves (games/s) | ratio | "
          "moves a game | bytes a move | bytes a game (3 tables) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for policy in ("random", "greedy"):
        for players in (2, 3, 4):
            for variant in ("colored", "gray") if players == 2 else ("colored",):
                kwargs = dict(players=players, policies=policy, workers=args.workers, variant=variant)
                simulate_moves(2_000, seed=0, **kwargs)  # warm up
                best = {simulate: 0.0, simulate_moves: 0.0}
                for _ in range(3):
                    for function in best:
                        best[function] = max(best[function], rate(function, args.games, **kwargs))
                games, moves, rounds = simulate_moves(20_000, seed=2, **kwargs)
                per_move = frame_bytes(moves) / len(moves)
                per_game = sum(frame_bytes(f) for f in (games, moves, rounds)) / len(games)
                print(f"| {policy} | {players} | {variant} | {best[simulate]:,.0f} | {best[simulate_moves]:,.0f} | "
                      f"{best[simulate_moves] / best[simulate]:.2f} | {len(moves) / len(games):.1f} | "
                      f"{per_move:.1f} | {per_game:,.0f} |", flush=True)
    if args.folder:
        folder_run(args.folder, args.workers)
    if args.peak:
        subprocess.run([sys.executable, "-c", PEAK_CHILD, str(args.peak)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
