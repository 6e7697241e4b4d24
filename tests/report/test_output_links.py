"""Folders written for people are never reached through a link: `report --out`, `review --out`,
`replay --svg` and `strength --out` given a symbolic link (dangling, or to an empty folder) are
refused, and nothing is written where the link points."""

from __future__ import annotations

import pandas as pd
import pytest

from azul_fast import cli, play_game
from azul_fast.report import build
from azul_fast.report.exports import check_strength_files
from azul_fast.report.game_files import write_replay_diagrams, write_review


@pytest.fixture(params=["dangling", "to-an-empty-folder"])
def link(request, tmp_path):
    target = tmp_path / "target"
    if request.param == "to-an-empty-folder":
        target.mkdir()
    link = tmp_path / "out"
    link.symlink_to(target)
    return link, target


def _untouched(link, target):
    return link.is_symlink() and (not target.exists() or list(target.iterdir()) == [])


def _never_built(config, folder, started, command, log, where=None):
    raise AssertionError("the study ran")


def test_report_out_refuses_a_link(link, monkeypatch, capsys):
    path, target = link
    monkeypatch.setattr(build, "_build", _never_built)
    with pytest.raises(ValueError, match=f"--out {path} is a symbolic link"):
        build.build_report(path, players=[2])
    assert cli.main(["report", "--quick", "--players", "2", "--out", str(path), "--quiet"]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert _untouched(path, target)
    assert not list(path.parent.glob(".*"))  # no staging folder either


def test_replay_and_review_refuse_a_link(link, capsys):
    path, target = link
    record = play_game(2, "greedy", seed=3)
    with pytest.raises(ValueError, match="is a symbolic link"):
        write_replay_diagrams(record, path)
    assert cli.main(["replay", "--seed", "3", "--quiet", "--svg", str(path)]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    with pytest.raises(ValueError, match="is a symbolic link"):
        write_review(path, pd.DataFrame())
    assert _untouched(path, target)


def test_strength_out_refuses_a_link_before_the_study(link):
    path, target = link
    with pytest.raises(ValueError, match="is a symbolic link"):
        check_strength_files(path)
    assert _untouched(path, target)
