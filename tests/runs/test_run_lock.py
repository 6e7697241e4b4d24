"""One writer per run folder: two writers leave one run, a second is refused naming the holder, a stale lock
is taken over, and a full disk leaves no draft of the lock or the manifest."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from children import python_child

from azul_fast import cli, load, simulate
from azul_fast.runs.folders import run_to_folder
from azul_fast.runs.lock import LOCK, RunLockedError, run_lock
from azul_fast.runs.manifest import MANIFEST

GAMES, CHUNK, SEED = 60_000, 2_000, 31


def test_two_writers_started_together_leave_one_run(tmp_path):
    """Both used to succeed now and then, leaving a folder of mixed parts that loaded silently."""
    folder = tmp_path / "run"
    code = ("import sys; from azul_fast.runs.folders import run_to_folder; "
            "run_to_folder(sys.argv[1], 4000, policies='random', seed=int(sys.argv[2]), chunk_size=250, workers=1)")
    children = [python_child(code, str(folder), seed) for seed in ("1", "2")]
    results = [(child.wait(timeout=120), child.stderr.read()) for child in children]
    winners = [seed for seed, (rc, _) in zip((1, 2), results) if rc == 0]
    assert len(winners) == 1, results
    loser_error = next(err for rc, err in results if rc != 0)
    assert "RunLockedError" in loser_error or "already holds a run" in loser_error, loser_error
    pd.testing.assert_frame_equal(load(folder), simulate(4000, policies="random", seed=winners[0], workers=1))


def test_a_second_writer_is_refused_naming_the_holder(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    with run_lock(folder):
        with pytest.raises(RunLockedError, match=rf"pid {os.getpid()} on {socket.gethostname()}"):
            run_to_folder(folder, 100, seed=1, workers=1)
    assert not (folder / MANIFEST).exists()
    run_to_folder(folder, 100, seed=1, workers=1)  # released
    assert not (folder / LOCK).exists() and len(load(folder)) == 100


def test_a_stale_lock_from_a_killed_run_is_taken_over(tmp_path):
    folder = tmp_path / "run"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    folder.mkdir()
    (folder / LOCK).write_text(json.dumps({"pid": dead.pid, "host": socket.gethostname(),
                                           "started": "2026-11-30T00:00:00Z", "token": "x"}))
    run_to_folder(folder, 100, seed=1, workers=1)
    assert not (folder / LOCK).exists() and len(load(folder)) == 100


def test_a_lock_held_on_another_host_is_not_guessed_stale(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / LOCK).write_text(json.dumps({"pid": 1, "host": "elsewhere.example", "started": "then", "token": "x"}))
    with pytest.raises(RunLockedError, match=r"pid 1 on elsewhere\.example.*delete .*_run\.lock"):
        run_to_folder(folder, 100, seed=1, workers=1)


def _full_disk(monkeypatch, prefix: str) -> None:
    """Writes of files whose names start with `prefix` stop half-way on a full disk."""
    real = Path.write_text

    def write_text(self: Path, data: str, *args, **kwargs) -> int:
        if not self.name.startswith(prefix):
            return real(self, data, *args, **kwargs)
        real(self, data[:5])
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", write_text)


@pytest.mark.parametrize("prefix", [f".{LOCK}.", f".{MANIFEST}."])
def test_a_full_disk_leaves_no_draft_of_the_lock_or_manifest(tmp_path, monkeypatch, capsys, prefix):
    folder = tmp_path / "run"
    _full_disk(monkeypatch, prefix)
    assert cli.main(["simulate", "--games", "100", "--seed", "1", "--out", str(folder)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(folder.iterdir()) == []
