"""Move-level studies and their charts: tables consistent with the records they summarise."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azul_fast import simulate_moves  # noqa: E402
from azul_fast.report import move_charts
from azul_fast.report.move_section import move_charts as move_charts_of
from azul_fast.report.move_section import move_sections, move_summary, play_move_studies
from azul_fast.studies import in_game


@pytest.fixture(scope="module")
def records():
    return simulate_moves(400, 2, "greedy", seed=21, workers=1)


def test_marker_takers_one_per_round_with_its_outcome(records):
    takers = in_game.marker_takers(records)
    moves = records.moves
    assert len(takers) == int(moves.took_marker.sum())
    assert not takers.duplicated(["game", "round"]).any()
    assert set(takers.cost) <= {0, 1, 2, 3}  # one more floor slot costs at most 3 points
    games = records.games.set_index("game")
    for row in takers.sample(30, random_state=0).itertuples():
        game = games.loc[row.game]
        scores = [game.score_0, game.score_1]
        assert row.margin == scores[row.seat] - scores[1 - row.seat]
        winners = game.win_0 + game.win_1
        assert row.share == (game[f"win_{row.seat}"] / winners)


def test_marker_value_groups_every_taker(records):
    takers = in_game.marker_takers(records)
    for by in ("round", "cost"):
        table = in_game.marker_value(records, by=by)
        assert table.n.sum() == len(takers)
        assert (table.share_low <= table.win_share).all() and (table.win_share <= table.share_high).all()
        first = table.iloc[0]
        assert first.win_share == pytest.approx(takers[takers[by] == first[by]].share.mean())
    with pytest.raises(ValueError, match="by must be"):
        in_game.marker_value(records, by="seat")


def test_end_bonuses_count_winners_and_losers(records):
    table = in_game.end_bonuses(records.games).set_index(["bonus", "group"])
    games = records.games
    assert table.n.groupby("bonus").sum().eq(2 * len(games)).all()
    winners_cols = np.concatenate([games.cols_0[games.win_0], games.cols_1[games.win_1]])
    assert table.loc[("cols", "winners"), "mean_count"] == pytest.approx(winners_cols.mean())
    assert table.loc[("cols", "winners"), "mean_points"] == pytest.approx(7 * winners_cols.mean())


def test_score_curve_and_floors_summarise_the_round_table(records):
    curve = in_game.score_curve(records)
    assert ((curve.q1 <= curve["median"]) & (curve["median"] <= curve.q3)).all()
    assert ((curve.median_low <= curve["median"]) & (curve["median"] <= curve.median_high)).all()
    assert (curve.n >= 100).all()
    floors = in_game.floor_by_round(records)
    rounds = records.rounds
    first = rounds[(rounds["round"] == 1) & (rounds.seat == 0)]
    row = floors[(floors["round"] == 1) & (floors.seat == 0)].iloc[0]
    assert row.mean_penalty == pytest.approx(first.floor_penalty.mean())
    assert row.n == len(first)


def test_marker_rollouts_compare_a_centre_and_a_factory_take():
    comparisons = in_game.marker_rollouts(2, 2, "greedy", rollouts=3, seed=5, max_round=2)
    assert len(comparisons) >= 2
    assert comparisons.center_move.str.startswith("C").all()
    assert not comparisons.factory_move.str.startswith("C").any()
    assert comparisons.share_diff.between(-1, 1).all()
    again = in_game.marker_rollouts(2, 2, "greedy", rollouts=3, seed=5, max_round=2)
    pd.testing.assert_frame_equal(comparisons, again)
    summary = in_game.marker_rollout_summary(comparisons)
    assert summary.n.sum() == len(comparisons)
    assert set(comparisons.policy) == set(comparisons.candidates) == {"greedy"}
    with pytest.raises(ValueError, match="one-move policy"):
        in_game.marker_rollouts(1, policy="greedy", candidates="mcts:10")


def test_marker_rollouts_finish_with_a_search_on_one_move_candidates():
    """A search plays the games and the rollouts; the candidates are the heuristic's (a search asked
    about a table with the other sources hidden would plan on a game that is not this one)."""
    comparisons = in_game.marker_rollouts(1, 2, "fast:5", rollouts=2, seed=5, max_round=2)
    assert len(comparisons) >= 1
    assert set(comparisons.policy) == {"fast:5"} and set(comparisons.candidates) == {"heuristic"}
    assert comparisons.center_move.str.startswith("C").all()
    assert not comparisons.factory_move.str.startswith("C").any()


def test_every_study_has_a_chart(records):
    charts = [
        (move_charts.plot_marker_value, in_game.marker_value(records, by="cost")),
        (move_charts.plot_end_bonuses, in_game.end_bonuses(records.games)),
        (move_charts.plot_score_curve, in_game.score_curve(records)),
        (move_charts.plot_floor_by_round, in_game.floor_by_round(records)),
        (move_charts.plot_marker_rollouts, pd.DataFrame({"round": [1, 2], "share_diff": [0.1, -0.1],
                                                        "share_low": [0.0, -0.2], "share_high": [0.2, 0.0]})),
    ]
    for plot, table in charts:
        ax = plot(table)
        assert ax.get_ylabel()
        plt.close(ax.figure)
    with pytest.raises(ValueError, match="table from azul_fast.studies.in_game.score_curve"):
        move_charts.plot_score_curve(pd.DataFrame({"round": [1]}))


def test_marker_rollouts_with_no_position_summarise_to_no_rounds():
    """Zero positions (no game, or none that qualified) give empty tables with their columns, not a crash."""
    comparisons = in_game.marker_rollouts(0, 2, "greedy", rollouts=2, seed=5)
    full = in_game.marker_rollouts(1, 2, "greedy", rollouts=2, seed=5, max_round=1)
    assert comparisons.empty and comparisons.columns.tolist() == full.columns.tolist()
    summary = in_game.marker_rollout_summary(comparisons)
    assert summary.empty
    assert summary.columns.tolist() == in_game.marker_rollout_summary(full).columns.tolist()
    with pytest.raises(ValueError, match=r"missing columns \['margin_diff'\]"):
        in_game.marker_rollout_summary(pd.DataFrame({"round": [1], "share_diff": [0.1]}))


def test_the_report_says_when_no_position_qualified_for_the_marker_rollouts():
    study = play_move_studies("greedy", 2, seed=3, games=60, marker_games=0, rollouts=2, workers=1)
    assert study.tables["marker_rollouts"].empty  # written as a CSV with its header, no rows
    sections = move_sections(study, str)
    title, text, table, charts = sections[0]
    assert "No position qualified for the paired rollouts" in text and "marker_rollouts.csv has no rows" in text
    assert "marker_rollouts" not in charts and not any(name == "marker_rollouts" for name, _, _ in
                                                       move_charts_of(study))
    assert not any(column.startswith("same position") for column in table.columns)
    assert "on the same deal" not in move_summary(study, str)
