"""Long runs to a folder: every finished part is on disk, a killed run resumes where it stopped.

Layout of a run folder::

    _manifest.json                     the run (arguments, root seed, part size), written first
    _run.lock                          while a process writes the run (azul_fast.runs.lock)
    part-000000000000.parquet          games 0 .. part_size-1
    part-000000020000.parquet          ...
    _moves/part-000000000000.parquet   a move run only: every move of games 0 .. part_size-1
    _rounds/part-000000000000.parquet  a move run only: every round and seat of those games

A move run (``moves=True``, ``azul-fast simulate --moves``) records every move and round as
`simulate_moves` does (`azul_fast.runs.move_records`); its games parts are those of the same run without
moves, so whatever reads a run's games reads a move run's unchanged, and the ``_`` of the two
table folders keeps pandas and dask reading ``DIR`` from mixing them in (read them with
``load(DIR, table="moves")``, or ``pandas.read_parquet(DIR / "_moves")``). A part of a move run
is its three files: the moves and rounds are written first and the games last, and a part counts
as done only when all three are there.

A part holds about `PART_SECONDS` of play on one core (its size follows the policies' cost), so
Ctrl-C or SIGTERM stops a run within seconds, keeping every finished part (the searches in play
stop between their iterations, `azul_fast.runs.pool`). Each part is written
to a temporary file and renamed, so it exists whole or not at all, whatever kills the process. A
rerun with ``resume=True`` reads the manifest, keeps the parts that exist and plays only the
missing ones; game i always has the same seed, so the result equals an uninterrupted run.

Every part carries its run's identity in its parquet metadata: the run's attributes (root seed,
arguments, rules version) and its game range. Resuming and `azul_fast.load(folder)` check every
part against the manifest and refuse, naming the file, one that belongs elsewhere.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import json
import os
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq

from azul_fast.core.checks import check_bool, check_int
from azul_fast.core.game import Policy, SeedLike
from azul_fast.runs.lock import is_lock_file, run_lock
from azul_fast.runs.move_records import MOVE_TABLES, assemble, record_games
from azul_fast.runs.plan import RunPlan, plan_run
from azul_fast.runs.pool import run_pool
from azul_fast.runs.progress import progress_bar
from azul_fast.runs.storage import METADATA_KEY, frame_table, read_file, write_table_atomic

__all__ = [
    "MANIFEST", "PART_SECONDS", "RUN_FORMAT", "RunMismatchError", "check_part", "check_run", "games_on_disk", "load",
    "TABLES", "new_manifest", "part_name", "part_path", "part_size", "read_manifest", "read_run", "run_to_folder",
    "write_manifest", "write_part",
]

MANIFEST = "_manifest.json"  # leading _ : pandas and dask skip it when reading the folder
RUN_FORMAT = "azul_fast/run/1"
#: Seconds of play on one core that a part aims at: what Ctrl-C waits for, and what a kill loses.
PART_SECONDS = 1.0
#: The most games in a part (a random 2-player game takes about 12 microseconds).
MAX_PART = 100_000
#: The most games in a part of a move run: some 50 MB of moves in memory while it is written
#: (random 2-player games: about 100 moves of 24 bytes a game), once per worker.
MAX_MOVE_PART = 20_000
#: Key of a part's place in its run ({"first_game": a, "stop": b}) in the part's parquet metadata.
PART_KEY = b"azul_fast_part"
#: Manifest fields and their JSON types (variant is absent from runs older than the gray wall).
_FIELDS: dict[str, type] = {
    "n_games": int, "players": int, "policies": list, "root_seed": str, "first_player": int, "max_rounds": int,
    "seat_rotation": bool, "chunk_size": int, "parts": list, "attrs": dict,
}
#: Manifest fields that df.attrs repeat.
_IDENTITY_FIELDS = ("players", "policies", "root_seed", "first_player", "max_rounds", "seat_rotation")
#: What a resumed run must share with the folder's.
_ARGUMENTS = ("n_games", "players", "policies", "root_seed", "first_player", "max_rounds", "variant",
              "seat_rotation", "chunk_size", "moves")
#: The tables a run folder can hold: the games (every run), then a move run's.
TABLES = ("games", *MOVE_TABLES)


class RunMismatchError(ValueError):
    """A part in a run folder does not belong to the run its manifest describes."""


def part_name(first_game: int) -> str:
    return f"part-{first_game:012d}.parquet"


def part_path(folder: Path, table: str, name: str) -> Path:
    """Where the part `name` of `table` lives: the games in the folder, a move run's tables in ``_<table>/``.

    >>> [part_path(Path("run"), table, part_name(0)).as_posix() for table in ("games", "moves")]
    ['run/part-000000000000.parquet', 'run/_moves/part-000000000000.parquet']
    """
    return folder / name if table == "games" else folder / f"_{table}" / name


def _tables(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The tables of the manifest's run (runs written before move runs existed hold games only)."""
    return TABLES if manifest.get("moves", False) else TABLES[:1]


