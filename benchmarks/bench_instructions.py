"""Instruction counts of a fixed search run, and row hashes of fixed runs: a change that should not
alter the engine (a refactor, a new error path) leaves the hashes equal and the counts within noise.

    python benchmarks/bench_instructions.py             # hashes, then callgrind (about 2 minutes)
    python benchmarks/bench_instructions.py --no-valgrind

Run it before and after the change and compare. The count is the inclusive instruction count of
the native batch (`_simulate.run_batch`) for 20 games of mcts:100 at 2 players, under valgrind's
callgrind: deterministic on one machine and build, unlike a timing, so a difference of a few
thousand instructions in 1.3 billion is the whole cost of the change.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from azul_fast import simulate

#: The runs whose rows are hashed: every built-in policy on both walls.
HASHED = ("random", "greedy", "heuristic", "mcts:50", "learned:50")
#: The run counted under callgrind.
COUNTED = "from azul_fast import simulate; simulate(20, players=2, policies='mcts:100', seed=11, workers=1)"


def row_hash(df: pd.DataFrame) -> str:
    """A short hash of every value and the index of a frame."""
    return hashlib.sha256(pd.util.hash_pandas_object(df, index=True).values.tobytes()).hexdigest()[:16]


def batch_instructions(script: str = COUNTED) -> int:
    """The inclusive instruction count of run_batch in a Python `script` (default: the COUNTED run)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", script],
                       check=True, capture_output=True)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)], check=True,
                                capture_output=True, text=True).stdout
    match = re.search(r"^\s*([\d,]+) .*_simulate_\d+run_batch\b", report, re.MULTILINE)
    if match is None:
        raise RuntimeError("run_batch is missing from callgrind's report")
    return int(match.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-valgrind", action="store_true", help="only the row hashes")
    args = parser.parse_args()
    print("| policy | wall | games | row hash |\n| --- | --- | --- | --- |")
    for policy in HASHED:
        for variant in ("colored", "gray"):
            df = simulate(200, players=2, policies=policy, seed=2026, workers=1, variant=variant)
            print(f"| {policy} | {variant} | {len(df)} | {row_hash(df)} |", flush=True)
    if args.no_valgrind:
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind), or run with --no-valgrind")
    print(f"\nrun_batch, 20 games of mcts:100: {batch_instructions():,} instructions")


if __name__ == "__main__":
    main()
