"""The report's charts: every figure a step's tables call for, saved as PNG and SVG.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd

from azul_fast.core.formats.board_svg import save_svg
from azul_fast.core.state import State
from azul_fast.report.formatting import (
    TOP_MOVES,
    percent,
)
from azul_fast.report.move_section import (
    move_charts,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.studies.settings.
from azul_fast.report.config import ReportRun
from azul_fast.report.steps import timed


def draw_charts(results: ReportRun) -> None:
    import matplotlib.pyplot as plt

    from azul_fast.report import charts

    started = time.perf_counter()
    config = results.config
    smallest = config.players[0]
    scores = pd.concat(
        [df[["players"] + [c for c in df.columns if c.startswith(("score_", "policy_"))]]
         for df in results.runs.values()], ignore_index=True,
    )
    figures: list[tuple[str, str, Callable[[], Any]]] = [
        ("first_player_by_strength", "The first player's share of wins along the strength ladder",
         lambda: charts.plot_first_player_by_strength(results.strength)),
        ("strength_frontier", "Strength for time: each bot's Elo against its milliseconds per game",
         lambda: charts.plot_strength_frontier(results.ladder.rename(columns={"rating": "elo"}))),
        ("opening_types", f"Opening types over {len(results.type_moves.deal.unique())} deals, ranked by rollouts",
         lambda: charts.plot_opening_types(results.types, ax=plt.subplots(figsize=(6.4, 6.4))[1])),
        ("seat_advantage", "Each seat's share of wins minus its fair share (ties split)",
         lambda: charts.plot_seat_advantage(results.seats)),
        ("score_distributions", "Final scores by seat",
         lambda: charts.plot_score_distributions(scores)),
        ("opening_tiles", "First player's win share (ties split) by tiles taken in the opening move",
         lambda: charts.plot_opening_study(results.openings, "tiles")),
        ("opening_ranking", f"Every first move of one {smallest}-player deal, ranked by rollouts",
         lambda: charts.plot_opening_ranking(results.ranking, ax=plt.subplots(figsize=(6.4, 6.4))[1],
                                               top=TOP_MOVES)),
    ]
    if results.moves is not None:
        figures += move_charts(results.moves)
    with charts.azul_style():
        for name, title, draw in figures:
            save_chart(results, name, title, draw().figure)
        fig, axes = plt.subplots(1, smallest, figsize=(4.6 * smallest, 4.2), squeeze=False)
        for seat, ax in enumerate(axes[0]):
            charts.plot_wall_heatmap(results.runs[smallest], seat=seat, ax=ax)
        save_chart(results, "wall_heatmap", f"Wall cells filled at the end, by seat ({smallest} players)", fig)
        if not results.variant_pairs.empty:
            fig, ax = plt.subplots()
            charts.plot_variant_difference(results.variant_pairs, ax=ax)
            save_chart(results, "variant_difference",
                        "The first player on the colored and the gray wall, same deals", fig)
    timed(results, "charts", started)


def draw_best_opening(results: ReportRun) -> None:
    """The deal of the opening ranking as a board diagram, its leading first move highlighted; the
    caption calls it the best only when the rollouts separated it from every other move."""
    ranking = results.ranking
    best = ranking.iloc[0]
    deal = State.new(ranking.attrs["players"], seed=ranking.attrs["seed"], first_player=ranking.attrs["first_player"],
                     variant=results.config.main_variant)
    name = "best_opening"
    save_svg(deal, results.folder / f"{name}.svg", move=best.move)
    results.files.append(f"{name}.svg")
    results.diagrams.add(name)
    # "best" only when the rollouts separate it: a top move that 80 others match is not the best one
    others = len(ranking) - 1
    level = int(others - ranking.worse_than_best.sum())
    standing = (f"significantly better than each of the {others} other moves" if level == 0 else
                f"not significantly better than {level} of the {others} other moves")
    stopped = {"separated": " (the adaptive rollouts stopped once it was separated)",
               "budget": " when the adaptive rollouts' budget ran out"}.get(ranking.attrs.get("stopped", ""), "")
    results.charts[name] = (
        f"The top first move of deal {ranking.attrs['seed']} by rollouts with {ranking.attrs['policy']}, {best.move}, "
        f"on the starting position: the first player's tie-split share is {percent(best.win_rate)} over its "
        f"{int(best.rollouts):,} rollouts, {standing}{stopped}"
    )


def save_chart(results: ReportRun, name: str, title: str, fig: Figure) -> None:
    import matplotlib.pyplot as plt

    from azul_fast.report.charts import save_figure

    for path in save_figure(fig, results.folder / name):
        results.files.append(path.name)
    plt.close(fig)
    results.charts[name] = title
