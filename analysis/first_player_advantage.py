"""First-player advantage by player count and policy, from scratch with fixed seeds.

    python analysis/first_player_advantage.py            # about a minute on 2 cores
    python analysis/first_player_advantage.py --games 1000000

Writes analysis/results/first_player_advantage.csv (the seat-advantage table for every player
count and policy) and analysis/figures/seat_advantage_<policy>.png/.svg. Each run's root seed is
spawned from --seed, the player count and the policy's position in the list, so any row can be
regenerated on its own.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import available_policies, simulate  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.seeds import resolve_seed  # noqa: E402
from azul_fast.report.charts import azul_style, plot_seat_advantage, save_figure  # noqa: E402
from azul_fast.studies.seats import seat_advantage

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per player count and policy")
    parser.add_argument("--policy", action="append", type=parse_policy, choices=available_policies(),
                        help="policies to study (default: random and greedy, the rows of results/; a search "
                             "plays thousands of times slower: analysis/first_player_converged.py is its study)")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    policies = args.policy or [parse_policy("random"), parse_policy("greedy")]
    tables = []
    for index, policy in enumerate(policies):
        for players in (2, 3, 4):
            root = resolve_seed(np.random.SeedSequence(args.seed, spawn_key=(index, players)))
            started = time.perf_counter()
            games = simulate(args.games, players, policy, seed=root, workers=args.workers, progress=False)
            table = seat_advantage(games).assign(root_seed=str(root))
            tables.append(table)
            first = table.iloc[0]
            print(f"{policy:>7} {players}p: first player {100 * first.win_rate:.2f}% "
                  f"[{100 * first.ci_low:.2f}, {100 * first.ci_high:.2f}] vs fair {100 * first.fair_share:.1f}% "
                  f"({first.diff_pp:+.2f} pp); ties split {100 * first.win_share:.2f}% "
                  f"[{100 * first.share_low:.2f}, {100 * first.share_high:.2f}]; best seat {table.win_rate.idxmax()}; "
                  f"{time.perf_counter() - started:.1f} s, root seed {root}")
    results = pd.concat(tables, ignore_index=True)
    (HERE / "results").mkdir(exist_ok=True)
    results.to_csv(HERE / "results" / "first_player_advantage.csv", index=False, float_format="%.6g")
    with azul_style():
        for policy in policies:
            ax = plot_seat_advantage(results[results.policy == policy])
            save_figure(ax.figure, HERE / "figures" / f"seat_advantage_{policy}", overwrite=True)


if __name__ == "__main__":
    main()
