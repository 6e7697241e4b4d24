"""The report's words: a claim ("the best kind of opening") is made only when the data separate it,
the headline answers the first-player question before anything else, and the bullets stay short."""

import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from azul_fast.report import prose
from azul_fast.report.formatting import seat_display
from azul_fast.report.prose import _opening_summary, summary_lines
from azul_fast.studies.published import published_answer
from azul_fast.studies.seats import seat_advantage

LADDER = pd.DataFrame({"rank": [1, 2], "policy": ["learned", "heuristic"], "rating": [880.0, 75.0],
                       "ci_low": [790.0, 40.0], "ci_high": [970.0, 110.0]})
LADDER.attrs["anchor"] = "greedy"


def run_with(worse):
    types = pd.DataFrame({"type": ["a", "b", "c"], "edge": [0.05, 0.0, -0.05], "edge_low": [0.01, -0.02, -0.09],
                          "edge_high": [0.09, 0.02, -0.01], "p_vs_best": [float("nan"), 0.01, 0.001],
                          "worse_than_best": [False, *worse]})
    types.attrs["deals"] = 40
    config = SimpleNamespace(players=(2,), policy="heuristic", rollouts=8, setting="default", main_variant="colored")
    return SimpleNamespace(config=config, types=types, ladder=LADDER)


def test_a_best_opening_is_named_only_when_every_other_type_is_significantly_worse():
    assert 'The best kind of opening is "a"' in _opening_summary(run_with([True, True]))
    unseparated = _opening_summary(run_with([False, True]))
    assert "do not separate" in unseparated and "best kind" not in unseparated
    assert "heuristic (+75 Elo)" in unseparated


def strength_rows(players, shares, games=(1_000, 20_000)):
    """Two levels of a strength table at `players` players: heuristic, then learned (the strongest)."""
    shares = np.array(shares)
    se = np.sqrt(shares * (1 - shares) / np.array(games))
    return pd.DataFrame({"players": players, "policy": ["heuristic", "learned"], "elo": [75.0, 880.0],
                         "games": games, "first_player_share": shares, "ci_low": shares - 1.96 * se,
                         "ci_high": shares + 1.96 * se, "se": se, "mean_score": [45.0, 30.2]})


def seat_rows(players, first_share):
    share = np.full(players, (1 - first_share) / (players - 1))
    share[0] = first_share
    return pd.DataFrame({"players": players, "seat": range(players), "first_player": 0, "games": 100_000,
                         "win_share": share, "share_low": share - 0.003, "share_high": share + 0.003,
                         "fair_share": 1 / players})


def report_run(setting="default"):
    run = run_with([False, True])
    run.config = SimpleNamespace(players=(2, 3), policy="heuristic", rollouts=8, setting=setting,
                                 main_variant="colored")
    run.strength = pd.concat([strength_rows(2, [0.56, 0.515]), strength_rows(3, [0.40, 0.35])], ignore_index=True)
    run.seats = pd.concat([seat_rows(2, 0.56), seat_rows(3, 0.40)], ignore_index=True)
    run.moves = None
    return run


def test_the_headline_is_the_published_answer_under_the_strongest_published_level():
    """The main job answers as the project does: the strongest level of the shipped converged table, its
    Elo on the project's ladder and its games, whatever this run's own levels found."""
    lines = summary_lines(report_run())
    for players in (2, 3):
        top = published_answer(players).strongest
        line = next(line for line in lines if line.startswith(f"**{players} players: "))
        assert f"{100 * top.share:.1f}% [{100 * top.low:.1f}, {100 * top.high:.1f}]" in line
        assert f"{top.policy}, {top.elo:+.0f} Elo on the project's ladder, {top.games:,} games" in line
    assert lines[0].startswith("**2 players: the first player has an advantage of ")
    assert not any("nconclusive" in line for line in lines)


def test_the_summary_says_whether_stronger_play_moves_the_published_answer():
    line = next(line for line in summary_lines(report_run()) if line.startswith("**Does stronger play move it?**"))
    top = published_answer(2)
    assert f"2 players, {top.strongest.policy} against {top.runner_up.policy}: {top.strongest.verdict}" in line
    assert "fast" not in line   # levels of one family


