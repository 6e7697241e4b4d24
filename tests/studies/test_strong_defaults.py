"""Every tool that judges moves plays its rollouts with a strong search unless told otherwise, and says
which: a weak bot's rollouts rank moves by its own habits."""

import inspect

import pytest

import azul_fast as az
from azul_fast.cli import main
from azul_fast.core.bots.policies import parse_policy
from azul_fast.studies.analyse import review_game
from azul_fast.studies.openings import opening_analysis, opening_rollouts
from azul_fast.studies.settings import ANALYSIS_POLICY, LADDER_POLICIES


def test_the_analysis_policy_is_the_strongest_search_of_the_ladder_that_is_not_plain_mcts():
    spec = parse_policy(ANALYSIS_POLICY)
    assert spec.budget > 0 and spec.plays_learned and ANALYSIS_POLICY in LADDER_POLICIES


def test_analyse_of_a_fresh_deal_without_a_policy_rolls_out_with_the_search():
    table = az.analyse(az.State.new(players=2, seed=1), rollouts=200)
    assert table.attrs["policy"] == ANALYSIS_POLICY


@pytest.mark.parametrize("function", [review_game, opening_rollouts, opening_analysis])
def test_the_other_move_judges_default_to_the_same_policy(function):
    assert inspect.signature(function).parameters["policy"].default == ANALYSIS_POLICY


@pytest.mark.parametrize("command", ["analyse", "review"])
def test_the_commands_name_the_default_in_their_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert f"(default {ANALYSIS_POLICY})" in " ".join(capsys.readouterr().out.split())


def test_an_unknown_policy_is_one_line_naming_it(capsys):
    assert main(["analyse", "--seed", "1", "--policy", "lerned", "--rollouts", "100"]) == 2
    err = capsys.readouterr().err.strip()
    assert "lerned" in err and "did you mean 'learned'" in err