def _part_done(folder: Path, manifest: dict[str, Any], name: str) -> bool:
    return all(part_path(folder, table, name).exists() for table in _tables(manifest))


def part_size(plan: RunPlan, moves: bool = False) -> int:
    """Games per part: about `PART_SECONDS` of play on one core, by the plan's policies and players;
    at most `MAX_MOVE_PART` in a move run, so that a part's tables stay small in memory.

    Results never depend on it (game i's seed follows from the root seed and i alone).

    >>> part_size(plan_run(10**6, 2, "random", 1)), part_size(plan_run(10**6, 2, "mcts", 1))
    (83333, 9)
    >>> part_size(plan_run(10**6, 2, "random", 1), moves=True)
    20000
    """
    return max(1, min(MAX_MOVE_PART if moves else MAX_PART, int(PART_SECONDS / plan.seconds_per_game)))


def new_manifest(plan: RunPlan, chunk_size: int, moves: bool = False) -> dict[str, Any]:
    """The manifest of a run folder for `plan` in parts of `chunk_size` games (with every move if `moves`)."""
    return {
        "format": RUN_FORMAT,
        "n_games": plan.total // plan.rotations,
        "players": plan.players,
        "policies": list(plan.names),
        "root_seed": str(plan.root),
        "first_player": plan.first_player,
        "max_rounds": plan.max_rounds,
        "variant": plan.variant,
        "seat_rotation": plan.rotations > 1,
        "chunk_size": chunk_size,
        "moves": moves,
        "parts": [part_name(a) for a in range(0, plan.total, chunk_size)],
        "attrs": plan.attrs,
    }


def write_manifest(manifest: dict[str, Any], folder: Path) -> None:
    """Write the manifest atomically (a temporary file of a fixed name, then rename)."""
    path = folder / MANIFEST
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    os.replace(tmp, path)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The folder's manifest, checked; a ValueError names the file and what is wrong with it."""
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{path}: missing, so {folder} is not an azul_fast run folder") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{path}: not a JSON object but a {type(manifest).__name__}")
    if manifest.get("format") != RUN_FORMAT:
        raise ValueError(f"{path}: not an azul_fast run manifest (format {manifest.get('format')!r}, "
                         f"expected {RUN_FORMAT!r})")
    for key, kind in _FIELDS.items():
        if key not in manifest:
            raise ValueError(f"{path}: no {key!r}")
        value = manifest[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"{path}: {key!r} should be a JSON {kind.__name__}, got {value!r}")
    if not isinstance(manifest.get("moves", False), bool):
        raise ValueError(f"{path}: 'moves' should be a JSON bool, got {manifest['moves']!r}")
    if not manifest["root_seed"].isdigit():
        raise ValueError(f"{path}: 'root_seed' should be a decimal number, got {manifest['root_seed']!r}")
    if manifest["n_games"] < 1 or manifest["chunk_size"] < 1 or manifest["players"] not in (2, 3, 4):
        raise ValueError(f"{path}: 'n_games', 'chunk_size' or 'players' out of range")
    total = _total(manifest)
    if len(manifest["parts"]) != -(-total // manifest["chunk_size"]) or manifest["parts"] != [
            part_name(a) for a in range(0, total, manifest["chunk_size"])]:
        raise ValueError(f"{path}: 'parts' do not name the parts of {total} games in chunks of "
                         f"{manifest['chunk_size']}")
    # df.attrs name the same run as the manifest's fields (n_games counts every rotation there).
    expected = {**{key: manifest[key] for key in _IDENTITY_FIELDS},
                "variant": manifest.get("variant", "colored"), "n_games": total}
    attrs = _identity(manifest["attrs"])
    differ = [key for key, value in expected.items() if attrs.get(key) != value]
    if differ:
        raise ValueError(f"{path}: 'attrs' disagree with the manifest on {', '.join(differ)}")
    return manifest


