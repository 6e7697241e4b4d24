"""Row hashes and times of the searches: a speed-up that must change no game, measured against a baseline.

    python benchmarks/bench_search_speed.py hashes > after.txt          # row hashes of fixed search runs
    python benchmarks/bench_search_speed.py times --baseline /tmp/main/src   # ms per game, this build vs that one
    python benchmarks/bench_search_speed.py instructions --baseline /tmp/main/src   # the same, counted by valgrind
    python benchmarks/bench_search_speed.py paired --baseline /tmp/main/src   # the two builds at once, one a core
    python benchmarks/bench_search_speed.py ratio learned mcts   # two policies of this build at once, one a core

`hashes` prints the row hash of fixed runs of `mcts`, `mcts:200` and `learned` at 2, 3 and 4
players on both walls: run it on the baseline build and on the changed one and diff the output
(bench_instructions.py hashes the cheaper policies). `times` measures ms per 2-player game on one
core (studies.ladder.ms_per_game) of the same policies for this build and, with --baseline, for the
build whose ``src`` folder is given, alternating the two a policy at a time in one run so that the
shared machine's load falls on both alike; the ratio is the time saved. `paired` times the two builds
at the same moment, each pinned to its own core (swapped from one pair to the next), and reports the
median of the pairs' ratios: a load that comes and goes within seconds falls on both alike, which
runs taking turns cannot promise (it needs two cores, and nothing else running). `instructions`
counts the instructions of the native batch (valgrind's callgrind, collecting inside run_batch only)
for a few games of each, which load does not disturb; it does not count what a mispredicted branch
costs, which `paired` sees. `ratio` times two policies of this build as `paired` times two builds:
a policy's time over another's (bench_strength.py's "time vs mcts"), without the drift of the
machine's load between timings that bench_strength's medians of timings taken in turn suffer.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
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


def time_games(policy: str, games: int) -> float:
    """ms per game of `games` 2-player self-play games of `policy` on one core (CPU time of this
    process, after a few games that load what a first game loads)."""
    from azul_fast import simulate

    simulate(4, players=2, policies=policy, seed=1, workers=1, progress=False)
    started = time.process_time()
    simulate(games, players=2, policies=policy, seed=2026, workers=1, progress=False)
    return 1000 * (time.process_time() - started) / games


def start_timing(policy: str, games: int, src: str, cpu: int) -> subprocess.Popen[str]:
    """A child timing `games` games of `policy` (time-one --games) on the build in `src`, pinned to core
    `cpu`, with one BLAS thread (an idle OpenBLAS thread spins on the other core)."""
    env = {**os.environ, "PYTHONPATH": src, "OPENBLAS_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "time-one", policy, "0", "--games", str(games), "--cpu", str(cpu)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


def finish_timing(child: subprocess.Popen[str]) -> float:
    out, _ = child.communicate()
    if child.returncode:
        raise RuntimeError(f"a timing child failed (exit {child.returncode})")
    return float(json.loads(out))


def time_pairs(first: tuple[str, str], second: tuple[str, str], seconds: float,
               pairs: int) -> tuple[list[float], list[float]]:
    """ms per game of two (policy, src folder of a build) settings, timed `pairs` times at the same moment
    on cores 0 and 1 (swapped every pair), each timing the same number of games, about `seconds` long."""
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("timings at once need two cores: one a core")
    games = {policy: max(10, round(1000 * seconds / time_one(policy, 0.5, None))) for policy in (first[0], second[0])}
    times_first, times_second = [], []
    for k in range(pairs):
        first_child = start_timing(first[0], games[first[0]], first[1], k % 2)
        second_child = start_timing(second[0], games[second[0]], second[1], 1 - k % 2)
        times_first.append(finish_timing(first_child))
        times_second.append(finish_timing(second_child))
    return times_first, times_second


def this_build_src() -> str:
    """The src folder of the build this process imports."""
    import azul_fast

    return str(Path(azul_fast.__file__).parent.parent)


def paired(baseline: str, seconds: float, pairs: int) -> None:
    """Print each timed policy's ms per game on this build and the baseline, timed at once (time_pairs),
    and the time saved: the median of the pairs' ratios, with their range."""
    mine_src = this_build_src()
    print(f"this build: {mine_src}; baseline: {baseline}; {pairs} pairs of timings at once, one a core")
    print("| policy | ms per game | baseline ms | time saved (median of pairs) | pairs' range |\n"
          "| --- | --- | --- | --- | --- |")
    for policy in TIMED:
        mine, base = time_pairs((policy, mine_src), (policy, baseline), seconds, pairs)
        saved = sorted(1 - m / b for m, b in zip(mine, base))
        print(f"| {policy} | {statistics.median(mine):.2f} | {statistics.median(base):.2f} | "
              f"{100 * statistics.median(saved):.1f}% | {100 * saved[0]:.1f} .. {100 * saved[-1]:.1f}% |", flush=True)


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
    mine_src = this_build_src()
    print(f"this build: {mine_src}; baseline: {baseline or '-'}")
    print("| policy | games | instructions | baseline | saved |\n| --- | --- | --- | --- | --- |")
    for policy, games in TIMED.items():
        mine = batch_instructions(policy, games, mine_src)
        if baseline:
            base = batch_instructions(policy, games, baseline)
            print(f"| {policy} | {games} | {mine:,} | {base:,} | {100 * (1 - mine / base):.1f}% |", flush=True)
        else:
            print(f"| {policy} | {games} | {mine:,} | - | - |", flush=True)


