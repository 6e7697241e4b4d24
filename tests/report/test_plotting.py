"""azul_fast.report.charts on small real simulations (Agg backend): what each chart draws."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from azul_fast import simulate  # noqa: E402
from azul_fast.core.rules.moves import COLOR_LETTERS  # noqa: E402
from azul_fast.report.charts import (  # noqa: E402
    azul_style,
    plot_first_player_by_strength,
    plot_opening_ranking,
    plot_opening_study,
    plot_opening_types,
    plot_score_distributions,
    plot_seat_advantage,
    plot_strength_frontier,
    plot_variant_difference,
    plot_wall_heatmap,
    save_figure,
    wall_frequency,
)
from azul_fast.studies.openings import opening_rollouts, opening_study
from azul_fast.studies.seats import seat_advantage, variant_difference


@pytest.fixture(scope="module")
def games():
    """2, 3 and 4 players concatenated (seat columns of absent seats are NaN)."""
    runs = [simulate(1_000, players=p, policies="greedy", seed=p, workers=1) for p in (2, 3, 4)]
    return pd.concat(runs, ignore_index=True)


@pytest.fixture(scope="module")
def ranking():
    return opening_rollouts(seed=7, rollouts=3, policy="greedy")


@pytest.fixture(autouse=True)
def no_show_and_close(monkeypatch):
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("a chart function called plt.show"))
    yield
    plt.close("all")


def bars(ax):
    return [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]


def test_seat_advantage_one_bar_per_seat_with_error_bars(games):
    table = seat_advantage(games)
    with azul_style():
        ax = plot_seat_advantage(table)
    heights = [b.get_height() for b in bars(ax)]
    assert len(heights) == 2 + 3 + 4
    # ties split, as in the report's headline (not counted as a win for each winner)
    assert heights == pytest.approx((100 * (table.win_share - table.fair_share)).tolist())
    segments = [seg for c in ax.collections for seg in c.get_segments()]  # the error bars
    drawn = np.array(sorted((s[0][1], s[1][1]) for s in segments))
    fair = 100 * table.fair_share
    assert np.allclose(drawn, sorted(zip(100 * table.share_low - fair, 100 * table.share_high - fair)))
    assert "ties split" in ax.get_ylabel()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2 players", "3 players", "4 players"]
    assert "greedy" in ax.get_title()


def test_chart_functions_draw_on_the_given_axes(games):
    fig, axes = plt.subplots(1, 2)
    assert plot_seat_advantage(seat_advantage(games), ax=axes[1]) is axes[1]
    assert not axes[0].patches and axes[1].patches


def test_score_distributions_one_box_per_seat(games):
    ax = plot_score_distributions(games)
    boxes = [p for p in ax.patches if isinstance(p, matplotlib.patches.PathPatch)]
    assert len(boxes) == 9
    medians = [line.get_ydata()[0] for line in ax.lines if line.get_color() == "black" and len(line.get_xdata()) == 2
               and line.get_xdata()[0] != line.get_xdata()[1]]
    two = games[games.players == 2]
    assert np.median(two.score_0) in medians and np.median(two.score_1) in medians
    legend = [t.get_text() for t in ax.get_legend().get_texts()]  # the box colours, in seat order
    assert legend == ["seat 0 (moves first)", "seat 1", "seat 2", "seat 3"]


def test_wall_heatmap_cells_labels_and_fixed_scale(games):
    two = games[games.players == 2]
    ax = plot_wall_heatmap(two, seat=1)
    image = ax.images[0]
    assert image.get_array().shape == (5, 5)
    assert image.get_clim() == (0.0, 1.0)
    freq = wall_frequency(two.wall_1.to_numpy())
    assert np.allclose(image.get_array(), freq)
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 25
    # Row 2 (index 1), column 1 holds white: colour c sits at column (r + c) % 5.
    assert texts[5] == f"{COLOR_LETTERS[(0 - 1) % 5]}\n{freq[1, 0]:.0%}" and texts[5].startswith("W")
    assert "seat 1" in ax.get_title()
    colorbar = ax.figure.axes[-1]
    ax.figure.canvas.draw()
    assert [t.get_text() for t in colorbar.get_yticklabels()][-1] == "100"  # percent, not a 0-1 fraction


def test_wall_heatmap_by_policy_pools_the_seats_it_played():
    df = simulate(300, players=2, policies=["greedy", "random"], seed=2, workers=1, seat_rotation=True)
    ax = plot_wall_heatmap(df, policy="random")
    walls = np.concatenate([df.wall_0[df.policy_0 == "random"], df.wall_1[df.policy_1 == "random"]])
    assert len(walls) == 600  # 300 deals x 2 rotations, random in one seat of each game
    assert np.allclose(ax.images[0].get_array(), wall_frequency(walls))
    assert "random" in ax.get_title()


def test_wall_frequency_counts_bits():
    freq = wall_frequency(np.array([1 << 24, (1 << 24) | 1]))
    assert freq[4, 4] == 1.0 and freq[0, 0] == 0.5 and freq.sum() == 1.5


def test_opening_ranking_top_bars(ranking):
    ax = plot_opening_ranking(ranking, top=10)
    assert len(bars(ax)) == 10
    assert [t.get_text() for t in ax.get_yticklabels()] == ranking.move.head(10).tolist()
    assert bars(ax)[0].get_width() == pytest.approx(100 * ranking.win_rate.iloc[0])  # percent, as in the tables


def test_opening_ranking_names_the_rule_its_bars_use(ranking):
    """A race (opening_analysis) splits ties, so its axis says share; opening_rollouts' bars are whole wins."""
    from azul_fast.studies.openings import opening_analysis

    assert "win rate" in plot_opening_ranking(ranking, top=5).get_xlabel()
    label = plot_opening_ranking(opening_analysis(seed=7, rollouts=4, policy="greedy"), top=5).get_xlabel()
    assert "share" in label and "rate" not in label


