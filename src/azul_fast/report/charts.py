"""Charts for strategy articles, drawn from the tables of the studies (`azul_fast.studies`).

Every chart function takes ``ax=None`` (a new figure when None), draws on it and returns the
Axes; none calls ``plt.show``. Wrap drawing in `azul_style()` for the shipped style sheet and
write files with `save_figure` (PNG at 200 dpi and SVG with editable text).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from azul_fast import simulate
>>> from azul_fast.studies.seats import seat_advantage
>>> with azul_style():
...     ax = plot_seat_advantage(seat_advantage(simulate(300, players=3, seed=1, workers=1)))
>>> len(ax.patches)
3
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation
from matplotlib.ticker import FuncFormatter, NullFormatter
from matplotlib.transforms import Bbox

from azul_fast.core.bots.policies import short_lineup
from azul_fast.core.output import OVERWRITE_HINT, check_new, write_new
from azul_fast.core.rules.moves import WALL_CELLS, printed_color
from azul_fast.report.formatting import ranking_splits_ties
from azul_fast.runs.frames import seat_columns

__all__ = [
    "PNG_DPI",
    "STYLE_PATH",
    "azul_style",
    "plot_first_player_by_strength",
    "plot_opening_ranking",
    "plot_opening_types",
    "plot_opening_study",
    "plot_score_distributions",
    "plot_seat_advantage",
    "plot_strength_frontier",
    "plot_variant_difference",
    "plot_wall_heatmap",
    "save_figure",
    "wall_frequency",
]

#: Resolution of the PNG files `save_figure` writes (the report sizes its charts by it).
PNG_DPI = 200
#: The style sheet shipped with the package.
STYLE_PATH = Path(__file__).with_name("azul_fast.mplstyle")
_WALL_BITS = np.arange(WALL_CELLS, dtype=np.uint32)  # bit wall_bit(row, column) of a wall


@contextlib.contextmanager
def azul_style() -> Iterator[None]:
    """Draw with the shipped style sheet inside the block (``plt.style.context``)."""
    with plt.style.context(STYLE_PATH):
        yield


def save_figure(fig: Figure, path: str | os.PathLike[str], *, overwrite: bool = False,
                hint: str = OVERWRITE_HINT) -> list[Path]:
    """Write `fig` as ``path.png`` (200 dpi) and ``path.svg`` (text kept as text); return both paths.

    `path` has no suffix; its folder is created if needed. Each file is new
    (`azul_fast.core.output.write_new`): one already there is kept and FileExistsError raised,
    naming `hint`, unless `overwrite`.

    >>> import tempfile
    >>> fig, ax = plt.subplots()
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [written.name for written in save_figure(fig, Path(folder) / "charts" / "empty")]
    ['empty.png', 'empty.svg']
    >>> plt.close(fig)
    """
    base = Path(path)
    base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    formats: tuple[tuple[str, dict[str, Any]], ...] = ((".png", {"dpi": PNG_DPI}), (".svg", {}))
    targets = [check_new(base.with_name(base.name + suffix), overwrite, hint) for suffix, _ in formats]
    for target, (_suffix, options) in zip(targets, formats):

        def draw(tmp: Path, options: dict[str, Any] = options) -> None:
            fig.savefig(tmp, **options)

        with plt.rc_context({"svg.fonttype": "none"}):
            write_new(target, draw, overwrite=overwrite, hint=hint)
        written.append(target)
    return written


def _axes(ax: Axes | None, figsize: tuple[float, float] | None = None) -> Axes:
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def _palette() -> list[str]:
    colors: list[str] = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return colors


def _require(table: pd.DataFrame, columns: set[str], made_by: str) -> None:
    if table.empty:
        raise ValueError("nothing to plot: the table is empty")
    missing = columns - set(table.columns)
    if missing:
        raise ValueError(f"expected a table from {made_by}; missing columns {sorted(missing)}")


def _group_labels(keys: list[tuple[int, str]]) -> tuple[list[str], str]:
    """Tick labels for (players, lineup) groups and a title suffix for what they share."""
    lineups = {short_lineup(policies) for _, policies in keys}
    if len(lineups) == 1:
        return [f"{players} players" for players, _ in keys], f" ({lineups.pop()})"
    return [f"{players} players\n{short_lineup(policies)}" for players, policies in keys], ""


def _legend_below(ax: Axes, handles: list[Artist], labels: list[str], ncols: int | None = None) -> None:
    """A legend under the x axis (and its label), where it cannot hide bars or error bars."""
    lines = max((label.get_text().count("\n") + 1 for label in ax.get_xticklabels()), default=1)
    pad = (3.6 if ax.get_xlabel() else 2.2) + 1.2 * (lines - 1)  # in font sizes: tick labels, then the axis label
    # One row of up to four: matplotlib fills a legend column by column, so several rows would read
    # seat 0, seat 2, seat 3 / seat 1.
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), borderaxespad=pad,
              ncols=ncols or (len(labels) if len(labels) <= 4 else 3), fontsize="small" if len(labels) == 4 else None)


def plot_seat_advantage(table: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Tie-split win share minus fair share (percentage points) of every seat, with t intervals.

    `table` is `seats.seat_advantage` output; one bar per row, grouped by player count (and
    lineup when there are several), coloured by seat. A shared victory is split between its
    winners, as in the report's headline: counting it as a win for each winner would lift every
    seat above its fair share.
    """
    _require(table, {"players", "first_player", "policies", "seat", "win_share", "share_low", "share_high",
                     "fair_share"}, "seat_advantage")
    ax = _axes(ax)
    colors = _palette()
    groups = cast("list[tuple[tuple[int, str, int], pd.DataFrame]]",
                  list(table.groupby(["players", "policies", "first_player"], sort=True)))
    labels, shared = _group_labels([key[:2] for key, _ in groups])
    x0, centres = 0.0, []
    for _, group in groups:
        x = x0 + np.arange(len(group))
        diff = 100 * (group.win_share - group.fair_share)
        error = [100 * (group.win_share - group.share_low), 100 * (group.share_high - group.win_share)]
        ax.bar(x, diff, width=0.8, color=[colors[s % len(colors)] for s in group.seat], yerr=error, ecolor="0.2")
        centres.append(x.mean())
        x0 += len(group) + 1
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(centres, labels)
    ax.set_ylabel("win share minus fair share\n(pp, ties split)")
    ax.set_title(f"Seat advantage{shared}")
    _seat_legend(ax, int(table.seat.max()) + 1, set(table.first_player))
    return ax


