"""Long runs to a folder survive being killed: a resumed run equals an uninterrupted one."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from children import interruptible

from azul_fast import cli, load, save, simulate
from azul_fast.runs.files import UnreadableFileError, file_digest, read_file
from azul_fast.runs.folders import part_size, run_to_folder
from azul_fast.runs.lock import LOCK, RunLockedError, run_lock
from azul_fast.runs.manifest import MANIFEST, RunMismatchError, part_name
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


# -- attacks: one run per folder, and every part belongs to it ------------------------------


def _child(code: str, *argv: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=interruptible)


def test_two_writers_started_together_leave_one_run(tmp_path):
    """Both used to succeed now and then, leaving a folder of mixed parts that loaded silently."""
    folder = tmp_path / "run"
    code = ("import sys; from azul_fast.runs.folders import run_to_folder; "
            "run_to_folder(sys.argv[1], 4000, policies='random', seed=int(sys.argv[2]), chunk_size=250, workers=1)")
    children = [_child(code, str(folder), seed) for seed in ("1", "2")]
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


@pytest.fixture
def finished(tmp_path):
    """A finished 2-player run of 3 parts, and a finished 3-player run with the same part names."""
    run_to_folder(tmp_path / "three", 300, players=3, seed=8, chunk_size=100, workers=1)
    return run_to_folder(tmp_path / "run", 300, seed=7, chunk_size=100, workers=1)


def test_a_part_of_another_run_is_refused_by_load_and_resume(finished):
    stranger = finished.parent / "three" / "part-000000000100.parquet"
    shutil.copy(stranger, finished / "part-000000000100.parquet")
    with pytest.raises(RunMismatchError, match=r"part-000000000100\.parquet.*another run.*players"):
        load(finished)
    with pytest.raises(RunMismatchError, match=r"part-000000000100\.parquet"):
        run_to_folder(finished, 300, seed=7, chunk_size=100, workers=1, resume=True)


def test_a_part_moved_to_another_place_in_its_run_is_refused(finished):
    shutil.copy(finished / "part-000000000200.parquet", finished / "part-000000000100.parquet")
    with pytest.raises(RunMismatchError, match=r"part-000000000100\.parquet holds games 200\.\.299, not 100\.\.199"):
        load(finished)


def test_another_runs_manifest_copied_in_is_refused_on_resume(finished):
    shutil.copy(finished.parent / "three" / MANIFEST, finished / MANIFEST)
    with pytest.raises(RunMismatchError, match=r"part-000000000000\.parquet.*another run"):
        run_to_folder(finished, 300, players=3, chunk_size=100, workers=1, resume=True)
    with pytest.raises(RunMismatchError, match=r"part-000000000000\.parquet"):
        load(finished)


def test_resume_with_another_seed_is_refused(finished):
    """It used to continue silently with the folder's seed."""
    with pytest.raises(ValueError, match="differs in root_seed"):
        run_to_folder(finished, 300, seed=8, chunk_size=100, workers=1, resume=True)
    run_to_folder(finished, 300, seed=7, chunk_size=100, workers=1, resume=True)  # the same seed is fine


# -- attacks: never write into or clean a folder that is not a run ----------------------------


def test_resume_refuses_a_folder_that_is_not_a_run_and_touches_nothing(tmp_path):
    folder = tmp_path / "u"
    folder.mkdir()
    (folder / ".draft.tmp").write_text("draft")
    (folder / "notes.txt").write_text("notes")
    with pytest.raises(ValueError, match="holds no run manifest"):
        run_to_folder(folder, 100, seed=1, resume=True)
    assert sorted(p.name for p in folder.iterdir()) == [".draft.tmp", "notes.txt"]