def test_opening_study_bars_per_value_and_player_count(games):
    study = opening_study(games, features=["tiles"])
    ax = plot_opening_study(study, "tiles")
    assert len(bars(ax)) == len(study)
    # the tie-split share, as the rest of the report counts a shared victory
    assert sorted(b.get_height() for b in bars(ax)) == pytest.approx(sorted(100 * study.win_share))
    assert "share" in ax.get_ylabel() and "rate" not in ax.get_ylabel()
    with pytest.raises(ValueError, match="not in this study"):
        plot_opening_study(study, "line")


def test_variant_difference_two_bars_per_player_count_with_the_paired_difference():
    colored = pd.concat([simulate(300, players=p, policies="greedy", seed=p, workers=1) for p in (2, 4)])
    gray = pd.concat([simulate(300, players=p, policies="greedy", seed=p, workers=1, variant="gray") for p in (2, 4)])
    table = variant_difference(colored, gray)
    ax = plot_variant_difference(table)
    heights = [bar.get_height() for bar in ax.patches]
    assert len(heights) == 4
    expected = [100 * table.colored_share[i] - 100 / table.players[i] for i in range(2)]
    assert heights[:2] == pytest.approx(expected)  # the colored bars, one per player count
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2 players", "4 players"]
    assert [t.get_text().split("\n")[0] for t in ax.texts] == [f"{d:+.1f} pp" for d in table.diff_pp]
    with pytest.raises(ValueError, match="variant_difference"):
        plot_variant_difference(seat_advantage(colored))


def test_style_and_save_figure(tmp_path, games):
    with azul_style():
        assert plt.rcParams["svg.fonttype"] == "none"
        assert plt.rcParams["axes.prop_cycle"].by_key()["color"][0].upper() == "#0072B2"
        ax = plot_seat_advantage(seat_advantage(games))
        written = save_figure(ax.figure, tmp_path / "charts" / "seats")
    assert [p.name for p in written] == ["seats.png", "seats.svg"]
    png = plt.imread(written[0])
    width_inches = ax.figure.get_size_inches()[0]
    assert png.shape[1] > 150 * width_inches  # 200 dpi (bbox tight trims a little)
    svg = written[1].read_text()
    assert "<text" in svg and "Seat advantage" in svg  # text kept as editable text


def test_empty_input_is_a_clear_error():
    with pytest.raises(ValueError, match="empty"):
        plot_seat_advantage(pd.DataFrame())
    with pytest.raises(ValueError, match="seat_advantage"):
        plot_seat_advantage(pd.DataFrame({"x": [1]}))


def strength_table():
    return pd.DataFrame({"players": [2, 2, 4, 4], "policy": ["greedy", "mcts", "greedy", "mcts"],
                         "elo": [0.0, 500.0, 0.0, 500.0], "first_player_share": [0.46, 0.52, 0.17, 0.27],
                         "ci_low": [0.45, 0.49, 0.16, 0.24], "ci_high": [0.47, 0.55, 0.18, 0.30]})


