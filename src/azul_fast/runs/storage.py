"""Results on disk: parquet files that carry the run's metadata, written atomically.

The bottom of the storage stack: run folders (`azul_fast.runs.folders`) are made of these files, and
`azul_fast.load` reads either. Every data page carries a CRC32 checksum, verified on every read, so
a flipped bit raises instead of loading as other numbers; every refusal names the file.

>>> import tempfile, pathlib
>>> from azul_fast import simulate
>>> df = simulate(100, seed=3, workers=1)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
>>> save(df, path)
>>> back = read_file(path)
>>> back.equals(df), back.attrs["root_seed"]
(True, '3')
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["METADATA_KEY", "UnreadableFileError", "file_digest", "frame_table", "read_file", "save",
           "write_table_atomic"]

#: Key of the run metadata (df.attrs as JSON) in the parquet file's key-value metadata.
METADATA_KEY = b"azul_fast"


class UnreadableFileError(ValueError):
    """A results file that is not whole: not parquet, cut short, a failed page checksum, bad metadata."""


def frame_table(df: pd.DataFrame) -> pa.Table:
    """An arrow table of `df` with `df.attrs` in its key-value metadata."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = json.dumps(df.attrs, default=str).encode()
    return table.replace_schema_metadata(metadata)


def write_table_atomic(table: pa.Table, path: Path) -> str:
    """Write to a temporary file beside `path`, then rename: a reader never sees half a file.

    Return the file's `file_digest`, taken from the temporary file before the rename, so it is the
    digest of what this call wrote.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # open(..., "xb") rather than mkstemp: the file gets the user's umask permissions, not 0600.
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "xb") as out:
            pq.write_table(table, out, write_page_checksum=True)
        digest = file_digest(tmp)
        os.replace(tmp, path)
        return digest
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def save(df: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write `df` to a parquet file with `df.attrs` in its metadata (atomically).

    The file is written beside `path` under a temporary name and renamed into place, so a reader
    (or an interrupted run) never sees half a file; `load` gives back the frame and its attrs.

    Parameters
    ----------
    df : pandas.DataFrame
        A result of `simulate` (or any frame whose ``attrs`` are JSON-compatible).
    path : path-like
        The parquet file to write; its folder is created, an existing file is replaced.

    Raises
    ------
    TypeError
        If `df` is not a DataFrame.
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
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"save() needs a pandas DataFrame, got {type(df).__name__}")
    write_table_atomic(frame_table(df), Path(path))


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of the file's bytes, as ``"sha256:<hex>"``: what a run manifest records of each part.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "empty"
    >>> _ = path.write_bytes(b"")
    >>> file_digest(path)[:20]
    'sha256:e3b0c44298fc1'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return f"sha256:{digest.hexdigest()}"


def read_file(path: str | os.PathLike[str], columns: list[str] | None = None) -> pd.DataFrame:
    """Read one parquet file written by `save` (or only its `columns`), its metadata as ``df.attrs``.

    Page checksums are verified; a file that is not whole raises `UnreadableFileError` naming it.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.parquet"
    >>> _ = path.write_text("not parquet")
    >>> read_file(path)
    Traceback (most recent call last):
    ...
    azul_fast.runs.storage.UnreadableFileError: .../notes.parquet is not a readable parquet file (...)
    """
    # A Python file, not the name: pyarrow takes names as UTF-8, and a folder name may not be. Opening
    # it is outside the try: a missing or forbidden file is an OSError naming it, not a broken file.
    with open(path, "rb") as file:
        try:
            table = pq.read_table(file, columns=columns, page_checksum_verification=True)
            df: pd.DataFrame = table.to_pandas()
        except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError, a bad checksum an OSError
            why = " ".join(str(error).split())
            raise UnreadableFileError(f"{path} is not a readable parquet file ({why})") from None
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    try:
        attrs = json.loads(raw) if raw else {}
    except ValueError as error:  # a JSONDecodeError or a UnicodeDecodeError
        raise UnreadableFileError(f"{path}: its azul_fast metadata is not valid JSON ({error})") from None
    if not isinstance(attrs, dict):
        raise UnreadableFileError(f"{path}: its azul_fast metadata is not a JSON object")
    df.attrs = attrs
    return df
