"""Row hashes and times of the searches: a speed-up that must change no game, measured against a baseline.

    python benchmarks/bench_search_speed.py hashes > after.txt          # row hashes of fixed search runs
    python benchmarks/bench_search_speed.py times --baseline /tmp/main/src   # ms per game, this build vs that one
    python benchmarks/bench_search_speed.py instructions --baseline /tmp/main/src   # the same, counted by valgrind

`hashes` prints the row hash of fixed runs of `mcts`, `mcts:200` and `learned` at 2, 3 and 4
players on both walls: run it on the baseline build and on the changed one and diff the output
(bench_instructions.py hashes the cheaper policies). `times` measures ms per 2-player game on one
core (studies.ladder.ms_per_game) of the same policies for this build and, with --baseline, for the
build whose ``src`` folder is given, alternating the two a policy at a time in one run so that the
shared machine's load falls on both alike; the ratio is the time saved. `instructions` counts the
instructions of the native batch (valgrind's callgrind, collecting inside run_batch only) for a few
games of each, which load does not disturb.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: The searches whose games must not change, and the number of games hashed for each.
HASHED = {"mcts": 12, "mcts:200": 40, "learned": 60, "fast": 120}
#: The policies timed, and the games of each counted under valgrind.
TIMED = {"mcts": 3, "mcts:200": 6, "learned": 10, "fast": 30}


def hashes() -> None:
    """Print one row hash per policy, player count and wall."""
    from bench_instructions import row_hash

    from azul_fast import simulate

    print("| policy | players | wall | games | row hash |\n| --- | --- | --- | --- | --- |")
    for policy, games in HASHED.items():
        for players in (2, 3, 4):
            for variant in ("colored", "gray"):
                df = simulate(games, players=players, policies=policy, seed=2027, workers=1, variant=variant,
                              progress=False)
                print(f"| {policy} | {players} | {variant} | {len(df)} | {row_hash(df)} |", flush=True)


def time_one(policy: str, seconds: float, src: str | None) -> float:
    """ms per game of `policy` in this process's build, or (with `src`) in a child on that build."""
    if src is None:
        from azul_fast.studies.ladder import ms_per_game

        return ms_per_game(policy, seconds)
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, __file__, "time-one", policy, str(seconds)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(json.loads(out))


def times(baseline: str | None, seconds: float, rounds: int) -> None:
    """Print ms per game of each timed policy (the least of `rounds` runs), and against the baseline."""
    import azul_fast

    print(f"this build: {Path(azul_fast.__file__).parent}; baseline: {baseline or '-'}")
    print("| policy | ms per game | baseline ms | time saved |\n| --- | --- | --- | --- |")
    for policy in TIMED:
        mine, base = [], []
        for _ in range(rounds):
            mine.append(time_one(policy, seconds, None))
            if baseline:
                base.append(time_one(policy, seconds, baseline))
        if baseline:
            print(f"| {policy} | {min(mine):.2f} | {min(base):.2f} | {100 * (1 - min(mine) / min(base)):.1f}% |",
                  flush=True)
        else:
            print(f"| {policy} | {min(mine):.2f} | - | - |", flush=True)


def batch_instructions(policy: str, games: int, src: str) -> int:
    """Instructions executed inside run_batch for `games` 2-player games of `policy` on the build in `src`."""
    code = f"from azul_fast import simulate; simulate({games}, players=2, policies={policy!r}, seed=11, workers=1)"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=*run_batch*",
                        f"--callgrind-out-file={out}", sys.executable, "-c", code],
                       env={**os.environ, "PYTHONPATH": src}, check=True, capture_output=True)
        summary = next(line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:")))
    return int(summary.split()[1])


def instructions(baseline: str | None) -> None:
    """Print the instructions of each policy's batch for this build and the baseline."""
    import azul_fast

    mine_src = str(Path(azul_fast.__file__).parent.parent)
    print(f"this build: {mine_src}; baseline: {baseline or '-'}")
    print("| policy | games | instructions | baseline | saved |\n| --- | --- | --- | --- | --- |")
    for policy, games in TIMED.items():
        mine = batch_instructions(policy, games, mine_src)
        if baseline:
            base = batch_instructions(policy, games, baseline)
            print(f"| {policy} | {games} | {mine:,} | {base:,} | {100 * (1 - mine / base):.1f}% |", flush=True)
        else:
            print(f"| {policy} | {games} | {mine:,} | - | - |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("hashes", help="row hashes of fixed search runs")
    timing = sub.add_parser("times", help="ms per game, against a baseline build")
    timing.add_argument("--baseline", help="the src folder of the baseline build (built in place)")
    timing.add_argument("--seconds", type=float, default=3.0, help="least seconds of play per measurement")
    timing.add_argument("--rounds", type=int, default=2, help="measurements per policy and build (the least counts)")
    counting = sub.add_parser("instructions", help="instructions of the native batch, against a baseline build")
    counting.add_argument("--baseline", help="the src folder of the baseline build (built in place)")
    one = sub.add_parser("time-one")   # the child of `times` on the baseline build
    one.add_argument("policy")
    one.add_argument("seconds", type=float)
    args = parser.parse_args()
    if args.command == "hashes":
        hashes()
    elif args.command == "times":
        times(args.baseline, args.seconds, args.rounds)
    elif args.command == "instructions":
        instructions(args.baseline)
    else:
        print(json.dumps(time_one(args.policy, args.seconds, None)))


if __name__ == "__main__":
    main()