def test_first_player_by_strength_draws_shares_in_percent_with_intervals_and_fair_shares():
    ax = plot_first_player_by_strength(strength_table())
    lines = [line for line in ax.get_lines() if line.get_linestyle() == "-"]
    assert [list(line.get_ydata()) for line in lines[:2]] == [pytest.approx([46.0, 52.0]), pytest.approx([17.0, 27.0])]
    fair = sorted(line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == ":")
    assert fair == [25.0, 50.0]
    names = [t.get_text().split("\n")[0] for t in ax.get_xticklabels()]
    assert names == sorted(set(strength_table().policy), key=list(strength_table().policy).index)  # each once
    assert "fair share" in ax.get_title() and "95%" in ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["2 players", "4 players"]
    plt.close(ax.figure)


def visible_texts(fig):
    """Every non-empty text the figure draws (ticks, labels, title, legend, annotations); a tick
    label outside its axis's view is kept by matplotlib but not drawn."""
    hidden = set()
    for ax in fig.axes:
        for axis, index in ((ax.xaxis, 0), (ax.yaxis, 1)):
            low, high = sorted(axis.get_view_interval())
            hidden |= {id(label) for label in axis.get_ticklabels()
                       if not low - 1e-9 <= label.get_position()[index] <= high + 1e-9}
    return [t for t in fig.findobj(matplotlib.text.Text)
            if t.get_visible() and t.get_text().strip() and id(t) not in hidden]


#: Smallest font (points) a chart may use: the report shows charts at 72 CSS px per inch at least
#: (tests/report/test_browser.py), so this is also the smallest text in CSS px on a phone.
MIN_POINTS = 8


def test_first_player_by_strength_labels_neither_collide_nor_leave_the_figure():
    """The report's lead chart: seven levels from random (about -1,000 Elo) to learned, three player
    counts; no two texts overlap (tick labels, legend, axis labels, title), none leaves the figure,
    none is smaller than MIN_POINTS."""
    levels = ["random", "greedy", "heuristic", "mcts:50", "mcts:200", "fast", "learned", "mcts"]
    elo = [-1028.0, 0.0, 75.0, 700.0, 820.0, 840.0, 880.0, 900.0]
    table = pd.DataFrame([{"players": n, "policy": p, "elo": e, "first_player_share": 1 / n, "ci_low": 1 / n - 0.02,
                           "ci_high": 1 / n + 0.02} for n in (2, 3, 4) for p, e in zip(levels, elo)])
    with azul_style():
        fig, ax = plt.subplots()
        plot_first_player_by_strength(table, ax=ax)
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ticks = [label.get_window_extent(renderer) for label in ax.get_xticklabels()]
    assert len(ticks) == len(levels)
    texts = visible_texts(fig)
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    overlapping = [(a, b) for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1:] if box.overlaps(other)]
    assert overlapping == []
    whole = fig.bbox
    assert all(box.x0 >= whole.x0 and box.x1 <= whole.x1 and box.y0 >= whole.y0 and box.y1 <= whole.y1
               for _, box in boxes), "a label leaves the figure"
    assert min(t.get_fontsize() for t in texts) >= MIN_POINTS
    plt.close(fig)


def test_strength_frontier_labels_clear_each_other_the_points_and_the_edges():
    """bench_strength's run of 2026-12-01, where two families' budgets lie a few pixels apart
    (learned:20 beside fast, learned beside fast:100 and mcts:200): each policy's label touches no
    other label, no marker or error bar but its own, not the legend, and stays inside the axes."""
    ratings = pd.DataFrame({
        "policy": ["learned:1000", "learned:300", "fast:100", "learned", "mcts", "fast", "mcts:200", "learned:20",
                   "mcts:50", "heuristic", "greedy", "random"],
        "elo": [1188, 1050, 875, 871, 852, 747, 731, 590, 562, 88, 0, -1146],
        "ci_low": [1101, 965, 789, 787, 769, 662, 645, 508, 483, 48, 0, -1640],
        "ci_high": [1274, 1135, 960, 956, 934, 832, 816, 673, 641, 127, 0, -651],
        "ms_per_game": [34.9, 11.81, 2.87, 3.63, 36.55, 0.82, 8.96, 1.22, 2.61, 0.032, 0.019, 0.0074]})
    with azul_style():
        ax = plot_strength_frontier(ratings)
        fig = ax.figure
        fig.canvas.draw()
    labels = {t.get_text(): Text.get_window_extent(t) for t in ax.texts}   # the text, without its leader
    assert sorted(labels) == sorted(ratings.policy)
    names = list(labels)
    assert [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if labels[a].overlaps(labels[b])] == []
    points = {row.policy: ax.transData.transform([(row.ms_per_game, row.elo)])[0] for row in ratings.itertuples()}
    assert [(name, other) for name, box in labels.items() for other, (x, y) in points.items()
            if other != name and box.x0 - 3 <= x <= box.x1 + 3 and box.y0 - 3 <= y <= box.y1 + 3] == []
    assert not any(box.overlaps(ax.get_legend().get_window_extent()) for box in labels.values())
    inside = ax.get_window_extent()
    assert all(inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
               for box in labels.values())
    # A label that stands nearer another family's point still names its own: same colour, and a leader.
    def marker_color(xy):
        return next(line.get_color() for line in ax.lines
                    if line.get_marker() == "o" and any(np.allclose(xy, point) for point in line.get_xydata()))

    assert all(t.get_color() == marker_color(t.xy) for t in ax.texts)
    assert len({t.get_color() for t in ax.texts}) == 6   # one per family, so fast:100 is not learned's
    assert all(t.arrow_patch is not None for t in ax.texts)
    plt.close(fig)