def ratios_at_once(policy: str, reference: str, seconds: float,
                   pairs: int) -> tuple[list[float], list[float], list[float]]:
    """`policy`'s and `reference`'s ms per game on this build, timed at once (time_pairs), and the
    pairs' ratios of the two, sorted."""
    src = this_build_src()
    mine, theirs = time_pairs((policy, src), (reference, src), seconds, pairs)
    return mine, theirs, sorted(m / t for m, t in zip(mine, theirs))


def ratio(policy: str, reference: str, seconds: float, pairs: int) -> None:
    """Print `policy`'s ms per game over `reference`'s on this build, the two timed at once (time_pairs):
    the median of the pairs' ratios, with their range."""
    mine, theirs, ratios = ratios_at_once(policy, reference, seconds, pairs)
    print(f"{policy}: {statistics.median(mine):.2f} ms a game; {reference}: {statistics.median(theirs):.2f} ms; "
          f"{policy} / {reference}: {statistics.median(ratios):.3f}x, the median of {pairs} pairs timed at once "
          f"(range {ratios[0]:.3f} .. {ratios[-1]:.3f}); {this_build_src()}", flush=True)


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
    pairing = sub.add_parser("paired", help="ms per game, both builds at once on two cores")
    pairing.add_argument("--baseline", required=True, help="the src folder of the baseline build (built in place)")
    pairing.add_argument("--seconds", type=float, default=2.0, help="least seconds of play per measurement")
    pairing.add_argument("--pairs", type=int, default=10, help="pairs of measurements per policy")
    rating = sub.add_parser("ratio", help="one policy's time over another's, both at once on two cores")
    rating.add_argument("policy")
    rating.add_argument("reference")
    rating.add_argument("--seconds", type=float, default=2.0, help="least seconds of play per measurement")
    rating.add_argument("--pairs", type=int, default=10, help="pairs of measurements")
    one = sub.add_parser("time-one")   # the child of `times`, `paired` and `ratio`
    one.add_argument("policy")
    one.add_argument("seconds", type=float)
    one.add_argument("--cpu", type=int, help="pin the process to this core")
    one.add_argument("--games", type=int, help="time this many games (time_games) instead of ms_per_game's runs")
    args = parser.parse_args()
    if args.command == "hashes":
        hashes()
    elif args.command == "times":
        times(args.baseline, args.seconds, args.rounds)
    elif args.command == "instructions":
        instructions(args.baseline)
    elif args.command in ("paired", "ratio"):
        if args.pairs < 1 or args.seconds <= 0:
            parser.error("--pairs takes 1 or more and --seconds a positive number")
        if args.command == "paired":
            paired(args.baseline, args.seconds, args.pairs)
        else:
            ratio(args.policy, args.reference, args.seconds, args.pairs)
    else:
        if args.cpu is not None:
            os.sched_setaffinity(0, {args.cpu})
        ms = time_games(args.policy, args.games) if args.games else time_one(args.policy, args.seconds, None)
        print(json.dumps(ms))


if __name__ == "__main__":
    main()
