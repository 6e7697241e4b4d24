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
from azul_fast.runs.signals import check_stop

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.report.settings.
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

    def wall_heatmap() -> Figure:
        fig, axes = plt.subplots(1, smallest, figsize=(4.6 * smallest, 4.2), squeeze=False)
        for seat, ax in enumerate(axes[0]):
            charts.plot_wall_heatmap(results.runs[smallest], seat=seat, ax=ax)
        return fig

    figures.append(("wall_heatmap", f"Wall cells filled at the end, by seat ({smallest} players)", wall_heatmap))
    if not results.variant_pairs.empty:
        figures.append(("variant_difference", "The first player on the colored and the gray wall, same deals",
                        lambda: charts.plot_variant_difference(results.variant_pairs, ax=plt.subplots()[1])))
    for name, title, draw in figures:
        save_chart(results, name, title, draw)
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
    # a phone's render: the boards one under another, shown at its own size (its text 11 px) in a scroller
    save_svg(deal, results.folder / f"{name}-narrow.svg", move=best.move, columns=1)
    results.files += [f"{name}.svg", f"{name}-narrow.svg"]
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


#: Width (inches) of a chart's narrow-screen render. On a 390 px phone the page's column is 358 CSS px
#: (the body's padding is 1rem each side),
#: and a chart that fills it at this width shows 1 pt of text as 358 / (72 x 3.6) = 1.38 px: the style's
#: smallest text (8 pt) at 11 px.
NARROW_INCHES = 3.6


def save_chart(results: ReportRun, name: str, title: str, draw: Callable[[], Any]) -> None:
    """Draw a chart with the report's style and save it as drawn (PNG and SVG, ``name.*``), then re-laid
    for a narrow screen (``name-narrow.png``, `narrow_layout`). The page shows the narrow one on a phone,
    where it fills the column with its text readable; its smallest text (pt) is kept in
    ``results.narrow_text_pt`` for the page (the browser test measures it as shown)."""
    import matplotlib.pyplot as plt

    from azul_fast.report import charts

    check_stop()  # matplotlib's C code can swallow a signal's interrupt: each chart checks before it starts
    with charts.azul_style():
        fig = _figure(draw())
        for path in charts.save_figure(fig, results.folder / name):
            results.files.append(path.name)
        # the same figure, re-laid for a narrow screen: one more render, not a second chart
        narrow_layout(fig)
        path = results.folder / f"{name}-narrow.png"
        fig.savefig(path, dpi=charts.PNG_DPI)
        results.narrow_text_pt[name] = min((t.get_fontsize() for t in _visible_texts(fig)), default=float("nan"))
        plt.close(fig)
    results.files.append(path.name)
    results.charts[name] = title


def _figure(drawn: Any) -> Figure:
    """The Figure of what a draw function returned (a Figure, or the Axes it drew)."""
    figure: Figure = drawn if hasattr(drawn, "savefig") else drawn.figure
    return figure


def narrow_layout(fig: Any, width: float = NARROW_INCHES) -> None:
    """Re-lay `fig` for a narrow screen, `width` inches wide: panels that stood side by side in one row
    stacked in one column (each as tall as before), titles and axis labels wrapped to the width, crowded
    category labels under an axis turned upright, and a legend under an axis moved under the whole
    figure in one column. The text keeps its size: the narrow render exists to keep it readable."""
    import textwrap

    from matplotlib.ticker import MaxNLocator

    panels = [ax for ax in fig.axes if ax.get_subplotspec() is not None]
    grid = panels[0].get_subplotspec().get_gridspec() if panels else None
    height = fig.get_size_inches()[1]
    if grid is not None and grid.nrows == 1 and grid.ncols > 1:
        stacked = fig.add_gridspec(grid.ncols, 1)
        for ax in panels:
            ax.set_subplotspec(stacked[ax.get_subplotspec().colspan.start, 0])
        height = min(height, width) * grid.ncols
    fig.set_size_inches(width, height)
    for ax in panels:
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
            size = text.get_fontsize()
            # about 0.6 of the font size a character; a y label runs along the figure's height
            room = (height * len(panels) ** -1 if text is ax.yaxis.label else width) * 72 / (0.6 * size)
            text.set_text("\n".join(textwrap.fill(line, max(int(room), 12)) for line in text.get_text().split("\n")))
        # long category names beside a y axis (opening types) wrapped to under half the width
        names = ax.get_yticklabels()
        if names and not _numeric(names) and max(len(n.get_text()) for n in names) > 24:
            wrapped = [textwrap.fill(n.get_text(), 22) for n in names]
            ax.set_yticks(ax.get_yticks(), wrapped)
            lines = max(name.count("\n") + 1 for name in wrapped)
            fig.set_size_inches(width, fig.get_size_inches()[1] * (1 + 0.7 * (lines - 1)))  # room for every line
        legend = ax.get_legend()
        if legend is not None and legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted()).y0 <= 0:
            handles, texts = legend.legend_handles, [t.get_text() for t in legend.get_texts()]
            legend.remove()
            fig.legend(handles, texts, loc="outside lower center", ncols=1)
    for ax in panels:
        labels = [label for label in ax.get_xticklabels() if label.get_visible() and label.get_text()]
        # the labels' width estimated from their text (about 0.6 of the font size a character, and a gap),
        # against the axes' share of the width: no render needed
        needed = sum(0.6 * label.get_fontsize() * max(map(len, label.get_text().split("\n"))) + 4 for label in labels)
        if needed > 0.9 * ax.get_position().width * width * 72:
            if _numeric(labels):
                ax.xaxis.set_major_locator(MaxNLocator(nbins=3))
            else:
                ax.set_xticks(ax.get_xticks(), [label.get_text().replace("\n", " ")
                                                for label in ax.get_xticklabels()], rotation=90)


def _numeric(labels: list[Any]) -> bool:
    """Whether tick labels are numbers (matplotlib writes a minus as U+2212)."""
    try:
        [float(label.get_text().replace("\u2212", "-").replace(",", "")) for label in labels if label.get_text()]
    except ValueError:
        return False
    return True


def _visible_texts(fig: Any) -> list[Any]:
    """The texts a render of `fig` showed (call it after saving: tick labels get their text when drawn)."""
    return [t for t in fig.findobj(lambda a: hasattr(a, "get_fontsize") and hasattr(a, "get_text"))
            if t.get_visible() and t.get_text().strip()]


def _png_width(path: Any) -> int:
    """A PNG's width in pixels, from its header (the IHDR chunk follows the 8-byte signature)."""
    return int.from_bytes(path.read_bytes()[16:20], "big")
