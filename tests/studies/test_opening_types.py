"""Which kind of opening is best: every first move of many deals, grouped by type and compared paired."""

import numpy as np
import pandas as pd
import pytest

from azul_fast import State
from azul_fast.runs import rollouts as native
from azul_fast.runs.rollouts import RolloutResult
from azul_fast.studies import opening_types as opening_types_module
from azul_fast.studies.opening_types import (
    FIRST_DEALS,
    MIN_TYPE_DEALS,
    deal_opening_moves,
    opening_type_table,
    opening_types,
)
from azul_fast.studies.openings import opening_rollouts


@pytest.fixture(scope="module")
def study():
    return opening_types(deals=4, rollouts=3, seed=2)


def test_every_move_of_every_deal_is_in_the_drill_down(study):
    types, moves = study
    assert moves.deal.nunique() == 4
    for deal, rows in moves.groupby("deal"):
        assert len(rows) == len(State.new(2, seed=int(deal)).legal_moves)
        assert rows["rank"].tolist() == list(range(1, len(rows) + 1))
    assert types.moves.sum() == len(moves)


def test_a_deal_of_the_drill_down_is_its_opening_rollouts(study):
    _, moves = study
    deal = int(moves.deal.iloc[0])
    alone = opening_rollouts(deal, rollouts=3, policy="greedy")
    mine = moves[moves.deal == deal].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine[alone.columns], alone, check_dtype=False)


def test_constant_features_are_dropped_and_named(study):
    types, _ = study
    assert types.attrs["dropped"] == ["marker"]  # no first move can take from the centre
    assert types.attrs["features"] == ["tiles", "line", "to_floor"]
    assert not types.duplicated(subset=types.attrs["features"]).any()


def test_ranks_follow_the_edge_and_marks_only_below_the_top(study):
    types, _ = study
    assert types["rank"].tolist() == list(range(1, len(types) + 1))
    assert types.common.is_monotonic_decreasing and types.common.iloc[0]  # common types first
    for _, group in types.groupby("common"):
        assert (np.diff(group.edge.to_numpy()) <= 0).all()  # by edge within each group
    assert (types.common == (types.deals >= 2)).all()  # half of the 4 deals
    top = types.iloc[0]
    assert np.isnan(top.p_vs_best) and not top.worse_than_best
    rare = types.common_deals < MIN_TYPE_DEALS
    assert types[rare].p_vs_best.isna().all() and not types[rare].worse_than_best.any()
    tested = types.p_adjusted.notna()
    assert ((types.p_adjusted[tested] < 0.05) == types.worse_than_best[tested]).all()


def test_edges_are_recomputed_from_the_moves(study):
    types, moves = study
    features = types.attrs["features"]
    top = types.iloc[0]
    edges = []
    for _, rows in moves.groupby("deal"):
        mine = (rows[features].astype(str) == pd.Series({f: str(top[f]) for f in features})).all(axis=1)
        if mine.any():
            edges.append(rows.win_share[mine].mean() - rows.win_share.mean())
    assert top.deals == len(edges) and top.edge == pytest.approx(np.mean(edges))
    known = types.edge_low.notna()
    assert (types.edge_low[known] <= types.edge[known]).all() and (types.edge[known] <= types.edge_high[known]).all()


def test_explicit_deals_and_bad_arguments():
    types, moves = opening_types(deals=[11, 12], rollouts=2)
    assert sorted(moves.deal.unique()) == [11, 12] and types.attrs["deals"] == 2
    with pytest.raises(ValueError, match="deals must be >= 2, got 1"):
        opening_types(deals=1)
    with pytest.raises(ValueError, match="two different game seeds"):
        opening_types(deals=[3, 3])
    with pytest.raises(ValueError, match="correction"):
        opening_types(deals=2, correction="bonferroni")


def test_adaptive_types_stop_on_the_budget_or_once_separated():
    """The deals are a budget: stages of FIRST_DEALS doubling; an early stop is the same table as
    asking for that many deals, and "separated" means every tested type is worse than the top one."""
    seeds = [101, 102, 103, 104, 105, 106]
    types, moves = opening_types(seeds, rollouts=2, adaptive=True)
    played = types.attrs["deals"]
    assert played in (FIRST_DEALS, len(seeds)) and moves.deal.nunique() == played
    assert types.attrs["stopped"] in ("separated", "budget") and types.attrs["max_deals"] == len(seeds)
    tested = types.p_vs_best.notna()
    assert (types.attrs["stopped"] == "separated") == bool(tested.any() and types.worse_than_best[tested].all())
    fixed, _ = opening_types(seeds[:played], rollouts=2)
    pd.testing.assert_frame_equal(types.drop(columns="stopped"), fixed.drop(columns="stopped"))
    assert set(fixed.stopped) == {fixed.attrs["stopped"]} == {"all deals"} and set(types.policy) == {"greedy"}
    assert set(types.stopped) == {types.attrs["stopped"]}


