"""The run-folder protocol: the manifest, the parts' names and stamps, and the checks of both.

Layout of a run folder::

    _manifest.json                            the run (arguments, root seed, part size, its writers),
                                              written first; the digest of every part as it is written
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

Every part carries its run's identity in its parquet metadata: the run's attributes (root seed,
arguments, rules version) and its game range. `azul_fast.load(folder)` and resuming check every
part against the manifest and refuse, naming the file, one that belongs elsewhere. They check its
whole content too: the SHA-256 the manifest recorded when the part was written (an edit, even one
that keeps the row count, is refused). `load` refuses a part without one; resuming replays such a
part (one a kill left unrecorded) and records it only if it holds exactly the games the run plays
(`azul_fast.runs.folders`). A manifest of this format always has its digests: one without them is
refused, unless the run was written by azul_fast 0.2.0, before digests (format 1, and no part with
page checksums, which azul_fast writes since); such a run is checked by its rows alone (games
first..stop-1 in order, each with the seed the root seed gives it; the moves and rounds of those
games in order, none twice), and a warning says so.

Every process that writes into the folder records its token (its lock's, `azul_fast.runs.lock`) in
the manifest's ``writers`` before it writes, and names its temporary files with it
(`temporary_name`): a later run removes the leftovers of a kill only by those exact names.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from azul_fast.core.errors import AzulFastError
from azul_fast.core.rules.moves import PLAYER_COUNTS
from azul_fast.runs._simulate import derive_game_seed
from azul_fast.runs.files import METADATA_KEY, file_digest, has_page_checksums, read_file
from azul_fast.runs.move_records import MOVE_TABLES
from azul_fast.runs.plan import RunPlan

__all__ = [
    "MANIFEST", "PART_KEY", "RUN_FORMAT", "TABLES", "RunMismatchError", "bounds", "check_layout", "check_part",
    "check_part_files", "check_run", "identity", "new_manifest", "part_done", "part_name", "part_path",
    "predates_digests", "read_manifest", "read_run", "remove_own_temporaries", "run_tables", "temporary_name",
    "total_games", "write_manifest",
]

MANIFEST = "_manifest.json"  # leading _ : pandas and dask skip it when reading the folder
#: The format this version writes: digests and writers always present.
RUN_FORMAT = "azul_fast/run/2"
#: The format of azul_fast 0.2.0 (no digests, no writers) and of the versions that added digests to it.
_FORMAT_1 = "azul_fast/run/1"
#: Key of a part's place in its run ({"first_game": a, "stop": b}) in the part's parquet metadata.
PART_KEY = b"azul_fast_part"
#: Manifest fields and their JSON types (variant is absent from runs older than the gray wall).
_FIELDS: dict[str, type] = {
    "n_games": int, "players": int, "policies": list, "root_seed": str, "first_player": int, "max_rounds": int,
    "seat_rotation": bool, "chunk_size": int, "parts": list, "attrs": dict,
}
#: Fields that a manifest of `RUN_FORMAT` has besides `_FIELDS`.
_FIELDS_2: dict[str, type] = {"digests": dict, "writers": list}
#: A writer's token, as `azul_fast.runs.lock` makes them (never a path: it becomes part of file names).
_TOKEN = re.compile(r"[0-9a-f]{16}")
#: Manifest fields that df.attrs repeat.
_IDENTITY_FIELDS = ("players", "policies", "root_seed", "first_player", "max_rounds", "seat_rotation")
#: The tables a run folder can hold: the games (every run), then a move run's.
TABLES = ("games", *MOVE_TABLES)
#: Columns whose values, in order, must strictly increase in a move table's part: a row twice, or
#: out of its place, breaks it even when the row count is right.
_ORDER = {"moves": ("game", "ply"), "rounds": ("game", "round", "seat")}


class RunMismatchError(AzulFastError, ValueError):
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


def run_tables(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The tables of the manifest's run (runs written before move runs existed hold games only)."""
    return TABLES if manifest.get("moves", False) else TABLES[:1]


def check_layout(folder: Path, manifest: dict[str, Any]) -> None:
    """Refuse, saying how to fix it, a move run whose tables are in the layout of azul_fast 0.2.0 and
    before (``_moves/part-*.parquet``, which dask read as games)."""
    for table in run_tables(manifest)[1:]:
        old = sorted((folder / f"_{table}").glob("part-*.parquet"))
        if old:
            raise ValueError(f"{old[0]}: the {table} of this move run are in the layout of azul_fast 0.2.0 "
                             f"(.parquet files, which dask reads as games); rename each to end in .{table} "
                             f"(for f in {folder / f'_{table}'}/*.parquet; do mv \"$f\" \"$f.{table}\"; done)")


