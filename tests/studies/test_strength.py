"""The first player along the strength ladder: the study, its verdict, its chart and its command."""

import re
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azul_fast import cli, simulate  # noqa: E402
from azul_fast.runs.heartbeat import Heartbeat  # noqa: E402
from azul_fast.runs.plan import estimated_seconds_per_game  # noqa: E402
from azul_fast.studies.ladder import DEFAULT_POLICIES  # noqa: E402
from azul_fast.studies.strength import (
    first_player_by_strength,
    games_for_budget,
    strength_verdict,
)

RATINGS = pd.DataFrame({"policy": ["random", "greedy", "heuristic"], "rating": [-800.0, 0.0, 100.0],
                        "ci_low": [-900.0, 0.0, 50.0], "ci_high": [-700.0, 0.0, 150.0]})


@pytest.fixture(scope="module")
def study():
    return first_player_by_strength(RATINGS, ["random", "greedy", "heuristic"], players=[2, 3], seconds=0.01,
                                    seed=5, workers=1)


def test_one_row_per_level_and_player_count_with_the_ladder_elo(study):
    assert study[["players", "policy"]].values.tolist() == [
        [2, "random"], [2, "greedy"], [2, "heuristic"], [3, "random"], [3, "greedy"], [3, "heuristic"]]
    assert study.elo.tolist() == [-800.0, 0.0, 100.0] * 2
    assert (study.games == [games_for_budget(p, n, 0.01) for n, p in zip(study.players, study.policy)]).all()
    assert study.attrs["games"] == study.games.sum() and study.attrs["levels"] == ["random", "greedy", "heuristic"]


def test_shares_split_ties_and_match_the_games(study):
    seats = study[["share_0", "share_1", "share_2"]].fillna(0).sum(axis=1)
    assert seats.to_numpy() == pytest.approx(1.0)  # every game's victory is shared out in full
    assert study.share_3.isna().all() and study[study.players == 2].share_2.isna().all()
    assert (study.ci_low < study.first_player_share).all() and (study.first_player_share < study.ci_high).all()
    assert (study.first_player_share == study.share_0).all()
    # The greedy 3-player row, recomputed from its own games.
    row = study[(study.players == 3) & (study.policy == "greedy")].iloc[0]
    games = first_player_by_strength(RATINGS, ["greedy"], players=[3], seconds=0.01, seed=5, workers=2)
    assert games.iloc[0].first_player_share == row.first_player_share  # same seed, any workers: same games


def test_a_level_added_to_the_ladder_leaves_the_others_unchanged(study):
    fewer = first_player_by_strength(RATINGS, ["greedy"], players=[2], seconds=0.01, seed=5, workers=1)
    assert fewer.first_player_share.iloc[0] == study.first_player_share.iloc[1]


def test_shares_equal_a_direct_computation_from_the_level_seed(study):
    row = study[(study.players == 3) & (study.policy == "heuristic")].iloc[0]
    games = simulate(int(row.games), 3, "heuristic", seed=int(row.seed), workers=1)
    wins = games[["win_0", "win_1", "win_2"]].to_numpy(float)
    split = wins / wins.sum(axis=1, keepdims=True)
    assert row.first_player_share == pytest.approx(split[:, 0].mean())
    assert row.share_2 == pytest.approx(split[:, 2].mean())
    assert row.ties == pytest.approx((wins.sum(axis=1) > 1).mean())


def test_the_study_parses_each_level_once(policy_parses):
    """first_player_by_strength parses its levels at the boundary and carries the specs to the cost model
    and to simulate; a spec is taken as its name."""
    from azul_fast.core.bots.policies import parse_policy

    table = first_player_by_strength(RATINGS, ["random", "greedy"], players=[2, 3], seconds=0.002, min_games=20,
                                     workers=1)
    assert sorted(policy_parses) == ["greedy", "random"]
    specs = [parse_policy("random"), parse_policy("greedy")]
    again = first_player_by_strength(RATINGS, specs, players=[2, 3], seconds=0.002, min_games=20, workers=1)
    pd.testing.assert_frame_equal(table, again)
    assert table.attrs["levels"] == again.attrs["levels"] == ["random", "greedy"]


def test_unrated_level_and_bad_player_counts_are_clear_errors():
    with pytest.raises(ValueError, match=r"do not rate \['mcts:50'\]"):
        first_player_by_strength(RATINGS, ["greedy", "mcts:50"], players=[2])
    with pytest.raises(ValueError, match="players must be among 2, 3, 4"):
        first_player_by_strength(RATINGS, ["greedy"], players=[5])
    with pytest.raises(ValueError, match="seconds must be positive"):
        first_player_by_strength(RATINGS, ["greedy"], players=[2], seconds=0)
    with pytest.raises(ValueError, match="min_games <= max_games"):
        first_player_by_strength(RATINGS, ["greedy"], players=[2], min_games=10, max_games=5)
    with pytest.raises(ValueError, match="ladder\\(\\) table"):
        first_player_by_strength(RATINGS.drop(columns="rating"), ["greedy"], players=[2])


def seconds_per_game(policy, players):
    return estimated_seconds_per_game([policy] * players, players)


