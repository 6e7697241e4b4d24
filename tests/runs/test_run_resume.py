"""Long runs to a folder survive being killed: a resumed run equals an uninterrupted one, and its parts are
sized by the work so Ctrl-C stops it within seconds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from children import interruptible, python_child

from azul_fast import cli, load, save, simulate
from azul_fast.runs.folders import part_size, run_to_folder
from azul_fast.runs.manifest import MANIFEST, part_name
from azul_fast.runs.plan import plan_run

GAMES, CHUNK, SEED = 60_000, 2_000, 31


CHILD = (
    "import sys; from azul_fast.runs.folders import run_to_folder; "
    f"run_to_folder(sys.argv[1], {GAMES}, policies='random', seed={SEED}, chunk_size={CHUNK}, workers=1)"
)


@pytest.fixture(scope="module")
def uninterrupted():
    return simulate(GAMES, policies="random", seed=SEED, workers=2)


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet")) if folder.exists() else []


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_a_run_killed_mid_way_resumes_to_the_uninterrupted_result(tmp_path, uninterrupted, sig):
    folder = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stderr=subprocess.PIPE,
                             preexec_fn=interruptible)
    deadline = time.monotonic() + 60
    while len(_parts(folder)) < 3 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.005)
    child.send_signal(sig)
    child.wait(timeout=30)
    written = len(_parts(folder))
    assert 0 < written < GAMES // CHUNK, "the kill should land mid-run"
    with pytest.raises(ValueError, match="unfinished"):
        load(folder)
    if sig != signal.SIGKILL:  # a stop it could see: every part it finished has its digest recorded
        assert set(json.loads((folder / MANIFEST).read_text())["digests"]) == {p.name for p in _parts(folder)}

    before = {p.name: p.stat().st_mtime_ns for p in _parts(folder)}
    run_to_folder(folder, GAMES, policies="random", seed=None, chunk_size=CHUNK, workers=2, resume=True)
    after = {p.name: p.stat().st_mtime_ns for p in _parts(folder)}
    assert all(after[name] == mtime for name, mtime in before.items()), "finished parts were recomputed"
    assert len(after) == GAMES // CHUNK

    df = load(folder)
    assert df.game.tolist() == list(range(GAMES))
    pd.testing.assert_frame_equal(df, uninterrupted)
    assert not list(folder.glob(".*.tmp"))


def test_a_run_under_nohup_outlives_its_terminal(tmp_path, uninterrupted):
    """SIGHUP stops a run like Ctrl-C, unless the process ignores it, as under nohup."""
    folder = tmp_path / "run"

    def nohup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stderr=subprocess.PIPE, preexec_fn=nohup)
    deadline = time.monotonic() + 60
    while len(_parts(folder)) < 3 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.005)
    child.send_signal(signal.SIGHUP)
    assert child.wait(timeout=120) == 0, child.stderr.read()
    pd.testing.assert_frame_equal(load(folder), uninterrupted)


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


def test_parts_are_sized_by_the_policies_cost():
    random_part = part_size(plan_run(10**7, 2, "random", 1))
    search_part = part_size(plan_run(10**7, 2, "mcts", 1))
    assert 1 <= search_part < 100 < random_part <= 100_000  # a 200-game mcts run uses two threads
    assert part_size(plan_run(10**7, 2, "mcts:10", 1)) > search_part  # a smaller budget, more games
    mixed = part_size(plan_run(10**7, 2, ["mcts", "random"], 1))
    assert search_part < mixed < 3 * search_part


def test_a_folder_made_with_other_parts_resumes_with_its_own(tmp_path):
    folder = run_to_folder(tmp_path / "run", 1000, seed=4, chunk_size=300, workers=1)
    (folder / "part-000000000300.parquet").unlink()
    run_to_folder(folder, 1000, seed=4, workers=1, resume=True)  # as run_on_cluster's folders: other sizes
    pd.testing.assert_frame_equal(load(folder), simulate(1000, seed=4, workers=1))
    with pytest.raises(ValueError, match="differs in chunk_size"):
        run_to_folder(folder, 1000, seed=4, chunk_size=500, workers=1, resume=True)


def test_ctrl_c_stops_a_search_run_within_seconds_and_resume_finishes_it(tmp_path):
    """A 200-game mcts run used to wait 31 s for its one part: now every part is a few seconds."""
    size = part_size(plan_run(1, 2, "mcts:100", 1))
    search = dict(n_games=2 * size + 10, policies="mcts:100", seed=12)  # parts of size, size and 10 games
    folder = tmp_path / "run"
    code = ("import sys; from azul_fast.runs.folders import run_to_folder; "
            f"run_to_folder(sys.argv[1], {search['n_games']}, policies='mcts:100', seed=12, workers=1)")
    child = python_child(code, str(folder))
    deadline = time.monotonic() + 60
    while not _parts(folder) and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.01)
    assert child.poll() is None, child.stderr.read()
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    child.wait(timeout=30)
    # The second part, a few seconds of play, is finished; generous for a loaded machine.
    assert time.monotonic() - sent < 8, "Ctrl-C should stop the run within a few seconds"
    assert "KeyboardInterrupt" in child.stderr.read()
    written = [p.name for p in _parts(folder)]
    assert written in ([part_name(0)], [part_name(0), part_name(size)]), written  # not the last part
    run_to_folder(folder, **search, workers=2, resume=True)
    pd.testing.assert_frame_equal(load(folder), simulate(**search, workers=2))


def test_ctrl_c_stops_python_policies_at_once(tmp_path):
    """simulate() with a Python policy used to finish a thread's whole chunk of slow games first."""
    code = ("import sys, time\n"
            "from azul_fast import simulate\n"
            "def slow(state):\n"
            "    print('playing', flush=True); time.sleep(0.002)\n"
            "    return state.legal_moves[0]\n"
            "simulate(2000, policies=[slow, 'random'], seed=1, workers=2)\n")
    child = python_child(code)
    assert child.stdout.readline() == "playing\n"
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    child.wait(timeout=60)
    assert time.monotonic() - sent < 5 and "KeyboardInterrupt" in child.stderr.read()  # it took minutes


