"""The openings and move-level scripts of analysis/: one run per policy, each writing its own rows,
resuming where it stopped, refusing one-move policies (played small, with `fast`, into a temporary folder)."""

import importlib.util
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script(name, tmp_path, monkeypatch):
    """analysis/<name>.py as a module whose results and figures go under `tmp_path`."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "analysis" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "HERE", tmp_path)
    for constant, value in (("MOVES", tmp_path / "results" / "opening_types_moves.csv"),
                            ("TYPES", tmp_path / "results" / "opening_types_by_rollouts.csv"),
                            ("RESULTS", tmp_path / "results"), ("FIGURES", tmp_path / "figures")):
        if hasattr(module, constant):
            monkeypatch.setattr(module, constant, value)
    return module


def _run(module, monkeypatch, *argv):
    monkeypatch.setattr(sys, "argv", [module.__name__, *argv])
    module.main()


def test_opening_types_plays_a_deal_at_a_time_and_resumes(tmp_path, monkeypatch, capsys):
    script = _script("opening_types", tmp_path, monkeypatch)
    _run(script, monkeypatch, "--policy", "fast", "--deals", "2", "--rollouts", "2")
    moves = pd.read_csv(tmp_path / "results" / "opening_types_moves.csv", dtype={"deal": "uint64"})
    types = pd.read_csv(tmp_path / "results" / "opening_types_by_rollouts.csv")
    assert moves.deal.nunique() == 2 and set(moves.policy) == {"fast"} and set(moves.rollouts) == {2}
    assert set(types.policy) == {"fast"} and types.moves.sum() == len(moves)
    assert (tmp_path / "figures" / "opening_types_fast.png").exists()
    capsys.readouterr()
    _run(script, monkeypatch, "--policy", "fast", "--deals", "3", "--rollouts", "2")
    assert "fast: 2 of 3 deals already played" in capsys.readouterr().out
    again = pd.read_csv(tmp_path / "results" / "opening_types_moves.csv", dtype={"deal": "uint64"})
    pd.testing.assert_frame_equal(again[again.deal.isin(moves.deal)].reset_index(drop=True), moves)
    with pytest.raises(SystemExit, match="holds fast deals of \\[2\\] rollouts, not 3"):
        _run(script, monkeypatch, "--policy", "fast", "--deals", "3", "--rollouts", "3")


@pytest.mark.parametrize("name", ["opening_types", "opening_ranking", "move_studies"])
def test_the_scripts_refuse_a_one_move_policy(name, tmp_path, monkeypatch, capsys):
    script = _script(name, tmp_path, monkeypatch)
    with pytest.raises(SystemExit):
        _run(script, monkeypatch, "--policy", "heuristic")
    assert "give a search policy" in capsys.readouterr().err
    assert not (tmp_path / "results").exists()


def test_opening_ranking_keeps_each_policys_rows(tmp_path, monkeypatch):
    script = _script("opening_ranking", tmp_path, monkeypatch)
    _run(script, monkeypatch, "--policy", "fast", "--games", "40", "--deals", "5", "--rollouts", "2")
    _run(script, monkeypatch, "--policy", "mcts:2", "--games", "40", "--deals", "5", "--rollouts", "2")
    for name in ("opening_types.csv", "opening_ranking_5.csv", "opening_rollout_types.csv"):
        table = pd.read_csv(tmp_path / "results" / name)
        assert list(dict.fromkeys(table.policy)) == ["fast", "mcts:2"], name
    assert (tmp_path / "figures" / "opening_ranking_5_mcts-2.png").exists()


def test_move_studies_name_the_policy_and_the_sizes(tmp_path, monkeypatch):
    script = _script("move_studies", tmp_path, monkeypatch)
    _run(script, monkeypatch, "--policy", "fast", "--games", "120", "--positions", "3", "--rollouts", "2")
    by_round = pd.read_csv(tmp_path / "results" / "moves_marker_by_round.csv")
    rollouts = pd.read_csv(tmp_path / "results" / "moves_marker_rollouts.csv")
    assert set(by_round.policy) == {"fast"} and set(by_round.games) == {120}
    assert set(rollouts.games) == {3} and set(rollouts.rollouts) == {2}
    assert (tmp_path / "figures" / "moves_score_curve_fast.png").exists()
