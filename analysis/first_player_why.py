"""Why the first player's edge moves with the search: where its margin is made, round by round.

    python analysis/first_player_why.py              # play what is missing (resumable), then the table and chart
    python analysis/first_player_why.py --replot     # the figure from the CSV (no games)

At 2 players the first player's share moves from an even game under `learned:200` to several points under
`learned:900` (first_player_converged.csv). Here both levels play the same deals (one root seed a wall, so
game k of either level starts from the same tiles) recorded move by move, on both walls, and the first
player's final margin over the second seat is split into what each round's play added and what the end
bonuses added (`azul_fast.studies.margin.margin_by_round`); beside each round, how often the second player
took the first-player marker (the first take from the centre) and what the marker cost its taker.

Every level and wall is a move run under --runs (`run_to_folder(..., moves=True)`): a run stopped by Ctrl-C,
a kill or the machine resumes where it stopped when the script is started again, with the same games. The
cost model's estimate is printed before any game. Writes analysis/results/first_player_why.csv (a row per
wall, level and part, with the level's Elo from the one ladder and the run's root seed: simulate_moves(games,
2, policy, seed=seed, variant=variant) replays it) and analysis/figures/first_player_why.png/.svg (the PNG
also into docs/_static/ for docs/first-player.md).
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import load  # noqa: E402
from azul_fast.core.bots.learned import fingerprint  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.seeds import spawn_seed  # noqa: E402
from azul_fast.report.charts import azul_style, save_figure  # noqa: E402
from azul_fast.runs.folders import run_to_folder  # noqa: E402
from azul_fast.runs.heartbeat import format_duration  # noqa: E402
from azul_fast.runs.move_records import MoveRecords  # noqa: E402
from azul_fast.runs.plan import estimated_seconds_per_game  # noqa: E402
from azul_fast.studies.margin import MARGIN_COLUMNS, margin_by_round  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "first_player_why.csv"
LADDER = HERE / "results" / "ladder_for_strength.csv"
RUNS = HERE / "runs" / "first_player_why"
FIGURE = HERE / "figures" / "first_player_why"
DOCS_FIGURE = HERE.parent / "docs" / "_static" / "first_player_why.png"
LEVELS = ("learned:200", "learned:900")
WALLS = ("colored", "gray")
COLUMNS = ["variant", "policy", "elo", *MARGIN_COLUMNS, "seed", "learned"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4_000, help="games of each level on each wall")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--workers", type=int, default=None, help="threads (default: every core)")
    parser.add_argument("--runs", type=Path, default=RUNS, help=f"folder of the move runs (default {RUNS})")
    parser.add_argument("--replot", action="store_true", help="only redraw the figure from the CSV (no games)")
    args = parser.parse_args()
    if args.replot:
        _plot(pd.read_csv(RESULTS, dtype={"seed": str}))
        return
    specs = [parse_policy(level) for level in LEVELS]   # each parsed once, here
    elo = pd.read_csv(LADDER).set_index("policy").rating
    seconds = sum(estimated_seconds_per_game([spec, spec], 2) for spec in specs) * args.games * len(WALLS)
    print(f"{args.games:,} games of {', '.join(LEVELS)} on both walls: about {format_duration(seconds)} of one "
          "core by the cost model", flush=True)
    rows, started = [], time.perf_counter()
    for k, variant in enumerate(WALLS):
        seed = spawn_seed(args.seed, k)   # one root seed a wall: both levels play the same deals
        for spec in specs:
            folder = args.runs / f"{variant}-{spec.name.replace(':', '-')}"
            run_to_folder(folder, args.games, 2, spec, seed=seed, workers=args.workers, variant=variant,
                          moves=True, progress=False, resume=(folder / "_manifest.json").exists())
            records = MoveRecords(load(folder), load(folder, table="moves"), load(folder, table="rounds"))
            table = margin_by_round(records).assign(variant=variant, policy=spec.name, elo=float(elo[spec.name]),
                                                    seed=str(seed), learned=fingerprint())
            rows.append(table[COLUMNS])
            final = table.iloc[-1]
            print(f"{variant}, {spec.name}: first player's margin {final.margin:+.2f} "
                  f"[{final.margin_low:+.2f}, {final.margin_high:+.2f}] points, "
                  f"{time.perf_counter() - started:.0f} s so far", flush=True)
    result = pd.concat(rows, ignore_index=True)
    RESULTS.parent.mkdir(exist_ok=True)
    tmp = RESULTS.with_suffix(".tmp")
    result.to_csv(tmp, index=False, float_format="%.6g")
    tmp.replace(RESULTS)
    _plot(result)
    print(result.round(3).to_string())


def _plot(table: pd.DataFrame) -> None:
    """Left: the first player's margin made in each part of the game, by level; right: how often the
    second player takes the marker, by round. One row of panels a wall."""
    with azul_style():
        fig, axes = plt.subplots(len(WALLS), 2, figsize=(9, 3.4 * len(WALLS)), squeeze=False)
        for row, variant in enumerate(WALLS):
            left, right = axes[row]
            here = table[table.variant == variant]
            parts = [p for p in here.part.unique() if p != "final margin"]
            x = np.arange(len(parts))
            for k, (policy, rows) in enumerate(here.groupby("policy", sort=False)):
                rows = rows.set_index("part").loc[parts]
                offset = (k - 0.5) * 0.38
                final = here[(here.policy == policy) & (here.part == "final margin")].iloc[0]
                left.bar(x + offset, rows.margin, width=0.36,
                         yerr=[rows.margin - rows.margin_low, rows.margin_high - rows.margin],
                         label=f"{policy}: {final.margin:+.1f} in all", capsize=2)
                marker = rows[rows.second_takes_marker.notna()]
                right.errorbar(np.arange(len(marker)) + offset / 4, 100 * marker.second_takes_marker,
                               yerr=[100 * (marker.second_takes_marker - marker.marker_low),
                                     100 * (marker.marker_high - marker.second_takes_marker)],
                               marker="o", capsize=2, label=policy)
            left.axhline(0, color="0.4", linewidth=0.8)
            left.set_xticks(x, [p.replace("round ", "R").replace("end bonuses", "bonus") for p in parts])
            left.set_ylabel("first player's margin (points)")
            left.set_title(f"{variant} wall: where the margin is made")
            left.legend(fontsize=8)
            rounds = [p for p in parts if p.startswith("round")]
            right.axhline(50, color="0.4", linewidth=0.8)
            right.set_xticks(np.arange(len(rounds)), [p.replace("round ", "R") for p in rounds])
            right.set_ylabel("second player takes the marker (%)")
            right.set_title(f"{variant} wall: the marker")
            right.legend(fontsize=8)
        fig.tight_layout()
        save_figure(fig, FIGURE, overwrite=True)
        plt.close(fig)
    shutil.copyfile(FIGURE.with_suffix(".png"), DOCS_FIGURE)


if __name__ == "__main__":
    main()
