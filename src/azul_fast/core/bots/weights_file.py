"""Reading and checking the JSON files that hold the core's learned arrays (weights, networks).

Both kinds of file (azul_fast.core.bots.learned's weights, azul_fast.core.bots.value_net's network)
are one JSON document naming its format and version, its arrays as nested lists of numbers, and the
SHA-256 of those arrays as written (``"checksum"``). Every check fails through a `fail` function of
the caller, which names the file and makes the caller's own error, so each message is one line.

>>> arrays_checksum([np.zeros(2)])
'sha256:374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb'
>>> non_numbers([[1, 2.5], [True]])
[True]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DECIMALS", "MAX_WEIGHT", "arrays_checksum", "check_checksum", "check_given", "check_values", "non_numbers",
           "read_array", "read_arrays", "read_document"]

#: Decimals a file keeps of every weight.
DECIMALS = 6
#: The largest magnitude a weight may have. A board weight is points per feature count, a network's
#: weight points per unit of an input, so a sane one is a fraction of a game's score (a few hundred
#: points at most); the shipped weights' largest is 54.1. 1,000 leaves a margin of more than 18 times
#: for weights trained otherwise, and keeps every value the core sums far from overflow.
MAX_WEIGHT = 1000.0

Fail = Callable[[str], Exception]


def read_document(path: Path, format_name: str, version: int, fail: Fail) -> dict[str, Any]:
    """The JSON document at `path` if it says it is `format_name` at `version` (an integer)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise fail(f"cannot read the weights file ({error.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise fail(f"not a JSON document ({' '.join(str(error).split())})") from None
    except RecursionError:
        raise fail("nested too deeply to be a weights file") from None
    if not isinstance(doc, dict) or doc.get("format") != format_name:
        raise fail(f"not a weights file (its 'format' must be {format_name!r})")
    # JSON's true and 1.0 equal 1 in Python: only the integer itself is this version.
    found = doc.get("version")
    if type(found) is not int or found != version:
        raise fail(f"weights file format {found!r} (its 'version'); this azul_fast reads format {version} "
                   "(an integer)")
    return doc


def read_array(doc: dict[str, Any], key: str, shape: tuple[int, ...], fail: Fail) -> np.ndarray:
    """The array `key` of `doc`, float64 of `shape`."""
    odd = non_numbers(doc.get(key))
    if odd:  # numpy would read "1" or true as a number
        raise fail(f"{key!r} is not an array of numbers (it holds {odd[0]!r})")
    try:
        values = np.array(doc.get(key), dtype=np.float64)
    except (TypeError, ValueError, OverflowError, RecursionError):  # an integer past float64 overflows
        raise fail(f"{key!r} is not an array of numbers") from None
    if values.shape != shape:
        raise fail(f"{key!r} have shape {values.shape}, expected {shape}")
    return values


def read_arrays(doc: dict[str, Any], shapes: Sequence[tuple[str, tuple[int, ...]]], fail: Fail) -> list[np.ndarray]:
    """The arrays `shapes` names (key, shape) of `doc`, each read (`read_array`), their values checked
    (`check_values`) and the whole matched against the document's checksum (`check_checksum`)."""
    arrays = [read_array(doc, key, shape, fail) for key, shape in shapes]
    check_values(zip((key for key, _ in shapes), arrays), fail)
    check_checksum(doc, arrays, fail)
    return arrays


def check_given(keys: Sequence[str], arrays: Iterable[Any], error: type[Exception]) -> None:
    """Raise `error` unless arrays given in Python rather than read from a file (`keys` name them) are
    numbers, finite and within `MAX_WEIGHT`."""
    try:
        check_values(zip(keys, (np.asarray(values, dtype=np.float64) for values in arrays)), error)
    except (TypeError, ValueError) as problem:  # `error` may be one; numpy's for arrays that are not numbers
        raise error(str(problem)) from None


def check_values(named: Iterable[tuple[str, np.ndarray]], fail: Fail) -> None:
    """Fail naming the first array whose values are not finite or beyond `MAX_WEIGHT`."""
    for key, values in named:
        if not np.isfinite(values).all():
            raise fail(f"{key!r} hold a value that is not finite")
        largest = float(np.abs(values).max(initial=0.0))
        if largest > MAX_WEIGHT:
            raise fail(f"{key!r} hold a value of magnitude {largest:.3g}, beyond the {MAX_WEIGHT:g} a "
                       "weight may have (MAX_WEIGHT)")


def arrays_checksum(arrays: Iterable[np.ndarray]) -> str:
    """The SHA-256 of the arrays' values (little-endian float64, in order), as ``"sha256:<hex>"``."""
    digest = hashlib.sha256()
    for values in arrays:
        digest.update(np.ascontiguousarray(values, dtype="<f8").tobytes())
    return f"sha256:{digest.hexdigest()}"


def check_checksum(doc: dict[str, Any], arrays: Sequence[np.ndarray], fail: Fail) -> None:
    """Fail unless `doc`'s ``"checksum"`` is that of `arrays` (as read from it)."""
    checksum = doc.get("checksum")
    if not isinstance(checksum, str):
        raise fail("it has no 'checksum' of its weights (azul-fast train and weights_document() write one)")
    if checksum != arrays_checksum(arrays):
        raise fail("its weights do not match its 'checksum': the file was changed or damaged since it was written")


def non_numbers(value: Any) -> list[Any]:
    """The first leaf of nested lists that is not a JSON number (a bool is not one), or [] if every leaf is."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, bool) or not isinstance(item, (int, float)):
            return [item]
    return []
