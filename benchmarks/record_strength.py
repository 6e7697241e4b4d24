"""The benchmark of record from one run of bench_strength.py: DIR/strength.md into benchmarks/results/strength.csv.

    python benchmarks/record_strength.py DIR          # after python benchmarks/bench_strength.py --out DIR ...
    python benchmarks/record_strength.py DIR --policies strong strong:600   # only these policies' rows

Reads the run's tables as strength.md prints them (shares to 0.1 point) and writes one row per match:
each 2-player level against `mcts` (games, share and interval, ms a game, its time over mcts's in turn
where the run printed it, timed at once where it timed it, instructions over mcts's), `mcts` itself,
`fast` against `mcts:200` (with its games a second), the strong family's targets (with ``target``, the
least share) and the 3- and 4-player rows. With --policies, only those policies' rows are taken from the run
and replace theirs in the record (a run of a few levels added to the run of record) without their times taken in
turn, which do not compare across runs (their ratios timed at once do); benchmarks/results/README.md says which
run each row comes from.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd

RECORD = Path(__file__).resolve().parent / "results" / "strength.csv"
COLUMNS = ["policy", "players", "opponent", "games", "win_share", "ci_low", "ci_high", "ms_per_game",
           "time_vs_opponent", "time_vs_opponent_at_once", "instructions_vs_mcts", "games_per_second", "target"]
_SHARE = r"([\d.]+)% \(([-\d.]+) \.\. ([-\d.]+)\)"


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def record(text: str) -> pd.DataFrame:
    """The record's rows from a strength.md's text."""
    ms, instructions = {}, {}
    for policy, cost, count in re.findall(r"^\| (\S+) \| [^|]+\| ([\d.]+) \| [\d.]+x \|(?: [\d,.]+ \| ([\d.]+)x \|)?$",
                                          text, re.M):
        ms[policy] = float(cost)
        if count:
            instructions[policy] = float(count)
    at_once = {(a, b): float(r) for a, b, r in re.findall(r"^- `(\S+)` / `(\S+)`: ([\d.]+)x", text, re.M)}
    rows = []
    for policy, share, low, high, games in re.findall(rf"^\| (\S+) \| {_SHARE} \| ([\d,]+) \| [\d.]+ \([\d.]+x\) \|$",
                                                     text, re.M):
        rows.append({"policy": policy, "players": 2, "opponent": "mcts", "games": _number(games),
                     "win_share": float(share) / 100, "ci_low": float(low) / 100, "ci_high": float(high) / 100,
                     "time_vs_opponent_at_once": at_once.get((policy, "mcts"))})
    rows.append({"policy": "mcts", "players": 2})
    fast = re.search(rf"`fast` against `mcts:200`.*?: {_SHARE} of ([\d,]+) games, [\d.]+ ms a game against [\d.]+ "
                     r"\(([\d.]+)x", text, re.S)
    rate = re.search(r"`fast` self-play with \d+ workers: ([\d,]+) games a second", text)
    if fast:
        rows.append({"policy": "fast", "players": 2, "opponent": "mcts:200", "games": _number(fast[4]),
                     "win_share": float(fast[1]) / 100, "ci_low": float(fast[2]) / 100, "ci_high": float(fast[3]) / 100,
                     "time_vs_opponent": float(fast[5]), "time_vs_opponent_at_once": at_once.get(("fast", "mcts:200"))})
    for policy, opponent, target, share, low, high, games in re.findall(
            rf"^`(\S+)` against `(\S+)`, 2 players, seats swapped \(target: at least (\d+)% in at most its time\): "
            rf"{_SHARE} of ([\d,]+) games", text, re.M):
        rows.append({"policy": policy, "players": 2, "opponent": opponent, "games": _number(games),
                     "win_share": float(share) / 100, "ci_low": float(low) / 100, "ci_high": float(high) / 100,
                     "time_vs_opponent_at_once": at_once.get((policy, opponent)), "target": float(target) / 100})
    for policy, players, share, low, high, games in re.findall(rf"^\| (\S+) \| ([34]) \| {_SHARE} \| [\d.]+% \| "
                                                              r"([\d,]+) \|$", text, re.M):
        rows.append({"policy": policy, "players": int(players), "opponent": "mcts", "games": _number(games),
                     "win_share": float(share) / 100, "ci_low": float(low) / 100, "ci_high": float(high) / 100})
    table = pd.DataFrame(rows, columns=COLUMNS)
    two = table.players == 2
    table.loc[two, "ms_per_game"] = table.policy[two].map(ms)
    table.loc[two & (table.opponent != "mcts:200"), "instructions_vs_mcts"] = table.policy[two].map(instructions)
    table.loc[two & table.opponent.isin(["mcts", "learned", "learned:900"]), "time_vs_opponent"] = [
        ms[p] / ms[o] if o == o and o in ms else None for p, o in zip(table.policy[two], table.opponent[two])
        if o in ("mcts", "learned", "learned:900")]
    if rate:
        table.loc[(table.policy == "fast") & (table.opponent == "mcts"), "games_per_second"] = _number(rate[1])
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="the --out folder of a bench_strength.py run")
    parser.add_argument("--policies", nargs="+", help="take only these policies' rows, replacing theirs in the record")
    args = parser.parse_args()
    source = args.run / "strength.md"
    if not source.is_file():
        parser.error(f"{source} does not exist: run python benchmarks/bench_strength.py --out {args.run} first")
    table = record(source.read_text())
    if args.policies:
        # Times taken in turn on another run's machine and load do not compare with the record's: only the ratios
        # timed at once (each pair in the same run) are kept.
        added = table[table.policy.isin(args.policies)].assign(ms_per_game=None, time_vs_opponent=None)
        kept = pd.read_csv(RECORD)
        kept = kept[~kept.policy.isin(args.policies)]
        table = pd.concat([kept, added], ignore_index=True)[COLUMNS]
    table.to_csv(RECORD, index=False, float_format="%.4g")
    print(f"wrote {RECORD} ({len(table)} rows)")


if __name__ == "__main__":
    main()