def test_resume_deletes_only_the_temporary_files_its_writers_named(finished):
    """A killed write leaves a temporary file named with its writer's token, which the manifest
    lists; a user's file named like a temporary part, but not with that token, is kept."""
    (finished / "part-000000000100.parquet").unlink()
    token = json.loads((finished / MANIFEST).read_text())["writers"][-1]
    mine = finished / f".part-000000000100.parquet.{token}.tmp"  # as a killed write leaves it
    mine.write_text("half a part")
    users = [finished / ".draft.tmp", finished / ".part-000000000100.parquet.tmp.bak", finished / "notes.tmp",
             finished / ".part-000000000000.parquet.my-notes.tmp", finished / ".part-000000000100.parquet.k3j2h1.tmp",
             finished / f".part-000000000200.parquet.{'0' * 16}.tmp"]
    for path in users:
        path.write_text("the user's")
    run_to_folder(finished, 300, seed=7, chunk_size=100, workers=1, resume=True)
    assert not mine.exists() and all(path.read_text() == "the user's" for path in users)


def test_a_manifest_whose_writers_are_not_tokens_is_refused(finished):
    manifest = json.loads((finished / MANIFEST).read_text())
    manifest["writers"].append("../../elsewhere")
    (finished / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="'writers' should list tokens of 16 hex digits"):
        run_to_folder(finished, 300, seed=7, chunk_size=100, workers=1, resume=True)


def test_an_empty_path_is_not_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="out: an empty path"):
        run_to_folder("", 10, seed=1)
    assert not list(tmp_path.iterdir())


# -- attacks: malformed manifests name the file and what is wrong ------------------------------


MANGLED = {
    "parts missing": (lambda m: {k: v for k, v in m.items() if k != "parts"}, "no 'parts'"),
    "a JSON list": (lambda m: [m], "not a JSON object"),
    "root_seed missing": (lambda m: {k: v for k, v in m.items() if k != "root_seed"}, "no 'root_seed'"),
    "root_seed not a number": (lambda m: {**m, "root_seed": "abc"}, "'root_seed'"),
    "parts renamed": (lambda m: {**m, "parts": ["../../etc/passwd"] * 3}, "'parts'"),
    "players wrong type": (lambda m: {**m, "players": "2"}, "'players'"),
}


@pytest.mark.parametrize("mangle, message", MANGLED.values(), ids=MANGLED.keys())
def test_a_malformed_manifest_is_named_with_what_is_wrong(finished, mangle, message):
    path = finished / MANIFEST
    path.write_text(json.dumps(mangle(json.loads(path.read_text()))))
    for attempt in (lambda: load(finished),
                    lambda: run_to_folder(finished, 300, chunk_size=100, workers=1, resume=True)):
        with pytest.raises(ValueError, match=rf"{re.escape(str(path))}: .*{re.escape(message)}"):
            attempt()


def test_a_manifest_that_is_not_json_is_named(finished):
    (finished / MANIFEST).write_text("{not json")
    with pytest.raises(ValueError, match=rf"{re.escape(str(finished / MANIFEST))}: not valid JSON"):
        load(finished)


# -- parts sized by work: Ctrl-C stops within seconds, resume finishes the same run ------------


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
    child = _child(code, str(folder))
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
    child = _child(code)
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


# -- attacks: a changed part never loads as other numbers; every refusal names the file ------


def _rewrite(path: Path, change) -> None:
    """Rewrite a part with `change` applied to its arrow table, its metadata (the run's stamp) kept."""
    table = pq.read_table(path)
    pq.write_table(change(table), path)


def _as_written_by_0_2_0(folder: Path) -> None:
    """Make the run one that azul_fast 0.2.0 wrote: a manifest of format 1 without digests or
    writers, and parts without page checksums (pyarrow's default), their metadata kept."""
    manifest = json.loads((folder / MANIFEST).read_text())
    for key in ("digests", "writers"):
        del manifest[key]
    manifest["format"] = "azul_fast/run/1"
    (folder / MANIFEST).write_text(json.dumps(manifest))
    for name in manifest["parts"]:
        _rewrite(folder / name, lambda table: table)


def _drop_digests(folder: Path, *names: str) -> dict:
    """Remove the digests of the parts `names` (all of them, and the key, if none is named)."""
    manifest = json.loads((folder / MANIFEST).read_text())
    if names:
        for name in names:
            del manifest["digests"][name]
    else:
        del manifest["digests"]
    (folder / MANIFEST).write_text(json.dumps(manifest))
    return manifest


