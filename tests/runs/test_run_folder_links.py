"""A run is never written where a link points: `--out` (or a dataset) that is a symbolic link, to an
empty folder or dangling, is refused in one line, and nothing is written at its target."""

from __future__ import annotations

import pytest

from azul_fast import cli
from azul_fast.runs.folders import run_to_folder


@pytest.fixture(params=["to-an-empty-folder", "dangling"])
def link(request, tmp_path):
    target = tmp_path / "target"
    if request.param == "to-an-empty-folder":
        target.mkdir()
    link = tmp_path / "run"
    link.symlink_to(target)
    return link, target


def _untouched(target):
    return not target.exists() or list(target.iterdir()) == []


def test_run_to_folder_refuses_a_link(link):
    path, target = link
    with pytest.raises(ValueError, match=f"{path} is a symbolic link .*output never follows a link"):
        run_to_folder(path, 20, seed=1, workers=1)
    assert _untouched(target)


@pytest.mark.parametrize("slash", ["", "/"])
def test_simulate_out_refuses_a_link_in_one_line(link, capsys, slash):
    path, target = link
    assert cli.main(["simulate", "--games", "20", "--out", f"{path}{slash}"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is a symbolic link" in err, err
    assert _untouched(target)
