"""Long runs to a folder survive being killed: a resumed run equals an uninterrupted one."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from azul_fast import load, simulate
from azul_fast.runs import MANIFEST, run_to_folder

GAMES, CHUNK, SEED = 60_000, 2_000, 31
CHILD = (
    "import sys; from azul_fast.runs import run_to_folder; "
    f"run_to_folder(sys.argv[1], {GAMES}, policies='random', seed={SEED}, chunk_size={CHUNK}, workers=1)"
)


@pytest.fixture(scope="module")
def uninterrupted():
    return simulate(GAMES, policies="random", seed=SEED, workers=2)


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet")) if folder.exists() else []


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_run_killed_mid_way_resumes_to_the_uninterrupted_result(tmp_path, uninterrupted, sig):
    folder = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(_parts(folder)) < 3 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.005)
    child.send_signal(sig)
    child.wait(timeout=30)
    written = len(_parts(folder))
    assert 0 < written < GAMES // CHUNK, "the kill should land mid-run"
    with pytest.raises(ValueError, match="unfinished"):
        load(folder)

    before = {p.name: p.stat().st_mtime_ns for p in _parts(folder)}
    run_to_folder(folder, GAMES, policies="random", seed=None, chunk_size=CHUNK, workers=2, resume=True)
    after = {p.name: p.stat().st_mtime_ns for p in _parts(folder)}
    assert all(after[name] == mtime for name, mtime in before.items()), "finished parts were recomputed"
    assert len(after) == GAMES // CHUNK

    df = load(folder)
    assert df.game.tolist() == list(range(GAMES))
    pd.testing.assert_frame_equal(df, uninterrupted)
    assert not list(folder.glob(".*.tmp"))


def test_a_finished_folder_is_never_overwritten(tmp_path):
    folder = tmp_path / "run"
    run_to_folder(folder, 1000, seed=1, chunk_size=400, workers=1)
    with pytest.raises(ValueError, match="resume"):
        run_to_folder(folder, 1000, seed=1, chunk_size=400, workers=1)
    with pytest.raises(ValueError, match="differs in n_games"):
        run_to_folder(folder, 2000, seed=1, chunk_size=400, workers=1, resume=True)
    assert json.loads((folder / MANIFEST).read_text())["n_games"] == 1000
    assert len(load(folder)) == 1000


def test_folder_runs_refuse_a_file_a_stranger_folder_and_python_policies(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="not a folder"):
        run_to_folder(tmp_path / "file", 10, seed=1)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty"):
        run_to_folder(tmp_path / "other", 10, seed=1)
    with pytest.raises(ValueError, match="built-in"):
        run_to_folder(tmp_path / "new", 10, seed=1, policies=lambda s: next(iter(s.legal_moves)))


def test_a_run_folder_is_a_parquet_dataset_for_pandas(tmp_path):
    folder = run_to_folder(tmp_path / "run", 3000, players=4, policies="greedy", seed=2, chunk_size=1000, workers=2)
    plain = pd.read_parquet(folder)
    assert sorted(plain.game) == list(range(3000))
