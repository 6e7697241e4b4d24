"""Study tables written for people outside a report: the CSV beside its chart (PNG and SVG).

`azul-fast strength --out DIR` writes these; the report writes the same files into its folder.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from azul_fast.core.output import OVERWRITE_HINT, check_new, check_not_link, write_new

__all__ = ["STRENGTH_FILES", "check_strength_files", "save_first_player_by_strength", "write_csv"]


def write_csv(table: pd.DataFrame, path: Path, policy: str) -> Path:
    """Write `table` to `path` as CSV, naming in a ``policy`` column the policy that played it
    (added first when the table has no such column: a CSV read alone still says whose games these are).

    Parameters
    ----------
    table : DataFrame
        A study's table (not changed).
    path : Path
        The CSV file to write.
    policy : str
        The policy that played the table's games, for a table without a ``policy`` column.

    Returns
    -------
    Path
        `path`.

    Examples
    --------
    >>> import tempfile
    >>> path = write_csv(pd.DataFrame({"round": [1]}), Path(tempfile.mkdtemp()) / "t.csv", "learned")
    >>> path.read_text().splitlines()
    ['policy,round', 'learned,1']
    """
    if "policy" not in table.columns:
        table = table.copy()
        table.insert(0, "policy", policy)
    return write_new(path, lambda tmp: table.to_csv(tmp, index=False))


#: The files `save_first_player_by_strength` writes into its folder.
STRENGTH_FILES = ("first_player_by_strength.csv", "first_player_by_strength.png", "first_player_by_strength.svg")


def save_first_player_by_strength(table: pd.DataFrame, folder: Path, *, overwrite: bool = False,
                                  hint: str = OVERWRITE_HINT) -> list[Path]:
    """`first_player_by_strength.csv` and its chart (.png, .svg) in `folder` (made if missing);
    returns the files written. `table` is `azul_fast.studies.strength.first_player_by_strength` output.

    Each file is new (`azul_fast.core.output.write_new`): if one is there (`check_strength_files`),
    or appears while writing, it is kept and FileExistsError raised naming `hint`, unless `overwrite`.
    """
    import matplotlib.pyplot as plt

    from azul_fast.report import charts

    check_strength_files(folder, overwrite, hint)
    folder.mkdir(parents=True, exist_ok=True)
    csv = write_new(folder / STRENGTH_FILES[0], lambda tmp: table.to_csv(tmp, index=False), overwrite=overwrite,
                    hint=hint)
    with charts.azul_style():
        fig, ax = plt.subplots()
        charts.plot_first_player_by_strength(table, ax=ax)
        written = charts.save_figure(fig, folder / "first_player_by_strength", overwrite=overwrite, hint=hint)
        plt.close(fig)
    return [csv, *written]


def check_strength_files(folder: Path, overwrite: bool = False, hint: str = OVERWRITE_HINT) -> None:
    """FileExistsError (naming `hint`) if a file `save_first_player_by_strength` writes is in `folder`
    already and not `overwrite`, or ValueError if `folder` is a link (`check_not_link`): checked
    before a study, so that it fails at once."""
    check_not_link(folder, "--out")
    for name in STRENGTH_FILES:
        check_new(folder / name, overwrite, hint)