def test_cost_model_orders_levels_and_budgets_games():
    searches = [p for p in DEFAULT_POLICIES if p.startswith("mcts")]
    costs = [seconds_per_game(p, 2) for p in searches]
    assert costs == sorted(costs)  # a larger budget costs more
    assert seconds_per_game("learned", 2) < seconds_per_game("mcts", 2) / 5
    assert seconds_per_game("fast", 2) < seconds_per_game("mcts:200", 2) / 5  # bulk studies
    assert seconds_per_game("mcts:200", 4) > seconds_per_game("mcts:200", 2)
    assert games_for_budget("mcts", 4, 0.1, min_games=7) == 7
    assert games_for_budget("random", 2, 1e6, max_games=1_000) == 1_000


def verdict_table(shares, se):
    return pd.DataFrame({"players": 2, "policy": ["weak", "strong"], "elo": [0.0, 300.0], "games": 1000,
                         "first_player_share": shares, "ci_low": np.subtract(shares, 0.02),
                         "ci_high": np.add(shares, 0.02), "se": se})


def test_verdict_converged_disagreeing_and_not_yet_converged():
    agree = strength_verdict(verdict_table([0.51, 0.52], 0.005), 2)
    assert agree["converged"] and agree["text"].count("Converged:") == 1
    assert agree["strongest"]["policy"] == "strong" and agree["diff"] == pytest.approx(0.01)
    apart = strength_verdict(verdict_table([0.46, 0.52], 0.005), 2)
    assert not apart["converged"] and not apart["agree"] and "disagree" in apart["agreement"]
    wide = strength_verdict(verdict_table([0.50, 0.52], 0.05), 2)
    assert wide["agree"] and not wide["converged"] and "not yet converged" in wide["agreement"]


def test_the_verdict_advises_more_games_as_the_callers_command_plays_them():
    """The advice of a verdict not yet converged names the caller's option; the analysis script's
    names options that script takes (it printed the command line's --thorough, which it has not)."""
    wide = verdict_table([0.50, 0.52], 0.05)
    assert strength_verdict(wide, 2)["agreement"].endswith("(play more games: --thorough).")
    assert strength_verdict(wide, 2, more_games="--seconds 300")["agreement"].endswith(
        "(play more games: --seconds 300).")
    script = Path(__file__).resolve().parents[2] / "analysis" / "first_player_by_strength.py"
    advice = re.search(r'more_games="([^"]+)"', script.read_text())[1]
    usage = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, check=True).stdout
    assert all(option in usage for option in re.findall(r"--[a-z][a-z-]+", advice)), advice


def test_verdict_answers_the_advantage_first_and_never_calls_it_inconclusive():
    """An interval that excludes the fair share is an advantage (or a disadvantage), whatever the
    agreement of the two strongest levels: "inconclusive" read as "no advantage"."""
    for shares, advantage, words in (([0.50, 0.535], "advantage", "has an advantage of +3.5 points"),
                                     ([0.50, 0.46], "disadvantage", "has a disadvantage of -4.0 points"),
                                     ([0.50, 0.51], "none detected", "no advantage of the first player")):
        verdict = strength_verdict(verdict_table(shares, 0.05), 2)
        assert verdict["advantage"] == advantage and words in verdict["answer"]
        assert verdict["text"].startswith(verdict["answer"]) and "nconclusive" not in verdict["text"]
        assert "strong, +300 Elo, 1,000 games" in verdict["answer"]
    with pytest.raises(ValueError, match="fewer than two levels"):
        strength_verdict(verdict_table([0.5, 0.5], 0.01).iloc[:1], 2)


def test_the_strongest_level_is_the_highest_rated_not_the_last_row():
    table = verdict_table([0.52, 0.40], 0.005).iloc[::-1]
    assert strength_verdict(table, 2)["strongest"]["policy"] == "strong"


def test_strength_command_prints_table_verdict_and_writes_csv_and_chart(tmp_path, capsys):
    code = cli.main(["strength", "--policy", "random", "--policy", "greedy", "--players", "2", "--seconds", "0.01",
                     "--ladder-games", "5", "--workers", "1", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "2 players: " in out and "(ties split; greedy, +0 Elo, " in out and "first player" in out
    assert "strength ladder: random, greedy" in err
    table = pd.read_csv(tmp_path / "first_player_by_strength.csv")
    assert {"players", "policy", "elo", "games", "first_player_share", "ci_low", "ci_high"} <= set(table.columns)
    assert (tmp_path / "first_player_by_strength.png").stat().st_size > 1000
    assert cli.main(["strength", "--seconds", "0"]) == 2


def test_heartbeat_speaks_when_quiet_and_not_after_a_line():
    lines = []
    with Heartbeat(lines.append, interval=0.05) as beat:
        beat.step("searching")
        import time

        time.sleep(0.3)
        assert any(line.startswith("searching: still running") for line in lines)
        beat.say("done")
    assert lines[-1] == "done" or lines[-1].startswith("searching")
    with pytest.raises(ValueError, match="interval must be positive"):
        Heartbeat(lines.append, interval=0)
