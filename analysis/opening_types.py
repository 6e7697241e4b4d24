"""Which kind of opening is best under strong play: every first move of many deals, paired rollouts, by type.

    python analysis/opening_types.py                      # learned: up to 160 deals x ~90 moves x 12 rollouts
    python analysis/opening_types.py --policy learned-own # the second style, beside learned's rows
    python analysis/opening_types.py --policy learned --replot   # rank and draw the deals played so far

Running time: each deal is about 90 x --rollouts games of --policy (learned about 6 ms a game on
a free core, fast about 1.3 ms). The runs in the CSVs, one worker thread each on the 2 cores
shared with five other jobs (load 10-24), were stopped when the time was up and ranked on the
deals played (--replot ranks a prefix of the deals): learned 92 deals in 5,068 s, learned-own 73
deals in 3,922 s, 12 rollouts a move; about 20 s a deal once the machine was less loaded.

Every legal first move of --deals 2-player deals (seeds spawned from --seed) is played and the
game finished --rollouts times by --policy in every seat, on common random numbers
(`azul_fast.studies.opening_types`). A move's type is what it does (tiles, line, tiles to the
floor); in each deal a type scores the mean win share of its moves minus the deal's mean, and the
types are ranked by that edge with a t interval over deals and a Holm-corrected paired test
against the top type.

Writes analysis/results/opening_types_moves.csv (every move of every deal: the drill-down, and the
run's checkpoint: a run resumes after the last deal it holds for --policy) and
opening_types_by_rollouts.csv (one row per policy and type), and
analysis/figures/opening_types_<policy>.png/.svg. Both CSVs keep the other policies' rows; every
row names its policy, a search policy (one-move policies are refused: these files are the answer
under strong play).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.seeds import spawn_seed  # noqa: E402
from azul_fast.report.charts import azul_style, plot_opening_types, save_figure  # noqa: E402
from azul_fast.report.formatting import opening_types_display  # noqa: E402
from azul_fast.runs.where import run_where  # noqa: E402
from azul_fast.studies.opening_types import deal_opening_moves, opening_type_table  # noqa: E402
from azul_fast.studies.policy_results import (  # noqa: E402
    policy_label,
    read_policy_rows,
    require_search,
    write_policy_rows,
)

HERE = Path(__file__).resolve().parent
MOVES = HERE / "results" / "opening_types_moves.csv"
TYPES = HERE / "results" / "opening_types_by_rollouts.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="learned", type=parse_policy, help="search policy in every seat")
    parser.add_argument("--deals", type=int, default=160)
    parser.add_argument("--rollouts", type=int, default=12)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play on the Dask cluster of this scheduler (the same results as here)")
    parser.add_argument("--replot", action="store_true", help="only rank and draw from the moves CSV")
    args = parser.parse_args()
    try:
        require_search(args.policy)
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    seeds = [spawn_seed(args.seed, k) for k in range(args.deals)]
    if not args.replot:
        with run_where(args.workers, args.scheduler) as where:  # here, or on a Dask cluster
            args.client = where.client
            _play(args, seeds)
    moves = read_policy_rows(MOVES)
    moves = moves[(moves.policy == args.policy) & moves.deal.isin(seeds)]
    types = opening_type_table(moves)
    types.insert(0, "policy", args.policy)
    types["rollouts"] = args.rollouts
    write_policy_rows(TYPES, types, args.policy)
    types.attrs.update(players=2, policy=args.policy)
    with azul_style():
        fig, ax = plt.subplots(figsize=(6.4, 6.4))
        figure = HERE / "figures" / f"opening_types_{policy_label(args.policy)}"
        save_figure(plot_opening_types(types, ax=ax).figure, figure, overwrite=True)
        plt.close(fig)
    print(f"features kept {types.attrs['features']}, dropped {types.attrs['dropped']}")
    print(opening_types_display(types).to_string(index=False))
    print(f"{time.perf_counter() - started:.0f} s")


def _play(args: argparse.Namespace, seeds: list[int]) -> None:
    """Roll out the deals that the moves CSV does not hold yet for this policy, one deal at a time."""
    held = read_policy_rows(MOVES)
    mine = held[held.policy == args.policy] if len(held) else held
    if len(mine) and set(mine.rollouts) != {args.rollouts}:
        raise SystemExit(f"{MOVES.name} holds {args.policy} deals of {sorted(set(mine.rollouts))} rollouts, "
                         f"not {args.rollouts}: run with those, or remove that policy's rows to start afresh")
    done = set(int(d) for d in mine.deal) if len(mine) else set()
    todo = [s for s in seeds if s not in done]
    print(f"{args.policy}: {len(seeds) - len(todo)} of {len(seeds)} deals already played", flush=True)
    for k, seed in enumerate(todo, 1):
        began = time.perf_counter()
        deal = deal_opening_moves(seed, players=2, policy=args.policy, rollouts=args.rollouts, workers=args.workers,
                                  client=args.client)
        held = read_policy_rows(MOVES)
        write_policy_rows(MOVES, pd.concat([held[held.policy == args.policy], deal]) if len(held) else deal,
                          args.policy)
        print(f"deal {k} of {len(todo)}: {len(deal)} moves in {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
