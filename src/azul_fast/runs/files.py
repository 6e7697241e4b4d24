"""Parquet files that carry their run's metadata, written atomically: the bottom of the storage stack.

`save` and `load` (`azul_fast.runs.storage`) and run folders (`azul_fast.runs.manifest`) are made
of these files. Every data page carries a CRC32 checksum, verified on every read, so a flipped bit
in a page raises instead of loading as other numbers; every refusal names the file. A file that
`save` writes also carries a checksum of what it holds (`content_checksum`: column names, dtypes,
values and attrs), which `load` verifies, so a flip in the footer (a column's name, the attrs) is
refused too.

>>> import tempfile, pathlib
>>> from azul_fast import simulate
>>> df = simulate(100, seed=3, workers=1)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.parquet"
>>> write_table_atomic(frame_table(df), path)[:7]
'sha256:'
>>> back = read_file(path)
>>> back.equals(df), back.attrs["root_seed"]
(True, '3')
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from azul_fast.core.errors import AzulFastError
from azul_fast.core.output import OVERWRITE_HINT, place

__all__ = ["CHECKSUM_KEY", "METADATA_KEY", "UnreadableFileError", "content_checksum", "file_digest", "frame_table",
           "has_page_checksums", "read_file", "read_with_metadata", "with_checksum", "write_table_atomic"]

#: Key of the run metadata (df.attrs as JSON) in the parquet file's key-value metadata.
METADATA_KEY = b"azul_fast"
#: Key of `content_checksum` in the key-value metadata of a file that `save` writes.
CHECKSUM_KEY = b"azul_fast_checksum"


class UnreadableFileError(AzulFastError, ValueError):
    """A results file that is not whole: not parquet, cut short, a failed checksum, bad metadata."""


def frame_table(df: pd.DataFrame) -> pa.Table:
    """An arrow table of `df` with `df.attrs` in its key-value metadata."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = json.dumps(df.attrs, default=str).encode()
    return table.replace_schema_metadata(metadata)


def content_checksum(df: pd.DataFrame, attrs: bytes) -> str:
    """SHA-256 of what a frame holds: its column names and dtypes in order, every value, and `attrs`
    (the metadata's bytes as stored), as ``"sha256:<hex>"``.

    Taken from the frame, not the file's bytes, so it is the same for the frame `save` was given
    and the one `load` reads back; a renamed column, another dtype, one value changed or the attrs
    lost all change it.

    >>> df = pd.DataFrame({"game": [0, 1], "score": [3, 4]})
    >>> content_checksum(df, b"{}") == content_checksum(df.rename(columns={"game": "gama"}), b"{}")
    False
    """
    digest = hashlib.sha256()
    digest.update(json.dumps([[str(name), _dtype_name(dtype)] for name, dtype in df.dtypes.items()]).encode())
    digest.update(len(attrs).to_bytes(8, "little") + attrs)
    for i in range(df.shape[1]):
        column = df.iloc[:, i]
        if isinstance(column.dtype, pd.CategoricalDtype):  # the values hash alike whatever the categories' type
            categories = pd.Series(column.dtype.categories)
            digest.update(pd.util.hash_pandas_object(categories, index=False).to_numpy().tobytes())
        digest.update(pd.util.hash_pandas_object(column, index=False).to_numpy().tobytes())
    return f"sha256:{digest.hexdigest()}"


def with_checksum(table: pa.Table) -> pa.Table:
    """`table` (from `frame_table`) with the `content_checksum` of the frame `load` will read back
    from it (the index dropped, dtypes as parquet keeps them) in its metadata."""
    metadata = dict(table.schema.metadata or {})
    metadata[CHECKSUM_KEY] = content_checksum(table.to_pandas(), metadata[METADATA_KEY]).encode()
    return table.replace_schema_metadata(metadata)


def _dtype_name(dtype: Any) -> str:
    """A dtype's name, with what "category" leaves out: whether it is ordered, and its categories' type."""
    if isinstance(dtype, pd.CategoricalDtype):
        return f"category[{dtype.categories.dtype}, ordered={dtype.ordered}]"
    return str(dtype)