def part_done(folder: Path, manifest: dict[str, Any], name: str) -> bool:
    return all(part_path(folder, table, name).exists() for table in run_tables(manifest))


def new_manifest(plan: RunPlan, chunk_size: int, moves: bool = False, writers: list[str] | None = None
                 ) -> dict[str, Any]:
    """The manifest of a run folder for `plan` in parts of `chunk_size` games (with every move if
    `moves`), written by the processes of `writers` (tokens; the last is the one writing now)."""
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
        "writers": list(writers or []),
    }


def temporary_name(path: Path, token: str) -> Path:
    """The temporary file the writer `token` writes `path` through (created exclusively, renamed when whole).

    >>> temporary_name(Path("run") / MANIFEST, "0123456789abcdef").as_posix()
    'run/._manifest.json.0123456789abcdef.tmp'
    """
    return path.with_name(f".{path.name}.{token}.tmp")


def write_manifest(manifest: dict[str, Any], folder: Path) -> None:
    """Write the manifest atomically, through the temporary file of its latest writer's token."""
    path = folder / MANIFEST
    tmp = temporary_name(path, manifest["writers"][-1])
    try:
        tmp.write_text(json.dumps(manifest, indent=1))
        os.replace(tmp, path)
    except BaseException:  # a full disk, Ctrl-C: no draft is left behind
        tmp.unlink(missing_ok=True)
        raise


def remove_own_temporaries(folder: Path, manifest: dict[str, Any]) -> list[Path]:
    """Delete what writes cut short by a kill left: the temporary files of the manifest's writers,
    by their exact names (`temporary_name`); return them. Nothing else is removed."""
    removed = []
    for token in manifest.get("writers", []):
        paths = [folder / MANIFEST] + [part_path(folder, table, name)
                                       for table in run_tables(manifest) for name in manifest["parts"]]
        for path in paths:
            stale = temporary_name(path, token)
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
                removed.append(stale)
    return removed


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
    if manifest.get("format") not in (RUN_FORMAT, _FORMAT_1):
        raise ValueError(f"{path}: not an azul_fast run manifest (format {manifest.get('format')!r}, "
                         f"expected {RUN_FORMAT!r})")
    for key, kind in {**_FIELDS, **(_FIELDS_2 if manifest["format"] == RUN_FORMAT else {})}.items():
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
    if not all(isinstance(token, str) and _TOKEN.fullmatch(token) for token in manifest.get("writers", [])):
        raise ValueError(f"{path}: 'writers' should list tokens of 16 hex digits")
    if not manifest["root_seed"].isdigit():
        raise ValueError(f"{path}: 'root_seed' should be a decimal number, got {manifest['root_seed']!r}")
    if manifest["n_games"] < 1 or manifest["chunk_size"] < 1 or manifest["players"] not in PLAYER_COUNTS:
        raise ValueError(f"{path}: 'n_games', 'chunk_size' or 'players' out of range")
    total = total_games(manifest)
    if len(manifest["parts"]) != -(-total // manifest["chunk_size"]) or manifest["parts"] != [
            part_name(a) for a in range(0, total, manifest["chunk_size"])]:
        raise ValueError(f"{path}: 'parts' do not name the parts of {total} games in chunks of "
                         f"{manifest['chunk_size']}")
    # df.attrs name the same run as the manifest's fields (n_games counts every rotation there).
    expected = {**{key: manifest[key] for key in _IDENTITY_FIELDS},
                "variant": manifest.get("variant", "colored"), "n_games": total}
    attrs = identity(manifest["attrs"])
    differ = [key for key, value in expected.items() if attrs.get(key) != value]
    if differ:
        raise ValueError(f"{path}: 'attrs' disagree with the manifest on {', '.join(differ)}")
    return manifest


def total_games(manifest: dict[str, Any]) -> int:
    """Games in the run (each deal once per seat with seat rotation)."""
    return int(manifest["n_games"]) * (int(manifest["players"]) if manifest["seat_rotation"] else 1)


def identity(attrs: Any) -> dict[str, Any]:
    """What makes a run that run: its attributes but the code version (a bug-fix release may finish it)."""
    if not isinstance(attrs, dict):
        return {}
    return {"variant": "colored", **{key: value for key, value in attrs.items() if key != "azul_fast_version"}}