def test_adaptive_types_stop_early_when_separated(monkeypatch):
    """With a ranking that separates the top type at once, only the first stage is played."""
    real = opening_types_module._rank_types

    def separated(*args, **kwargs):
        table = real(*args, **kwargs)
        return table.assign(p_vs_best=[np.nan] + [0.0] * (len(table) - 1),
                            worse_than_best=[False] + [True] * (len(table) - 1))

    monkeypatch.setattr(opening_types_module, "_rank_types", separated)
    types, moves = opening_types(list(range(1, 10)), rollouts=2, adaptive=True)
    assert types.attrs["stopped"] == "separated" and types.attrs["deals"] == FIRST_DEALS == moves.deal.nunique()
    # 9 deals are played in stages of 4, 8 and 9: alpha is spent over those three looks
    assert types.attrs["level"] == pytest.approx(0.05 / 3)


def test_adaptive_must_be_a_flag():
    with pytest.raises(TypeError, match="adaptive"):
        opening_types(deals=2, rollouts=2, adaptive="yes")


def test_a_tied_first_place_counts_a_fraction_of_a_win_as_in_the_drill_down(monkeypatch):
    """One rule for ties: a k-way tie is 1/k of a win for the type edges, as for the headline."""
    def first_move_always_ties(state, moves, policy, seeds, workers=1, *, client=None):
        winners = np.full((len(moves), len(seeds)), 0b01, dtype=np.uint8)  # the mover, seat 0, alone
        winners[0] = 0b11  # the first legal move: every continuation a two-way tie with seat 1
        return RolloutResult(tuple(moves), 0, np.zeros((len(moves), len(seeds), 2), np.int16), winners)

    monkeypatch.setattr(native, "rollouts", first_move_always_ties)
    types, moves = opening_types(deals=[11, 12], rollouts=4)
    first = moves.groupby("deal").move.transform(lambda m: m == str(State.new(2, seed=int(m.name)).legal_moves[0]))
    assert (moves.win_rate == 1).all()  # counted as wins, every move is alike (and McNemar pairs whole wins)
    assert (moves.win_share[first] == 0.5).all() and (moves.win_share[~first] == 1).all()
    features = types.attrs["features"]
    for _, row in types.iterrows():
        mine = (moves[features].astype(str) == pd.Series({f: str(row[f]) for f in features})).all(axis=1)
        edges = [m.win_share[mine[m.index]].mean() - m.win_share.mean()
                 for _, m in moves.groupby("deal") if mine[m.index].any()]
        assert row.edge == pytest.approx(np.mean(edges))
        assert row.win_share == pytest.approx(moves.win_share[mine].groupby(moves.deal[mine]).mean().mean())
    assert types.edge.min() < 0 < types.edge.max()  # the tied move's type gives up half a win


def test_a_study_played_a_deal_at_a_time_ranks_as_the_whole(study, tmp_path):
    """deal_opening_moves + opening_type_table give opening_types' table, also through a CSV file."""
    types, moves = study
    deals = [deal_opening_moves(int(d), rollouts=3) for d in moves.deal.unique()]
    played = pd.concat(deals, ignore_index=True)
    pd.testing.assert_frame_equal(played.drop(columns="policy"), moves.drop(columns="policy"), check_dtype=False)
    ranked = opening_type_table(played)
    expected = types.drop(columns=["policy", "stopped"])
    pd.testing.assert_frame_equal(ranked, expected)
    assert (ranked.attrs["features"], ranked.attrs["dropped"], ranked.attrs["deals"]) == (
        types.attrs["features"], types.attrs["dropped"], 4)
    played.to_csv(tmp_path / "moves.csv", index=False)
    back = pd.read_csv(tmp_path / "moves.csv", dtype={"deal": "uint64"})
    pd.testing.assert_frame_equal(opening_type_table(back), expected, check_dtype=False)


def test_opening_type_table_needs_two_deals_of_moves(study):
    _, moves = study
    with pytest.raises(ValueError, match="at least two deals, got 1"):
        opening_type_table(moves[moves.deal == moves.deal.iloc[0]])
    with pytest.raises(ValueError, match=r"missing columns \['to_floor'\]"):
        opening_type_table(moves.drop(columns="to_floor"))
