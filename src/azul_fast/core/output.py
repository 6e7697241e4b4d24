"""The one rule for every file azul_fast writes: never replace what it did not write.

A file is written under a temporary name beside its target (created exclusively, so it is this
writer's own), then put in place: with ``overwrite=False`` only if nothing is at the target, not
even a link (dangling or not), by a hard link that fails if the name exists (``O_EXCL``
semantics, checked by the file system at that moment, so a file created meanwhile is kept); with
``overwrite=True`` by a rename, which replaces a link itself rather than writing through it. The
temporary file is removed whatever stops the write, and nothing else is ever removed.

A link is never followed for output: a folder to write into (a report, a run, a review, the
diagrams of a replay) that is a symbolic link, dangling or not, is refused (`check_not_link`), as
is a file's link without ``overwrite``.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_new(folder / "notes.txt", lambda tmp: tmp.write_text("mine"))
PosixPath('.../notes.txt')
>>> write_new(folder / "notes.txt", lambda tmp: tmp.write_text("again"))
Traceback (most recent call last):
...
FileExistsError: [Errno 17] exists, and is not replaced (pass overwrite=True to replace it): '.../notes.txt'
>>> sorted(path.name for path in folder.iterdir())
['notes.txt']
"""

from __future__ import annotations

import errno
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["OVERWRITE_HINT", "check_new", "check_not_link", "place", "temporary_beside", "write_new"]

#: How the refusal names the way to replace: the library's keyword (the command line names its option).
OVERWRITE_HINT = "pass overwrite=True to replace it"

T = TypeVar("T")


def check_new(path: str | os.PathLike[str], overwrite: bool = False, hint: str = OVERWRITE_HINT) -> Path:
    """`path`, if nothing is there (a link, even dangling, counts as something) or `overwrite`;
    else FileExistsError naming it. A check before a long run, so that it fails at once; `place`
    checks again at the end."""
    path = Path(path)
    if not overwrite and os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, f"exists, and is not replaced ({hint})", str(path))
    if overwrite and path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file to replace", str(path))
    return path


def check_not_link(path: str | os.PathLike[str], what: str = "output folder") -> Path:
    """`path`, unless it is a symbolic link (dangling or not): a folder written into is never reached
    through a link, which would put the output where the link points (ValueError naming both).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "site").symlink_to(folder / "elsewhere")
    >>> check_not_link(folder / "site")
    Traceback (most recent call last):
    ...
    ValueError: output folder .../site is a symbolic link (to .../elsewhere); output never follows a link: ...
    """
    path = Path(path)
    if path.is_symlink():
        raise ValueError(f"{what} {path} is a symbolic link (to {os.readlink(path)}); output never follows a link: "
                         "name the folder itself")
    return path


def temporary_beside(path: Path) -> Path:
    """A new, empty file beside `path` that this process created (exclusively), keeping `path`'s
    suffix so that writers that pick a format by it (matplotlib, pandas) still do."""
    tmp = path.with_name(f".{path.stem}.{uuid.uuid4().hex}.tmp{path.suffix}")
    # open(..., "x") rather than mkstemp: the file gets the user's umask permissions, not 0600.
    with open(tmp, "x"):
        pass
    return tmp


def place(tmp: Path, path: Path, overwrite: bool = False, hint: str = OVERWRITE_HINT) -> None:
    """Put the finished `tmp` at `path` (see the module): `tmp` is gone afterwards, or still there on error."""
    if overwrite:
        if path.is_dir() and not path.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file to replace", str(path))
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path, follow_symlinks=False)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, f"exists, and is not replaced ({hint})", str(path)) from None
    except OSError as error:  # a file system without hard links (FAT, some network shares)
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        check_new(path, hint=hint)
        os.rename(tmp, path)
        return
    tmp.unlink()


def write_new(path: str | os.PathLike[str], write: Callable[[Path], T], *, overwrite: bool = False,
              hint: str = OVERWRITE_HINT) -> Path:
    """``write(tmp)`` to a temporary file beside `path`, then `place` it at `path`; return `path`.

    Refused at once (FileExistsError naming `path` and `hint`) if something is at `path` and not
    `overwrite`; again at the end if something appeared there meanwhile, keeping what appeared.
    """
    path = check_new(path, overwrite, hint)
    tmp = temporary_beside(path)
    try:
        write(tmp)
        place(tmp, path, overwrite, hint)
    finally:
        tmp.unlink(missing_ok=True)  # ours: created exclusively above
    return path