def test_first_player_by_strength_needs_its_table():
    with pytest.raises(ValueError, match="first_player_by_strength"):
        plot_first_player_by_strength(strength_table().drop(columns="elo"))


def test_opening_types_chart_colours_marks_like_the_table():
    types = pd.DataFrame({"type": ["a", "b", "c"], "edge": [0.05, 0.0, -0.1], "edge_low": [0.01, -0.03, -0.15],
                          "edge_high": [0.09, 0.03, -0.05], "worse_than_best": [False, False, True]})
    ax = plot_opening_types(types)
    widths = [patch.get_width() for patch in ax.patches[:3]]
    assert widths == pytest.approx([5.0, 0.0, -10.0])  # percentage points
    assert ax.patches[2].get_facecolor()[:3] == pytest.approx((0.75, 0.75, 0.75))
    top = max(ax.get_yticklabels(), key=lambda label: label.get_position()[1])
    assert top.get_text() == "a"  # the best type is drawn at the top
    plt.close(ax.figure)


def test_seat_legend_reads_in_seat_order_on_one_row():
    df = simulate(200, players=4, policies="greedy", seed=3, workers=1)
    fig, ax = plt.subplots()
    plot_seat_advantage(seat_advantage(df), ax=ax)
    fig.canvas.draw()
    texts = ax.get_legend().get_texts()
    assert [t.get_text() for t in texts] == ["seat 0 (moves first)", "seat 1", "seat 2", "seat 3"]
    rows = {round(t.get_window_extent().y0) for t in texts}
    xs = [t.get_window_extent().x0 for t in texts]
    assert len(rows) == 1 and xs == sorted(xs)  # left to right on one row, not column by column
    plt.close(fig)


def test_opening_types_chart_says_when_it_leaves_types_out():
    types = pd.DataFrame({"type": list("abcd"), "edge": [0.05, 0.0, -0.1, -0.2], "edge_low": [0.0, -0.05, -0.15, -0.3],
                          "edge_high": [0.1, 0.05, -0.05, -0.1], "worse_than_best": [False, False, True, True]})
    assert "best 2 of 4 types" in plot_opening_types(types, top=2).get_title()
    assert "of 4 types" not in plot_opening_types(types).get_title()
    plt.close("all")


def test_the_report_charts_keep_every_label_inside_the_figure_and_readable(games, ranking):
    """What a phone shows: with the shipped style no text of a report chart leaves its figure (the
    saved file crops to the drawn area, so a label outside it would be cut) or falls below MIN_POINTS."""
    from azul_fast.studies.opening_types import opening_types

    four = games[games.players == 4]
    draws = [
        lambda ax: plot_seat_advantage(seat_advantage(games), ax=ax),
        lambda ax: plot_score_distributions(games, ax=ax),
        lambda ax: plot_wall_heatmap(four, seat=3, ax=ax),
        lambda ax: plot_opening_ranking(ranking, ax=ax),
        lambda ax: plot_opening_study(opening_study(games, features=["tiles"]), "tiles", ax=ax),
        lambda ax: plot_opening_types(opening_types(deals=3, rollouts=2, seed=1)[0], ax=ax),
    ]
    for draw in draws:
        with azul_style():
            fig, ax = plt.subplots()
            draw(ax)
            fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        texts = visible_texts(fig)
        outside = [t.get_text() for t in texts if not fig.bbox.contains(*t.get_window_extent(renderer).min)
                   or not fig.bbox.contains(*t.get_window_extent(renderer).max)]
        assert outside == [], (ax.get_title(), outside)
        assert min(t.get_fontsize() for t in texts) >= MIN_POINTS, ax.get_title()
        plt.close(fig)

