"""Long runs to a folder: every finished part is on disk, a killed run resumes where it stopped.

The folder's layout, its manifest and the checks of its parts are `azul_fast.runs.manifest`'s; this
module plays the run into it. A part holds about `PART_SECONDS` of play on one core (its size
follows the policies' cost), so Ctrl-C, SIGTERM or SIGHUP stops a run within seconds, keeping
every finished part. Each part is written to a temporary file and renamed, so it exists whole or
not at all, whatever kills the process. A rerun with ``resume=True`` reads the manifest, keeps the
parts that exist and plays only the missing ones; game i always has the same seed, so the result
equals an uninterrupted run. A part that a kill left without its digest is played again and kept
only if it holds exactly what the run plays, cell for cell.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from azul_fast.core.game import Policy
from azul_fast.core.output import check_not_link
from azul_fast.core.rules.checks import check_bool, check_int, resolve_workers
from azul_fast.core.rules.seeds import SeedLike
from azul_fast.runs.files import file_digest, frame_table, read_file, with_checksum, write_table_atomic
from azul_fast.runs.lock import check_holder, is_lock_file, run_lock
from azul_fast.runs.manifest import (
    MANIFEST,
    PART_KEY,
    RunMismatchError,
    bounds,
    check_layout,
    check_part_files,
    new_manifest,
    part_done,
    part_name,
    part_path,
    predates_digests,
    read_manifest,
    remove_own_temporaries,
    run_tables,
    write_manifest,
)
from azul_fast.runs.move_records import MOVE_TABLES, assemble, record_games
from azul_fast.runs.plan import RunPlan, plan_run
from azul_fast.runs.pool import run_ranges
from azul_fast.runs.signals import interrupt_on_signals

__all__ = ["MAX_MOVE_PART", "MAX_PART", "PART_SECONDS", "games_on_disk", "part_size", "record_digests",
           "run_to_folder", "write_part"]

#: Seconds of play on one core that a part aims at: what Ctrl-C waits for, and what a kill loses.
PART_SECONDS = 1.0
#: The most games in a part (a random 2-player game takes about 12 microseconds).
MAX_PART = 100_000
#: The most games in a part of a move run: some 50 MB of moves in memory while it is written
#: (random 2-player games: about 100 moves of 24 bytes a game), once per worker.
MAX_MOVE_PART = 20_000
#: What a resumed run must share with the folder's.
_ARGUMENTS = ("n_games", "players", "policies", "root_seed", "first_player", "max_rounds", "variant",
              "seat_rotation", "chunk_size", "moves")
#: Seconds between two writes of the manifest's digests while parts finish (and once at the end).
_DIGEST_SECONDS = 2.0


def part_size(plan: RunPlan, moves: bool = False) -> int:
    """Games per part: about `PART_SECONDS` of play on one core, by the plan's policies and players;
    at most `MAX_MOVE_PART` in a move run, so that a part's tables stay small in memory.

    Results never depend on it (game i's seed follows from the root seed and i alone).

    >>> part_size(plan_run(10**6, 2, "random", 1)), part_size(plan_run(10**6, 2, "mcts", 1))
    (100000, 39)
    >>> part_size(plan_run(10**6, 2, "random", 1), moves=True)
    20000
    """
    return max(1, min(MAX_MOVE_PART if moves else MAX_PART, int(PART_SECONDS / plan.seconds_per_game)))


def write_part(plan: RunPlan, folder: Path, first: int, stop: int, moves: bool, token: str) -> dict[str, str]:
    """Play games first..stop-1 into their part file (atomically, stamped with the run); return the
    SHA-256 of each file written, by table (for the manifest: `record_digests`).

    `token` is the writer's (its lock's, recorded in the manifest's writers): the temporary files
    are named with it, and a file is renamed into place only while the folder's lock still holds
    it (`azul_fast.runs.lock.check_holder`), so a task that outlived its run writes nothing.
    With `moves`, record every move and round too: the moves and rounds parts are written first
    and the games part last, so a part whose games are on disk is whole.
    """
    name = part_name(first)
    digests = {}
    tables = _play_part(plan, first, stop, moves)
    for table in (*MOVE_TABLES, "games") if moves else ("games",):
        digests[table] = _write_stamped(tables[table], part_path(folder, table, name), first, stop, folder, token)
    return digests


def _play_part(plan: RunPlan, first: int, stop: int, moves: bool) -> dict[str, pd.DataFrame]:
    """The tables of the part of games first..stop-1, by name."""
    if not moves:
        return {"games": plan.frame(plan.run(first, stop), first_game=first)}
    records = assemble(plan, [record_games(plan, first, stop)], first_game=first)
    return {table: getattr(records, table) for table in (*MOVE_TABLES, "games")}


def record_digests(folder: Path, manifest: dict[str, Any], digests: dict[str, dict[str, str]]) -> None:
    """Add the parts' `digests` ({part name: {table: digest}}) to `manifest` and write it to `folder`.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> plan = plan_run(100, 2, "random", seed=1)
    >>> with run_lock(folder) as token:
    ...     manifest = new_manifest(plan, chunk_size=100, writers=[token])
    ...     record_digests(folder, manifest, {part_name(0): write_part(plan, folder, 0, 100, False, token)})
    >>> json.loads((folder / MANIFEST).read_text())["digests"][part_name(0)]["games"][:7]
    'sha256:'
    """
    if digests:
        manifest.setdefault("digests", {}).update(digests)
        write_manifest(manifest, folder)


def _write_stamped(df: pd.DataFrame, path: Path, first: int, stop: int, folder: Path, token: str) -> str:
    """Write a part atomically with its run (df.attrs) and its place in the run in the metadata; return its digest."""
    table = frame_table(df)
    metadata = {**(table.schema.metadata or {}), PART_KEY: json.dumps({"first_game": first, "stop": stop}).encode()}
    return write_table_atomic(with_checksum(table.replace_schema_metadata(metadata)), path, tag=token,
                              before_rename=lambda: check_holder(folder, token))


def run_to_folder(
    path: str | os.PathLike[str],
    n_games: int,
    players: int = 2,
    policies: Policy | Sequence[Policy] = "random",
    seed: SeedLike = None,
    workers: int | None = None,
    first_player: int = 0,
    max_rounds: int = 100,
    *,
    resume: bool = False,
    progress: bool | None = None,
    chunk_size: int | None = None,
    seat_rotation: bool = False,
    check_invariants: bool = False,
    variant: str = "colored",
    moves: bool = False,
) -> Path:
    """Play a run part by part into the folder `path`; return the folder.

    Arguments are those of `simulate`; with `moves`, every move and round is recorded too, as
    `simulate_moves` records them (a move run: read its tables with ``load(folder, table=...)``).
    A folder that already holds a run is only continued with
    ``resume=True`` and the same arguments (`seed` and `chunk_size` may be left out: the folder's
    own are used), never overwritten; a folder that holds anything else is refused. One process
    at a time writes into a folder (`azul_fast.runs.lock`). `chunk_size` (games per part) defaults
    to `part_size(plan, moves)`. Built-in policies only (a folder run must be replayable from its manifest).

    >>> import tempfile, pathlib
    >>> from azul_fast import load, simulate
    >>> scratch = tempfile.TemporaryDirectory()
    >>> folder = run_to_folder(pathlib.Path(scratch.name) / "run", 300, policies="greedy", seed=5, workers=1,
    ...                        chunk_size=100)
    >>> sorted(path.name for path in folder.iterdir())
    ['_manifest.json', 'part-000000000000.parquet', 'part-000000000100.parquet', 'part-000000000200.parquet']
    >>> (folder / "part-000000000100.parquet").unlink()      # as if the run had been killed
    >>> load(folder)
    Traceback (most recent call last):
    ...
    ValueError: run in ... is unfinished: 1 of 3 parts missing; finish it with resume=True (...)
    >>> _ = run_to_folder(folder, 300, policies="greedy", workers=1, resume=True)
    >>> load(folder).equals(simulate(300, policies="greedy", seed=5, workers=1))
    True
    >>> scratch.cleanup()
    """
    if not os.fspath(path):
        raise ValueError("out: an empty path; name a folder for the run (. for the current folder)")
    folder = check_not_link(path, "out:")  # a run is never written where a link points
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"out: {folder} exists and is not a folder")
    resume = check_bool(resume, "resume")
    if resume and not (folder / MANIFEST).is_file():
        # A mistyped name must not start a new run (with a new random seed) where one was to be finished.
        what = "does not exist" if not folder.exists() else f"holds no run manifest ({MANIFEST})"
        raise ValueError(f"resume: {folder} {what}, so there is no run to finish; check the folder's name")
    if chunk_size is not None:
        chunk_size = check_int(chunk_size, "chunk_size", 1, 2**31)
    plan = plan_run(n_games, players, policies, seed, first_player, max_rounds,
                    seat_rotation=seat_rotation, check_invariants=check_invariants, variant=variant)
    if not plan.native:
        raise ValueError("policies: a folder run takes built-in policy names only, so it can be resumed")
    moves = check_bool(moves, "moves")
    workers = resolve_workers(workers)
    folder.mkdir(parents=True, exist_ok=True)
    with interrupt_on_signals(), run_lock(folder) as token:
        plan, manifest = _start(folder, plan, seed is not None, chunk_size, resume, moves, token)
        _play_parts(folder, plan, manifest, workers, progress, token)
    return folder


def _start(
    folder: Path, plan: RunPlan, seeded: bool, chunk_size: int | None, resume: bool, moves: bool, token: str
) -> tuple[RunPlan, dict[str, Any]]:
    """The run and its manifest, written: a new run, or the folder's when resuming, after checking what is there."""
    if not (folder / MANIFEST).exists():
        if any(not is_lock_file(entry.name) for entry in folder.iterdir()):
            raise ValueError(f"out: {folder} is not empty and holds no run manifest; give a new or empty folder")
        manifest = new_manifest(plan, part_size(plan, moves) if chunk_size is None else chunk_size, moves, [token])
    elif not resume:
        raise ValueError(f"out: {folder} already holds a run; pass resume=True (--resume) to finish it")
    else:
        old = read_manifest(folder)
        if not seeded:
            plan = dataclasses.replace(plan, root=int(old["root_seed"]))
        manifest = new_manifest(plan, old["chunk_size"] if chunk_size is None else chunk_size, moves,
                                [*old.get("writers", []), token])
        differ = _differences(old, manifest)
        if differ:
            raise ValueError(f"resume: the folder's run differs in {', '.join(differ)}; use the same arguments")
        check_layout(folder, manifest)
        remove_own_temporaries(folder, old)
        # The parts on disk must match their digests; one written before its digest reached the
        # manifest (a kill) is played again and compared, cell for cell, then gets its digest. A run
        # written before digests (azul_fast 0.2.0) is checked by its rows as it was.
        old_run = predates_digests(folder, old)
        manifest["digests"] = old.get("digests", {})
        view = {key: value for key, value in manifest.items() if key != "digests"} if old_run else manifest
        for name, first, stop in bounds(manifest):
            if part_done(folder, manifest, name):
                checked = check_part_files(folder, view, name, first, stop)
                manifest["digests"][name] = checked or _replayed(folder, plan, manifest, name, first, stop)
    write_manifest(manifest, folder)
    return plan, manifest


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    old = {"variant": "colored", "moves": False, **old}  # runs written before the gray wall and moves
    differ = [key for key in _ARGUMENTS if old.get(key) != new.get(key)]
    # What plays the games: the rules, and the learned search with its weights where it plays.
    differ += [key for key in ("rules_version", "learned") if old["attrs"].get(key) != new["attrs"].get(key)]
    return differ


def _replayed(folder: Path, plan: RunPlan, manifest: dict[str, Any], name: str, first: int, stop: int
              ) -> dict[str, str]:
    """The digests of a part without them, once its games, played again, equal the files' cell for cell
    (column names, dtypes and values; the stamps were checked before); RunMismatchError naming the file if not."""
    tables = _play_part(plan, first, stop, manifest["moves"])
    digests = {}
    for table in run_tables(manifest):
        path = part_path(folder, table, name)
        on_disk = read_file(path)
        if not on_disk.equals(tables[table]) or list(on_disk.columns) != list(tables[table].columns):
            raise RunMismatchError(f"{path} has no digest in {MANIFEST} and does not hold the games this run plays "
                                   f"(played again, they differ): it was changed; remove it and resume the run")
        digests[table] = file_digest(path)
    return digests


def _play_parts(folder: Path, plan: RunPlan, manifest: dict[str, Any], workers: int, progress: bool | None,
                token: str) -> None:
    """Play the parts not on disk yet, on a thread pool; Ctrl-C waits only for the parts being played."""
    todo = [(first, stop) for name, first, stop in bounds(manifest) if not part_done(folder, manifest, name)]
    unrecorded: dict[str, dict[str, str]] = {}
    written = time.monotonic()

    def finished(first: int, stop: int, digests: dict[str, str]) -> None:
        nonlocal unrecorded, written
        unrecorded[part_name(first)] = digests
        if time.monotonic() - written >= _DIGEST_SECONDS:  # not once a part: a manifest of 10,000 parts is large
            record_digests(folder, manifest, unrecorded)
            unrecorded, written = {}, time.monotonic()

    try:
        run_ranges(lambda a, b: write_part(plan, folder, a, b, manifest["moves"], token), todo, workers, plan.total,
                   progress, done=plan.total - sum(stop - first for first, stop in todo), on_done=finished)
    finally:  # also after Ctrl-C: the parts that finished meanwhile keep their digests
        record_digests(folder, manifest, unrecorded)


def games_on_disk(folder: Path) -> int:
    """Games in the parts of the folder's run written so far; 0 for a folder (or path) without a run.

    >>> import tempfile, pathlib
    >>> folder = run_to_folder(pathlib.Path(tempfile.mkdtemp()) / "run", 300, seed=1, workers=1, chunk_size=100)
    >>> (folder / part_name(100)).unlink()
    >>> games_on_disk(folder), games_on_disk(folder / "nothing")
    (200, 0)
    """
    if not (folder / MANIFEST).exists():
        return 0
    manifest = read_manifest(folder)
    return sum(stop - first for name, first, stop in bounds(manifest) if part_done(folder, manifest, name))
