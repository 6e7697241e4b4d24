"""The studies' statistics (azul_fast.studies: intervals, seats, strength, openings): intervals and tests checked
against scipy and statsmodels, tables on hand-made games."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from azul_fast import Move, State, simulate
from azul_fast.runs.rollouts import continuation_seeds
from azul_fast.studies import seats
from azul_fast.studies.intervals import win_interval
from azul_fast.studies.openings import (
    OPENING_FEATURES,
    informative_features,
    opening_analysis,
    opening_features,
    opening_rollouts,
    opening_study,
    redundant_features,
)
from azul_fast.studies.seats import paired_rotation_stats, seat_advantage, variant_difference


def games(players, wins, scores, policies=None, first_player=0):
    """A hand-made result frame: `wins` and `scores` are lists of per-seat tuples, one per game."""
    policies = policies or ["greedy"] * players
    frame = {"players": players, "first_player": first_player}
    for seat in range(players):
        frame[f"policy_{seat}"] = policies[seat]
        frame[f"win_{seat}"] = [bool(w[seat]) for w in wins]
        frame[f"score_{seat}"] = [s[seat] for s in scores]
    return pd.DataFrame(frame)


# -- intervals and tests on known numbers ------------------------------------------------


def test_wilson_interval_known_values_and_both_libraries():
    # Textbook value: 50 of 100 gives [0.4038, 0.5962].
    low, high = win_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    for wins, n in [(0, 10), (3, 10), (10, 10), (4_647, 10_000)]:
        ours = win_interval(wins, n)
        scipy_ci = stats.binomtest(wins, n).proportion_ci(method="wilson")
        assert ours == pytest.approx((scipy_ci.low, scipy_ci.high), abs=1e-12)
        assert ours == pytest.approx(proportion_confint(wins, n, method="wilson"))


def test_wilson_interval_is_elementwise():
    low, high = win_interval(np.array([1, 5]), np.array([10, 10]))
    assert low.shape == (2,) and low[1] == pytest.approx(proportion_confint(5, 10, method="wilson")[0])


def test_chi_square_of_seats_matches_scipy_on_known_numbers():
    # Seat wins 10, 20, 30 of 60 games without ties: chi2 = 10, p = exp(-5).
    wins = [(1, 0, 0)] * 10 + [(0, 1, 0)] * 20 + [(0, 0, 1)] * 30
    table = seat_advantage(games(3, wins, [(1, 1, 1)] * 60))
    assert table.chi2.tolist() == pytest.approx([10.0] * 3)
    assert table.chi2_pvalue.iloc[0] == pytest.approx(np.exp(-5))
    assert table.chi2_pvalue.iloc[0] == pytest.approx(stats.chisquare([10, 20, 30]).pvalue)


# -- seat_advantage ------------------------------------------------------------------------


def test_seat_advantage_hand_made_table_with_ties():
    wins = [(1, 0), (1, 1), (0, 1), (1, 0), (1, 1)]  # two shared victories
    scores = [(30, 12), (20, 20), (10, 15), (25, 5), (40, 40)]
    table = seat_advantage(games(2, wins, scores))
    low0, high0 = proportion_confint(4, 5, method="wilson")
    low1, high1 = proportion_confint(3, 5, method="wilson")
    ci0 = stats.ttest_1samp([1, 0.5, 0, 1, 0.5], 0).confidence_interval()  # seat 0: ties split in half
    ci1 = stats.ttest_1samp([0, 0.5, 1, 0, 0.5], 0).confidence_interval()
    expected = pd.DataFrame({
        "players": [2, 2], "first_player": [0, 0], "policies": ["greedy v greedy"] * 2, "seat": [0, 1],
        "policy": ["greedy", "greedy"], "games": [5, 5], "deals": [5, 5], "wins": [4, 3], "ties": [2, 2],
        "win_rate": [0.8, 0.6], "ci_low": [low0, low1], "ci_high": [high0, high1], "fair_share": [0.5, 0.5],
        "diff_pp": [30.0, 10.0], "diff_pp_low": [100 * (low0 - 0.5), 100 * (low1 - 0.5)],
        "diff_pp_high": [100 * (high0 - 0.5), 100 * (high1 - 0.5)],
        "win_share": [0.6, 0.4], "share_low": [ci0.low, ci1.low], "share_high": [ci0.high, ci1.high],
        "mean_score": [25.0, 18.4], "median_score": [25.0, 15.0],
        "chi2": [np.nan, np.nan], "chi2_pvalue": [np.nan, np.nan],
    })
    pd.testing.assert_frame_equal(table, expected, check_dtype=False)


def test_seat_advantage_concatenated_player_counts_and_lineups():
    two = simulate(300, players=2, policies=["greedy", "random"], seed=1, workers=1)
    four = simulate(200, players=4, policies="random", seed=2, workers=1)
    both = pd.concat([two, four], ignore_index=True)  # seats 2 and 3 are NaN for 2-player rows
    assert both["win_3"].isna().sum() == 300
    table = seat_advantage(both)
    assert table.players.tolist() == [2, 2, 4, 4, 4, 4]
    assert table.policies.tolist()[:2] == ["greedy v random"] * 2
    assert table.groupby("players").games.first().to_dict() == {2: 300, 4: 200}
    # Each part alone gives the same rows.
    pd.testing.assert_frame_equal(table.iloc[4:].reset_index(drop=True),
                                  seat_advantage(four).iloc[2:].reset_index(drop=True))
    assert table.loc[table.players == 2, "wins"].tolist() == [int(two.win_0.sum()), int(two.win_1.sum())]
    assert table.loc[table.players == 4, "chi2_pvalue"].notna().all()
    # Shared victories split between their winners: the shares of a table add up to one game.
    assert table.groupby("players").win_share.sum().tolist() == pytest.approx([1.0, 1.0])
    assert table.loc[table.players == 4, "win_rate"].sum() > 1.02  # random games tie often


def test_seat_advantage_splits_first_player_and_lineups():
    a = simulate(100, players=2, policies="greedy", seed=1, workers=1, first_player=0)
    b = simulate(100, players=2, policies="greedy", seed=1, workers=1, first_player=1)
    table = seat_advantage(pd.concat([a, b], ignore_index=True))
    assert table[["first_player", "seat"]].values.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]


@pytest.mark.parametrize("frame, message", [
    (pd.DataFrame(), "empty"),
    (pd.DataFrame({"players": [2], "win_0": [True]}), "missing columns"),
])
def test_seat_advantage_rejects_what_is_not_a_result(frame, message):
    with pytest.raises(ValueError, match=message):
        seat_advantage(frame)


# -- variant_difference -------------------------------------------------------------------


def test_variant_difference_pairs_the_same_deals_by_hand():
    seeds = {"seed": [11, 12, 13, 14]}
    colored = games(2, [(1, 0), (1, 1), (0, 1), (1, 0)], [(30, 10), (20, 20), (5, 9), (40, 0)]).assign(**seeds)
    gray = games(2, [(0, 1), (1, 0), (0, 1), (1, 1)], [(10, 30), (22, 20), (5, 7), (8, 8)]).assign(**seeds)
    row = variant_difference(colored, gray).iloc[0]
    first_colored, first_gray = np.array([1, 0.5, 0, 1]), np.array([0, 1, 0, 0.5])  # a shared win is split
    assert (row.players, row.games) == (2, 4)
    assert row.colored_share == pytest.approx(0.625) and row.gray_share == pytest.approx(0.375)
    ci = stats.ttest_1samp(first_gray - first_colored, 0).confidence_interval()
    assert row.diff_pp == pytest.approx(-25.0)
    assert (row.diff_pp_low, row.diff_pp_high) == pytest.approx((100 * ci.low, 100 * ci.high))
    assert row.t_pvalue == pytest.approx(stats.ttest_rel(first_gray, first_colored).pvalue)
    assert (row.colored_mean_score, row.gray_mean_score) == pytest.approx((16.75, 13.75))
    assert row.score_diff == pytest.approx(-3.0)


def test_variant_difference_on_real_runs_and_mismatched_ones():
    colored = simulate(400, players=3, policies="greedy", seed=4, workers=1)
    gray = simulate(400, players=3, policies="greedy", seed=4, workers=1, variant="gray")
    table = variant_difference(colored, gray)
    share = seat_advantage(colored).iloc[0].win_share
    assert table.colored_share.iloc[0] == pytest.approx(share)  # the same tie-split share as seat_advantage
    assert table.diff_pp_low.iloc[0] <= table.diff_pp.iloc[0] <= table.diff_pp_high.iloc[0]
    same = variant_difference(colored, colored).iloc[0]
    assert same.diff_pp == 0 and np.isnan(same.t_pvalue)
    with pytest.raises(ValueError, match="needs the same games on both walls"):
        variant_difference(colored, simulate(400, players=3, policies="greedy", seed=5, workers=1, variant="gray"))


# -- paired_rotation_stats ----------------------------------------------------------------


def test_paired_rotation_stats_on_hand_made_deals():
    # Three deals, each played with greedy in seat 0 (rotation 0) then in seat 1 (rotation 1).
    scores = [(30, 10), (12, 28), (25, 20), (18, 26), (40, 30), (35, 41)]
    wins = [(s[0] > s[1], s[1] > s[0]) for s in scores]
    df = games(2, wins, scores)
    df["policy_0"] = ["greedy", "random"] * 3
    df["policy_1"] = ["random", "greedy"] * 3
    df["deal"] = [0, 0, 1, 1, 2, 2]
    df["rotation"] = [0, 1] * 3
    df["seed"] = [7, 7, 8, 8, 9, 9]
    table = paired_rotation_stats(df).set_index(["effect", "level"])
    greedy_per_deal = np.array([(30 + 28) / 2, (25 + 26) / 2, (40 + 41) / 2])
    random_per_deal = np.array([(10 + 12) / 2, (20 + 18) / 2, (30 + 35) / 2])
    expected = stats.ttest_rel(greedy_per_deal, random_per_deal)
    row = table.loc[("policy", "greedy")]
    assert (row.deals, row.games, row.wins) == (3, 6, 6)
    assert row.score_diff == pytest.approx((greedy_per_deal - random_per_deal).mean())
    assert row.t_pvalue == pytest.approx(expected.pvalue)
    assert (row.score_diff_low, row.score_diff_high) == pytest.approx(tuple(expected.confidence_interval()))
    assert row.wilcoxon_pvalue == pytest.approx(stats.wilcoxon(greedy_per_deal - random_per_deal).pvalue)
    assert table.loc[("policy", "random"), "score_diff"] == pytest.approx(-row.score_diff)
    seat0 = table.loc[("seat", "seat 0")]
    seat0_per_deal = np.array([(30 + 12) / 2, (25 + 18) / 2, (40 + 35) / 2])
    seat1_per_deal = np.array([(10 + 28) / 2, (20 + 26) / 2, (30 + 41) / 2])
    assert seat0.score_diff == pytest.approx((seat0_per_deal - seat1_per_deal).mean())
    assert seat0.wins == 3 and seat0.win_rate == 0.5


def test_paired_rotation_stats_on_a_real_rotated_run():
    df = simulate(200, players=3, policies=["greedy", "random", "random"], seed=5, workers=1, seat_rotation=True)
    table = paired_rotation_stats(df)
    assert table.effect.tolist() == ["policy", "policy", "seat", "seat", "seat"]
    greedy = table[table.level == "greedy"].iloc[0]
    assert greedy.games == 200 * 3 and greedy.deals == 200
    assert greedy.score_diff > 20 and greedy.t_pvalue < 1e-10
    seats = table[table.effect == "seat"]
    assert seats.games.tolist() == [600] * 3  # every seat hosts every policy once per deal


def test_paired_rotation_stats_needs_a_rotated_run():
    with pytest.raises(ValueError, match="seat_rotation=True"):
        paired_rotation_stats(simulate(10, seed=1, workers=1))


# -- openings --------------------------------------------------------------------------------


def test_opening_features_replay_the_first_move():
    df = simulate(200, players=3, policies="random", seed=11, workers=1, first_player=2)
    features = opening_features(df)
    assert features.index.equals(df.index)
    for row, described in zip(df.itertuples(), features.itertuples()):
        state = State.new(3, seed=int(row.seed), first_player=2)
        move = Move.from_notation(str(row.opening))
        assert described.tiles == state.factories[move.source, move.color] > 0
        capacity = 0 if described.line == "F" else int(described.line)
        assert described.overflow == max(0, described.tiles - capacity)
        assert described.source == "factory"  # the centre is empty on the first move


def test_opening_study_counts_and_rates():
    df = simulate(600, players=2, policies="random", seed=4, workers=1)
    study = opening_study(df, features=["line", "overflow"])
    features = opening_features(df)
    for feature in ("line", "overflow"):
        rows = study[study.feature == feature]
        assert rows.games.sum() == 600 and rows.share.sum() == pytest.approx(1.0)
        assert rows.pvalue.nunique() == 1
    floor = study[(study.feature == "line") & (study.value == "F")].iloc[0]
    chosen = features.line == "F"
    assert floor.games == chosen.sum()
    assert floor.wins == df.win_0[chosen].sum()
    margin = (df.score_0 - df.score_1)[chosen]
    assert floor.mean_margin == pytest.approx(margin.mean())
    assert (floor.ci_low, floor.ci_high) == pytest.approx(proportion_confint(floor.wins, floor.games, method="wilson"))


def test_opening_study_splits_a_shared_victory_between_its_winners():
    """The tie-split columns beside the whole-win ones: the first player's mean share of each game's
    victory (1/k of a k-way tie) with its t interval, and a test of independence on that share."""
    df = simulate(600, players=2, policies="greedy", seed=4, workers=1)
    study = opening_study(df, features=["line"])
    line = opening_features(df).line
    share = (df.win_0 / (df.win_0.astype(int) + df.win_1.astype(int))).to_numpy()
    assert (df.win_0 & df.win_1).sum() > 0  # the premise: some victories are shared
    for row in study.itertuples():
        here = share[(line == row.value).to_numpy()]
        low, high = stats.ttest_1samp(here, 0.0).confidence_interval() if np.ptp(here) > 0 else (np.nan, np.nan)
        low, high, mean = max(low, 0.0), min(high, 1.0), here.mean()  # a share's interval stays in [0, 1]
        assert (row.win_share, row.win_share_low, row.win_share_high) == pytest.approx((mean, low, high), nan_ok=True)
        shared = (df.win_0 & df.win_1)[(line == row.value).to_numpy()].sum()
        assert row.win_share == pytest.approx(row.win_rate - shared / 2 / row.games)  # a shared win counts half
    # N R^2 of the share on the feature's values, chi-square with values - 1 degrees of freedom
    codes = pd.factorize(line)[0]
    between = sum((codes == c).sum() * (share[codes == c].mean() - share.mean()) ** 2 for c in set(codes))
    statistic = len(share) * between / ((share - share.mean()) ** 2).sum()
    assert study.win_share_pvalue.iloc[0] == pytest.approx(stats.chi2.sf(statistic, len(set(codes)) - 1))
    assert study.win_share_pvalue.nunique() == 1


def test_a_win_share_interval_stays_within_0_and_1_and_claims_no_certainty():
    """A share lies in [0, 1], so its t interval is cut there (coverage is unchanged); a few games
    that all end alike have no spread, and a t interval of width 0 would claim a certainty: none."""
    from azul_fast.studies.intervals import share_interval

    assert share_interval(np.array([1.0, 0.5]), np.arange(2)) == pytest.approx((0.75, 0.0, 1.0))
    share, low, high = share_interval(np.zeros(2), np.arange(2))
    assert share == 0 and np.isnan(low) and np.isnan(high)
    values = np.array([0, 1, 0.5, 1, 0, 1, 1, 0.5])
    ci = stats.ttest_1samp(values, 0.0).confidence_interval()  # well inside [0, 1]: the t interval itself
    assert share_interval(values, np.arange(8)) == pytest.approx((values.mean(), ci.low, ci.high))
    with pytest.raises(ValueError, match="shares must lie in"):
        share_interval(np.array([0.5, 2.0]), np.arange(2))


def test_opening_study_share_test_is_pearsons_chi_square_when_no_victory_is_shared():
    df = simulate(800, players=2, policies="random", seed=5, workers=1)
    df = df[~(df.win_0 & df.win_1)].reset_index(drop=True)
    study = opening_study(df, features=["tiles"])
    assert study.value.nunique() > 2  # more than one degree of freedom: no continuity correction
    counts = pd.crosstab(opening_features(df).tiles, df.win_0).to_numpy()
    assert study.win_share_pvalue.iloc[0] == pytest.approx(stats.chi2_contingency(counts).pvalue)
    assert study.win_share.to_numpy() == pytest.approx(study.win_rate.to_numpy())


def test_opening_study_rejects_unknown_feature():
    with pytest.raises(ValueError, match="unknown opening features"):
        opening_study(simulate(10, seed=1, workers=1), features=["colour of the table"])


def test_opening_rollouts_ranks_every_legal_move_with_corrected_tests():
    ranking = opening_rollouts(seed=7, players=2, policy="greedy", rollouts=6)
    legal = {str(m) for m in State.new(2, seed=7).legal_moves}
    assert set(ranking.move) == legal and len(ranking) == len(legal)
    assert ranking["rank"].tolist() == list(range(1, len(legal) + 1))
    assert ranking.win_rate.is_monotonic_decreasing
    assert np.isnan(ranking.p_vs_best.iloc[0]) and ranking.p_vs_best.iloc[1:].notna().all()
    reject, adjusted, _, _ = multipletests(ranking.p_vs_best.iloc[1:], alpha=0.05, method="holm")
    assert ranking.p_adjusted.iloc[1:].tolist() == pytest.approx(adjusted.tolist())
    assert ranking.worse_than_best.iloc[1:].tolist() == reject.tolist()
    low, high = proportion_confint(ranking.wins, 6, method="wilson")
    assert ranking.ci_low.tolist() == pytest.approx(low.tolist())
    assert ranking.attrs["rollouts"] == 6 and ranking.attrs["policy"] == "greedy"


def test_opening_rollouts_are_reproducible_and_independent_of_workers():
    one = opening_rollouts(seed=3, rollouts=4, workers=1, policy="greedy")
    two = opening_rollouts(seed=3, rollouts=4, workers=2, policy="greedy")   # 6 chunks of jobs over 2 threads
    pd.testing.assert_frame_equal(one, two)


def test_rollouts_share_continuations_across_moves():
    """Common random numbers: rollout k of every move draws the same tiles at the next refill."""
    seeds = [tuple(int(x) for x in row) for row in continuation_seeds(7, 3)]
    assert len(set(seeds)) == 3 and seeds == [tuple(int(x) for x in row) for row in continuation_seeds(7, 3)]
    start = State.new(2, seed=7)
    refills = []
    for move in list(start.legal_moves)[:2]:
        after = start.copy()
        after.play(move)
        position = after.to_dict()
        position["rng"] = {"bag": seeds[0][0], "policy": seeds[0][1]}
        state = State.from_dict(position)
        while state.round == 1:
            state.play(state.choose("greedy"))
        refills.append(state.factories.tolist())
    assert refills[0] == refills[1]


@pytest.mark.parametrize("kwargs, message", [
    ({"policy": "nope"}, "valid policies"),
    ({"rollouts": 1}, "rollouts"),
    ({"workers": 0}, "workers"),
    ({"correction": "bonferroni-ish"}, "correction"),
])
def test_opening_rollouts_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        opening_rollouts(seed=1, **{"policy": "greedy", **kwargs})


@pytest.mark.parametrize("kwargs", [{"rollouts": 200.0}, {"workers": True}])
def test_opening_rollouts_rejects_a_wrong_type_with_a_type_error(kwargs):
    (name,) = kwargs
    with pytest.raises(TypeError, match=f"{name} must be an int"):
        opening_rollouts(seed=1, **{"policy": "greedy", **kwargs})



# -- seat-rotated frames: the deal is the unit -----------------------------------------------


@pytest.fixture(scope="module")
def identical_rotations():
    """A seat-rotated run with one policy in every seat: the rotations of each deal are the same game."""
    rotated = simulate(400, players=3, policies="greedy", seed=11, workers=1, seat_rotation=True)
    scores = rotated[["score_0", "score_1", "score_2"]].to_numpy().reshape(400, 3, 3)
    assert (scores == scores[:, :1]).all()  # the premise: every rotation of a deal is the same game
    once = rotated[rotated.rotation == 0].drop(columns=["deal", "rotation"]).reset_index(drop=True)
    return rotated, once


def test_seat_advantage_of_identical_rotations_counts_each_deal_once(identical_rotations):
    rotated, once = identical_rotations
    table, single = seat_advantage(rotated), seat_advantage(once)
    assert table.attrs == {"games": 1200, "deals": 400, "seat_rotation": True}
    assert single.attrs == {"games": 400, "deals": 400, "seat_rotation": False}
    assert (table.games == 1200).all() and (table.deals == 400).all()
    for column in ["win_rate", "ci_low", "ci_high", "win_share", "share_low", "share_high", "chi2", "chi2_pvalue"]:
        assert table[column].to_numpy() == pytest.approx(single[column].to_numpy(), rel=1e-9), column


def test_naive_intervals_would_be_too_narrow_on_rotations(identical_rotations):
    rotated, _ = identical_rotations
    row = seat_advantage(rotated).iloc[0]
    naive_low, naive_high = win_interval(row.wins, row.games)
    assert row.ci_high - row.ci_low > 1.5 * (naive_high - naive_low)


def test_rotations_of_different_policies_keep_their_own_intervals():
    # Mixed lineups: each lineup holds one rotation per deal, so every row is its own deal there.
    rotated = simulate(200, players=2, policies=["greedy", "random"], seed=4, workers=1, seat_rotation=True)
    table = seat_advantage(rotated)
    assert (table.deals == 200).all() and table.attrs["deals"] == 200 and table.attrs["games"] == 400
    row = table.iloc[0]
    assert (row.ci_low, row.ci_high) == pytest.approx(win_interval(row.wins, row.games))


def test_paired_rotation_stats_wilson_interval_is_per_deal_on_identical_rotations(identical_rotations):
    rotated, once = identical_rotations
    seat0 = paired_rotation_stats(rotated).query("level == 'seat 0'").iloc[0]
    assert (seat0.ci_low, seat0.ci_high) == pytest.approx(win_interval(int(once.win_0.sum()), 400), rel=1e-9)


def test_opening_study_of_identical_rotations_matches_one_game_per_deal(identical_rotations):
    rotated, once = identical_rotations
    study, single = opening_study(rotated, features=["line"]), opening_study(once, features=["line"])
    for column in ["win_rate", "ci_low", "ci_high", "margin_low", "margin_high", "pvalue", "win_share",
                   "win_share_low", "win_share_high", "win_share_pvalue"]:
        assert study[column].to_numpy() == pytest.approx(single[column].to_numpy(), rel=1e-9, nan_ok=True), column
    assert study.attrs["deals"] == 400 and study.attrs["games"] == 1200


def test_variant_comparison_rates_the_first_players_wins_with_a_wilson_interval():
    df = simulate(200, players=2, policies="greedy", seed=2, workers=1)
    row = seats.variant_comparison([df]).iloc[0]
    assert row.first_player_win_rate == df.win_0.mean()
    assert (row.ci_low, row.ci_high) == pytest.approx(win_interval(int(df.win_0.sum()), 200))


def test_variant_comparison_splits_a_shared_victory_with_a_t_interval():
    """The first player's tie-split share of every run, a mean of per-game shares with its t interval
    (a Wilson interval is for 0/1 outcomes); the whole-win rate stays beside it."""
    runs = [simulate(300, players=2, policies="greedy", seed=2, workers=1, variant=v) for v in ("colored", "gray")]
    table = seats.variant_comparison(runs)
    for df, row in zip(runs, table.itertuples()):
        share = (df.win_0 / (df.win_0.astype(int) + df.win_1.astype(int))).to_numpy()
        assert share.min() < share.max() and ((share > 0) & (share < 1)).any()  # the premise: shared victories
        ci = stats.ttest_1samp(share, 0.0).confidence_interval()
        assert (row.first_player_share, row.share_low, row.share_high) == pytest.approx((share.mean(), ci.low,
                                                                                         ci.high))
        assert row.first_player_share < row.first_player_win_rate
    # the same share as the paired comparison's, wall by wall
    pairs = variant_difference(*runs).iloc[0]
    assert (pairs.colored_share, pairs.gray_share) == pytest.approx(tuple(table.first_player_share))


# -- the report under strong play -------------------------------------------------------


def test_informative_features_drop_constants_and_relabellings():
    rows = pd.DataFrame({"a": [1, 2, 3, 1], "b": ["x", "y", "z", "x"], "c": [0, 0, 0, 0], "d": [1, 1, 2, 2]})
    assert informative_features(rows, ["a", "b", "c", "d"]) == ["a", "d"]  # b relabels a, c is constant
    # and why, as the report's "Openings played" says it: c's one value, the feature b repeats
    assert redundant_features(rows, ["a", "b", "c", "d"]) == ({"c": "0"}, {"b": "a"})
    assert redundant_features(rows, ["b", "a"]) == ({}, {"a": "b"})  # the first of a relabelled pair is kept
    with pytest.raises(ValueError, match=r"no feature column \['e'\]"):
        redundant_features(rows, ["a", "e"])


def test_opening_study_can_leave_out_what_says_nothing():
    df = simulate(400, players=2, policies="greedy", seed=1, workers=1)
    full, shown = opening_study(df), opening_study(df, informative=True)
    described = opening_features(df)
    kept = informative_features(described, ["tiles", "line", "overflow", "source"])
    assert sorted(shown.feature.unique()) == sorted(kept)
    key = (2, "greedy v greedy")  # the rows' players and policies
    assert shown.attrs["dropped"] == {key: [f for f in ["tiles", "line", "overflow", "source"] if f not in kept]}
    assert "source" in shown.attrs["dropped"][key]  # the first move always takes from a factory
    constant, repeated = redundant_features(described, ["tiles", "line", "overflow", "source"])
    assert shown.attrs["constant"] == {key: constant} and shown.attrs["repeated"] == {key: repeated}
    assert constant["source"] == "factory"
    assert sorted([*constant, *repeated]) == sorted(shown.attrs["dropped"][key])
    # the rows kept are the full study's rows, unchanged
    same = full[full.feature.isin(kept)].reset_index(drop=True)
    pd.testing.assert_frame_equal(shown.reset_index(drop=True), same)


def test_opening_study_keeps_what_every_lineup_left_out():
    greedy = simulate(200, players=2, policies="greedy", seed=1, workers=1)
    random = simulate(200, players=2, policies="random", seed=2, workers=1)
    both = opening_study(pd.concat([greedy, random], ignore_index=True), informative=True)
    alone = [opening_study(df, informative=True) for df in (greedy, random)]
    lineups = [(2, "greedy v greedy"), (2, "random v random")]
    assert list(both.attrs["dropped"]) == lineups
    for key in ("dropped", "constant", "repeated"):  # each lineup's, as its own study says it
        assert both.attrs[key] == {**alone[0].attrs[key], **alone[1].attrs[key]}
    # the two drop different features (greedy always fills a line exactly, random does not)
    assert both.attrs["dropped"][lineups[0]] != both.attrs["dropped"][lineups[1]]
    for (players, policies), dropped in both.attrs["dropped"].items():
        rows = both[(both.players == players) & (both.policies == policies)]
        assert sorted(rows.feature.unique()) == sorted(f for f in OPENING_FEATURES if f not in dropped)


def test_opening_analysis_races_the_first_moves_of_a_deal():
    ranking = opening_analysis(seed=7, players=2, policy="greedy", rollouts=12, workers=2)
    start = State.new(2, seed=7)
    assert sorted(ranking.move) == sorted(str(m) for m in start.legal_moves)
    assert ranking["rank"].tolist() == list(range(1, len(ranking) + 1))
    assert int(ranking.rollouts.sum()) <= 12 * len(ranking)
    assert ranking.attrs["stopped"] in ("separated", "budget") and set(ranking.policy) == {"greedy"}
    assert (ranking.wins == ranking.win_rate * ranking.rollouts).all()
    # the leader raced longest and is not worse than itself
    assert ranking.rollouts.iloc[0] == ranking.rollouts.max() and not ranking.worse_than_best.iloc[0]
    if ranking.attrs["stopped"] == "separated":
        assert ranking.worse_than_best.iloc[1:].all()
    again = opening_analysis(seed=7, players=2, policy="greedy", rollouts=12, workers=1)
    pd.testing.assert_frame_equal(ranking, again)


def test_opening_analysis_rejects_too_few_rollouts():
    with pytest.raises(ValueError, match="rollouts"):
        opening_analysis(seed=7, rollouts=1, policy="greedy")
    with pytest.raises(TypeError, match="rollouts"):
        opening_analysis(seed=7, rollouts=2.5, policy="greedy")


def test_strength_study_fixed_games_and_kept_frames():
    from azul_fast.studies.ladder import ladder
    from azul_fast.studies.strength import estimated_study_seconds, first_player_by_strength

    ratings = ladder(["random", "greedy"], games=10, seed=1, workers=1)
    kept = {}
    table = first_player_by_strength(ratings, ["random", "greedy"], players=[2, 3], seconds=0.001, min_games=20,
                                     workers=1, fixed_games={(2, "greedy"): 77}, keep=kept)
    from azul_fast.runs.plan import estimated_seconds_per_game

    def by_budget(policy, players):   # the games 0.001 s pay for by the cost model, at least min_games
        return max(20, int(0.001 / estimated_seconds_per_game([policy] * players, players)))

    assert table.set_index(["players", "policy"]).games.to_dict() == {
        (2, "random"): by_budget("random", 2), (2, "greedy"): 77, (3, "random"): by_budget("random", 3),
        (3, "greedy"): by_budget("greedy", 3)}
    assert by_budget("random", 2) > by_budget("random", 3) > by_budget("greedy", 3)
    assert set(kept) == set(zip(table.players, table.policy))
    row = table[(table.players == 2) & (table.policy == "greedy")].iloc[0]
    pd.testing.assert_frame_equal(kept[2, "greedy"], simulate(77, 2, "greedy", seed=int(row.seed), workers=1))
    assert estimated_study_seconds(["greedy"], [2], 0.001, 20, fixed_games={(2, "greedy"): 77}) == pytest.approx(
        77 * estimated_seconds_per_game(["greedy"] * 2, 2))
    with pytest.raises(ValueError, match="fixed_games"):
        first_player_by_strength(ratings, ["greedy"], players=[2], seconds=0.001, fixed_games={(2, "greedy"): 1})
