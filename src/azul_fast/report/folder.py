"""Folders that a command writes for people: the report folder, and the diagrams of ``replay --svg``.

The rule: a command replaces only what it wrote. Each such folder holds a manifest of the files
the command wrote there, with their SHA-256 (`record_files`); on the next run, a file that the
manifest lists with that same digest is the command's to replace, and anything else (a file the
manifest does not name, one edited since, a folder) is the user's: it is refused up front, or
kept if it appears while the command runs.

A report is built in a staging folder beside its target and swapped in whole (`swap_in`), so an
interrupted or failed run leaves the previous report as it was. The staging folder holds an
owner record (`STAGING_OWNER`: process id and host), so that one left by a process that died
without cleaning up (SIGKILL, a power cut) is recognised as ours and cleared on the next run
(`clear_stale_staging`).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "move-001.svg").write_text("<svg/>")
>>> record_files(folder, ["move-001.svg"], REPLAY_MANIFEST)
>>> _ = (folder / "move-ideas.svg").write_text("<svg/>")   # the user's
>>> sorted(written_files(folder, REPLAY_MANIFEST)), foreign_files(folder, REPLAY_MANIFEST)
(['move-001.svg'], ['move-ideas.svg'])
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from azul_fast.runs.files import file_digest
from azul_fast.runs.lock import process_is_gone
from azul_fast.runs.signals import STOP_SIGNALS, check_stop

__all__ = [
    "REPLAY_MANIFEST", "REPORT_MANIFEST", "STAGING_OWNER", "check_out_folder", "clear_stale_staging", "foreign_files",
    "make_staging", "record_files", "swap_in", "written_files",
]

#: The manifest of the files a report wrote into its folder.
REPORT_MANIFEST = "report-manifest.json"
#: The manifest of the diagrams ``azul-fast replay --svg DIR`` wrote into DIR.
REPLAY_MANIFEST = "replay-manifest.json"
#: The owner record in a report's staging folder (removed before the swap).
STAGING_OWNER = ".azul_fast-staging.json"
_FORMAT = "azul_fast/written-files/1"


def record_files(folder: Path, names: Iterable[str], manifest: str) -> None:
    """Write `folder`'s `manifest`: the files `names` (in `folder`) as they are now, by SHA-256.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "final.svg").write_text("<svg/>")
    >>> record_files(folder, ["final.svg"], REPLAY_MANIFEST)
    >>> json.loads((folder / REPLAY_MANIFEST).read_text())["files"]["final.svg"][:7]
    'sha256:'
    """
    files = {name: file_digest(folder / name) for name in sorted(names)}
    path = folder / manifest
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(json.dumps({"format": _FORMAT, "files": files}, indent=1))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def written_files(folder: Path, manifest: str) -> set[str]:
    """The files of `folder` that its `manifest` lists and that are still as the command wrote them.

    A missing or unreadable manifest lists nothing, so nothing in the folder counts as written.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.csv").write_text("1")
    >>> record_files(folder, ["a.csv"], REPORT_MANIFEST)
    >>> written_files(folder, REPORT_MANIFEST)
    {'a.csv'}
    >>> _ = (folder / "a.csv").write_text("edited")   # changed since: the user's now
    >>> written_files(folder, REPORT_MANIFEST)
    set()
    """
    try:
        record = json.loads((folder / manifest).read_text())
    except (OSError, ValueError):
        return set()
    files = record.get("files") if isinstance(record, dict) and record.get("format") == _FORMAT else None
    if not isinstance(files, dict):
        return set()
    return {name for name, digest in files.items()
            if isinstance(name, str) and "/" not in name and os.sep not in name and name not in (".", "..")
            and (folder / name).is_file() and not (folder / name).is_symlink()
            and digest == file_digest(folder / name)}


def foreign_files(folder: Path, manifest: str) -> list[str]:
    """The names in `folder` that are not the command's to replace: neither its manifest nor a file it
    listed there, unchanged.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "notes.md").write_text("mine")
    >>> foreign_files(folder, REPORT_MANIFEST)
    ['notes.md']
    """
    if not folder.is_dir():
        return []
    ours = written_files(folder, manifest) | {manifest}
    return sorted(entry.name for entry in folder.iterdir() if entry.name not in ours)


def check_out_folder(out: Path) -> None:
    """A report goes into a new or empty folder, or replaces an earlier report; a folder holding
    anything an earlier report did not write (by its manifest) is refused, so no other file is
    ever deleted.

    >>> import tempfile, pathlib
    >>> site = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (site / "index.html").write_text("x")
    >>> check_out_folder(site)
    Traceback (most recent call last):
    ...
    ValueError: --out ... holds files but no report manifest (report-manifest.json, ...): name a new or empty folder
    """
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file; a report is a folder")
    if not out.is_dir() or not any(out.iterdir()):
        return
    foreign = foreign_files(out, REPORT_MANIFEST)
    if not (out / REPORT_MANIFEST).is_file():
        raise ValueError(f"--out {out} holds files but no report manifest ({REPORT_MANIFEST}, the list of what "
                         f"a report wrote there), so none of its files is a report's to replace "
                         f"({_some(foreign)}): name a new or empty folder")
    if foreign:
        raise ValueError(f"--out {out} holds files a report does not write, or that changed since it wrote them "
                         f"({_some(foreign)}): move them, or name another folder")


def _some(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def make_staging(out: Path) -> Path:
    """Create this process's staging folder for `out` (hidden, beside it), with its owner record; return it.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "site"
    >>> staging = make_staging(out)
    >>> staging.name == f".site.building-{os.getpid()}", sorted(p.name for p in staging.iterdir())
    (True, ['.azul_fast-staging.json'])
    >>> _ = (staging / "index.html").write_text("new")
    >>> swap_in(staging, out), sorted(p.name for p in out.iterdir())
    ([], ['index.html'])
    """
    staging = out.with_name(f".{out.name}.building-{os.getpid()}")
    # Our own pid's name: a folder left under it is a dead process's (the pid was reused by us).
    clear_stale_staging(out, pids=(os.getpid(),))
    staging.mkdir()
    (staging / STAGING_OWNER).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    return staging


def clear_stale_staging(out: Path, pids: Iterable[int] | None = None) -> list[Path]:
    """Remove the staging folders of `out` left by processes that died before cleaning up; return them.

    A folder is removed only when it is provably ours and dead: its name is a staging folder's, it
    holds an owner record naming the same process id, and that process is gone from this host
    (`azul_fast.runs.lock.process_is_gone`; `pids` names processes known to be gone). Anything
    else that looks like one is left alone. An earlier report that a process killed in the middle
    of `swap_in` left aside (``.<out>.old-<pid>``, holding a report manifest) is put back if `out`
    is missing, or else retired as `swap_in` would have.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "site"
    >>> stray = out.with_name(".site.building-123")   # no owner record: not provably ours
    >>> stray.mkdir()
    >>> clear_stale_staging(out), stray.exists()
    ([], True)
    """
    _recover_swaps(out)
    cleared = []
    prefix = f".{out.name}.building-"
    known = set(pids or ())
    for folder in out.parent.glob(f"{prefix}*") if out.parent.is_dir() else []:
        pid = folder.name[len(prefix):]
        if not (pid.isdigit() and folder.is_dir() and not folder.is_symlink()):
            continue
        try:
            owner = json.loads((folder / STAGING_OWNER).read_text())
        except (OSError, ValueError):
            continue  # no owner record: not provably ours
        if not isinstance(owner, dict) or owner.get("pid") != int(pid):
            continue
        reused = int(pid) in known and owner.get("host") == socket.gethostname()
        if reused or process_is_gone(owner["pid"], owner.get("host")):
            shutil.rmtree(folder)
            cleared.append(folder)
    return cleared


def _recover_swaps(out: Path) -> None:
    """Put back, or retire, the earlier reports that swaps cut short by a kill left aside."""
    prefix = f".{out.name}.old-"
    for old in out.parent.glob(f"{prefix}*") if out.parent.is_dir() else []:
        pid = old.name[len(prefix):]
        if not (pid.isdigit() and old.is_dir() and (old / REPORT_MANIFEST).is_file()
                and process_is_gone(int(pid), socket.gethostname())):
            continue
        if not out.exists():
            os.replace(old, out)  # killed between the two renames: the earlier report is still whole
        else:
            _retire(old, out)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP for the block, then deliver them: two renames that must
    not be parted. (Handlers rather than a signal mask: in a process with threads, a masked signal
    is delivered to another thread and Python still runs its handler in the main one.)"""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are handled in the main thread, which is not running this block
        return
    held: list[int] = []
    numbers = [getattr(signal, name) for name in STOP_SIGNALS if hasattr(signal, name)]
    previous = {number: signal.signal(number, lambda signum, frame: held.append(signum)) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(held):
            signal.raise_signal(number)  # now, to the handlers the block found


def swap_in(staging: Path, out: Path) -> list[str]:
    """Replace `out` (an earlier report, or nothing) with the finished `staging` folder.

    The earlier report's own files are deleted; any other file (one saved into `out` while the
    report ran) is moved into the new folder, or, if the new report has a file of that name, kept
    in a folder ``<out>-kept-<pid>`` beside it. Return the names kept, each as it now lies (an
    example is under `make_staging`).
    """
    (staging / STAGING_OWNER).unlink(missing_ok=True)
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    with _signals_held():  # a signal between the renames would leave no report at `out`
        check_stop()  # a stop before the swap, swallowed on its way, keeps the earlier report
        if out.exists():
            os.replace(out, old)
        os.replace(staging, out)
        return _retire(old, out) if old.exists() else []


def _retire(old: Path, out: Path) -> list[str]:
    """Delete the files of the earlier report `old` that it wrote; move any other back into `out`,
    or keep it beside (see `swap_in`)."""
    kept = []
    for name in foreign_files(old, REPORT_MANIFEST):
        target = out / name
        if not target.exists():
            os.replace(old / name, target)
            kept.append(str(target))
    for name in [*written_files(old, REPORT_MANIFEST), REPORT_MANIFEST]:
        (old / name).unlink(missing_ok=True)
    try:
        old.rmdir()
    except OSError:  # what could not go back: files named as the new report's
        aside = out.with_name(f"{out.name}-kept-{os.getpid()}")
        os.replace(old, aside)
        kept += [str(path) for path in sorted(aside.iterdir())]
    return kept
