"""Long runs to a folder: every finished chunk is on disk, a killed run resumes where it stopped.

Layout of a run folder::

    _manifest.json                     the run (arguments, root seed, chunking), written first
    part-000000000000.parquet          games 0 .. chunk_size-1
    part-000000100000.parquet          ...

Each part is written to a temporary file and renamed, so a part either exists whole or not at
all, whatever kills the process (SIGINT, SIGTERM, SIGKILL, power). A rerun with ``resume=True``
reads the manifest, keeps the parts that exist and plays only the missing chunks; game i always
has the same seed, so the result equals an uninterrupted run. `azul_fast.load(folder)` reads it.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import concurrent.futures as cf
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import pandas as pd

from azul_fast.simulate import Policy, RunPlan, SeedLike, _check, _progress_bar, plan_run
from azul_fast.storage import frame_table, write_table_atomic

__all__ = ["MANIFEST", "RUN_FORMAT", "part_name", "read_run", "run_to_folder"]

MANIFEST = "_manifest.json"  # leading _ : pandas and dask skip it when reading the folder
RUN_FORMAT = "azul_fast/run/1"
DEFAULT_CHUNK = 100_000


def part_name(first_game: int) -> str:
    return f"part-{first_game:012d}.parquet"


def _manifest(plan: RunPlan, chunk_size: int) -> dict[str, Any]:
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
        "parts": [part_name(a) for a in range(0, plan.total, chunk_size)],
        "attrs": plan.attrs,
    }


def _write_json_atomic(data: dict[str, Any], path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def _same_run(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    old = {"variant": "colored", **old}  # runs written before the gray wall were colored
    return [key for key in ("n_games", "players", "policies", "first_player", "max_rounds", "variant",
                            "seat_rotation", "chunk_size") if old.get(key) != new.get(key)]


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
    chunk_size: int = DEFAULT_CHUNK,
    seat_rotation: bool = False,
    check_invariants: bool = False,
    variant: str = "colored",
) -> Path:
    """Play a run chunk by chunk into the folder `path`; return the folder.

    Arguments are those of `simulate`. A folder that already holds a run is only continued with
    ``resume=True`` (and the same arguments; the root seed comes from its manifest), never
    overwritten. Built-in policies only (a folder run must be replayable from its manifest).

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
    >>> _ = run_to_folder(folder, 300, policies="greedy", workers=1, chunk_size=100, resume=True)
    >>> load(folder).equals(simulate(300, policies="greedy", seed=5, workers=1))
    True
    >>> scratch.cleanup()
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"out: {folder} exists and is not a folder")
    chunk_size = _check(chunk_size, "chunk_size", 1, 2**31)
    manifest_path = folder / MANIFEST
    if manifest_path.exists():
        if not resume:
            raise ValueError(f"out: {folder} already holds a run; pass resume=True (--resume) to finish it")
        old = json.loads(manifest_path.read_text())
        seed = int(old["root_seed"])
    elif folder.exists() and any(folder.iterdir()) and not resume:
        raise ValueError(f"out: {folder} is not empty and holds no run manifest")
    plan = plan_run(n_games, players, policies, seed, first_player, max_rounds,
                    seat_rotation=seat_rotation, check_invariants=check_invariants, variant=variant)
    if not plan.native:
        raise ValueError("policies: a folder run takes built-in policy names only, so it can be resumed")
    manifest = _manifest(plan, chunk_size)
    if manifest_path.exists():
        differ = _same_run(json.loads(manifest_path.read_text()), manifest)
        if differ:
            raise ValueError(f"resume: the folder's run differs in {', '.join(differ)}; use the same arguments")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(".*.tmp"):
        stale.unlink()  # a write cut short by a kill
    _write_json_atomic(manifest, manifest_path)
    todo = [a for a in range(0, plan.total, chunk_size) if not (folder / part_name(a)).exists()]
    workers = (os.cpu_count() or 1) if workers is None else _check(workers, "workers", 1, 1024)
    bar = _progress_bar(plan.total, progress)
    if bar is not None:
        bar.update(plan.total - sum(min(a + chunk_size, plan.total) - a for a in todo))

    def play_part(first: int) -> int:
        stop = min(first + chunk_size, plan.total)
        frame = plan.frame(plan.run(first, stop), first_game=first)
        write_table_atomic(frame_table(frame), folder / part_name(first))
        return stop - first

    with _TermAsInterrupt():
        pool = cf.ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo))), thread_name_prefix="azul_fast")
        try:
            for done in cf.as_completed([pool.submit(play_part, a) for a in todo]):
                n = done.result()
                if bar is not None:
                    bar.update(n)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            if bar is not None:
                bar.close()
    return folder


def read_run(folder: Path) -> pd.DataFrame:
    """Read a run folder as one DataFrame; refuse an unfinished or inconsistent one."""
    manifest = json.loads((folder / MANIFEST).read_text())
    if manifest.get("format") != RUN_FORMAT:
        raise ValueError(f"{folder / MANIFEST} is not an azul_fast run manifest")
    missing = [name for name in manifest["parts"] if not (folder / name).exists()]
    if missing:
        raise ValueError(
            f"run in {folder} is unfinished: {len(missing)} of {len(manifest['parts'])} parts missing; "
            "finish it with resume=True (azul-fast simulate ... --resume)"
        )
    from azul_fast.storage import load

    df = pd.concat([load(folder / name) for name in manifest["parts"]], ignore_index=True)
    total = manifest["n_games"] * (manifest["players"] if manifest["seat_rotation"] else 1)
    if len(df) != total or not (df["game"].to_numpy() == range(total)).all():
        raise ValueError(f"run in {folder} does not hold games 0..{total - 1} exactly once")
    df.attrs = manifest["attrs"]
    return df
