"""Long runs to a folder: every finished part is on disk, a killed run resumes where it stopped.

Layout of a run folder::

    _manifest.json                            the run (arguments, root seed, part size), written first;
                                              the digest of every part as it is written
    _run.lock                                 while a process writes the run (azul_fast.runs.lock)
    part-000000000000.parquet                 games 0 .. part_size-1
    part-000000020000.parquet                 ...
    _moves/part-000000000000.parquet.moves    a move run only: every move of games 0 .. part_size-1
    _rounds/part-000000000000.parquet.rounds  a move run only: every round and seat of those games

A move run (``moves=True``, ``azul-fast simulate --moves``) records every move and round as
`simulate_moves` does (`azul_fast.runs.move_records`); its games parts are those of the same run without
moves, so whatever reads a run's games reads a move run's unchanged. Readers of ``DIR`` must see the
games alone: pandas and pyarrow.dataset skip the ``_`` folders, but dask lists every file below
``DIR`` whose name ends in ``.parquet`` (or ``.parq``, ``.pq``), so the move tables' parts end in
``.moves`` and ``.rounds`` instead (they are parquet files all the same: read them with
``load(DIR, table="moves")``, ``pandas.read_parquet(DIR / "_moves")``, or
``dask.dataframe.read_parquet(DIR / "_moves", parquet_file_extension=None)``). A part of a move run
is its three files: the moves and rounds are written first and the games last, and a part counts
as done only when all three are there.

A part holds about `PART_SECONDS` of play on one core (its size follows the policies' cost), so
Ctrl-C or SIGTERM stops a run within seconds, keeping every finished part. Each part is written
to a temporary file and renamed, so it exists whole or not at all, whatever kills the process. A
rerun with ``resume=True`` reads the manifest, keeps the parts that exist and plays only the
missing ones; game i always has the same seed, so the result equals an uninterrupted run.

Every part carries its run's identity in its parquet metadata: the run's attributes (root seed,
arguments, rules version) and its game range. Resuming and `azul_fast.load(folder)` check every
part against the manifest and refuse, naming the file, one that belongs elsewhere. They check its
content too: the SHA-256 the manifest recorded when the part was written (an edit, even one that
keeps the row count, is refused), or, for a part without one (older runs, a part a kill left
unrecorded), the parquet page checksums (a flipped bit) and the rows themselves (games
first..stop-1 in order, each with the seed the root seed gives it; the moves and rounds of those
games in order, none twice).
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from azul_fast.core.game import Policy
from azul_fast.core.rules.checks import check_bool, check_int, resolve_workers
from azul_fast.core.rules.moves import PLAYER_COUNTS
from azul_fast.core.rules.seeds import SeedLike
from azul_fast.runs._simulate import derive_game_seed
from azul_fast.runs.lock import is_lock_file, run_lock
from azul_fast.runs.move_records import MOVE_TABLES, assemble, record_games
from azul_fast.runs.plan import RunPlan, plan_run
from azul_fast.runs.pool import run_ranges
from azul_fast.runs.storage import METADATA_KEY, file_digest, frame_table, read_file, write_table_atomic

__all__ = [
    "MANIFEST", "PART_SECONDS", "RUN_FORMAT", "STOP_SIGNALS", "TABLES", "RunMismatchError", "check_part", "check_run",
    "games_on_disk", "interrupt_on_signals", "load", "new_manifest", "part_name", "part_path", "part_size",
    "read_manifest", "read_run", "record_digests", "run_to_folder", "write_manifest", "write_part",
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
#: Columns whose values, in order, must strictly increase in a move table's part: a row twice, or
#: out of its place, breaks it even when the row count is right.
_ORDER = {"moves": ("game", "ply"), "rounds": ("game", "round", "seat")}
#: Seconds between two writes of the manifest's digests while parts finish (and once at the end).
_DIGEST_SECONDS = 2.0
#: The signals that stop a run or a report like Ctrl-C (what a user, a terminal or a scheduler sends).
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


class RunMismatchError(ValueError):
    """A part in a run folder does not belong to the run its manifest describes."""


def part_name(first_game: int) -> str:
    return f"part-{first_game:012d}.parquet"


def part_path(folder: Path, table: str, name: str) -> Path:
    """Where the part `name` of `table` lives: the games in the folder, a move run's tables in ``_<table>/``.

    A move table's part ends in its table's name rather than ``.parquet``, so that dask reading the
    folder does not take it for games.

    >>> [part_path(Path("run"), table, part_name(0)).as_posix() for table in ("games", "moves")]
    ['run/part-000000000000.parquet', 'run/_moves/part-000000000000.parquet.moves']
    """
    return folder / name if table == "games" else folder / f"_{table}" / f"{name}.{table}"


def _tables(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The tables of the manifest's run (runs written before move runs existed hold games only)."""
    return TABLES if manifest.get("moves", False) else TABLES[:1]


