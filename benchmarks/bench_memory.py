"""Peak memory of simulate() by run size: each size runs in a fresh process.

    python benchmarks/bench_memory.py [--sizes 1000000 5000000]

Prints the DataFrame's size and the process's peak resident set size (ru_maxrss), so the
README can show that memory follows the result (about 42 bytes a 2-player game) and nothing else.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CHILD = """
import resource, sys, time
import azul_fast
n = int(sys.argv[1])
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.perf_counter()
df = azul_fast.simulate(n, policies=sys.argv[2], seed=1, progress=False)
elapsed = time.perf_counter() - start
frame = df.memory_usage(index=False, deep=True).sum() / 2**20
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"| {n:,} | {sys.argv[2]} | {elapsed:.1f} | {frame:.0f} | {baseline:.0f} | {peak:.0f} |")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 5_000_000])
    parser.add_argument("--policy", default="random")
    args = parser.parse_args()
    print("| games (2 players) | policy | seconds | DataFrame (MiB) | RSS after import (MiB) | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        subprocess.run([sys.executable, "-c", CHILD, str(n), args.policy], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
