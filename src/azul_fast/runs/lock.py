"""One writer per run folder: a lock file that names its holder, taken over when that holder died.

The lock is ``_run.lock`` in the run folder (a leading ``_``: pandas and dask skip it), a JSON
record of the holder: process id, host, start time and a random token. It is created whole or
not at all: written to a temporary file, then hard-linked to its name, which fails if the name
exists (as ``O_CREAT | O_EXCL`` does, but a reader never sees a half-written lock, and it holds on
NFS too). A lock whose process is gone from this host is stale: it is moved aside by rename, which
only one taker can do, and the folder is locked afresh. A lock from another host cannot be judged
from here, so it is reported, with the file to delete if that run is known to be over.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with run_lock(folder):
...     with run_lock(folder):
...         pass
Traceback (most recent call last):
...
azul_fast.runs.lock.RunLockedError: run folder ... is in use by pid ... on ... since ...
>>> (folder / LOCK).exists()
False
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from azul_fast.core.errors import AzulFastError

__all__ = ["LOCK", "LockLostError", "RunLockedError", "check_holder", "is_lock_file", "process_is_gone", "run_lock"]

LOCK = "_run.lock"
_ATTEMPTS = 5  # a lock that keeps changing hands under us is reported as held


class RunLockedError(AzulFastError, FileExistsError):
    """Another process writes into the run folder (it holds the folder's lock)."""


class LockLostError(AzulFastError, RuntimeError):
    """A write for a run whose lock is no longer held by the process that started it."""


@contextmanager
def run_lock(folder: Path) -> Iterator[str]:
    """Hold `folder`'s lock for the duration of the block, which gets the lock's token (16 hex digits,
    fresh for every holder); RunLockedError if another process holds it."""
    path = folder / LOCK
    mine = _acquire(path)
    try:
        yield mine["token"]
    finally:
        if _holder(path) == mine:  # never remove a lock that another process took over
            path.unlink(missing_ok=True)


def check_holder(folder: Path, token: str) -> None:
    """LockLostError unless `folder`'s lock is held with `token`: a task still running for a run
    whose writer has gone (a Dask worker orphaned when its scheduler died) must not write.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with run_lock(folder) as token:
    ...     check_holder(folder, token)
    >>> check_holder(folder, token)
    Traceback (most recent call last):
    ...
    azul_fast.runs.lock.LockLostError: run folder ... is no longer locked by the run that wrote ...
    """
    holder = _holder(folder / LOCK)
    if holder is None or holder.get("token") != token:
        raise LockLostError(f"run folder {folder} is no longer locked by the run that wrote this part (its writer "
                            "stopped or was replaced); the part is not written")


def is_lock_file(name: str) -> bool:
    """Whether `name` is the lock, or a lock's draft or stale copy (which exist for a moment while it changes hands).

    >>> is_lock_file(LOCK), is_lock_file(f".{LOCK}.0123456789abcdef.tmp"), is_lock_file("notes.txt")
    (True, True, False)
    """
    return name == LOCK or (name.startswith(f".{LOCK}.") and name.endswith((".tmp", ".stale")))


def _acquire(path: Path) -> dict[str, Any]:
    mine = {"pid": os.getpid(), "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "token": secrets.token_hex(8)}
    draft = path.with_name(f".{LOCK}.{mine['token']}.tmp")
    try:
        # Inside the try: a write that fails half-way (a full disk) leaves a draft to remove too.
        draft.write_text(json.dumps(mine))
        for _ in range(_ATTEMPTS):
            try:
                os.link(draft, path)
                return mine
            except FileExistsError:
                holder = _holder(path)
            if holder is not None and not _is_dead(holder):
                raise RunLockedError(_held_message(path, holder))
            if holder is not None:
                _take_aside(path, holder)
        raise RunLockedError(f"run folder {path.parent} is being locked and unlocked by other processes; try again")
    finally:
        draft.unlink(missing_ok=True)


def _holder(path: Path) -> dict[str, Any] | None:
    """The lock's record; None if it vanished meanwhile. An unreadable lock counts as held by nobody known."""
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        record = None
    return record if isinstance(record, dict) else {"pid": "?", "host": "?", "started": "?"}


def _is_dead(holder: dict[str, Any]) -> bool:
    """Whether the holder's process is known to be gone (only a process of this host can be checked)."""
    return process_is_gone(holder.get("pid"), holder.get("host"))


def process_is_gone(pid: object, host: object) -> bool:
    """Whether process `pid` of machine `host` is known to be gone: only a process of this host can
    be checked, so any doubt (another host, a pid that is not a positive int, another user's
    process) answers False.

    >>> process_is_gone(os.getpid(), socket.gethostname()), process_is_gone(os.getpid(), "elsewhere")
    (False, False)
    """
    if host != socket.gethostname() or isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


def _take_aside(path: Path, stale: dict[str, Any]) -> None:
    """Move a stale lock out of the way; if what moved was a fresh lock taken meanwhile, put it back."""
    aside = path.with_name(f".{LOCK}.{secrets.token_hex(8)}.stale")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return  # another process took it aside first
    try:
        if _holder(aside) != stale:
            try:
                os.link(aside, path)
            except FileExistsError:
                pass
    finally:
        aside.unlink()


def _held_message(path: Path, holder: dict[str, Any]) -> str:
    return (f"run folder {path.parent} is in use by pid {holder.get('pid')} on {holder.get('host')} since "
            f"{holder.get('started')}; wait for that run to end, or delete {path} if it is known to be over")
