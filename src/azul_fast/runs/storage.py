"""Results on disk: parquet files that carry the run's metadata, written atomically.

The bottom of the storage stack: run folders (`azul_fast.runs.folders`) are made of these files, and
`azul_fast.load` reads either.

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

import json
import os
import uuid
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["METADATA_KEY", "frame_table", "read_file", "save", "write_table_atomic"]

#: Key of the run metadata (df.attrs as JSON) in the parquet file's key-value metadata.
METADATA_KEY = b"azul_fast"


def frame_table(df: pd.DataFrame) -> pa.Table:
    """An arrow table of `df` with `df.attrs` in its key-value metadata."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = json.dumps(df.attrs, default=str).encode()
    return table.replace_schema_metadata(metadata)


def write_table_atomic(table: pa.Table, path: Path) -> None:
    """Write to a temporary file beside `path`, then rename: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # open(..., "xb") rather than mkstemp: the file gets the user's umask permissions, not 0600.
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "xb") as out:
            pq.write_table(table, out)
        os.replace(tmp, path)
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


def read_file(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read one parquet file written by `save`, its metadata as ``df.attrs``."""
    table = pq.read_table(path)
    df: pd.DataFrame = table.to_pandas()
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    df.attrs = json.loads(raw) if raw else {}
    return df
