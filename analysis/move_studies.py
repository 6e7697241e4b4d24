"""Move-level studies under strong play: the first-player marker, end bonuses, score by round, floor penalties.

    python analysis/move_studies.py                      # learned: 10,000 games + 200 games of marker rollouts
    python analysis/move_studies.py --policy learned-own  # the second style, beside learned's rows

Running time: --games games of --policy recorded move by move, and for --positions games the
first position of rounds 1-4 with the marker in the centre, two moves x --rollouts finishes
(learned about 6 ms a game on a free core). The runs in the CSVs, one worker thread each on the
2 cores shared with five other jobs (load 10-24): learned 401 s for the games and 1,919 s for
the rollouts, learned-own 813 s and 2,050 s.

Plays --games 2-player games with --policy in every seat through simulate_moves (every move and
round recorded), and --positions games for the paired marker rollouts (the candidates, a best
take from the centre and a best take from a factory, are heuristic's picks; --policy plays the
games and the rollouts); the root seeds are spawned from --seed, so every number is reproducible.
Writes analysis/results/moves_*.csv (every row names its policy; the other policies' rows are
kept, and one-move policies are refused: these files are the answer under strong play) and
analysis/figures/moves_*_<policy>.png/.svg, and prints the tables.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from azul_fast import simulate_moves  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.seeds import resolve_seed  # noqa: E402
from azul_fast.report import move_charts  # noqa: E402
from azul_fast.report.charts import azul_style, save_figure  # noqa: E402
from azul_fast.studies import in_game  # noqa: E402
from azul_fast.studies.policy_results import policy_label, require_search, write_policy_rows  # noqa: E402

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="learned", type=parse_policy, help="search policy in every seat")
    parser.add_argument("--games", type=int, default=10_000, help="games recorded move by move")
    parser.add_argument("--positions", type=int, default=200, help="games whose rounds 1-4 get paired rollouts")
    parser.add_argument("--rollouts", type=int, default=30, help="finishes per candidate move")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    try:
        require_search(args.policy)
    except ValueError as error:
        parser.error(str(error))
    root = resolve_seed(np.random.SeedSequence(args.seed, spawn_key=(0,)))
    started = time.perf_counter()
    records = simulate_moves(args.games, 2, args.policy, seed=root, workers=args.workers, progress=False)
    print(f"{args.games:,} games, {len(records.moves):,} moves, {time.perf_counter() - started:.0f} s, "
          f"root seed {root}", flush=True)
    rollout_seed = int(np.random.SeedSequence(args.seed, spawn_key=(1,)).generate_state(1)[0])
    started = time.perf_counter()
    comparisons = in_game.marker_rollouts(args.positions, 2, args.policy, args.rollouts, seed=rollout_seed)
    print(f"{len(comparisons)} positions x 2 moves x {args.rollouts} rollouts, {time.perf_counter() - started:.0f} s",
          flush=True)
    tables = {
        "marker_by_round": in_game.marker_value(records, by="round"),
        "marker_by_cost": in_game.marker_value(records, by="cost"),
        "marker_rollouts": in_game.marker_rollout_summary(comparisons),
        "marker_positions": comparisons.drop(columns=["policy"]),
        "end_bonuses": in_game.end_bonuses(records.games),
        "score_curve": in_game.score_curve(records),
        "floor_by_round": in_game.floor_by_round(records),
    }
    sizes = {"marker_rollouts": (args.positions, args.rollouts), "marker_positions": (args.positions, args.rollouts)}
    for name, table in tables.items():
        games, rollouts = sizes.get(name, (args.games, 0))
        table = table.assign(policy=args.policy, seed=args.seed, games=games)
        if rollouts:
            table = table.assign(rollouts=rollouts)
        write_policy_rows(HERE / "results" / f"moves_{name}.csv", table, args.policy)
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
            ax.set_title(f"{ax.get_title()}\n2 players, {args.policy} in every seat")
            save_figure(ax.figure, HERE / "figures" / f"moves_{name}_{policy_label(args.policy)}",
                        overwrite=True)
            plt.close(ax.figure)


if __name__ == "__main__":
    main()