def bounds(manifest: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(part name, first game, stop) of every part of the run."""
    total, size = total_games(manifest), manifest["chunk_size"]
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
        # pyarrow's ArrowInvalid is a ValueError; a damaged footer can raise others of its errors
        except (OSError, ValueError, NotImplementedError, pa.ArrowException) as error:
            raise RunMismatchError(f"{path} is not a readable parquet part ({' '.join(str(error).split())}); "
                                   "remove it and resume the run") from None
    metadata = meta.metadata or {}
    theirs = identity(_json(metadata.get(METADATA_KEY)))
    ours = {**identity(manifest["attrs"]), **({} if table == "games" else {"table": table})}
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


def check_part_files(folder: Path, manifest: dict[str, Any], name: str, first: int, stop: int
                     ) -> dict[str, str] | None:
    """check_part for every table of a part, then its content; return the part's digests, or None
    for a part whose digests the manifest has not recorded (a kill left it unrecorded: `load`
    refuses it, resuming replays it).

    A part whose digests the manifest recorded must match them byte for byte (which also proves
    its rows are the ones written). In a run written before digests (`predates_digests`) its rows
    are read instead: games first..stop-1 with their seeds; a move run's moves and rounds of those
    games, in order, none twice.
    """
    paths = {table: part_path(folder, table, name) for table in run_tables(manifest)}
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
    if "digests" in manifest:
        return None
    _check_games(paths["games"], manifest, read_file(paths["games"], columns=["game", "seed"]), first, stop)
    for table in run_tables(manifest)[1:]:
        _check_order(paths[table], read_file(paths[table], columns=list(_ORDER[table])), table, first, stop)
    return digests


def predates_digests(folder: Path, manifest: dict[str, Any]) -> bool:
    """Whether the run is one written before manifests recorded digests (azul_fast 0.2.0), proven by
    its parts: none has page checksums, which azul_fast writes since it records digests. A manifest
    without digests whose parts say otherwise lost them: RunMismatchError naming a part."""
    if "digests" in manifest:
        return False
    for name in manifest["parts"]:
        path = part_path(folder, "games", name)
        try:
            newer = has_page_checksums(path)
        except (OSError, ValueError, NotImplementedError, pa.ArrowException):
            continue  # unreadable: check_part names it
        if newer:
            raise RunMismatchError(f"{folder / MANIFEST} has no digests, but {path} was written by a version of "
                                   "azul_fast that records them: the manifest was edited, and the run's parts "
                                   "cannot be checked; play the run again")
    return True


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


def check_run(folder: Path) -> dict[str, Any]:
    """The manifest of a finished run folder whose every part belongs to it; ValueError naming what does not."""
    manifest = read_manifest(folder)
    check_layout(folder, manifest)
    missing = [name for name in manifest["parts"] if not part_done(folder, manifest, name)]
    if missing:
        raise ValueError(
            f"run in {folder} is unfinished: {len(missing)} of {len(manifest['parts'])} parts missing; "
            "finish it with resume=True (azul-fast simulate ... --resume)"
        )
    for table in run_tables(manifest):
        where = part_path(folder, table, part_name(0)).parent
        ours = {part_path(folder, table, name).name for name in manifest["parts"]}
        strays = sorted({path.name for path in where.glob("part-*")} - ours)
        if strays:
            raise RunMismatchError(f"{where / strays[0]} is not a part of the run in {folder}; remove it")
    if predates_digests(folder, manifest):
        warnings.warn(f"the run in {folder} was written by azul_fast 0.2.0, before run manifests recorded "
                      "digests: its parts are checked by their rows only (game numbers and seeds), not their "
                      "scores", stacklevel=3)
    for name, first, stop in bounds(manifest):
        if check_part_files(folder, manifest, name, first, stop) is None:
            raise RunMismatchError(f"{part_path(folder, 'games', name)} has no digest in {folder / MANIFEST} (the "
                                   "run was stopped as it was written); resume the run to check and record it")
    return manifest


def read_run(folder: Path, table: str = "games") -> pd.DataFrame:
    """Read one table of a run folder as one DataFrame; refuse an unfinished or inconsistent run."""
    manifest = check_run(folder)
    if table not in run_tables(manifest):
        raise ValueError(f"run in {folder} holds no {table} table: it was written without moves "
                         "(record them with moves=True, azul-fast simulate --moves)")
    df = pd.concat([read_file(part_path(folder, table, name)) for name in manifest["parts"]], ignore_index=True)
    total = total_games(manifest)
    games = df["game"].to_numpy().astype(np.int64)  # signed: a step back is negative
    if table == "games" and (len(df) != total or not (games == range(total)).all()):
        raise ValueError(f"run in {folder} does not hold games 0..{total - 1} exactly once")
    if table != "games" and len(df) and (games[0] != 0 or games[-1] != total - 1 or (np.diff(games) < 0).any()):
        raise ValueError(f"the {table} of the run in {folder} do not cover games 0..{total - 1} in order")
    df.attrs = manifest["attrs"] if table == "games" else {**manifest["attrs"], "table": table}
    return df


