"""A changed part or file never loads as other numbers (digests, page checksums, seeds, rows), and every
refusal names the file."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from children import interruptible

from azul_fast import cli, load, save, simulate
from azul_fast.runs.files import UnreadableFileError, file_digest, read_file
from azul_fast.runs.folders import run_to_folder
from azul_fast.runs.manifest import MANIFEST, RunMismatchError, part_name

GAMES, CHUNK, SEED = 60_000, 2_000, 31


def _rewrite(path: Path, change) -> None:
    """Rewrite a part with `change` applied to its arrow table, its metadata (the run's stamp) kept."""
    table = pq.read_table(path)
    pq.write_table(change(table), path)


def _warned_if(old: bool):
    """Expect the warning a run written before digests gives when it is read (nothing for a current run)."""
    return pytest.warns(UserWarning, match="before run manifests recorded digests") if old else contextlib.nullcontext()


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
    with _warned_if(True), pytest.raises(RunMismatchError, match=re.escape(
            f"{path}: game 107 has seed {seeds[7]}, but the run's root seed 7 gives it")):
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
    with _warned_if(not digests), pytest.raises(RunMismatchError, match=refusal):
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