def test_this_runs_figure_is_set_beside_the_published_row_of_its_policy_with_a_verdict():
    run = report_run()
    run.config.policy = "learned"
    run.ladder = LADDER
    row = published_answer(2).levels["learned"]
    run.seats = pd.concat([seat_rows(2, row.share + 0.10), seat_rows(3, 0.40)], ignore_index=True)
    line = next(line for line in summary_lines(run) if line.startswith("**This run's learned"))
    assert f"at 2 players against {100 * row.share:.1f}% (differ)" in line
    run.seats = pd.concat([seat_rows(2, row.share), seat_rows(3, 1 / 3)], ignore_index=True)
    line = next(line for line in summary_lines(run) if line.startswith("**This run's learned"))
    assert "at 2 players against" in line and "(differ)" not in line


def test_without_a_published_answer_this_runs_strongest_levels_answer(monkeypatch):
    monkeypatch.setattr(prose, "published_answer", lambda players, variant: None)
    lines = summary_lines(report_run())
    assert lines[0].startswith("**2 players: the first player has an advantage of +1.5 points**")
    assert "51.5% [50.8, 52.2] of wins against a fair 50.0% (ties split; learned, +880 Elo, 20,000 games" in lines[0]
    assert "mean score 30.2 a seat" in lines[0]
    assert lines[1].startswith("**3 players: the first player has an advantage of +1.7 points**")
    # then whether the strongest levels agree: here they do not (learned 51.5 %, heuristic 56 %)
    assert lines[2].startswith("**Do this run's two strongest levels agree?** learned against heuristic: "
                               "2 players disagree")


def test_summary_bullets_are_short_and_never_repeat_a_bold_label():
    for setting in ("default", "quick"):
        lines = summary_lines(report_run(setting))
        labels = [re.match(r"\*\*(.+?)\*\*", line).group(1) for line in lines]
        assert len(set(labels)) == len(labels), labels
        words = [len(re.sub(r"\[[^]]*\]", "", line).split()) for line in lines]  # an interval reads as one number
        assert max(words) <= 40, list(zip(words, lines))
    assert lines[0].startswith("**A quick report: its numbers are too small to quote.**")


def test_seat_study_bullet_splits_ties_like_its_chart_and_names_its_bot():
    run = report_run()
    line = next(line for line in summary_lines(run) if line.startswith("**Seat study"))
    assert "heuristic (+75 Elo) in every seat** (ties split" in line
    assert "56.0% [55.7, 56.3] at 2 players (fair 50.0%, " in line and " games)" in line  # each count its games
    line = next(line for line in summary_lines(run) if line.startswith("**Seat study"))
    assert "ties split; a weaker bot than the headline's)" in line   # heuristic beside learned:900
    assert "this run's ladder" in summary_lines(report_run())[-1]


def test_the_strength_table_shows_how_each_level_scores():
    """learned's games score about 30 points a seat, greedy's about 50: the table says so beside the shares."""
    from azul_fast.report.formatting import strength_display

    table = strength_rows(2, [0.56, 0.515]).assign(elo_low=0.0, elo_high=0.0, fair_share=0.5)
    assert strength_display(table)["mean score"].tolist() == ["45.0", "30.2"]


def test_the_seat_table_splits_ties_like_its_chart_and_the_summary():
    """One rule on the page: a shared victory is split between its winners, never a win for each."""
    games = pd.DataFrame({"players": 2, "first_player": 0, "policy_0": "greedy", "policy_1": "greedy",
                          "win_0": [True, True, False, True], "win_1": [False, True, True, False],
                          "score_0": [30, 20, 10, 25], "score_1": [12, 20, 15, 5]})
    table = seat_advantage(games)
    shown = seat_display(table)
    assert not [c for c in shown.columns if "rate" in c or c == "wins"], shown.columns
    # seat 0 won 1 + 1/2 + 0 + 1 of the 4 games, seat 1 the rest; the second game was shared
    assert shown["win share"].tolist() == ["62.5%", "37.5%"] and shown.ties.tolist() == ["1", "1"]
    for row, text in zip(table.itertuples(), shown["vs fair share (pp)"]):
        low, high = (100 * (bound - row.fair_share) for bound in (row.share_low, row.share_high))
        assert text == f"{100 * (row.win_share - row.fair_share):+.1f} [{low:+.1f}, {high:+.1f}]"
    assert shown["95% CI"].tolist() == [f"[{100 * a:.1f}, {100 * b:.1f}]" for a, b in zip(table.share_low,
                                                                                         table.share_high)]


