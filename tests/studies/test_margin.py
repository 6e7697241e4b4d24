"""Where the first player's margin is made: the parts add up to every game's margin, the marker's taker
is read from the moves, and only 2-player games are split."""

import numpy as np
import pytest

from azul_fast import simulate_moves
from azul_fast.studies.in_game import marker_takers
from azul_fast.studies.margin import MARGIN_COLUMNS, margin_by_round


@pytest.fixture(scope="module")
def records():
    return simulate_moves(300, players=2, policies="heuristic", seed=11, workers=1, first_player=1)


def test_the_parts_add_up_to_the_first_players_final_margin(records):
    table = margin_by_round(records)
    assert table.columns.tolist() == MARGIN_COLUMNS
    final = table.iloc[-1]
    games = records.games
    first = games.first_player.to_numpy()
    scores = games[["score_0", "score_1"]].to_numpy()
    margin = scores[np.arange(len(games)), first] - scores[np.arange(len(games)), 1 - first]
    assert final.part == "final margin" and final.margin == pytest.approx(margin.mean())
    assert table.margin.iloc[:-1].sum() == pytest.approx(final.margin)
    assert (table.first_points.iloc[:-1] - table.second_points.iloc[:-1]).sum() == pytest.approx(final.margin)


def test_the_second_players_marker_share_counts_the_rounds_it_took_the_marker(records):
    table = margin_by_round(records).set_index("part")
    takers = marker_takers(records)
    second = takers[(takers["round"] == 1) & (takers.seat == 0)]   # seat 0 moves second here
    assert table.loc["round 1", "second_takes_marker"] == pytest.approx(len(second) / (takers["round"] == 1).sum())
    assert 0 <= table.loc["round 1", "marker_low"] <= table.loc["round 1", "marker_high"] <= 1


def test_three_player_games_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="2-player games"):
        margin_by_round(simulate_moves(5, players=3, policies="greedy", seed=1, workers=1))