def write_table_atomic(table: pa.Table, path: Path, tag: str | None = None,
                       before_rename: Callable[[], None] | None = None, *, overwrite: bool = True,
                       hint: str = OVERWRITE_HINT) -> str:
    """Write to a temporary file beside `path`, then rename: a reader never sees half a file.

    The temporary file is ``.<name>.<tag>.tmp`` (`tag`: a token its writer records, so that a later
    run can prove the leftover of a kill its own; default a fresh random one), created exclusively,
    so it is never a file someone else made. ``before_rename()`` may raise to abandon the write
    (the temporary file is removed). Without `overwrite`, something at `path` (even a link) is kept
    and the write refused (`azul_fast.core.output.place`, naming `hint`). Return the file's
    `file_digest`, taken from the temporary file before the rename, so it is the digest of what
    this call wrote.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # open(..., "xb") rather than mkstemp: the file gets the user's umask permissions, not 0600.
    tmp = path.with_name(f".{path.name}.{tag or uuid.uuid4().hex}.tmp")
    out = open(tmp, "xb")  # outside the try: a name that exists is not ours to remove
    try:
        # The last buffered bytes reach the disk as the file closes, so the close is inside the try
        # too: a disk that fills then leaves no draft behind.
        with out:
            pq.write_table(table, out, write_page_checksum=True)
        digest = file_digest(tmp)
        if before_rename is not None:
            before_rename()
        place(tmp, path, overwrite, hint)
        return digest
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


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


def has_page_checksums(path: str | os.PathLike[str]) -> bool:
    """Whether the file's first data page carries a CRC32: azul_fast writes one into every page
    since run manifests record digests and `save` a content checksum (pyarrow by default writes
    none), so a file without is one written before (or by another tool).

    Read from the first page header (Thrift compact protocol: fields 1-3 are the page type and
    sizes, field 4 the CRC); False for a file with no rows.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "plain.parquet"
    >>> pq.write_table(pa.table({"a": [1, 2]}), path)
    >>> has_page_checksums(path)
    False
    >>> _ = write_table_atomic(pa.table({"a": [1, 2]}), path)
    >>> has_page_checksums(path)
    True
    """
    with open(path, "rb") as file:
        meta = pq.read_metadata(file)
        if meta.num_row_groups == 0 or meta.num_columns == 0 or meta.row_group(0).num_rows == 0:
            return False
        chunk = meta.row_group(0).column(0)
        file.seek(chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset)
        header = file.read(64)
    field, at = 0, 0
    while at < len(header):
        byte = header[at]
        at += 1
        if byte == 0 or byte & 0x0F != 5:  # the end of the header, or a field that is not an i32
            return False
        field += byte >> 4
        if field == 4:
            return True
        if field > 4 or byte >> 4 == 0:
            return False
        while at < len(header) and header[at] & 0x80:  # skip the varint
            at += 1
        at += 1
    return False


def read_file(path: str | os.PathLike[str], columns: list[str] | None = None) -> pd.DataFrame:
    """Read one parquet file (or only its `columns`), its azul_fast metadata as ``df.attrs``.

    Page checksums are verified; a file that is not whole raises `UnreadableFileError` naming it.
    This does not verify `content_checksum` (`azul_fast.runs.storage.load` does, for a whole file).

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.parquet"
    >>> _ = path.write_text("not parquet")
    >>> read_file(path)
    Traceback (most recent call last):
    ...
    azul_fast.runs.files.UnreadableFileError: .../notes.parquet is not a readable parquet file (...)
    """
    df, _metadata = read_with_metadata(path, columns)
    return df


def read_with_metadata(path: str | os.PathLike[str],
                       columns: list[str] | None = None) -> tuple[pd.DataFrame, dict[bytes, bytes]]:
    """`read_file`, and the file's key-value metadata as stored."""
    # A Python file, not the name: pyarrow takes names as UTF-8, and a folder name may not be. Opening
    # it is outside the try: a missing or forbidden file is an OSError naming it, not a broken file.
    with open(path, "rb") as file:
        try:
            table = pq.read_table(file, columns=columns, page_checksum_verification=True)
            df: pd.DataFrame = table.to_pandas()
        # pyarrow's ArrowInvalid is a ValueError, a bad checksum an OSError; a footer with a flipped
        # bit can also break pandas' own metadata in other ways
        except (OSError, ValueError, KeyError, TypeError, IndexError, NotImplementedError, pa.ArrowException) as error:
            why = " ".join(str(error).split()) or type(error).__name__
            raise UnreadableFileError(f"{path} is not a readable parquet file ({why})") from None
    metadata = dict(table.schema.metadata or {})
    raw = metadata.get(METADATA_KEY)
    try:
        attrs: Any = json.loads(raw) if raw else {}
    except ValueError as error:  # a JSONDecodeError or a UnicodeDecodeError
        raise UnreadableFileError(f"{path}: its azul_fast metadata is not valid JSON ({error})") from None
    if not isinstance(attrs, dict):
        raise UnreadableFileError(f"{path}: its azul_fast metadata is not a JSON object")
    df.attrs = attrs
    return df, metadata