def _seat_legend(ax: Axes, seats: int, firsts: set[int]) -> None:
    """One patch per seat in seat order under the axis, naming the first seat when it is the same everywhere."""
    colors = _palette()
    handles: list[Artist] = [Rectangle((0, 0), 1, 1, color=colors[s % len(colors)]) for s in range(seats)]
    _legend_below(ax, handles, [f"seat {s}" + (" (moves first)" if firsts == {s} else "") for s in range(seats)])


def plot_variant_difference(table: pd.DataFrame, ax: Axes | None = None, title: str = "") -> Axes:
    """The first player's win share minus the fair share on the colored and the gray wall.

    `table` is `seats.variant_difference` output: one pair of bars per player count, with
    t intervals; the paired difference gray minus colored is written over each pair.
    """
    _require(table, {"players", "colored_share", "colored_low", "colored_high", "gray_share", "gray_low",
                     "gray_high", "diff_pp", "diff_pp_low", "diff_pp_high"}, "variant_difference")
    ax = _axes(ax)
    colors = _palette()
    x = np.arange(len(table))
    fair = 100 / table.players.to_numpy()
    for offset, wall, color in ((-0.2, "colored", colors[0]), (0.2, "gray", colors[1])):
        share = 100 * table[f"{wall}_share"].to_numpy() - fair
        error = [100 * table[f"{wall}_share"] - 100 * table[f"{wall}_low"],
                 100 * table[f"{wall}_high"] - 100 * table[f"{wall}_share"]]
        ax.bar(x + offset, share, width=0.4, color=color, yerr=error, ecolor="0.2", label=f"{wall} wall")
    tops = np.maximum(100 * table.colored_high.to_numpy(float), 100 * table.gray_high.to_numpy(float)) - fair
    for i, (diff, low, high) in enumerate(zip(table.diff_pp, table.diff_pp_low, table.diff_pp_high)):
        ax.annotate(f"{diff:+.1f} pp\n[{low:+.1f}, {high:+.1f}]", (x[i], max(float(tops[i]), 0.0)),
                    xytext=(0, 4), textcoords="offset points", ha="center", va="bottom", fontsize="small")
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(x, [f"{p} players" for p in table.players])
    ax.set_ylabel("first player's win share minus fair share (pp)")
    ax.set_title(title or "First player on the colored and the gray wall")
    ax.margins(y=0.25)
    ax.legend(loc="best")
    return ax


