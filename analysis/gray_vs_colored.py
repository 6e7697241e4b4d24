"""The first player's advantage on the colored and the gray wall, over the same deals.

    python analysis/gray_vs_colored.py                 # about 2 minutes on 2 cores
    python analysis/gray_vs_colored.py --games 1000000

For each policy and player count, one run on each side of the boards with the same arguments and
root seed: game i starts from the same deal on both walls, so the difference is paired deal by
deal (seats.variant_difference). Writes analysis/results/gray_vs_colored.csv and
analysis/figures/gray_vs_colored.png/.svg.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import simulate  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.seeds import resolve_seed  # noqa: E402
from azul_fast.report.charts import azul_style, plot_variant_difference, save_figure  # noqa: E402
from azul_fast.studies.seats import variant_difference

HERE = Path(__file__).resolve().parent
POLICIES = tuple(parse_policy(name) for name in ("random", "greedy", "heuristic"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per wall, player count and policy "
                        "(heuristic plays a quarter of it: it is slower)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    tables = []
    for index, policy in enumerate(POLICIES):
        games = args.games // 4 if policy == "heuristic" else args.games
        runs: dict[str, list[pd.DataFrame]] = {"colored": [], "gray": []}
        started = time.perf_counter()
        for players in (2, 3, 4):
            root = resolve_seed(np.random.SeedSequence(args.seed, spawn_key=(index, players)))
            for variant, frames in runs.items():
                frames.append(simulate(games, players, policy, seed=root, workers=args.workers,
                                       variant=variant, progress=False))
        table = variant_difference(pd.concat(runs["colored"], ignore_index=True),
                                   pd.concat(runs["gray"], ignore_index=True)).assign(policy=policy)
        tables.append(table)
        for row in table.itertuples():
            print(f"{policy:>9} {row.players}p: first player {100 * row.colored_share:.2f}% colored, "
                  f"{100 * row.gray_share:.2f}% gray, gray - colored {row.diff_pp:+.2f} pp "
                  f"[{row.diff_pp_low:+.2f}, {row.diff_pp_high:+.2f}] (p = {row.t_pvalue:.2g}); "
                  f"mean score {row.colored_mean_score:.1f} / {row.gray_mean_score:.1f}")
        print(f"  ({6 * games:,} games in {time.perf_counter() - started:.0f} s)")
    results = pd.concat(tables, ignore_index=True)
    (HERE / "results").mkdir(exist_ok=True)
    results.to_csv(HERE / "results" / "gray_vs_colored.csv", index=False, float_format="%.6g")
    with azul_style():
        fig, axes = plt.subplots(1, len(POLICIES), figsize=(10.5, 3.9), sharey=True)
        for ax, policy in zip(axes, POLICIES):
            plot_variant_difference(results[results.policy == policy].reset_index(drop=True), ax=ax, title=policy)
        for ax in axes[1:]:  # one y label and one legend for the row
            ax.set_ylabel("")
            ax.get_legend().remove()
        fig.suptitle("First player's win share minus fair share, same deals on both walls (95% intervals)")
        save_figure(fig, HERE / "figures" / "gray_vs_colored", overwrite=True)


if __name__ == "__main__":
    main()