def _check_layout(folder: Path, manifest: dict[str, Any]) -> None:
    """Refuse, saying how to fix it, a move run whose tables are in the layout of azul_fast 0.2.0 and
    before (``_moves/part-*.parquet``, which dask read as games)."""
    for table in _tables(manifest)[1:]:
        old = sorted((folder / f"_{table}").glob("part-*.parquet"))
        if old:
            raise ValueError(f"{old[0]}: the {table} of this move run are in the layout of azul_fast 0.2.0 "
                             f"(.parquet files, which dask reads as games); rename each to end in .{table} "
                             f"(for f in {folder / f'_{table}'}/*.parquet; do mv \"$f\" \"$f.{table}\"; done)")


def _part_done(folder: Path, manifest: dict[str, Any], name: str) -> bool:
    return all(part_path(folder, table, name).exists() for table in _tables(manifest))


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
        "digests": {},
    }


def write_manifest(manifest: dict[str, Any], folder: Path) -> None:
    """Write the manifest atomically (a temporary file of a fixed name, then rename)."""
    path = folder / MANIFEST
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(json.dumps(manifest, indent=1))
        os.replace(tmp, path)
    except BaseException:  # a full disk, Ctrl-C: no draft is left behind
        tmp.unlink(missing_ok=True)
        raise


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
    digests = manifest.get("digests", {})  # absent from runs written before digests
    if not isinstance(digests, dict) or not all(
            isinstance(entry, dict) and all(isinstance(value, str) for value in entry.values())
            for entry in digests.values()):
        raise ValueError(f"{path}: 'digests' should map part names to {{table: digest}} objects")
    if not manifest["root_seed"].isdigit():
        raise ValueError(f"{path}: 'root_seed' should be a decimal number, got {manifest['root_seed']!r}")
    if manifest["n_games"] < 1 or manifest["chunk_size"] < 1 or manifest["players"] not in PLAYER_COUNTS:
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
    # A Python file, not the name: pyarrow takes names as UTF-8, so a folder name that is not UTF-8
    # would fail here and the part would look broken. A file that cannot be opened is an OSError naming it.
    with open(path, "rb") as file:
        try:
            meta = pq.read_metadata(file)
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


def _check_part_files(folder: Path, manifest: dict[str, Any], name: str, first: int, stop: int) -> dict[str, str]:
    """check_part for every table of a part, then what the files hold; return the part's digests.

    A part whose digests the manifest recorded must match them byte for byte (which also proves
    its rows are the ones written). A part without them (a run written before digests, or a part
    a kill left unrecorded) is read instead: its page checksums, and its rows (games first..stop-1
    with their seeds; a move run's moves and rounds of those games, in order, none twice).
    """
    paths = {table: part_path(folder, table, name) for table in _tables(manifest)}
    check_part(paths["games"], manifest, first, stop)
    if len(paths) > 1:
        games = read_file(paths["games"], columns=["turns", "rounds"])
        expected = {"moves": int(games["turns"].sum()), "rounds": manifest["players"] * int(games["rounds"].sum())}
        for table in MOVE_TABLES:
            check_part(paths[table], manifest, first, stop, table, expected[table])
    digests = {table: file_digest(path) for table, path in paths.items()}
    recorded = manifest.get("digests", {}).get(name)
    if recorded is not None:
        for table, path in paths.items():
            if recorded.get(table) != digests[table]:
                raise RunMismatchError(f"{path} is not the file this run wrote (its SHA-256 differs from the one "
                                       f"in {MANIFEST}): it was changed; remove it and resume the run")
        return digests
    _check_games(paths["games"], manifest, read_file(paths["games"], columns=["game", "seed"]), first, stop)
    for table in _tables(manifest)[1:]:
        _check_order(paths[table], read_file(paths[table], columns=list(_ORDER[table])), table, first, stop)
    return digests