def _total(manifest: dict[str, Any]) -> int:
    """Games in the run (each deal once per seat with seat rotation)."""
    return int(manifest["n_games"]) * (int(manifest["players"]) if manifest["seat_rotation"] else 1)


def _identity(attrs: Any) -> dict[str, Any]:
    """What makes a run that run: its attributes but the code version (a bug-fix release may finish it)."""
    if not isinstance(attrs, dict):
        return {}
    return {"variant": "colored", **{key: value for key, value in attrs.items() if key != "azul_fast_version"}}


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    old = {"variant": "colored", "moves": False, **old}  # runs written before the gray wall and moves
    differ = [key for key in _ARGUMENTS if old.get(key) != new.get(key)]
    # What plays the games: the rules, and the learned search with its weights where it plays.
    differ += [key for key in ("rules_version", "learned") if old["attrs"].get(key) != new["attrs"].get(key)]
    return differ


def _bounds(manifest: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(part name, first game, stop) of every part of the run."""
    total, size = _total(manifest), manifest["chunk_size"]
    return [(part_name(a), a, min(a + size, total)) for a in range(0, total, size)]


def check_part(
    path: Path, manifest: dict[str, Any], first: int, stop: int, table: str = "games", rows: int | None = None
) -> None:
    """Refuse (RunMismatchError naming the file) a part that is not `table`'s part of games first..stop-1 of the
    manifest's run, holding `rows` rows (None: one a game)."""
    try:
        meta = pq.read_metadata(path)
    except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
        raise RunMismatchError(f"{path} is not a readable parquet part ({' '.join(str(error).split())}); "
                               "remove it and resume the run") from None
    metadata = meta.metadata or {}
    theirs = _identity(_json(metadata.get(METADATA_KEY)))
    ours = {**_identity(manifest["attrs"]), **({} if table == "games" else {"table": table})}
    if theirs != ours:
        differ = sorted(key for key in ours.keys() | theirs.keys() if ours.get(key) != theirs.get(key))
        raise RunMismatchError(f"{path} belongs to another run (it differs in {', '.join(differ)}); "
                               "remove it and resume the run to play its games")
    span = _json(metadata.get(PART_KEY))  # absent from parts written before it existed: `read_run` checks games
    if span and (span.get("first_game"), span.get("stop")) != (first, stop):
        raise RunMismatchError(f"{path} holds games {span.get('first_game')}..{_last(span.get('stop'))}, "
                               f"not {first}..{stop - 1}; remove it and resume the run")
    if rows is None and meta.num_rows != stop - first:
        raise RunMismatchError(f"{path} holds {meta.num_rows} games, not the {stop - first} games "
                               f"{first}..{stop - 1}; remove it and resume the run")
    if rows is not None and meta.num_rows != rows:
        raise RunMismatchError(f"{path} holds {meta.num_rows} rows, not the {rows} {table} of games "
                               f"{first}..{stop - 1}; remove it and resume the run")


def _check_part_files(folder: Path, manifest: dict[str, Any], name: str, first: int, stop: int) -> None:
    """check_part for every table of a part; a move run's tables must hold its games' moves and rounds."""
    games = part_path(folder, "games", name)
    check_part(games, manifest, first, stop)
    if len(_tables(manifest)) == 1:
        return
    counts = pq.read_table(games, columns=["turns", "rounds"])
    expected = {"moves": pc.sum(counts["turns"]).as_py(),
                "rounds": manifest["players"] * pc.sum(counts["rounds"]).as_py()}
    for table in MOVE_TABLES:
        check_part(part_path(folder, table, name), manifest, first, stop, table, expected[table])


def _last(stop: object) -> object:
    return stop - 1 if isinstance(stop, int) else stop


def _json(raw: bytes | None) -> dict[str, Any]:
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def write_part(plan: RunPlan, folder: Path, first: int, stop: int, moves: bool = False) -> int:
    """Play games first..stop-1 into their part file (atomically, stamped with the run); return the count.

    With `moves`, record every move and round too: the moves and rounds parts are written first
    and the games part last, so a part whose games are on disk is whole.
    """
    name = part_name(first)
    if moves:
        records = assemble(plan, [record_games(plan, first, stop)], first_game=first)
        for table in MOVE_TABLES:
            _write_stamped(getattr(records, table), part_path(folder, table, name), first, stop)
        games = records.games
    else:
        games = plan.frame(plan.run(first, stop), first_game=first)
    _write_stamped(games, part_path(folder, "games", name), first, stop)
    return stop - first


def _write_stamped(df: pd.DataFrame, path: Path, first: int, stop: int) -> None:
    """Write a part atomically with its run (df.attrs) and its place in the run in the metadata."""
    table = frame_table(df)
    metadata = {**(table.schema.metadata or {}), PART_KEY: json.dumps({"first_game": first, "stop": stop}).encode()}
    write_table_atomic(table.replace_schema_metadata(metadata), path)


def _remove_own_temporaries(folder: Path, manifest: dict[str, Any]) -> None:
    """Delete what a write cut short by a kill left: only the temporary files of this run's own names."""
    (folder / f".{MANIFEST}.tmp").unlink(missing_ok=True)
    for table in _tables(manifest):
        for name in manifest["parts"]:
            path = part_path(folder, table, name)
            for stale in path.parent.glob(f".{name}.*.tmp"):
                stale.unlink()


class _TermAsInterrupt:
    """While running in the main thread, SIGTERM stops the run like Ctrl-C (finished parts stay)."""

    previous: Callable[[int, FrameType | None], Any] | int | None

    def __enter__(self) -> _TermAsInterrupt:
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, self._raise)
        return self

    @staticmethod
    def _raise(signum: int, frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt(f"signal {signum}")

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)


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
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"out: {folder} exists and is not a folder")
    if chunk_size is not None:
        chunk_size = check_int(chunk_size, "chunk_size", 1, 2**31)
    plan = plan_run(n_games, players, policies, seed, first_player, max_rounds,
                    seat_rotation=seat_rotation, check_invariants=check_invariants, variant=variant)
    if not plan.native:
        raise ValueError("policies: a folder run takes built-in policy names only, so it can be resumed")
    moves = check_bool(moves, "moves")
    workers = (os.cpu_count() or 1) if workers is None else check_int(workers, "workers", 1, 1024)
    folder.mkdir(parents=True, exist_ok=True)
    with _TermAsInterrupt(), run_lock(folder):
        plan, manifest = _start(folder, plan, seed is not None, chunk_size, resume, moves)
        _play_parts(folder, plan, manifest, workers, progress)
    return folder


