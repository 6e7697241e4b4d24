"""Every part and manifest of a run folder belongs to its run, resume never writes into or cleans a folder
that is not a run, and a malformed manifest is named with what is wrong."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from azul_fast import cli, load
from azul_fast.runs.folders import run_to_folder
from azul_fast.runs.manifest import MANIFEST, RunMismatchError

GAMES, CHUNK, SEED = 60_000, 2_000, 31


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
