"""The first player's share of wins along the strength ladder, at 2, 3 and 4 players, with fixed seeds.

    python analysis/first_player_by_strength.py                  # about 25 min on 2 cores
    python analysis/first_player_by_strength.py --seconds 10     # a quicker look
    python analysis/first_player_by_strength.py --replot         # the figure from the CSV

Plays the strength ladder of `azul_fast.studies.ladder.DEFAULT_POLICIES` (their Elo), then, for every
level and player count, the games that fit in --seconds of one core (`strength.games_for_budget`)
with that policy in every seat. Writes analysis/results/first_player_by_strength.csv and
ladder_for_strength.csv, and analysis/figures/first_player_by_strength.png/.svg; prints the
table and the verdict at each player count. Every level's root seed is in the CSV (``seed``); the
ladder's rows name the learned search and weights that its `learned` and `fast` played
(``learned``: `azul_fast.core.learned.fingerprint`), so that first_player_converged.py never
quotes a ladder of another version.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast.core.learned import fingerprint  # noqa: E402
from azul_fast.report.charts import azul_style, plot_first_player_by_strength, save_figure  # noqa: E402
from azul_fast.report.formatting import strength_display  # noqa: E402
from azul_fast.studies.ladder import DEFAULT_POLICIES, ladder  # noqa: E402
from azul_fast.studies.strength import first_player_by_strength, strength_verdict

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget of one core per level and player count")
    parser.add_argument("--min-games", type=int, default=400, help="games per level at least")
    parser.add_argument("--ladder-games", type=int, default=100, help="deals per pair of the ladder")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--replot", action="store_true",
                        help="only redraw the figure from results/first_player_by_strength.csv (no games)")
    args = parser.parse_args()
    if args.replot:
        _draw(pd.read_csv(HERE / "results" / "first_player_by_strength.csv"))
        return
    started = time.perf_counter()
    ratings = ladder(DEFAULT_POLICIES, games=args.ladder_games, seed=args.seed, workers=args.workers)
    print(f"ladder: {time.perf_counter() - started:.0f} s", flush=True)
    table = first_player_by_strength(ratings, DEFAULT_POLICIES, seconds=args.seconds, min_games=args.min_games,
                                     seed=args.seed, workers=args.workers, log=lambda line: print(line, flush=True))
    (HERE / "results").mkdir(exist_ok=True)
    table.to_csv(HERE / "results" / "first_player_by_strength.csv", index=False, float_format="%.6g")
    ratings.assign(learned=fingerprint()).to_csv(HERE / "results" / "ladder_for_strength.csv", index=False,
                                                 float_format="%.6g")
    _draw(table)
    print(strength_display(table).to_string(index=False))
    for players in (2, 3, 4):
        print(strength_verdict(table, players, more_games="a larger --seconds and --min-games")["text"])
    print(f"{time.perf_counter() - started:.0f} s in all")


def _draw(table: pd.DataFrame) -> None:
    with azul_style():
        ax = plot_first_player_by_strength(table)
        save_figure(ax.figure, HERE / "figures" / "first_player_by_strength", overwrite=True)
        plt.close(ax.figure)


if __name__ == "__main__":
    main()
