"""The numbers of docs/first-player-style.md are those of the analysis results it cites: one source each.

Every share the page quotes with its interval, "50.2 % [49.2, 51.2]", is a share and interval of
analysis/results/first_player_by_style.csv, first_player_converged.csv or first_player_by_strength.csv
(or the one figure from outside the project, `OUTSIDE`); every other percentage is a value of those files
or of first_player_trend.csv; and the page's style table is the one analysis/first_player_by_style.py prints.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "first-player-style.md"
RESULTS = ROOT / "analysis" / "results"
#: The independent AlphaZero-style bot's self-play figure (600 games), which the page sets against ours.
OUTSIDE = ("58.3", "54.3", "62.2")
#: (share, low, high) columns of the files whose shares the page quotes with their intervals.
TRIPLES = {
    "first_player_by_style.csv": [("first_player_share", "ci_low", "ci_high"),
                                  ("vs_learned", "vs_learned_low", "vs_learned_high")],
    "first_player_converged.csv": [("first_player_share", "ci_low", "ci_high")],
    "first_player_by_strength.csv": [("first_player_share", "ci_low", "ci_high")],
}
SHARE = re.compile(r"(\d+\.\d)\u00a0?% \[(\d+\.\d), (\d+\.\d)\]")
PERCENT = re.compile(r"(\d+\.\d)\u00a0?%(?! \[)")


def _known_triples() -> set[tuple[str, str, str]]:
    known = set()
    for name, columns in TRIPLES.items():
        table = pd.read_csv(RESULTS / name)
        for cols in columns:
            for values in table[list(cols)].dropna().itertuples(index=False):
                known.add(tuple(f"{100 * v:.1f}" for v in values))
    return known


def _known_percentages() -> set[str]:
    known = set()
    for name in (*TRIPLES, "first_player_trend.csv"):
        table = pd.read_csv(RESULTS / name)
        for column in table.select_dtypes(include=[np.number]):
            known |= {f"{100 * v:.1f}" for v in table[column].dropna()}
    return known


def test_every_share_with_its_interval_is_a_results_row():
    quoted = SHARE.findall(PAGE.read_text())
    assert OUTSIDE in quoted   # the page sets the outside figure against ours
    ours = [triple for triple in quoted if triple != OUTSIDE]
    assert len(ours) >= 10
    assert [triple for triple in ours if triple not in _known_triples()] == []


def test_every_other_percentage_is_a_results_value():
    quoted = PERCENT.findall(PAGE.read_text())
    assert quoted
    assert [value for value in quoted if value not in _known_percentages()] == []


def test_the_style_table_is_the_one_the_script_prints():
    spec = importlib.util.spec_from_file_location("first_player_by_style", ROOT / "analysis" / "first_player_by_style.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    table = script.markdown_table(pd.read_csv(RESULTS / "first_player_by_style.csv"))
    assert table in PAGE.read_text()


def test_the_page_is_in_the_user_guide():
    assert re.search(r"```\{toctree\}[^`]*\nfirst-player-style\n", (ROOT / "docs" / "index.md").read_text())
