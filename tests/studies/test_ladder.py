"""The strength ladder: the Bradley-Terry fit on hand-made tables, and a tiny real ladder."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from azul_fast.studies.ladder import ELO_PER_LOGIT, fit_ratings, ladder, play_pairs

TRUE = {"a": 0.0, "b": 1.0, "c": 2.0, "d": -1.5}  # logits


def expected_table(games=10_000):
    rows = []
    for x, y in itertools.combinations(TRUE, 2):
        p = 1 / (1 + math.exp(TRUE[y] - TRUE[x]))
        rows.append({"a": x, "b": y, "games": games, "wins_a": p * games})
    return pd.DataFrame(rows)


def test_fit_recovers_the_ratings_and_their_order():
    table = fit_ratings(expected_table(), anchor="a")
    assert table.policy.tolist() == ["c", "b", "a", "d"]
    assert table["rank"].tolist() == [1, 2, 3, 4]
    got = dict(zip(table.policy, table.rating / ELO_PER_LOGIT))
    for name, truth in TRUE.items():
        assert got[name] == pytest.approx(truth, abs=0.01)  # the weak prior barely moves them
    anchor = table.set_index("policy").loc["a"]
    assert anchor.rating == anchor.ci_low == anchor.ci_high == 0
    assert (table.ci_low <= table.rating).all() and (table.rating <= table.ci_high).all()


def test_intervals_shrink_with_more_games_and_match_the_binomial_closed_form():
    small = fit_ratings(expected_table(100), anchor="a").set_index("policy")
    large = fit_ratings(expected_table(10_000), anchor="a").set_index("policy")
    width = lambda t: t.ci_high - t.ci_low  # noqa: E731
    assert (width(large).drop("a") < width(small).drop("a") / 5).all()
    # Two policies: the rating is the logit of the win share, the interval the binomial Wald one.
    pair = pd.DataFrame({"a": ["x"], "b": ["y"], "games": [400], "wins_a": [300.0]})
    y = fit_ratings(pair, anchor="y").set_index("policy").loc["x"]
    se = 1 / math.sqrt(400 * 0.75 * 0.25)
    assert y.rating / ELO_PER_LOGIT == pytest.approx(math.log(3), rel=0.01)
    assert (y.ci_high - y.rating) / ELO_PER_LOGIT == pytest.approx(1.96 * se, rel=0.01)


def test_a_clean_sweep_stays_finite():
    sweep = pd.DataFrame({"a": ["x", "x"], "b": ["y", "z"], "games": [50, 50], "wins_a": [50.0, 0.0]})
    table = fit_ratings(sweep)
    assert np.isfinite(table[["rating", "ci_low", "ci_high"]].to_numpy()).all()
    assert table.policy.tolist() == ["z", "x", "y"]
    assert table.attrs["anchor"] == "x"


def test_a_tiny_real_ladder():
    table = ladder(["random", "greedy", "mcts:10"], games=10, seed=3, workers=2)
    assert table.policy.iloc[-1] == "random"
    assert set(table.columns) >= {"rank", "policy", "rating", "ci_low", "ci_high", "games", "win_share"}
    assert table.games.tolist() == [40, 40, 40]
    pairs = pd.DataFrame(table.attrs["pairs"])
    assert len(pairs) == 3 and (pairs.games == 20).all()
    assert pairs.equals(play_pairs(["random", "greedy", "mcts:10"], games=10, seed=3, workers=1))


@pytest.mark.parametrize("policies", [["greedy"], ["greedy", "greedy"], ["greedy", "mcts:0"], ["greedy", "nope"]])
def test_bad_policy_lists(policies):
    with pytest.raises(ValueError, match="polic"):
        ladder(policies, games=2)


def test_the_command_prints_the_ladder_and_rejects_bad_policies(capsys):
    from azul_fast import cli

    assert cli.main(["ladder", "--policy", "random", "--policy", "mcts:5", "--games", "5", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("10 games per pair (seats swapped), root seed 0, Bradley-Terry")
    assert lines[2].split()[:2] == ["1", "mcts:5"] and lines[3].split()[:2] == ["2", "random"]
    for bad in (["--policy", "greedy"], ["--policy", "mcts:0", "--policy", "greedy"], ["--games", "0"]):
        assert cli.main(["ladder", *bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("azul-fast")


# -- policies added to a ladder, its ratings held --------------------------------------------


def test_a_policy_added_is_fitted_against_the_held_ratings_which_do_not_move():
    base = fit_ratings(expected_table()[lambda t: (t.a != "c") & (t.b != "c")], anchor="a")
    added = fit_ratings(expected_table()[lambda t: (t.a == "c") | (t.b == "c")], fixed=base)
    assert added.policy.tolist() == ["c"] and added["rank"].tolist() == [1]
    assert added.rating.iloc[0] / ELO_PER_LOGIT == pytest.approx(TRUE["c"], abs=0.01)


def test_an_added_rating_carries_the_held_ratings_intervals():
    """A policy rated against one held policy alone is at least as uncertain as that one: its rating moves with it."""
    base = pd.DataFrame({"policy": ["a", "b"], "rating": [0.0, 200.0], "ci_low": [0.0, 100.0],
                         "ci_high": [0.0, 300.0]})
    games = pd.DataFrame({"a": ["b"], "b": ["z"], "games": [1_000_000], "wins_a": [500_000.0]})
    added = fit_ratings(games, fixed=base).set_index("policy").loc["z"]
    assert added.rating == pytest.approx(200.0, abs=0.5)
    assert added.ci_high - added.rating == pytest.approx(100.0, abs=2.0)   # b's own, the match's nearly none
    with pytest.raises(ValueError, match="no policy to rate"):
        fit_ratings(games, fixed=pd.concat([base, base.assign(policy=["z", "y"])]))


def test_added_pairs_follow_the_ladders_and_keep_their_seeds_when_more_are_added():
    names = ["random", "greedy", "heuristic"]
    own = play_pairs(names, games=2, seed=4, workers=1)
    one = play_pairs(names, games=2, seed=4, workers=1, added=["mcts:2"])
    two = play_pairs(names, games=2, seed=4, workers=1, added=["mcts:2", "fast:2"], new=["fast:2"])
    assert list(zip(one.a, one.b)) == [(name, "mcts:2") for name in names]
    assert list(zip(two.a, two.b)) == [(name, "fast:2") for name in [*names, "mcts:2"]]
    seeds = set(own.seed) | set(one.seed) | set(two.seed)
    assert len(seeds) == len(own) + len(one) + len(two)   # every pair its own seed
    again = play_pairs(names, games=2, seed=4, workers=1, added=["mcts:2", "fast:2"])
    assert again.iloc[:3].equals(one)   # adding fast:2 left mcts:2's games as they were
    with pytest.raises(ValueError, match="not on the ladder"):
        play_pairs(names, games=2, seed=4, added=["greedy"])


def test_add_to_ladder_rates_only_what_the_table_lacks():
    from azul_fast.studies.ladder import add_to_ladder

    base = ladder(["random", "greedy"], games=10, seed=1, workers=1)
    first = add_to_ladder(base, ["heuristic"], ["random", "greedy"], games=10, seed=1, workers=1)
    both = pd.concat([base, first], ignore_index=True)
    second = add_to_ladder(both, ["heuristic", "mcts:2"], ["random", "greedy"], games=10, seed=1, workers=1)
    assert second.policy.tolist() == ["mcts:2"]
    assert {(p["a"], p["b"]) for p in second.attrs["pairs"]} == {("random", "mcts:2"), ("greedy", "mcts:2"),
                                                                ("heuristic", "mcts:2")}
    with pytest.raises(ValueError, match="rates every one"):
        add_to_ladder(both, ["heuristic"], ["random", "greedy"], games=10, seed=1, workers=1)
    with pytest.raises(ValueError, match="does not rate mcts"):
        add_to_ladder(base, ["heuristic"], ["random", "mcts"], games=10, seed=1, workers=1)


def test_the_ladder_parses_each_policy_name_once(policy_parses):
    """play_pairs parses the names at its boundary and carries the specs to simulate, which does not
    parse them again (nor does the cost model of estimated_ladder_seconds)."""
    from azul_fast.studies.ladder import estimated_ladder_seconds

    calls = policy_parses
    table = ladder(["random", "greedy", "mcts:5"], games=4, seed=1, workers=1)
    assert sorted(calls) == ["greedy", "mcts:5", "random"]
    assert sorted(table.policy) == ["greedy", "mcts:5", "random"]
    calls.clear()
    estimated_ladder_seconds(["random", "greedy", "mcts:5"], 4)
    assert sorted(calls) == ["greedy", "mcts:5", "random"]
