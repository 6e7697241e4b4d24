"""Which openings win: opening types in simulated games, and every first move of fixed deals.

    python analysis/opening_ranking.py                   # about a minute on 2 cores

(a) From --games 2-player games with --policy in both seats: the first player's win rate and
    score margin by tiles taken, line chosen, tiles overflowed and source
    (results/opening_types.csv, figures/opening_types_tiles.png/.svg).
(b) For each deal in --deals: every legal first move rolled out --rollouts times with common
    random numbers, ranked with Wilson intervals and Holm-corrected McNemar tests against the
    best move (results/opening_ranking_<deal>.csv, figures/opening_ranking_<deal>.png/.svg), and
    the rollout win rate by tiles taken and line, pooled over the deals (results/opening_rollout_types.csv).
Cost of (b): legal moves (60-100) x rollouts games at about 0.35 ms each, split over --workers processes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import available_policies, simulate  # noqa: E402
from azul_fast.report.charts import azul_style, plot_opening_ranking, plot_opening_study, save_figure  # noqa: E402
from azul_fast.studies.openings import opening_rollouts, opening_study

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--policy", choices=available_policies(), default="greedy")
    parser.add_argument("--seed", type=int, default=20240601, help="root seed of the simulated games")
    parser.add_argument("--deals", type=int, nargs="+", default=[1, 2, 3], help="game seeds of the ranked deals")
    parser.add_argument("--rollouts", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    (HERE / "results").mkdir(exist_ok=True)

    games = simulate(args.games, 2, args.policy, seed=args.seed, workers=args.workers, progress=False)
    study = opening_study(games)
    study.to_csv(HERE / "results" / "opening_types.csv", index=False, float_format="%.6g")
    print(study[["feature", "value", "games", "win_rate", "ci_low", "ci_high", "mean_margin", "pvalue"]]
          .to_string(index=False))

    rankings = []
    with azul_style():
        save_figure(plot_opening_study(study, "tiles").figure, HERE / "figures" / "opening_types_tiles",
                    overwrite=True)
        for deal in args.deals:
            started = time.perf_counter()
            ranking = opening_rollouts(deal, players=2, policy=args.policy, rollouts=args.rollouts,
                                       workers=args.workers)
            ranking.to_csv(HERE / "results" / f"opening_ranking_{deal}.csv", index=False, float_format="%.6g")
            fig, ax = plt.subplots(figsize=(6.4, 6.4))
            save_figure(plot_opening_ranking(ranking, ax=ax).figure, HERE / "figures" / f"opening_ranking_{deal}",
                        overwrite=True)
            plt.close(fig)
            best = ranking.iloc[0]
            seconds = time.perf_counter() - started
            print(f"deal {deal}: {len(ranking)} moves x {args.rollouts} rollouts in {seconds:.0f} s; "
                  f"best {best.move} {100 * best.win_rate:.1f}% [{100 * best.ci_low:.1f}, {100 * best.ci_high:.1f}], "
                  f"worst {ranking.move.iloc[-1]} {100 * ranking.win_rate.iloc[-1]:.1f}%, "
                  f"{int(ranking.worse_than_best.sum())} of {len(ranking) - 1} significantly worse (Holm)")
            rankings.append(ranking.assign(deal=deal))
    pooled = pd.concat(rankings, ignore_index=True)
    by_type = (pooled.groupby(["tiles", "line"], as_index=False)
               .agg(moves=("move", "size"), mean_win_rate=("win_rate", "mean"),
                    share_worse_than_best=("worse_than_best", "mean")))
    by_type.to_csv(HERE / "results" / "opening_rollout_types.csv", index=False, float_format="%.4g")
    print(by_type.to_string(index=False))


if __name__ == "__main__":
    main()
