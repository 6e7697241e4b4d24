"""Result files that hold one study under several policies: every row names the policy that played it.

A study script run with ``--policy NAME`` replaces that policy's rows of its CSV and keeps the
other policies' rows, so a second playing style is one more run of the same script, and a file
never mixes a policy's old rows with its new ones. The strong-play studies keep only search
policies (`require_search`): a one-move policy's answer is not the strong-play answer.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from azul_fast.core.bots.policies import native_policy_id, policy_budget

__all__ = ["SEED_COLUMNS", "policy_label", "read_policy_rows", "require_search", "write_policy_rows"]

#: Columns that hold game seeds (exact 64-bit unsigned integers) wherever they appear.
SEED_COLUMNS = ("deal", "seed")


def require_search(policy: str) -> str:
    """`policy` if it is a search policy (it plans ahead: ``mcts``, ``learned``, ``fast`` ...).

    Raises
    ------
    ValueError
        For an unknown name (the valid forms listed), or a one-move policy (random, greedy,
        heuristic), whose answer is not the answer under strong play.

    Examples
    --------
    >>> require_search("learned:200")
    'learned:200'
    >>> require_search("greedy")
    Traceback (most recent call last):
    ...
    ValueError: these results are of strong play: give a search policy (mcts, learned, fast, ...), not 'greedy'
    """
    native_policy_id(policy)
    if policy_budget(policy) == 0:
        raise ValueError(f"these results are of strong play: give a search policy (mcts, learned, fast, ...), "
                         f"not {policy!r}")
    return policy


def policy_label(policy: str) -> str:
    """`policy` as a piece of a file name (``learned:200`` -> ``learned-200``).

    >>> policy_label("learned:200"), policy_label("fast")
    ('learned-200', 'fast')
    """
    return policy.replace(":", "-")


def read_policy_rows(path: Path) -> pd.DataFrame:
    """The rows of `path` played by search policies (an empty frame when there is no file yet).

    Rows without a ``policy`` column, or named for a one-move policy, are left out: they are an
    earlier study's answer under weak play, which these files no longer hold.
    """
    if not Path(path).exists():
        return pd.DataFrame()
    # Game seeds are 64-bit unsigned: read as such, or a file whose seeds all fit int64 would be
    # read as int64 and joined with uint64 rows as floats, losing the seeds' last digits.
    header = pd.read_csv(path, nrows=0).columns
    table = pd.read_csv(path, dtype={column: "uint64" for column in SEED_COLUMNS if column in header})
    if "policy" not in table.columns:
        return pd.DataFrame()
    return table[[not _one_move(str(p)) for p in table.policy]].reset_index(drop=True)


def _one_move(policy: str) -> bool:
    """Whether `policy` names a one-move policy. A name this version does not know (a style another
    version added) was a search policy when its rows were written (`write_policy_rows` checked it)."""
    try:
        return policy_budget(policy) == 0
    except ValueError:
        return False


def write_policy_rows(path: Path, table: pd.DataFrame, policy: str) -> pd.DataFrame:
    """Write `table` (rows of `policy`) into the CSV at `path` in place of that policy's rows.

    The other search policies' rows are kept (in the order of their first row), each row gets
    ``policy`` if it lacks one, and the file is written under a temporary name and renamed, so an
    interrupted run never leaves half a file.

    Parameters
    ----------
    path : Path
        The CSV.
    table : DataFrame
        The new rows; a ``policy`` column, if present, must name `policy` in every row.
    policy : str
        A search policy (`require_search`).

    Returns
    -------
    DataFrame
        What the file now holds.

    Raises
    ------
    ValueError
        If `policy` is not a search policy, or a row of `table` names another policy.
    """
    require_search(policy)
    table = table.astype({column: "uint64" for column in SEED_COLUMNS if column in table.columns})
    if "policy" not in table.columns:
        table["policy"] = policy
    others = sorted(set(table.policy.astype(str)) - {policy})
    if others:
        raise ValueError(f"rows of {others} given as rows of {policy!r}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Two styles may run at once into the same files: the read, merge and rename happen under a
    # lock, so that neither run drops the rows the other has just written.
    with _locked(path.parent):
        kept = read_policy_rows(path)
        if len(kept):
            kept = kept[kept.policy != policy]
        merged = pd.concat([kept, table], ignore_index=True) if len(kept) else table.reset_index(drop=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        try:
            merged.to_csv(tmp, index=False, float_format="%.6g")
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return merged


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` (a lock on the folder itself: no lock file is left behind)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
