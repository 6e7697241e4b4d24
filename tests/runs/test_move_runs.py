"""Move runs on disk: run_to_folder(moves=True) and `azul-fast simulate --moves`."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from azul_fast import cli, load, simulate, simulate_moves
from azul_fast.runs.folders import run_to_folder
from azul_fast.runs.manifest import MANIFEST, RunMismatchError, part_name, part_path

GAMES, CHUNK, SEED = 3_000, 100, 23
ARGS = dict(players=3, policies="greedy", seed=SEED)
CHILD = (
    "import sys; from azul_fast.runs.folders import run_to_folder; "
    f"run_to_folder(sys.argv[1], {GAMES}, players=3, policies='greedy', seed={SEED}, chunk_size={CHUNK}, "
    "workers=1, moves=True)"
)
TABLES = ("games", "moves", "rounds")


@pytest.fixture(scope="module")
def expected():
    return simulate_moves(GAMES, **ARGS, workers=2)


def _assert_run_equals(folder: Path, records) -> None:
    for table in TABLES:
        pd.testing.assert_frame_equal(load(folder, table=table), getattr(records, table))


def _games_parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet")) if folder.exists() else []


def test_a_move_run_killed_mid_way_resumes_to_simulate_moves(tmp_path, expected):
    folder = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(_games_parts(folder)) < 3 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert 0 < len(_games_parts(folder)) < GAMES // CHUNK, "the kill should land mid-run"
    with pytest.raises(ValueError, match="unfinished"):
        load(folder, table="moves")
    run_to_folder(folder, GAMES, **{**ARGS, "seed": None}, workers=2, resume=True, moves=True)
    _assert_run_equals(folder, expected)
    assert not list(folder.rglob(".*.tmp"))


def test_the_games_of_a_move_run_are_simulates(tmp_path, expected):
    folder = run_to_folder(tmp_path / "run", GAMES, **ARGS, chunk_size=700, workers=2, moves=True)
    pd.testing.assert_frame_equal(load(folder), simulate(GAMES, **ARGS, workers=1))
    _assert_run_equals(folder, expected)
    assert sorted(pd.read_parquet(folder).game) == list(range(GAMES))  # pandas reads the games alone
    pd.testing.assert_frame_equal(pd.read_parquet(folder / "_moves"), expected.moves, check_categorical=False)
    assert load(folder, table="moves").attrs == {**expected.games.attrs, "table": "moves"}


@pytest.fixture
def finished(tmp_path):
    return run_to_folder(tmp_path / "run", 300, seed=7, chunk_size=100, workers=1, moves=True)


def test_a_part_missing_any_table_is_played_again_and_nothing_else(finished):
    (part_path(finished, "moves", part_name(100))).unlink()
    (part_path(finished, "rounds", part_name(200))).unlink()
    kept = finished / part_name(0)
    before = kept.stat().st_mtime_ns
    with pytest.raises(ValueError, match="unfinished: 2 of 3 parts missing"):
        load(finished)
    run_to_folder(finished, 300, seed=7, workers=1, resume=True, moves=True)
    assert kept.stat().st_mtime_ns == before
    _assert_run_equals(finished, simulate_moves(300, seed=7, workers=1))


def test_a_moves_part_of_another_place_or_table_is_refused(finished):
    shutil.copy(part_path(finished, "moves", part_name(200)), part_path(finished, "moves", part_name(100)))
    with pytest.raises(RunMismatchError, match=r"_moves/part-000000000100\.parquet\.moves holds games 200\.\.299"):
        load(finished, table="moves")
    shutil.copy(part_path(finished, "rounds", part_name(100)), part_path(finished, "moves", part_name(100)))
    with pytest.raises(RunMismatchError, match=r"_moves/part-000000000100\.parquet\.moves belongs to another run.*tab"):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True, moves=True)


def test_a_stray_moves_part_is_refused(finished):
    shutil.copy(part_path(finished, "moves", part_name(0)), part_path(finished, "moves", part_name(50)))
    with pytest.raises(RunMismatchError, match=r"_moves/part-000000000050\.parquet\.moves is not a part of the run"):
        load(finished, table="rounds")


def test_resume_must_say_moves_as_the_run_did(finished, tmp_path):
    with pytest.raises(ValueError, match="differs in moves"):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True)
    games_only = run_to_folder(tmp_path / "games", 100, seed=1, workers=1)
    with pytest.raises(ValueError, match="differs in moves"):
        run_to_folder(games_only, 100, seed=1, workers=1, resume=True, moves=True)
    with pytest.raises(ValueError, match="holds no moves table: it was written without moves"):
        load(games_only, table="moves")


def test_bad_tables_and_arguments_are_named(finished, tmp_path):
    with pytest.raises(ValueError, match="table must be one of 'games', 'moves', 'rounds', got 'turns'"):
        load(finished, table="turns")
    simulate(10, seed=1, workers=1).to_parquet(tmp_path / "g.parquet")
    with pytest.raises(ValueError, match="one parquet file of games; the rounds table is in move run folders"):
        load(tmp_path / "g.parquet", table="rounds")
    with pytest.raises(TypeError, match="moves must be True or False"):
        run_to_folder(tmp_path / "new", 10, seed=1, moves="yes")
    with pytest.raises(ValueError, match="built-in"):
        run_to_folder(tmp_path / "new", 10, seed=1, policies=lambda s: next(iter(s.legal_moves)), moves=True)
    manifest = json.loads((finished / MANIFEST).read_text())
    (finished / MANIFEST).write_text(json.dumps({**manifest, "moves": "yes"}))
    with pytest.raises(ValueError, match="'moves' should be a JSON bool"):
        load(finished)


def test_cli_simulate_moves_writes_a_resumable_move_run(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["simulate", "--games", "200", "--policy", "greedy", "--seed", "3", "--workers", "1", "--moves",
            "--out", str(out)]
    assert cli.main(argv) == 0
    assert "wrote 200 games with every move" in capsys.readouterr().out
    _assert_run_equals(out, simulate_moves(200, policies="greedy", seed=3, workers=1))
    shutil.rmtree(out / "_rounds")
    assert cli.main([*argv, "--resume"]) == 0
    _assert_run_equals(out, simulate_moves(200, policies="greedy", seed=3, workers=1))


def test_cli_refuses_moves_into_one_parquet_file(tmp_path, capsys):
    path = tmp_path / "g.parquet"
    assert cli.main(["simulate", "--games", "10", "--moves", "--out", str(path)]) == 2
    err = capsys.readouterr().err
    assert "--moves writes three tables (games, moves, rounds), so it needs a folder --out" in err
    assert not path.exists()


def _warned_if(old: bool):
    """Expect the warning a run written before digests gives when it is read (nothing for a current run)."""
    return pytest.warns(UserWarning, match="before run manifests recorded digests") if old else contextlib.nullcontext()


def _as_written_by_0_2_0(folder: Path) -> None:
    """The run as azul_fast 0.2.0 wrote it: a manifest of format 1 without digests or writers, and
    parts without page checksums (pyarrow's default), their metadata kept; its parts' rows are read instead."""
    manifest = json.loads((folder / MANIFEST).read_text())
    for key in ("digests", "writers"):
        del manifest[key]
    manifest["format"] = "azul_fast/run/1"
    (folder / MANIFEST).write_text(json.dumps(manifest))
    for table in ("games", "moves", "rounds"):
        for name in manifest["parts"]:
            path = part_path(folder, table, name)
            pq.write_table(pq.read_table(path), path)


@pytest.mark.parametrize("digests", [True, False], ids=["digests", "no-digests"])
def test_moves_out_of_game_order_are_refused(finished, digests):
    if not digests:
        _as_written_by_0_2_0(finished)
    path = part_path(finished, "moves", part_name(100))
    table = pq.read_table(path)
    pq.write_table(table.take(list(range(table.num_rows - 1, -1, -1))), path)  # same stamp, rows reversed
    refusal = " is not the file this run wrote" if digests else ": row 1 repeats or precedes"
    where = r"_moves/part-000000000100\.parquet\.moves"
    with _warned_if(not digests), pytest.raises(ValueError, match=where + refusal):
        load(finished, table="moves")


def test_dask_pandas_and_pyarrow_read_a_move_run_folder_as_the_games_alone(finished):
    """Reading a move run folder as a dataset gives its games, never the rows of its _moves/ and _rounds/."""
    dd = pytest.importorskip("dask.dataframe")  # the Dask extra (CI's second step installs it)
    import pyarrow.dataset as ds

    games = load(finished)
    readers = {"pandas": pd.read_parquet(finished), "pyarrow.dataset": ds.dataset(finished).to_table().to_pandas(),
               "dask": dd.read_parquet(finished).compute(scheduler="sync")}
    for reader, df in readers.items():
        assert list(df.columns) == list(games.columns), reader
        assert sorted(df.game) == list(range(300)), reader
        assert (df.sort_values("game").score_0.to_numpy() == games.score_0.to_numpy()).all(), reader
    moves = load(finished, table="moves")  # the tables themselves, read as documented
    assert len(pd.read_parquet(finished / "_moves")) == len(moves)
    by_dask = dd.read_parquet(finished / "_moves", parquet_file_extension=None)
    assert len(by_dask.compute(scheduler="sync")) == len(moves)


@pytest.mark.parametrize("digests", [True, False], ids=["digests", "no-digests"])
def test_a_moves_row_duplicated_in_place_is_refused_naming_the_file(finished, digests):
    if not digests:
        _as_written_by_0_2_0(finished)
    path = part_path(finished, "moves", part_name(200))
    table = pq.read_table(path)
    pq.write_table(table.take([0, 0, *range(2, table.num_rows)]), path)  # same row count, one move twice
    refusal = " is not the file this run wrote" if digests else ": row 1 repeats or precedes"
    with _warned_if(not digests), pytest.raises(RunMismatchError, match=re.escape(f"{path}{refusal}")):
        load(finished, table="moves")
    with pytest.raises(RunMismatchError, match=re.escape(str(path))):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True, moves=True)


def test_a_move_run_in_the_old_layout_says_how_to_rename_it(finished):
    _as_written_by_0_2_0(finished)  # as azul_fast 0.2.0 wrote it
    for table in ("moves", "rounds"):
        for path in (finished / f"_{table}").iterdir():
            path.rename(path.with_suffix(""))  # part-....parquet, as 0.2.0 named it
    with pytest.raises(ValueError, match=r"in the layout of azul_fast 0\.2\.0 .*rename each to end in \.moves"):
        load(finished)
    with pytest.raises(ValueError, match="rename each to end in"):
        run_to_folder(finished, 300, seed=7, workers=1, resume=True, moves=True)
    for table in ("moves", "rounds"):
        for path in (finished / f"_{table}").iterdir():
            path.rename(f"{path}.{table}")  # what the message says to do
    with _warned_if(True):
        _assert_run_equals(finished, simulate_moves(300, seed=7, workers=1))
