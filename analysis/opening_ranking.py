"""Which openings win under strong play: the openings a search plays, and every first move of fixed deals.

    python analysis/opening_ranking.py                      # learned: 20,000 games + 3 deals x ~90 moves x 100 rollouts
    python analysis/opening_ranking.py --policy learned-own --games 10000   # the second style, beside learned's rows

Running time: (a) is --games games of --policy, (b) about 90 x --rollouts games per deal
(learned about 6 ms a game on a free core). The runs in the CSVs, one worker thread each on the
2 cores shared with five other jobs (load 10-24): learned (a) 20,000 games in 798 s, (b) three
deals in 2,394 s; learned-own (a) 10,000 games in 810 s, (b) 1,941 s.

(a) From --games 2-player games with --policy in both seats: the first player's win rate and
    score margin by the tiles, line, overflow and source of the opening the policy chose
    (results/opening_types.csv; figures/opening_types_tiles_<policy>.png/.svg).
(b) For each deal in --deals: every legal first move rolled out --rollouts times with common
    random numbers, ranked with Wilson intervals and Holm-corrected McNemar tests against the
    best move (results/opening_ranking_<deal>.csv, figures/opening_ranking_<deal>_<policy>.png/.svg),
    and the rollout win rate by tiles taken and line, pooled over the deals
    (results/opening_rollout_types.csv).
Every CSV keeps the other policies' rows and names the policy of each row, a search policy
(one-move policies are refused: these files are the answer under strong play). A part already in
the files for --policy with the same size is not played again, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import simulate  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.report.charts import azul_style, plot_opening_ranking, plot_opening_study, save_figure  # noqa: E402
from azul_fast.studies.openings import opening_rollouts, opening_study  # noqa: E402
from azul_fast.studies.policy_results import (  # noqa: E402
    policy_label,
    read_policy_rows,
    require_search,
    write_policy_rows,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
FIGURES = HERE / "figures"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="learned", type=parse_policy, help="search policy in every seat")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=20240601, help="root seed of the simulated games")
    parser.add_argument("--deals", type=int, nargs="+", default=[1, 2, 3], help="game seeds of the ranked deals")
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play on the Dask cluster of this scheduler (the same results as here)")
    args = parser.parse_args()
    try:
        require_search(args.policy)
    except ValueError as error:
        parser.error(str(error))
    label = policy_label(args.policy)

    study = _played(args)
    with azul_style():
        save_figure(plot_opening_study(study, "tiles").figure, FIGURES / f"opening_types_tiles_{label}",
                    overwrite=True)
    plt.close("all")

    rankings = [_ranked(args, deal).assign(deal=deal) for deal in args.deals]
    pooled = pd.concat(rankings, ignore_index=True)
    by_type = (pooled.groupby(["tiles", "line"], as_index=False)
               .agg(moves=("move", "size"), mean_win_rate=("win_rate", "mean"),
                    mean_win_share=("win_share", "mean"), mean_margin=("mean_margin", "mean"),
                    share_worse_than_best=("worse_than_best", "mean")))
    by_type = by_type.assign(policy=args.policy, deals=len(args.deals), rollouts=args.rollouts)
    write_policy_rows(RESULTS / "opening_rollout_types.csv", by_type, args.policy)
    print(by_type.to_string(index=False))


def _played(args: argparse.Namespace) -> pd.DataFrame:
    """(a): the openings the policy chooses in --games games, and how the first player fares after each."""
    path = RESULTS / "opening_types.csv"
    held = read_policy_rows(path)
    if len(held):
        mine = held[(held.policy == args.policy) & (held.seed == args.seed)]
        if len(mine) and mine.groupby("feature").games.sum().eq(args.games).all():
            print(f"(a) {args.policy}: {args.games:,} games already in {path.name}", flush=True)
            return mine.reset_index(drop=True)
    started = time.perf_counter()
    games = simulate(args.games, 2, args.policy, seed=args.seed, workers=args.workers, progress=False,
                     scheduler=args.scheduler)
    study = opening_study(games).assign(policy=args.policy, seed=args.seed)
    write_policy_rows(path, study, args.policy)
    print(f"(a) {args.games:,} games of {args.policy} in {time.perf_counter() - started:.0f} s", flush=True)
    print(study[["feature", "value", "games", "win_rate", "ci_low", "ci_high", "mean_margin", "pvalue"]]
          .to_string(index=False))
    return study


def _ranked(args: argparse.Namespace, deal: int) -> pd.DataFrame:
    """(b) for one deal: every first move ranked by rollouts (read back when already played)."""
    path = RESULTS / f"opening_ranking_{deal}.csv"
    held = read_policy_rows(path)
    mine = held[held.policy == args.policy] if len(held) else held
    if len(mine) and set(mine.rollouts) == {args.rollouts}:
        print(f"(b) deal {deal}, {args.policy}: already in {path.name}", flush=True)
        return mine.drop(columns=["policy"]).reset_index(drop=True)
    started = time.perf_counter()
    ranking = opening_rollouts(deal, players=2, policy=args.policy, rollouts=args.rollouts, workers=args.workers,
                               scheduler=args.scheduler)
    write_policy_rows(path, ranking.assign(policy=args.policy), args.policy)
    with azul_style():
        fig, ax = plt.subplots(figsize=(6.4, 6.4))
        plot_opening_ranking(ranking, ax=ax)
        ax.set_title(f"{ax.get_title()}\n2 players, {args.policy} in every seat", fontsize="medium")
        save_figure(fig, FIGURES / f"opening_ranking_{deal}_{policy_label(args.policy)}", overwrite=True)
        plt.close(fig)
    best = ranking.iloc[0]
    print(f"(b) deal {deal}: {len(ranking)} moves x {args.rollouts} rollouts in {time.perf_counter() - started:.0f} s; "
          f"best {best.move} {100 * best.win_rate:.1f}% [{100 * best.ci_low:.1f}, {100 * best.ci_high:.1f}], "
          f"worst {ranking.move.iloc[-1]} {100 * ranking.win_rate.iloc[-1]:.1f}%, "
          f"{int(ranking.worse_than_best.sum())} of {len(ranking) - 1} significantly worse (Holm)", flush=True)
    return ranking


if __name__ == "__main__":
    main()