def _start(
    folder: Path, plan: RunPlan, seeded: bool, chunk_size: int | None, resume: bool, moves: bool
) -> tuple[RunPlan, dict[str, Any]]:
    """The run and its manifest, written: a new run, or the folder's when resuming, after checking what is there."""
    if not (folder / MANIFEST).exists():
        if any(not is_lock_file(entry.name) for entry in folder.iterdir()):
            raise ValueError(f"out: {folder} is not empty and holds no run manifest; give a new or empty folder")
        manifest = new_manifest(plan, part_size(plan, moves) if chunk_size is None else chunk_size, moves)
    elif not resume:
        raise ValueError(f"out: {folder} already holds a run; pass resume=True (--resume) to finish it")
    else:
        old = read_manifest(folder)
        if not seeded:
            plan = dataclasses.replace(plan, root=int(old["root_seed"]))
        manifest = new_manifest(plan, old["chunk_size"] if chunk_size is None else chunk_size, moves)
        differ = _differences(old, manifest)
        if differ:
            raise ValueError(f"resume: the folder's run differs in {', '.join(differ)}; use the same arguments")
        _remove_own_temporaries(folder, manifest)
        for name, first, stop in _bounds(manifest):
            if _part_done(folder, manifest, name):
                _check_part_files(folder, manifest, name, first, stop)
    write_manifest(manifest, folder)
    return plan, manifest


