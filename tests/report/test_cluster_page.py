"""docs/cluster.md quotes benchmarks/results/cluster.csv: every row, every number, one source."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "cluster.md"
RESULTS = ROOT / "benchmarks" / "results" / "cluster.csv"


def _page_rows() -> list[list[str]]:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| date | games | here"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_page_quotes_every_measured_row():
    results = pd.read_csv(RESULTS)
    rows = _page_rows()
    assert len(rows) == len(results) >= 1
    for (date, games, local, dask, ratio, same, load), row in zip(rows, results.itertuples()):
        assert date == row.date and int(games.replace(",", "")) == row.games
        assert float(local.removesuffix(" s")) == pytest.approx(row.local_seconds, abs=0.051)
        assert float(dask.removesuffix(" s")) == pytest.approx(row.cluster_seconds, abs=0.051)
        assert float(ratio) == pytest.approx(row.cluster_seconds / row.local_seconds, abs=0.0051)
        assert same == ("yes" if row.identical_csv else "no")
        assert float(load) == pytest.approx(row.load_average, abs=0.051)


def test_the_measured_study_is_the_command_the_page_names():
    results = pd.read_csv(RESULTS)
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert results.identical_csv.all()
    command = set(results.command)
    assert len(command) == 1
    policies = re.findall(r"--policy (\S+)", command.pop())
    assert policies == ["greedy", "mcts:50"] and "greedy and `mcts:50` at 2 and 3 players" in text
    load = results.load_average
    assert f"a load average of {load.min():.1f} to {load.max():.1f} on its 2 cores" in text
