"""The `azul-fast` command as a whole (cli/__init__.py, cli/arguments.py): help, the shared options and
their types, bad arguments as one line with exit code 2, and every option a message names."""

import argparse
import os
import re
import subprocess
import sys

import pytest
from commands import COMMANDS, SRC, run, run_subprocess

from azul_fast import cli, load


@pytest.mark.parametrize("command", COMMANDS)
def test_help_on_every_command(capsys, command):
    code, out, err = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: azul-fast {command}") and err == ""
    assert "%%" not in out  # argparse %-formats argument help, not descriptions: 95% must print as such


@pytest.mark.parametrize(("typed", "meant"), [("greedyy", "'greedy'"), ("mtcs", "'mcts'"), ("mtcs:30", "'mcts:30'"),
                                              ("lerned:5", "'learned:5'"), ("heurstic", "'heuristic'")])
def test_a_policy_typo_gets_a_suggestion(capsys, typed, meant):
    code, out, err = run(capsys, "replay", "--seed", 1, "--policy", typed, "--quiet")
    assert code == 2 and out == ""
    assert f"unknown policy '{typed}'; did you mean {meant}" in err


def test_a_policy_name_in_any_case_is_the_library_name(capsys):
    code, out, _ = run(capsys, "replay", "--seed", 1, "--policy", "Greedy", "--policy", "RANDOM", "--quiet")
    assert code == 0 and "policies greedy v random" in out
    assert cli.build_parser().parse_args(["report", "--policy", "MCTS:20"]).policy == "mcts:20"


def test_policy_help_names_every_form_of_a_search_budget(capsys):
    for command in ("simulate", "report", "ladder", "replay"):
        out = " ".join(run(capsys, command, "--help")[1].split())
        assert "mcts:N" in out and "learned:N" in out, command


@pytest.mark.parametrize(("typed", "games"), [("1e6", 1_000_000), ("1_000_000", 1_000_000), ("1,000", 1000),
                                              ("2.5e3", 2500), ("12", 12)])
def test_games_accepts_the_ways_people_write_an_integer(typed, games):
    assert cli.build_parser().parse_args(["report", "--games", typed]).games == games
    assert cli.build_parser().parse_args(["simulate", "--games", typed, "--out", "x.parquet"]).games == games


@pytest.mark.parametrize("typed", ["1.5", "1e-3", "inf", "nan", "ten", "1e"])
def test_games_refuses_what_is_not_an_integer(capsys, typed):
    code, _, err = run(capsys, "report", "--games", typed)
    assert code == 2 and "argument --games: expected an integer" in err and repr(typed) in err


def test_a_missing_file_is_no_such_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (["seats", "nonexist.parquet"], ["openings", "nonexist.parquet"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == ""
        assert err.strip() == "azul-fast: error: no such file or folder: nonexist.parquet", err
    with pytest.raises(FileNotFoundError) as raised:
        load(tmp_path / "nonexist.parquet")
    assert raised.value.filename == str(tmp_path / "nonexist.parquet")


def test_an_unknown_option_points_at_the_subcommands_help(capsys):
    code, _, err = run(capsys, "strength", "--thorogh")
    assert code == 2
    assert err.strip() == ("azul-fast strength: unrecognized arguments: --thorogh "
                           "(see azul-fast strength --help)")


def test_help_imports_no_statistics_or_plotting():
    """`azul-fast --help` stays quick: building the parser imports neither scipy, statsmodels nor matplotlib."""
    check = ("import sys; from azul_fast import cli; cli.build_parser(); "
             "heavy = sorted(m for m in ('scipy', 'statsmodels', 'matplotlib') if m in sys.modules); "
             "assert not heavy, heavy")
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr


BAD = [
    [],
    ["bogus"],
    ["simulate"],
    ["simulate", "--games", "0", "--out", "x.parquet"],
    ["simulate", "--games", "ten", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--policy", "nope", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--players", "3", "--policy", "greedy", "--policy", "random", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--first-player", "5", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--out", "x.parquet", "--resume"],
    ["simulate", "--games", "10", "--out", ""],
    ["seats", "missing.parquet"],
    ["seats", "not-parquet.txt"],
    ["openings", "--rollouts", "1"],
    ["openings", "--policy", "greedy", "--policy", "random"],
    ["replay", "--seed", "-1"],
    ["replay", "--players", "5", "--seed", "1"],
    ["report", "--players", "5"],
    ["report", "--games", "-3"],
    ["bench", "--workers", "0"],
    ["strength", "--seconds", "inf"],
    ["strength", "--seconds", "nan"],
    ["strength", "--policy", "mcts:05"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) or "nothing" for a in BAD])
def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-parquet.txt").write_text("hello")
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("azul-fast")
    assert not (tmp_path / "x.parquet").exists()


def test_bad_arguments_in_a_real_process(tmp_path):
    result = run_subprocess("simulate", "--games", "0", "--out", "x.parquet", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "azul-fast simulate: argument --games: must be at least 1, got 0 (see azul-fast simulate --help)"]
    version = run_subprocess("--version", module="azul_fast.cli")
    assert version.returncode == 0 and version.stdout.startswith("azul-fast ")


COMMAND_MENTION = re.compile(rf"azul-fast ({'|'.join(COMMANDS + ['train'])})\b([^\"'`\n]*)")


def _options_of(command: str) -> set[str]:
    parser = cli.build_parser()
    sub = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return {option for action in sub.choices[command]._actions for option in action.option_strings}


def test_every_option_a_message_or_page_names_exists_on_its_command():
    """A hint once named `strength --thorough`, which strength refused: every `azul-fast CMD ... --opt`
    in the code's messages and the documentation names an option CMD has."""
    root = SRC.parent
    files = [*(SRC / "azul_fast").rglob("*.py"), root / "README.md", *(root / "docs").glob("*.md"),
             root / "analysis" / "README.md"]
    checked = 0
    for path in files:
        for command, rest in COMMAND_MENTION.findall(path.read_text()):
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest.split("#")[0]):
                assert option in _options_of(command) | {"--help"}, f"{path.name}: azul-fast {command} ... {option}"
                checked += 1
    assert checked >= 30
