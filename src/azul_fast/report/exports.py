"""Study tables written for people outside a report: the CSV beside its chart (PNG and SVG).

`azul-fast strength --out DIR` writes these; the report writes the same files into its folder.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["save_first_player_by_strength", "write_csv"]


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
    table.to_csv(path, index=False)
    return path


def save_first_player_by_strength(table: pd.DataFrame, folder: Path) -> list[Path]:
    """`first_player_by_strength.csv` and its chart (.png, .svg) in `folder` (made if missing);
    returns the files written. `table` is `azul_fast.studies.strength.first_player_by_strength` output."""
    import matplotlib.pyplot as plt

    from azul_fast.report import charts

    folder.mkdir(parents=True, exist_ok=True)
    csv = folder / "first_player_by_strength.csv"
    table.to_csv(csv, index=False)
    with charts.azul_style():
        fig, ax = plt.subplots()
        charts.plot_first_player_by_strength(table, ax=ax)
        written = charts.save_figure(fig, folder / "first_player_by_strength")
        plt.close(fig)
    return [csv, *written]
