"""Results on disk: `save` a frame to one parquet file, `load` it (or a run folder) back.

A file that `save` writes carries its frame's attrs and a checksum of its content and attrs
(`azul_fast.runs.files.content_checksum`), besides a CRC32 in every data page: `load` verifies
both, so a flipped bit is refused, or harmless (a flip in the checksum's own key), never a
renamed column or lost attrs. A run folder (`azul_fast.runs.folders.run_to_folder`) is checked
against its manifest (`azul_fast.runs.manifest`).

The rule for numbers that cannot be verified: a file without the checksum (written by pandas or
another tool, or edited and saved again, even with the same columns) is refused with one line that
names the way to read it anyway, ``verify=False`` (``--unverified`` on the command line); read so,
it comes with a `UnverifiedWarning` saying that its numbers are not verified. Never silently.

>>> import tempfile, pathlib
>>> from azul_fast import simulate
>>> df = simulate(100, seed=3, workers=1)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
>>> save(df, path)
>>> back = load(path)
>>> back.equals(df), back.attrs["root_seed"]
(True, '3')
"""

from __future__ import annotations

import errno
import os
import warnings
from pathlib import Path

import pandas as pd
import pyarrow as pa

from azul_fast.core.output import OVERWRITE_HINT, check_new
from azul_fast.core.rules.checks import check_bool
from azul_fast.runs.files import (
    CHECKSUM_KEY,
    METADATA_KEY,
    UnreadableFileError,
    content_checksum,
    frame_table,
    has_page_checksums,
    read_with_metadata,
    with_checksum,
    write_table_atomic,
)
from azul_fast.runs.manifest import TABLES, read_run

__all__ = ["VERIFY_HINT", "UnverifiedFileError", "UnverifiedWarning", "load", "save"]

#: How a refusal names the way to read a file that cannot be verified: the library's keyword (the
#: command line names its option).
VERIFY_HINT = "load(path, verify=False) reads it anyway"


class UnverifiedFileError(UnreadableFileError):
    """A results file without azul_fast's content checksum: its numbers cannot be verified."""


class UnverifiedWarning(UserWarning):
    """Results read with ``verify=False`` from a file whose numbers could not be verified."""


def save(df: pd.DataFrame, path: str | os.PathLike[str], *, overwrite: bool = False,
         hint: str = OVERWRITE_HINT) -> None:
    """Write `df` to a new parquet file with `df.attrs` and a checksum of both in its metadata (atomically).

    The file is written beside `path` under a temporary name and put in place at the end, so a
    reader (or an interrupted run) never sees half a file; `load` gives back the frame and its
    attrs, and refuses a file whose content or attrs changed since.

    Parameters
    ----------
    df : pandas.DataFrame
        A result of `simulate` (or any frame whose ``attrs`` are JSON-compatible).
    path : path-like
        The parquet file to write; its folder is created.
    overwrite : bool
        Replace a file (or link) at `path`. Without it, something at `path`, or put there while
        the file is written, is kept and FileExistsError raised.
    hint : str
        How the FileExistsError says to replace the file (the command line names its option).

    Raises
    ------
    TypeError
        If `df` is not a DataFrame.
    FileExistsError
        If something is at `path` and `overwrite` is not given.
    OSError
        If the file cannot be written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from azul_fast import load, simulate
    >>> df = simulate(10, seed=1, workers=1)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
    >>> save(df, path)
    >>> load(path).equals(df), load(path).attrs["root_seed"]
    (True, '1')
    >>> save(df, path, overwrite=True)
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"save() needs a pandas DataFrame, got {type(df).__name__}")
    overwrite = check_bool(overwrite, "overwrite")
    path = check_new(path, overwrite, hint)
    write_table_atomic(with_checksum(frame_table(df)), path, overwrite=overwrite, hint=hint)


def load(path: str | os.PathLike[str], table: str = "games", *, verify: bool = True,
         hint: str = VERIFY_HINT) -> pd.DataFrame:
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
    verify : bool
        Refuse a file without azul_fast's content checksum (the default). False reads such a file
        (one written by pandas or another tool) with an `UnverifiedWarning`; a file whose checksum
        does not match is refused either way.
    hint : str
        How the refusal of an unverifiable file names the way to read it (the command line names
        its option).

    Returns
    -------
    pandas.DataFrame
        The rows as written, with the run's settings in ``df.attrs``.

    Raises
    ------
    FileNotFoundError
        If nothing is at `path`.
    ValueError
        For an unknown `table`, or one the file or folder does not hold; for a file or folder whose
        content is not what was written (`UnreadableFileError`, `RunMismatchError`), naming it;
        for a file without the content checksum, unless ``verify=False`` (`UnverifiedFileError`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from azul_fast import save, simulate, simulate_moves
    >>> from azul_fast.runs.folders import run_to_folder
    >>> df = simulate(100, seed=3, workers=1)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
    >>> save(df, path)
    >>> load(path).equals(df)
    True
    >>> folder = run_to_folder(path.with_name("run"), 100, seed=3, workers=1, chunk_size=40, moves=True)
    >>> load(folder).equals(df), load(folder, table="moves").equals(simulate_moves(100, seed=3, workers=1).moves)
    (True, True)
    """
    verify = check_bool(verify, "verify")
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
    return read_saved(path, verify, hint)


def _has_page_checksums(path: Path) -> bool:
    try:
        return has_page_checksums(path)
    except (OSError, ValueError, NotImplementedError, pa.ArrowException) as error:  # a footer read once already
        raise UnreadableFileError(f"{path} is not a readable parquet file ({error})") from None


def read_saved(path: Path, verify: bool = True, hint: str = VERIFY_HINT) -> pd.DataFrame:
    """One file written by `save`, its content checksum verified; a file without one is refused,
    or with ``verify=False`` read with an `UnverifiedWarning` (see the module)."""
    df, metadata = read_with_metadata(path)
    stored = metadata.get(CHECKSUM_KEY)
    if stored is None:
        if verify:
            # azul_fast writes page checksums and the content checksum since the same version
            why = ("was changed or damaged since azul_fast saved it" if _has_page_checksums(path) else
                   "was written by another tool, by pandas, or edited and saved again")
            raise UnverifiedFileError(f"{path} has no azul_fast content checksum (it {why}), so its numbers "
                                      f"cannot be verified; {hint}")
        warnings.warn(f"{path} has no azul_fast content checksum: its numbers are not verified", UnverifiedWarning,
                      stacklevel=3)
        return df
    if METADATA_KEY not in metadata:
        raise UnreadableFileError(f"{path}: its azul_fast metadata (the frame's attrs) is missing; "
                                  "save the frame again")
    if content_checksum(df, metadata[METADATA_KEY]).encode() != stored:
        raise UnreadableFileError(f"{path}: its content (column names, types, values or attrs) does not match the "
                                  "checksum saved with it: it was changed or damaged; save the frame again")
    return df