def _edit_score(path: Path, row: int = 3) -> None:
    """Change one score of a part with pyarrow, its schema metadata (the run's stamp) kept."""
    def change(table: pa.Table) -> pa.Table:
        scores = table["score_0"].to_numpy().copy()
        scores[row] += 1
        return table.set_column(table.schema.get_field_index("score_0"), "score_0", pa.array(scores))
    _rewrite(path, change)


def test_every_part_has_its_digest_in_the_manifest(finished):
    manifest = json.loads((finished / MANIFEST).read_text())
    assert manifest["digests"] == {name: {"games": file_digest(finished / name)} for name in manifest["parts"]}


def test_bit_flips_in_a_part_never_load(finished):
    path = finished / part_name(100)
    original = path.read_bytes()
    rng = np.random.default_rng(23)
    for offset in rng.integers(4, len(original) - 8, size=40):  # past the magic bytes, any page or footer
        flipped = bytearray(original)
        flipped[offset] ^= 1 << int(rng.integers(8))
        path.write_bytes(bytes(flipped))
        with pytest.raises(ValueError, match=re.escape(str(path))):
            load(finished)
        with pytest.raises(ValueError, match=re.escape(str(path))):  # never "the run was already finished"
            run_to_folder(finished, 300, seed=7, workers=1, resume=True)
    path.write_bytes(original)
    assert len(load(finished)) == 300


def test_page_checksums_catch_a_flip_in_a_single_file(tmp_path):
    path = tmp_path / "games.parquet"
    save(simulate(2_000, seed=4, workers=1), path)
    original = path.read_bytes()
    meta = pq.read_metadata(path)
    for i in range(meta.num_columns):
        chunk = meta.row_group(0).column(i)
        start = chunk.dictionary_page_offset or chunk.data_page_offset
        flipped = bytearray(original)
        flipped[start + chunk.total_compressed_size - 3] ^= 0x10  # inside the last page's values
        path.write_bytes(bytes(flipped))
        with pytest.raises(UnreadableFileError, match=re.escape(str(path))):
            read_file(path)


def test_bit_flips_in_a_saved_file_are_refused_or_harmless(tmp_path):
    """Anywhere in the file, and on every byte of the footer (column names, types, the attrs and
    their key): the file is refused, or loads exactly as saved, never a renamed column or lost attrs."""
    df = simulate(500, seed=4, workers=1)
    path = tmp_path / "games.parquet"
    save(df, path)
    original = path.read_bytes()
    footer = int.from_bytes(original[-8:-4], "little")
    rng = np.random.default_rng(59)
    offsets = [*rng.integers(0, len(original), size=300), *rng.integers(len(original) - 8 - footer, len(original), 700)]
    altered = []
    for offset in offsets:
        flipped = bytearray(original)
        flipped[offset] ^= 1 << int(rng.integers(8))
        path.write_bytes(bytes(flipped))
        try:
            back = load(path)
        except (ValueError, OSError):
            continue
        if not (back.equals(df) and list(back.columns) == list(df.columns) and back.attrs == df.attrs):
            altered.append(offset)
    assert not altered, f"flips at {altered[:5]} loaded altered"
    path.write_bytes(original)
    assert load(path).equals(df)


@pytest.mark.parametrize("change", ["rename", "attrs"])
def test_a_saved_file_renamed_column_or_lost_attrs_is_refused(tmp_path, capsys, change):
    path = tmp_path / "games.parquet"
    save(simulate(100, seed=4, workers=1), path)
    if change == "rename":  # in the schema, pandas' metadata and the attrs: a file consistent but for the checksum
        path.write_bytes(path.read_bytes().replace(b"game", b"gama"))
    else:  # the attrs gone, everything else kept (the checksum too)
        table = pq.read_table(path)
        kept = {key: value for key, value in table.schema.metadata.items() if key != b"azul_fast"}
        pq.write_table(table.replace_schema_metadata(kept), path, write_page_checksum=True)
    with pytest.raises(UnreadableFileError, match=re.escape(str(path))):
        load(path)
    assert cli.main(["seats", str(path)]) == 2
    assert str(path) in capsys.readouterr().err


