"""Move-level studies: the first-player marker, end bonuses, score by round, floor penalties.

    python analysis/move_studies.py                 # about 3 minutes on 2 cores
    python analysis/move_studies.py --games 1000000 --positions 1000

Plays --games 2-player games with --policy in both seats through simulate_moves (every move
and round recorded), and --positions games for the paired marker rollouts; the root seeds are
spawned from --seed, so every number is reproducible. Writes analysis/results/moves_*.csv and
analysis/figures/moves_*.png/.svg, and prints the headline numbers.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from azul_fast import available_policies, simulate_moves  # noqa: E402  # noqa: E402
from azul_fast.core.seeds import resolve_seed  # noqa: E402
from azul_fast.report import move_charts
from azul_fast.report.charts import azul_style, save_figure  # noqa: E402
from azul_fast.studies import in_game

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games recorded move by move")
    parser.add_argument("--positions", type=int, default=400, help="games whose rounds 1-4 get paired rollouts")
    parser.add_argument("--rollouts", type=int, default=30, help="finishes per candidate move")
    parser.add_argument("--policy", default="heuristic", choices=available_policies())
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    root = resolve_seed(np.random.SeedSequence(args.seed, spawn_key=(0,)))
    started = time.perf_counter()
    records = simulate_moves(args.games, 2, args.policy, seed=root, workers=args.workers, progress=False)
    seconds = time.perf_counter() - started
    print(f"{args.games:,} games, {len(records.moves):,} moves, {seconds:.1f} s, root seed {root}")
    rollout_seed = int(np.random.SeedSequence(args.seed, spawn_key=(1,)).generate_state(1)[0])
    started = time.perf_counter()
    comparisons = in_game.marker_rollouts(args.positions, 2, args.policy, args.rollouts, seed=rollout_seed)
    print(f"{len(comparisons)} positions x 2 moves x {args.rollouts} rollouts, {time.perf_counter() - started:.1f} s")
    tables = {
        "marker_by_round": in_game.marker_value(records, by="round"),
        "marker_by_cost": in_game.marker_value(records, by="cost"),
        "marker_rollouts": in_game.marker_rollout_summary(comparisons),
        "marker_positions": comparisons,
        "end_bonuses": in_game.end_bonuses(records.games),
        "score_curve": in_game.score_curve(records),
        "floor_by_round": in_game.floor_by_round(records),
    }
    (HERE / "results").mkdir(exist_ok=True)
    for name, table in tables.items():
        table.assign(policy=args.policy, seed=args.seed).to_csv(
            HERE / "results" / f"moves_{name}.csv", index=False, float_format="%.6g")
        if name != "marker_positions":
            print(f"\n{name}\n{table.to_string(index=False, float_format=lambda v: f'{v:.3f}')}")
    charts = {
        "marker_by_round": move_charts.plot_marker_value, "marker_by_cost": move_charts.plot_marker_value,
        "marker_rollouts": move_charts.plot_marker_rollouts, "end_bonuses": move_charts.plot_end_bonuses,
        "score_curve": move_charts.plot_score_curve, "floor_by_round": move_charts.plot_floor_by_round,
    }
    with azul_style():
        for name, plot in charts.items():
            ax = plot(tables[name])
            ax.set_title(f"{ax.get_title()}\n2 players, {args.policy} in both seats")
            save_figure(ax.figure, HERE / "figures" / f"moves_{name}", overwrite=True)


if __name__ == "__main__":
    main()