def test_the_openings_played_table_splits_ties_like_the_rest_of_the_page():
    """The first player's wins by opening feature are tie-split shares, with their t intervals and the
    share's independence test, under names that say so; the whole-win columns stay in the CSV only."""
    from azul_fast import simulate
    from azul_fast.report.formatting import opening_display
    from azul_fast.studies.openings import opening_study

    study = opening_study(simulate(300, players=2, policies="greedy", seed=4, workers=1), features=["line"])
    assert (study.win_share < study.win_rate).any()  # the premise: a shared victory changes a row
    shown = opening_display(study)
    assert not [c for c in shown.columns if "rate" in c or "wins" in c], shown.columns
    assert shown["first player's win share"].tolist() == [f"{100 * s:.1f}%" for s in study.win_share]
    assert shown["95% CI"].tolist() == [
        "" if pd.isna(a) else f"[{100 * a:.1f}, {100 * b:.1f}]" for a, b in zip(study.win_share_low,
                                                                               study.win_share_high)]
    assert shown["independence: p"].tolist() == [f"{p:.3g}" for p in study.win_share_pvalue]
    assert "share of games" in shown.columns and "share" not in shown.columns  # not read as a win share


def test_the_wall_comparison_splits_ties_like_the_rest_of_the_page():
    """The variant table shows the first player's tie-split share with its t interval, never a whole-win rate."""
    from azul_fast import simulate
    from azul_fast.report.formatting import variants_display
    from azul_fast.studies.seats import variant_comparison

    runs = [simulate(300, players=2, policies="greedy", seed=2, workers=1, variant=v) for v in ("colored", "gray")]
    table = variant_comparison(runs)
    shown = variants_display(table)
    assert not [c for c in shown.columns if "rate" in c or "wins" in c], shown.columns
    assert shown["first player's win share"].tolist() == [
        f"{100 * s:.1f}% [{100 * a:.1f}, {100 * b:.1f}]" for s, a, b in zip(table.first_player_share,
                                                                         table.share_low, table.share_high)]


def test_the_drill_down_names_its_tie_split_columns_as_shares():
    """The report's drill-down (opening_analysis) splits ties: its columns say so; opening_rollouts (the
    `openings` command) counts a shared first place as a win and keeps the whole-win names."""
    from azul_fast.report.formatting import ranking_display
    from azul_fast.studies.openings import opening_analysis, opening_rollouts

    raced = opening_analysis(seed=7, rollouts=4, policy="greedy")
    shown = ranking_display(raced)
    assert not [c for c in shown.columns if "rate" in c or c == "wins"], shown.columns
    assert shown["win share"].tolist() == [f"{100 * s:.1f}%" for s in raced.win_rate.head(len(shown))]
    assert shown["tie-split wins"].iloc[0] == f"{raced.wins.iloc[0].round(1):g}/{raced.rollouts.iloc[0]}"
    whole = ranking_display(opening_rollouts(seed=7, rollouts=4, policy="greedy"))
    assert {"wins", "win rate"} <= set(whole.columns) and "win share" not in whole.columns
    with pytest.raises(ValueError, match="not an opening ranking"):
        ranking_display(raced.drop(columns="win_rate"))


def test_a_gain_and_a_loss_print_their_intervals_alike():
    """`seats` printed "+4.2 [4.1, 4.3]" for the seat ahead but "-4.2 [-4.3, -4.1]" for the one behind: every
    difference and its bounds carry their sign, in every table that prints one."""
    from azul_fast.report.formatting import signed_text

    games = pd.DataFrame({"players": 2, "first_player": 0, "policy_0": "greedy", "policy_1": "greedy",
                          "win_0": [True] * 30 + [False] * 10, "win_1": [False] * 30 + [True] * 10,
                          "score_0": 40, "score_1": 30})
    ahead, behind = seat_display(seat_advantage(games))["vs fair share (pp)"]
    assert re.fullmatch(r"\+\d+\.\d \[\+\d+\.\d, \+\d+\.\d\]", ahead), ahead
    assert re.fullmatch(r"-\d+\.\d \[-\d+\.\d, -\d+\.\d\]", behind), behind
    assert signed_text(0.0, -0.5, 0.5) == "+0.0 [-0.5, +0.5]" and signed_text(float("nan"), 1, 2) == ""