def plot_score_distributions(df: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Box plot of final scores for every seat, grouped by player count (whiskers 5-95 %).

    `df` is `simulate` output (several player counts may be concatenated).

    >>> from azul_fast import simulate
    >>> games = pd.concat([simulate(100, players=n, seed=n, workers=1) for n in (2, 3)])
    >>> ax = plot_score_distributions(games)
    >>> [label.get_text() for label in ax.get_xticklabels()], len(ax.patches)
    (['2 players', '3 players'], 5)
    """
    _require(df, {"players", "score_0"}, "simulate")
    ax = _axes(ax)
    colors = _palette()
    data, positions, box_colors, centres, labels = [], [], [], [], []
    x0 = 0
    for players, part in df.groupby("players", sort=True):
        players = int(cast("np.integer[Any]", players))
        for seat, column in enumerate(seat_columns("score", players)):
            data.append(part[column].to_numpy(dtype=float))
            positions.append(x0 + seat)
            box_colors.append(colors[seat % len(colors)])
        centres.append(x0 + (players - 1) / 2)
        labels.append(f"{players} players")
        x0 += players + 1
    boxes = ax.boxplot(data, positions=positions, widths=0.7, whis=(5, 95), showfliers=False,
                       patch_artist=True, medianprops={"color": "black"})
    for patch, color in zip(boxes["boxes"], box_colors):
        patch.set_facecolor(color)
    ax.set_xticks(centres, labels)
    ax.set_ylabel("final score (box: quartiles; whiskers: 5-95%)")
    policies = sorted({str(p) for c in df.columns if c.startswith("policy_") for p in df[c].dropna().unique()})
    ax.set_title(f"Final scores by seat ({', '.join(policies)})")
    firsts = {int(f) for f in df.first_player.unique()} if "first_player" in df else set()
    _seat_legend(ax, max(int(cast("np.integer[Any]", n)) for n in df.players.unique()), firsts)
    return ax


def wall_frequency(walls: np.ndarray) -> np.ndarray:
    """Share of walls with each cell filled, as a 5x5 array (row, column).

    >>> wall_frequency(np.array([0b1, 0b11]))[0, :3]
    array([1. , 0.5, 0. ])
    """
    walls = np.asarray(walls, dtype=np.uint32)
    freq: np.ndarray = ((walls[:, None] >> _WALL_BITS) & 1).mean(axis=0).reshape(5, 5)
    return freq


def _selected_walls(df: pd.DataFrame, seat: int | None, policy: str | None) -> np.ndarray:
    """Final walls of one seat, of every seat played by `policy`, or of every seat."""
    players = int(df["players"].max())
    seats = range(players) if seat is None else [seat]
    walls = []
    for s in seats:
        column = f"wall_{s}"
        if column not in df.columns:
            raise ValueError(f"seat {s} does not exist in these games (players: {sorted(df.players.unique())})")
        keep = df[column].notna()
        if policy is not None:
            keep &= df[f"policy_{s}"].astype(str) == policy
        walls.append(df.loc[keep, column].to_numpy())
    selected = np.concatenate(walls)
    if len(selected) == 0:
        raise ValueError(f"no walls match seat={seat!r}, policy={policy!r}")
    return selected


def plot_wall_heatmap(
    df: pd.DataFrame, seat: int | None = None, policy: str | None = None, ax: Axes | None = None
) -> Axes:
    """How often each wall cell is filled at the end of the game, on a fixed 0-100 % scale.

    Select the walls of one `seat`, of the seats played by `policy`, or (both None) of every
    seat. Each cell is labelled with the colour printed there (B, Y, R, K, W) and the percentage.

    >>> from azul_fast import simulate
    >>> plot_wall_heatmap(simulate(200, seed=2, workers=1), seat=0).get_title()
    'Wall cells filled: seat 0 (n=200)'
    """
    _require(df, {"players", "wall_0"}, "simulate")
    ax = _axes(ax)
    walls = _selected_walls(df, seat, policy)
    freq = wall_frequency(walls)
    image = ax.imshow(freq, vmin=0.0, vmax=1.0)  # fractions inside, percentages on every label
    cmap = image.get_cmap()
    for r in range(5):
        for c in range(5):
            red, green, blue, _ = cmap(freq[r, c])
            dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
            ax.text(c, r, f"{printed_color(r, c).letter}\n{freq[r, c]:.0%}", ha="center", va="center",
                    fontsize=9, color="white" if dark else "black")
    ax.set_xticks(range(5), [str(c + 1) for c in range(5)])
    ax.set_yticks(range(5), [str(r + 1) for r in range(5)])
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    ax.grid(False)
    bar = ax.figure.colorbar(image, ax=ax, label="games with the cell filled (%)", fraction=0.046, pad=0.04)
    bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{100 * value:.0f}"))
    who = "every seat" if seat is None else f"seat {seat}"
    ax.set_title(f"Wall cells filled: {who}" + (f", {policy}" if policy else "") + f" (n={len(walls):,})")
    return ax


def plot_opening_ranking(ranking: pd.DataFrame, ax: Axes | None = None, top: int = 20) -> Axes:
    """The `top` first moves of an opening ranking with their intervals: `openings.opening_rollouts`'
    whole-win rates or `openings.opening_analysis`' tie-split shares (the axis says which:
    `formatting.ranking_splits_ties`).

    The best move is dark, moves not significantly worse after the correction are mid-tone,
    significantly worse ones light.

    >>> from azul_fast.studies.openings import opening_rollouts
    >>> ax = plot_opening_ranking(opening_rollouts(seed=7, rollouts=4, policy="greedy"), top=10)
    >>> top = max(ax.get_yticklabels(), key=lambda label: label.get_position()[1])
    >>> len(ax.patches), top.get_text()                       # the best move is drawn at the top
    (10, '4Y2')
    """
    _require(ranking, {"move", "win_rate", "ci_low", "ci_high", "worse_than_best"}, "opening_rollouts")
    ax = _axes(ax)
    shown = ranking.sort_values("rank").head(top) if "rank" in ranking else ranking.head(top)
    colors = _palette()
    fill = [colors[0] if i == 0 else ("0.75" if worse else colors[5])
            for i, worse in enumerate(shown.worse_than_best)]
    y = np.arange(len(shown))[::-1]
    rate = 100 * shown.win_rate
    error = [rate - 100 * shown.ci_low, 100 * shown.ci_high - rate]
    ax.barh(y, rate, xerr=error, color=fill, ecolor="0.2", height=0.75)
    ax.set_yticks(y, shown.move)
    ax.axvline(rate.iloc[0], color="0.3", linewidth=0.8, linestyle="--")
    ax.set_xlabel("first player's win share, ties split (%)" if ranking_splits_ties(ranking)
                  else "win rate of the first player (%)")
    ax.grid(True, axis="x")
    ax.grid(False, axis="y")
    attrs = ranking.attrs
    if attrs:
        ax.set_title(f"Opening moves, deal {attrs.get('seed')} ({attrs.get('players')} players, "
                     f"{attrs.get('policy')}, {attrs.get('rollouts')} rollouts each)")
    handles: list[Artist] = [Rectangle((0, 0), 1, 1, color=c) for c in (colors[0], colors[5], "0.75")]
    _legend_below(ax, handles, ["best", "not significantly worse", "worse (corrected)"])
    return ax


def plot_opening_study(study: pd.DataFrame, feature: str = "tiles", ax: Axes | None = None) -> Axes:
    """First player's win share by one opening feature (`openings.opening_study`), per player count.

    Bars are the tie-split shares (a shared victory split between its winners) in percent with
    their t intervals; a dotted line across each bar marks the fair share 100/players.

    >>> from azul_fast import simulate
    >>> from azul_fast.studies.openings import opening_study
    >>> study = opening_study(simulate(500, policies="greedy", seed=1, workers=1))
    >>> ax = plot_opening_study(study, "line")
    >>> [label.get_text() for label in ax.get_xticklabels()]
    ['1', '2', '3']
    """
    _require(study, {"feature", "value", "win_share", "win_share_low", "win_share_high", "players"}, "opening_study")
    rows = study[study.feature == feature]
    if rows.empty:
        raise ValueError(f"feature {feature!r} is not in this study; it has {sorted(study.feature.unique())}")
    ax = _axes(ax)
    colors = _palette()
    groups = cast("list[tuple[tuple[int, str], pd.DataFrame]]", list(rows.groupby(["players", "policies"], sort=True)))
    values = sorted(rows.value.unique(), key=str)
    width = 0.8 / len(groups)
    for i, ((players, policies), group) in enumerate(groups):
        x = np.array([values.index(v) for v in group.value]) + (i - (len(groups) - 1) / 2) * width
        rate = 100 * group.win_share
        error = [rate - 100 * group.win_share_low, 100 * group.win_share_high - rate]
        ax.bar(x, rate, width=width * 0.95, yerr=error, ecolor="0.2",
               color=colors[i % len(colors)], label=f"{players} players: {short_lineup(policies)}")
        ax.hlines(np.full(len(x), 100 / players), x - width / 2, x + width / 2, colors="0.2", linestyles=":")
    names = {"tiles": "tiles taken", "line": "pattern line (F = floor)", "overflow": "tiles overflowed to the floor",
             "source": "source", "color": "colour"}
    ax.set_xticks(range(len(values)), values)
    ax.set_xlabel(names.get(feature, feature))
    ax.set_ylabel("first player's win share, ties split (%)")
    ax.set_title(f"First player's win share by opening: {names.get(feature, feature)}")
    handles, labels = ax.get_legend_handles_labels()
    _legend_below(ax, handles, labels)
    return ax


def plot_strength_frontier(ratings: pd.DataFrame, ax: Axes | None = None, title: str = "") -> Axes:
    """Strength for time: each policy's Elo (with its interval) against its milliseconds per game.

    `ratings` has ``policy, elo, ci_low, ci_high, ms_per_game`` (benchmarks/bench_strength.py writes
    it; `ladder.fit_ratings` gives the ratings). The time axis is logarithmic; each family of
    policies (the text before a colon) is one colour, its budgets joined by a line, and the
    frontier (the policies no faster policy beats) is drawn as a step line under them.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> table = pd.DataFrame({"policy": ["greedy", "mcts:50", "mcts"], "elo": [0.0, 500, 700],
    ...                       "ci_low": [0.0, 450, 640], "ci_high": [0.0, 550, 760], "ms_per_game": [0.03, 6, 120]})
    >>> ax = plot_strength_frontier(table)
    >>> ax.get_xscale(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('log', ['frontier', 'greedy', 'mcts'])
    """
    _require(ratings, {"policy", "elo", "ci_low", "ci_high", "ms_per_game"}, "bench_strength (ratings)")
    ax = _axes(ax, figsize=(8.0, 4.8))   # wide: a dozen labels share the top right corner
    table = ratings.sort_values("ms_per_game")
    families = table.policy.str.partition(":")[0]
    best = np.maximum.accumulate(table.elo.to_numpy(float))
    # Points on the frontier are labelled above-left, the others (and the fastest, against the
    # axis) below-right: the two families' neighbouring budgets then stay legible.
    on_frontier = dict(zip(table.policy, table.elo.to_numpy(float) >= best))
    on_frontier[table.policy.iloc[0]] = False
    colors = dict(zip(dict.fromkeys(families), _palette() * 3))
    for family, color in colors.items():
        rows = table[families == family]
        error = [rows.elo - rows.ci_low, rows.ci_high - rows.elo]
        ax.errorbar(rows.ms_per_game, rows.elo, yerr=error, color=color, marker="o", capsize=3, label=family,
                    linestyle="-" if len(rows) > 1 else "none")
    ax.step(table.ms_per_game, best, where="post", color="0.6", linewidth=0.8, zorder=0, label="frontier")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("milliseconds per 2-player game, one core (log scale)")
    ax.set_ylabel("Elo (greedy = 0), 95% interval")
    ax.set_title(title or "Strength for time: every built-in policy")
    ax.legend(loc="lower right")
    ax.margins(y=0.1)   # room above the strongest level for its label
    _label_points(ax, table, [on_frontier[p] for p in table.policy],
                 dict(zip(table.policy, families.map(colors))))
    return ax


#: Where a point's label may go (offset in points, alignment), in order of preference: above-left
#: first for a frontier point, below-right first for the others; then the other corners, then
#: straight above and below, then level with the point on either side; then the same corners
#: farther out (three budgets a few pixels apart leave no near spot free: the leader lines tell
#: whose label is whose).
_LABEL_SPOTS = [((-6, 8), "right"), ((6, -12), "left"), ((6, 8), "left"), ((-6, -12), "right"),
                ((0, 12), "center"), ((0, -16), "center"), ((-9, -4), "right"), ((9, -4), "left"),
                ((-18, 22), "right"), ((18, -26), "left"), ((18, 22), "left"), ((-18, -26), "right")]


def _label_points(ax: Axes, table: pd.DataFrame, above: list[bool], colors: dict[str, str]) -> None:
    """Name every point of the frontier chart, each label in the first of its spots (`_LABEL_SPOTS`)
    that keeps it inside the axes and clear of the other labels, of every other marker and error
    bar and of the legend (budgets of two families often lie a few pixels apart). Where two points
    lie that close a label can stand nearer the other one, so each is in its family's colour and
    tied to its own point by a thin leader line."""
    figure = cast(Figure, ax.figure)   # the chart's own figure, never a subfigure
    figure.draw_without_rendering()   # settles the limits and the legend, so display boxes are final
    to_display = ax.transData.transform
    markers = [Bbox.from_extents(*(to_display((x, lo)) - 4), *(to_display((x, hi)) + 4))
               for x, lo, hi in zip(table.ms_per_game, table.ci_low, table.ci_high)]
    legend = ax.get_legend()
    fixed = [legend.get_window_extent()] if legend is not None else []
    inside = ax.get_window_extent()

    def put(row: Any, spot: tuple[tuple[int, int], str], leader: bool = True) -> Annotation:
        line = {"arrowstyle": "-", "color": colors[row.policy], "linewidth": 0.6, "shrinkA": 0, "shrinkB": 3}
        # on a white ground, so that a line passing behind a label (the frontier's steps) never strikes it through
        ground = {"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.85}
        return ax.annotate(row.policy, (row.ms_per_game, row.elo), xytext=spot[0], textcoords="offset points",
                           ha=spot[1], fontsize="small", color=colors[row.policy], arrowprops=line if leader else None,
                           bbox=ground, zorder=4)

    def extent(row: Any, spot: tuple[tuple[int, int], str]) -> Bbox:
        trial = put(row, spot, leader=False)   # the text's own box: a leader crosses nothing but its gap
        box = trial.get_window_extent().padded(1.0)   # a pixel apart at least, not merely not touching
        trial.remove()
        return box

    def inside_axes(box: Bbox) -> bool:
        return bool(box.x0 >= inside.x0 and box.x1 <= inside.x1 and box.y0 >= inside.y0 and box.y1 <= inside.y1)

    rows = list(table.itertuples())
    spots = [_LABEL_SPOTS if above[i] else [_LABEL_SPOTS[1], _LABEL_SPOTS[0], *_LABEL_SPOTS[2:]]
             for i in range(len(rows))]
    boxes = [[extent(row, spot) for spot in spots[i]] for i, row in enumerate(rows)]
    chosen: list[int | None] = [None] * len(rows)

    def choose(i: int) -> int:
        """The first of point i's spots inside the axes clear of every label placed so far and of
        every other point; failing that, the one touching fewest of them (inside if it can)."""
        others = fixed + [boxes[j][k] for j, k in enumerate(chosen) if k is not None and j != i]
        others += markers[:i] + markers[i + 1:]
        return min(range(len(spots[i])), key=lambda k: (not inside_axes(boxes[i][k]),
                                                        sum(boxes[i][k].overlaps(other) for other in others), k))

    for _ in range(4):   # greedy in order of time (the first round), then second thoughts
        changed = False
        for i in range(len(rows)):
            k = choose(i)
            changed |= k != chosen[i]
            chosen[i] = k
        if not changed:
            break
    for i, row in enumerate(rows):
        put(row, spots[i][cast(int, chosen[i])])


def plot_first_player_by_strength(table: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """The first player's share of wins against the strength of the policy, one line per player count.

    `table` is `strength.first_player_by_strength` output. Shares are in percent (ties split
    between the winners); error bars are 95 % t intervals; the dotted line of each colour is that
    player count's fair share (100 / players). The levels stand evenly spaced in order of strength,
    each named under the axis with its Elo.

    >>> table = pd.DataFrame({"players": [2, 2, 3, 3], "policy": ["a", "b"] * 2, "elo": [0.0, 200.0] * 2,
    ...                       "first_player_share": [0.52, 0.5, 0.35, 0.33], "ci_low": [0.5, 0.48, 0.33, 0.31],
    ...                       "ci_high": [0.54, 0.52, 0.37, 0.35]})
    >>> ax = plot_first_player_by_strength(table)
    >>> [text.get_text() for text in ax.get_legend().get_texts()], [t.get_text() for t in ax.get_xticklabels()]
    (['2 players', '3 players'], ['a\\n+0', 'b\\n+200'])
    """
    _require(table, {"players", "policy", "elo", "first_player_share", "ci_low", "ci_high"},
             "first_player_by_strength")
    ax = _axes(ax)
    colors = _palette()
    # The levels evenly spaced in order of strength, named with their Elo under the axis: on an Elo
    # axis random (about -1,000) squeezes the search levels into a corner and their labels collide.
    levels = table.groupby("policy").elo.first().sort_values()
    position = {name: k for k, name in enumerate(levels.index)}
    counts = sorted(int(cast("np.integer[Any]", n)) for n in table.players.unique())
    for i, players in enumerate(counts):
        rows = table[table.players == players].sort_values("elo")
        color = colors[i % len(colors)]
        share = 100 * rows.first_player_share.to_numpy(float)
        error = [share - 100 * rows.ci_low.to_numpy(float), 100 * rows.ci_high.to_numpy(float) - share]
        dodge = 0.12 * (i - (len(counts) - 1) / 2)  # the counts side by side, so error bars do not overlap
        x = np.array([position[name] for name in rows.policy]) + dodge
        ax.errorbar(x, share, yerr=error, color=color, marker="o", capsize=3, label=f"{players} players")
        ax.axhline(100 / players, color=color, linestyle=":", linewidth=1)
    ax.set_xticks(range(len(levels)), [f"{name}\n{elo:+,.0f}" for name, elo in levels.items()])
    ax.set_xlim(-0.5, len(levels) - 0.5)
    ax.set_xlabel("policy in every seat, and its Elo (2-player ladder, greedy = 0)")
    ax.set_ylabel("first player's share of wins (%, ties split)")
    ax.set_title("First player's share by strength of play\n"
                 "(error bars: 95% intervals; dotted lines: fair share)", fontsize="medium")
    handles, labels = ax.get_legend_handles_labels()
    _legend_below(ax, handles, labels)
    return ax


def plot_opening_types(types: pd.DataFrame, ax: Axes | None = None, top: int = 15) -> Axes:
    """Opening types of `opening_types.opening_types` by their edge over the deal's average move.

    Bars are the mean edge in percentage points of win rate, error bars 95 % t intervals over
    deals; light bars are types significantly worse than the top one (corrected). A rare type (seen
    in fewer deals than the common ones, ``common`` False) is hatched and named with its deals: its
    edge rests on few deals, so a long bar of one is not the top type's rival.

    >>> from azul_fast.studies.opening_types import opening_types
    >>> ax = plot_opening_types(opening_types(deals=3, rollouts=2, seed=1)[0])
    >>> len(ax.patches) > 1
    True
    """
    _require(types, {"type", "edge", "edge_low", "edge_high", "worse_than_best"}, "opening_types")
    ax = _axes(ax)
    shown = types.head(top)
    colors = _palette()
    y = np.arange(len(shown))[::-1]
    edge = 100 * shown.edge.to_numpy(float)
    error = np.nan_to_num([edge - 100 * shown.edge_low.to_numpy(float), 100 * shown.edge_high.to_numpy(float) - edge])
    fill = [colors[0] if i == 0 else ("0.75" if worse else colors[5]) for i, worse in enumerate(shown.worse_than_best)]
    rare = ~shown["common"].to_numpy(bool) if "common" in shown else np.zeros(len(shown), bool)
    bars = ax.barh(y, edge, xerr=error, color=fill, ecolor="0.2", height=0.75)
    for bar, few in zip(bars, rare):
        if few:
            bar.set_hatch("///")
            bar.set_edgecolor("0.3")
    deals = shown["deals"] if "deals" in shown else pd.Series([None] * len(shown), index=shown.index)
    ax.set_yticks(y, [f"{name} (rare: {n} deals)" if few else name for name, few, n in zip(shown.type, rare, deals)])
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set_xlabel("win rate minus the deal's average first move (pp)")
    attrs = types.attrs
    # A chart that leaves types out says so: a reader would otherwise take the bars for all of them.
    shown_of = f"the best {len(shown)} of {len(types)} types; " if len(shown) < len(types) else ""
    # Three short lines: the type names take half the width, and a title wider than the axes
    # would widen the saved figure and shrink the chart on the page.
    if attrs:
        ax.set_title(f"Opening types over {attrs.get('deals')} deals\n({attrs.get('players')} players, "
                     f"{attrs.get('policy')}; {shown_of.rstrip('; ') or f'all {len(types)} types'})\n"
                     "error bars: 95% intervals over deals", fontsize="medium")
    elif shown_of:
        ax.set_title(f"Opening types ({shown_of.rstrip('; ')})", fontsize="medium")
    handles: list[Artist] = [Rectangle((0, 0), 1, 1, color=c) for c in (colors[0], colors[5], "0.75")]
    # "top", not "best": the page names a best kind only when every other is significantly worse
    labels = ["top type", "not significantly worse", "worse (corrected)"]
    if rare.any():
        handles.append(Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="0.3", hatch="///"))
        labels.append("rare: seen in few deals")
    _legend_below(ax, handles, labels, ncols=1)
    return ax