def test_save_never_replaces_a_file_or_writes_through_a_link(tmp_path):
    df = simulate(10, seed=1, workers=1)
    notes = tmp_path / "user.parquet"
    notes.write_text("the user's")
    link = tmp_path / "link.parquet"
    link.symlink_to(tmp_path / "elsewhere" / "x.parquet")  # dangling
    for path in (notes, link):
        with pytest.raises(FileExistsError, match="overwrite=True"):
            save(df, path)
    assert notes.read_text() == "the user's" and not (tmp_path / "elsewhere").exists()
    save(df, link, overwrite=True)  # replaces the link itself, never what it points to
    assert not link.is_symlink() and load(link).equals(df) and not (tmp_path / "elsewhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.parquet", "user.parquet"]


WRITE_THEN_SIGNAL = """
import os, signal, sys
import pyarrow.parquet as pq
from azul_fast import cli
real = pq.write_table
def write_table(table, where, **options):
    real(table.slice(0, 10), where, **options)  # part of the file is on disk
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
    real(table, where, **options)
pq.write_table = write_table
sys.exit(cli.main(["simulate", "--games", "300", "--seed", "1", "--workers", "1", "--out", sys.argv[1]]))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_sigterm_while_a_single_file_is_written_cleans_up_and_says_so(tmp_path, sig):
    out = tmp_path / "games.parquet"
    child = subprocess.run([sys.executable, "-c", WRITE_THEN_SIGNAL, str(out), sig], capture_output=True, text=True,
                           timeout=120, preexec_fn=interruptible)
    assert child.returncode == 128 + getattr(signal, sig), child.stderr
    assert f"interrupted ({sig})" in child.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_score_edited_with_pyarrow_is_refused(finished):
    path = finished / part_name(200)
    _rewrite(path, lambda t: t.set_column(t.schema.get_field_index("score_0"), "score_0",
                                          pa.array(np.zeros(t.num_rows, np.int16))))
    with pytest.raises(RunMismatchError, match=re.escape(f"{path} is not the file this run wrote")):
        load(finished)
    with pytest.raises(RunMismatchError, match=re.escape(str(path))):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True)


def test_seeds_are_checked_against_the_root_seed_without_digests(finished):
    _as_written_by_0_2_0(finished)  # a run written before digests: the rows are still checked
    path = finished / part_name(100)
    seeds = pq.read_table(path)["seed"].to_numpy().copy()
    seeds[7] += 1
    _rewrite(path, lambda t: t.set_column(t.schema.get_field_index("seed"), "seed", pa.array(seeds)))
    with pytest.raises(RunMismatchError, match=re.escape(f"{path}: game 107 has seed {seeds[7]}, but the run's root "
                                                         "seed 7 gives it")):
        load(finished)


@pytest.mark.parametrize("digests", [True, False], ids=["digests", "no-digests"])
def test_a_row_duplicated_inside_a_part_is_refused_naming_it(finished, digests):
    if not digests:
        _as_written_by_0_2_0(finished)
    path = finished / part_name(100)
    _rewrite(path, lambda t: t.take([*range(5), 4, *range(6, t.num_rows)]))  # game 104 twice, 105 gone
    assert pq.read_metadata(path).num_rows == 100
    # With its digest recorded the part is compared byte for byte; without, its rows are read.
    refusal = re.escape(f"{path} is not the file this run wrote" if digests else f"{path}: row 5 holds game 104, "
                        "not game 105")
    with pytest.raises(RunMismatchError, match=refusal):
        load(finished)
    with pytest.raises(RunMismatchError, match=refusal):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True)


def test_a_part_without_its_digest_is_checked_and_recorded_on_resume(finished):
    manifest = json.loads((finished / MANIFEST).read_text())
    del manifest["digests"][part_name(200)]  # as a kill between the part's rename and the manifest leaves it
    (finished / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(RunMismatchError, match=re.escape(f"{finished / part_name(200)} has no digest")):
        load(finished)
    run_to_folder(finished, 300, seed=7, workers=1, resume=True)
    assert part_name(200) in json.loads((finished / MANIFEST).read_text())["digests"]
    pd.testing.assert_frame_equal(load(finished), simulate(300, seed=7, workers=1))


def test_a_run_written_before_digests_loads_and_says_it_is_checked_by_rows(finished):
    _as_written_by_0_2_0(finished)
    with pytest.warns(UserWarning, match="written by azul_fast 0.2.0, before run manifests recorded digests"):
        pd.testing.assert_frame_equal(load(finished), simulate(300, seed=7, workers=1))


def test_resume_refuses_an_edited_part_that_has_no_digest_yet(finished):
    """A kill between a part's rename and the manifest leaves it without a digest; edited then,
    keeping its game numbers, seeds and stamp, it is played again and refused, not recorded."""
    path = finished / part_name(100)
    _drop_digests(finished, part_name(100))
    _edit_score(path)
    refusal = re.escape(f"{path} has no digest in {MANIFEST} and does not hold the games this run plays")
    with pytest.raises(RunMismatchError, match=refusal):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True)
    assert cli.main(["simulate", "--games", "300", "--out", str(finished), "--resume"]) == 2
    assert part_name(100) not in json.loads((finished / MANIFEST).read_text())["digests"]
    with pytest.raises(RunMismatchError, match=re.escape(f"{path} has no digest")):
        load(finished)


@pytest.mark.parametrize("format_1", [False, True], ids=["format-2", "format-1"])
def test_a_manifest_that_lost_its_digests_is_refused(finished, format_1):
    """Deleting the digests (and even saying the manifest is of 0.2.0's format) does not make an
    edited part load: the parts themselves show they were written by a version that records them."""
    manifest = _drop_digests(finished)
    if format_1:
        manifest["format"] = "azul_fast/run/1"
        del manifest["writers"]
        (finished / MANIFEST).write_text(json.dumps(manifest))
    _edit_score(finished / part_name(200))
    refusal = "no 'digests'" if not format_1 else "has no digests, but .* was written by a version of azul_fast"
    with pytest.raises(ValueError, match=refusal):
        load(finished)
    with pytest.raises(ValueError, match=refusal):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True)


def test_a_cut_short_part_and_bad_metadata_are_named(finished, tmp_path):
    path = finished / part_name(0)
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(RunMismatchError, match=re.escape(f"{path} is not a readable parquet part")):
        load(finished)
    single = tmp_path / "bad.parquet"
    table = pa.table({"a": [1]}).replace_schema_metadata({b"azul_fast": b'{"root_seed": '})
    pq.write_table(table, single)
    with pytest.raises(UnreadableFileError, match=re.escape(f"{single}: its azul_fast metadata is not valid JSON")):
        load(single)


def test_a_folder_name_that_is_not_utf8_is_a_run_like_any_other(tmp_path, capsys):
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/run-\xff"))
    run_to_folder(folder, 300, seed=7, chunk_size=100, workers=1)
    pd.testing.assert_frame_equal(load(folder), simulate(300, seed=7, workers=1))
    run_to_folder(folder, 300, seed=7, workers=1, resume=True)
    assert cli.main(["seats", str(folder)]) == 0, capsys.readouterr().err


def test_seats_on_dev_null_says_what_is_wrong(capsys):
    assert cli.main(["seats", "/dev/null"]) == 2
    assert "/dev/null is not a readable parquet file (" in capsys.readouterr().err


@pytest.mark.parametrize("make", ["missing", "empty"])
def test_resume_of_a_folder_without_a_run_is_an_error(tmp_path, capsys, make):
    folder = tmp_path / "rnu"  # a mistyped name
    if make == "empty":
        folder.mkdir()
    assert cli.main(["simulate", "--games", "100", "--out", str(folder), "--resume"]) == 2
    err = capsys.readouterr().err
    assert f"resume: {folder} " in err and "there is no run to finish" in err
    assert (make == "empty") == folder.exists() and not (folder.exists() and any(folder.iterdir()))


def test_out_with_a_trailing_slash_is_a_folder_even_named_parquet(tmp_path, capsys):
    out = tmp_path / "x.parquet"
    assert cli.main(["simulate", "--games", "100", "--seed", "2", "--out", f"{out}/"]) == 0, capsys.readouterr().err
    assert out.is_dir() and (out / MANIFEST).is_file()
    pd.testing.assert_frame_equal(load(out), simulate(100, seed=2, workers=1))


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