def _check_games(path: Path, manifest: dict[str, Any], games: pd.DataFrame, first: int, stop: int) -> None:
    """A games part holds games first..stop-1 in order, each with the seed the run's root seed gives it."""
    numbers = games["game"].to_numpy().astype(np.int64)
    wrong = np.flatnonzero(numbers != np.arange(first, stop))
    if wrong.size:
        raise RunMismatchError(f"{path}: row {wrong[0]} holds game {numbers[wrong[0]]}, not game {first + wrong[0]} "
                               f"(the part must hold games {first}..{stop - 1} once each, in order); "
                               "remove it and resume the run")
    root, rotations = int(manifest["root_seed"]), manifest["players"] if manifest["seat_rotation"] else 1
    expected = np.array([derive_game_seed(root, game // rotations) for game in range(first, stop)], dtype=np.uint64)
    wrong = np.flatnonzero(games["seed"].to_numpy() != expected)
    if wrong.size:
        raise RunMismatchError(f"{path}: game {first + wrong[0]} has seed {games['seed'].iloc[wrong[0]]}, but the "
                               f"run's root seed {root} gives it {expected[wrong[0]]}; remove it and resume the run")


def _check_order(path: Path, rows: pd.DataFrame, table: str, first: int, stop: int) -> None:
    """A move table's part holds rows of games first..stop-1 in strictly increasing order of `_ORDER`'s columns."""
    columns = [rows[column].to_numpy().astype(np.int64) for column in _ORDER[table]]
    outside = np.flatnonzero((columns[0] < first) | (columns[0] >= stop))
    if outside.size:
        raise RunMismatchError(f"{path}: row {outside[0]} is of game {columns[0][outside[0]]}, outside games "
                               f"{first}..{stop - 1}; remove it and resume the run")
    later, tied = np.zeros(len(rows) - 1 if len(rows) else 0, bool), np.ones(max(len(rows) - 1, 0), bool)
    for column in columns:  # lexicographic: the first column that changes must grow
        step = np.diff(column)
        later |= tied & (step > 0)
        tied &= step == 0
    wrong = np.flatnonzero(~later)
    if wrong.size:
        raise RunMismatchError(f"{path}: row {wrong[0] + 1} repeats or precedes the row before it "
                               f"(by {', '.join(_ORDER[table])}); remove it and resume the run")


def _last(stop: object) -> object:
    return stop - 1 if isinstance(stop, int) else stop


def _json(raw: bytes | None) -> dict[str, Any]:
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def write_part(plan: RunPlan, folder: Path, first: int, stop: int, moves: bool = False) -> dict[str, str]:
    """Play games first..stop-1 into their part file (atomically, stamped with the run); return the
    SHA-256 of each file written, by table (for the manifest: `record_digests`).

    With `moves`, record every move and round too: the moves and rounds parts are written first
    and the games part last, so a part whose games are on disk is whole.
    """
    name = part_name(first)
    digests = {}
    if moves:
        records = assemble(plan, [record_games(plan, first, stop)], first_game=first)
        for table in MOVE_TABLES:
            digests[table] = _write_stamped(getattr(records, table), part_path(folder, table, name), first, stop)
        games = records.games
    else:
        games = plan.frame(plan.run(first, stop), first_game=first)
    return {"games": _write_stamped(games, part_path(folder, "games", name), first, stop), **digests}


def record_digests(folder: Path, manifest: dict[str, Any], digests: dict[str, dict[str, str]]) -> None:
    """Add the parts' `digests` ({part name: {table: digest}}) to `manifest` and write it to `folder`.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> plan = plan_run(100, 2, "random", seed=1)
    >>> manifest = new_manifest(plan, chunk_size=100)
    >>> record_digests(folder, manifest, {part_name(0): write_part(plan, folder, 0, 100)})
    >>> check_run(folder)["digests"][part_name(0)]["games"][:7]
    'sha256:'
    """
    if digests:
        manifest.setdefault("digests", {}).update(digests)
        write_manifest(manifest, folder)


def _write_stamped(df: pd.DataFrame, path: Path, first: int, stop: int) -> str:
    """Write a part atomically with its run (df.attrs) and its place in the run in the metadata; return its digest."""
    table = frame_table(df)
    metadata = {**(table.schema.metadata or {}), PART_KEY: json.dumps({"first_game": first, "stop": stop}).encode()}
    return write_table_atomic(table.replace_schema_metadata(metadata), path)


def _remove_own_temporaries(folder: Path, manifest: dict[str, Any]) -> None:
    """Delete what a write cut short by a kill left: only the temporary files of this run's own names."""
    (folder / f".{MANIFEST}.tmp").unlink(missing_ok=True)
    for table in _tables(manifest):
        for name in manifest["parts"]:
            path = part_path(folder, table, name)
            for stale in path.parent.glob(f".{path.name}.*.tmp"):
                stale.unlink()


@contextmanager
def interrupt_on_signals() -> Iterator[None]:
    """While running in the main thread, SIGTERM and SIGHUP stop the block like Ctrl-C.

    They raise KeyboardInterrupt, so the block's ``finally`` clauses run: a run keeps its finished
    parts, a report removes its staging folder. Elsewhere (a thread) the signals are left as they
    are, and so is a signal the process ignores (``nohup`` ignores SIGHUP).

    >>> import signal
    >>> try:
    ...     with interrupt_on_signals():
    ...         signal.raise_signal(signal.SIGHUP)
    ... except KeyboardInterrupt as stop:
    ...     print("stopped by", stop)
    stopped by signal 1
    """
    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    if threading.current_thread() is threading.main_thread():
        for name in STOP_SIGNALS[1:]:  # SIGINT raises KeyboardInterrupt already
            number = getattr(signal, name, None)  # no SIGHUP on Windows
            # An ignored signal stays ignored: `nohup azul-fast simulate ...` must outlive its terminal.
            if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, _raise_interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _raise_interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt(f"signal {signum}")


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
    with interrupt_on_signals(), run_lock(folder):
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
        _check_layout(folder, manifest)
        _remove_own_temporaries(folder, manifest)
        # Parts written before their digest reached the manifest (a kill) are checked row by row and
        # get their digest now; the others must still match theirs.
        manifest["digests"] = old.get("digests", {})
        for name, first, stop in _bounds(manifest):
            if _part_done(folder, manifest, name):
                manifest["digests"][name] = _check_part_files(folder, manifest, name, first, stop)
    write_manifest(manifest, folder)
    return plan, manifest


def _play_parts(folder: Path, plan: RunPlan, manifest: dict[str, Any], workers: int, progress: bool | None) -> None:
    """Play the parts not on disk yet, on a thread pool; Ctrl-C waits only for the parts being played."""
    todo = [(first, stop) for name, first, stop in _bounds(manifest) if not _part_done(folder, manifest, name)]
    unrecorded: dict[str, dict[str, str]] = {}
    written = time.monotonic()

    def finished(first: int, stop: int, digests: dict[str, str]) -> None:
        nonlocal unrecorded, written
        unrecorded[part_name(first)] = digests
        if time.monotonic() - written >= _DIGEST_SECONDS:  # not once a part: a manifest of 10,000 parts is large
            record_digests(folder, manifest, unrecorded)
            unrecorded, written = {}, time.monotonic()

    try:
        run_ranges(lambda a, b: write_part(plan, folder, a, b, manifest["moves"]), todo, workers, plan.total,
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
    return sum(stop - first for name, first, stop in _bounds(manifest) if _part_done(folder, manifest, name))


def check_run(folder: Path) -> dict[str, Any]:
    """The manifest of a finished run folder whose every part belongs to it; ValueError naming what does not."""
    manifest = read_manifest(folder)
    _check_layout(folder, manifest)
    missing = [name for name in manifest["parts"] if not _part_done(folder, manifest, name)]
    if missing:
        raise ValueError(
            f"run in {folder} is unfinished: {len(missing)} of {len(manifest['parts'])} parts missing; "
            "finish it with resume=True (azul-fast simulate ... --resume)"
        )
    for table in _tables(manifest):
        where = part_path(folder, table, part_name(0)).parent
        ours = {part_path(folder, table, name).name for name in manifest["parts"]}
        strays = sorted({path.name for path in where.glob("part-*")} - ours)
        if strays:
            raise RunMismatchError(f"{where / strays[0]} is not a part of the run in {folder}; remove it")
    for name, first, stop in _bounds(manifest):
        if "digests" in manifest and name not in manifest["digests"]:  # runs written before digests have none
            raise RunMismatchError(f"{part_path(folder, 'games', name)} has no digest in {folder / MANIFEST} (the "
                                   "run was stopped as it was written); resume the run to check and record it")
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

    Parameters
    ----------
    path : path-like
        A parquet file written by `save` (or ``azul-fast simulate --out FILE.parquet``), or a
        run folder.
    table : str
        ``"games"``, ``"moves"`` or ``"rounds"`` (the last two from a move run's folder only).

    Returns
    -------
    pandas.DataFrame
        The rows as written, with the run's settings in ``df.attrs``.

    Raises
    ------
    FileNotFoundError
        If nothing is at `path`.
    ValueError
        For an unknown `table`, or one the file or folder does not hold.

    Examples
    --------
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
        # errno and filename set: the command line says "no such file or folder: PATH", like the OS
        raise FileNotFoundError(errno.ENOENT, "no such file or folder", str(path))
    if path.is_dir():
        return read_run(path, table)
    if table != "games":
        raise ValueError(f"{path} is one parquet file of games; the {table} table is in move run folders "
                         "(run_to_folder(..., moves=True), azul-fast simulate --moves --out FOLDER)")
    return read_file(path)