@pytest.mark.skipif(os.name != "posix", reason="file modes and umask are POSIX")
def test_parquet_files_and_parts_get_the_users_umask_permissions(tmp_path):
    """Like every other file written (manifest, SVG): not mkstemp's private 0600."""
    old = os.umask(0o022)
    try:
        simulate(10, seed=1, workers=1).pipe(save, tmp_path / "games.parquet")
        folder = run_to_folder(tmp_path / "run", 200, seed=7, chunk_size=100, workers=1)
    finally:
        os.umask(old)
    written = [tmp_path / "games.parquet", *_parts(folder), folder / MANIFEST]
    assert len(written) == 4
    assert {path.name: oct(path.stat().st_mode & 0o777) for path in written} == {
        path.name: oct(0o644) for path in written}


def test_a_folder_name_that_is_not_utf8_is_a_run_like_any_other(tmp_path, capsys):
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/run-\xff"))
    run_to_folder(folder, 300, seed=7, chunk_size=100, workers=1)
    pd.testing.assert_frame_equal(load(folder), simulate(300, seed=7, workers=1))
    run_to_folder(folder, 300, seed=7, workers=1, resume=True)
    assert cli.main(["seats", str(folder)]) == 0, capsys.readouterr().err


def test_out_with_a_trailing_slash_is_a_folder_even_named_parquet(tmp_path, capsys):
    out = tmp_path / "x.parquet"
    assert cli.main(["simulate", "--games", "100", "--seed", "2", "--out", f"{out}/"]) == 0, capsys.readouterr().err
    assert out.is_dir() and (out / MANIFEST).is_file()
    pd.testing.assert_frame_equal(load(out), simulate(100, seed=2, workers=1))
