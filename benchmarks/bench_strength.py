"""Strength and cost of the policies: win share against greedy, self-play score, time per game.

    python benchmarks/bench_strength.py                      # about two minutes on 2 cores
    python benchmarks/bench_strength.py --deals 2000 --policies heuristic mcts:100 mcts mcts:3000
    python benchmarks/bench_strength.py --variant gray       # the same on the gray wall

For every policy:
- against greedy: `--deals` 2-player deals, each played once per seat (seat_rotation), so twice as
  many games; the share of games won (a shared victory counts half) with a 95% interval (normal
  approximation over games);
- in self-play (the policy in both seats): the mean score per player with a 95% interval, and the
  seconds per game on ONE core (the self-play games run on one thread, both seats searching).

Prints a markdown table with the date and the machine.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

import numpy as np

import azul_fast
from azul_fast import simulate


def share_vs_greedy(policy: str, deals: int, workers: int, variant: str) -> tuple[float, float, int]:
    """(win share, half width of its 95% interval, games) of `policy` against greedy."""
    df = simulate(deals, 2, [policy, "greedy"], seed=1, workers=workers, progress=False, seat_rotation=True,
                  variant=variant)
    mine = df.policy_0 == policy
    win = df.win_0.where(mine, df.win_1).to_numpy(float)
    other = df.win_1.where(mine, df.win_0).to_numpy(float)
    share = win * (1 - 0.5 * other)
    return share.mean(), 1.96 * share.std(ddof=1) / np.sqrt(len(share)), len(share)


def self_play(policy: str, games: int, variant: str) -> tuple[float, float, float]:
    """(mean score per player, half width of its 95% interval, seconds per game on one core)."""
    started = time.perf_counter()
    df = simulate(games, 2, policy, seed=2, workers=1, progress=False, variant=variant)
    seconds = (time.perf_counter() - started) / games
    scores = np.concatenate([df.score_0.to_numpy(float), df.score_1.to_numpy(float)])
    return scores.mean(), 1.96 * scores.std(ddof=1) / np.sqrt(len(scores)), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policies", nargs="+", default=["greedy", "heuristic", "mcts:200", "mcts"])
    parser.add_argument("--deals", type=int, default=500, help="deals against greedy (games = 2 x deals)")
    parser.add_argument("--self-play", type=int, default=200, help="self-play games per policy (one core)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="threads for the greedy matches")
    parser.add_argument("--variant", choices=azul_fast.VARIANTS, default="colored", help="wall side (default colored)")
    args = parser.parse_args()

    rows = []
    for policy in args.policies:
        versus = "(itself)"
        if policy != "greedy":
            share, share_hw, games = share_vs_greedy(policy, args.deals, args.workers, args.variant)
            versus = f"{100 * share:.1f}% ± {100 * share_hw:.1f} ({games:,} games)"
        score, score_hw, seconds = self_play(policy, args.self_play, args.variant)
        rows.append(f"| {policy} | {versus} | "
                    f"{score:.1f} ± {score_hw:.1f} ({args.self_play} games) | {seconds:.4f} |")
        print(f"done {policy}", flush=True)

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"\n## Policy strength, {args.variant} wall, {now}\n")
    print(f"azul_fast {azul_fast.__version__}, {platform.platform()}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; {args.workers} threads for the greedy matches, "
          "one thread for self-play\n")
    print("| policy | win share vs greedy, 95% CI | self-play mean score per player | seconds per game, one core |")
    print("| --- | --- | --- | --- |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