def _play_parts(folder: Path, plan: RunPlan, manifest: dict[str, Any], workers: int, progress: bool | None) -> None:
    """Play the parts not on disk yet, on a thread pool; Ctrl-C waits only for the parts being played."""
    todo = [(first, stop) for name, first, stop in _bounds(manifest) if not _part_done(folder, manifest, name)]
    bar = progress_bar(plan.total, progress)
    if bar is not None:
        bar.update(plan.total - sum(stop - first for first, stop in todo))
    try:
        with run_pool(workers, len(todo)) as pool:
            for done in cf.as_completed([pool.submit(write_part, plan, folder, a, b, manifest["moves"])
                                         for a, b in todo]):
                n = done.result()
                if bar is not None:
                    bar.update(n)
    finally:
        if bar is not None:
            bar.close()


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
    return sum(stop - first for name, first, stop in _bounds(manifest) if _part_done(folder, manifest, name))


def check_run(folder: Path) -> dict[str, Any]:
    """The manifest of a finished run folder whose every part belongs to it; ValueError naming what does not."""
    manifest = read_manifest(folder)
    missing = [name for name in manifest["parts"] if not _part_done(folder, manifest, name)]
    if missing:
        raise ValueError(
            f"run in {folder} is unfinished: {len(missing)} of {len(manifest['parts'])} parts missing; "
            "finish it with resume=True (azul-fast simulate ... --resume)"
        )
    for table in _tables(manifest):
        where = part_path(folder, table, part_name(0)).parent
        strays = sorted({path.name for path in where.glob("part-*.parquet")} - set(manifest["parts"]))
        if strays:
            raise RunMismatchError(f"{where / strays[0]} is not a part of the run in {folder}; remove it")
    for name, first, stop in _bounds(manifest):
        _check_part_files(folder, manifest, name, first, stop)
    return manifest


def read_run(folder: Path, table: str = "games") -> pd.DataFrame:
    """Read one table of a run folder as one DataFrame; refuse an unfinished or inconsistent run."""
    manifest = check_run(folder)
    if table not in _tables(manifest):
        raise ValueError(f"run in {folder} holds no {table} table: it was written without moves "
                         "(record them with moves=True, azul-fast simulate --moves)")
    df = pd.concat([read_file(part_path(folder, table, name)) for name in manifest["parts"]], ignore_index=True)
    total = _total(manifest)
    games = df["game"].to_numpy().astype(np.int64)  # signed: a step back is negative
    if table == "games" and (len(df) != total or not (games == range(total)).all()):
        raise ValueError(f"run in {folder} does not hold games 0..{total - 1} exactly once")
    if table != "games" and len(df) and (games[0] != 0 or games[-1] != total - 1 or (np.diff(games) < 0).any()):
        raise ValueError(f"the {table} of the run in {folder} do not cover games 0..{total - 1} in order")
    df.attrs = manifest["attrs"] if table == "games" else {**manifest["attrs"], "table": table}
    return df


def load(path: str | os.PathLike[str], table: str = "games") -> pd.DataFrame:
    """Read results written by `save`, or a run folder (`run_to_folder`), dtypes and attrs intact.

    `table` picks what to read from a run folder: ``"games"`` (one row per game, any run), or
    from a move run (``moves=True``, ``azul-fast simulate --moves``) ``"moves"`` or ``"rounds"``,
    the tables `simulate_moves` returns beside the games (`MoveRecords`). A single parquet file
    holds games only.

    >>> import tempfile, pathlib
    >>> from azul_fast import save, simulate, simulate_moves
    >>> df = simulate(100, seed=3, workers=1)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
    >>> save(df, path)
    >>> load(path).equals(df)
    True
    >>> folder = run_to_folder(path.with_name("run"), 100, seed=3, workers=1, chunk_size=40, moves=True)
    >>> load(folder).equals(df), load(folder, table="moves").equals(simulate_moves(100, seed=3, workers=1).moves)
    (True, True)
    """
    if table not in TABLES:
        raise ValueError(f"table must be one of {', '.join(map(repr, TABLES))}, got {table!r}")
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no results at {path}")
    if path.is_dir():
        return read_run(path, table)
    if table != "games":
        raise ValueError(f"{path} is one parquet file of games; the {table} table is in move run folders "
                         "(run_to_folder(..., moves=True), azul-fast simulate --moves --out FOLDER)")
    return read_file(path)
