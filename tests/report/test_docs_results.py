"""The numbers of docs/first-player.md are those of the analysis results it cites: one source each.

The page's tables are written from analysis/results/first_player_converged.csv and
first_player_converged_style.csv (analysis/first_player_converged.py prints them); a rerun that
changes the CSVs without the page, or an edit of the page alone, fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "first-player.md"
RESULTS = ROOT / "analysis" / "results"


def _rows(header: str) -> list[list[str]]:
    """The body rows of the page's table whose header row starts with `header`."""
    lines = PAGE.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _numbers(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"[+-]?\d[\d,]*\.?\d*", text)]


def test_the_answer_table_is_the_csv():
    table = pd.read_csv(RESULTS / "first_player_converged.csv")
    rows = _rows("| players, wall | policy (Elo)")
    assert len(rows) == len(table)
    for where, policy, games, share, verdict in rows:
        players, wall = where.split(", ")
        name = re.match(r"`([\w:]+)`", policy)[1]
        row = table[(table.players == int(players)) & (table.variant == wall) & (table.policy == name)].iloc[0]
        assert _numbers(policy)[-1] == round(row.elo)
        assert int(games.replace(",", "")) == row.games
        assert _numbers(share) == pytest.approx([round(100 * row[c], 1) for c in
                                                 ("first_player_share", "ci_low", "ci_high")], abs=0.051)
        if verdict:
            assert verdict.endswith(row.verdict)
            assert _numbers(verdict) == pytest.approx([round(100 * row[c], 1) for c in
                                                       ("difference", "difference_low", "difference_high")], abs=0.051)


def test_the_style_table_is_the_csv():
    style = pd.read_csv(RESULTS / "first_player_converged_style.csv")
    rows = _rows("| players | wall | policy | score a game")
    assert len(rows) == len(style)
    for (players, wall, policy, *numbers), row in zip(rows, style.itertuples()):
        assert (int(players), wall, policy.strip("`")) == (row.players, row.variant, row.policy)
        expected = [row.mean_score, row.points_per_round, row.floor_per_round, row.end_bonus_per_game]
        assert [float(x) for x in numbers] == pytest.approx(expected, abs=0.051)


def _converged_script():
    """analysis/first_player_converged.py as a module (it is a script, not part of the package)."""
    import importlib.util

    path = ROOT / "analysis" / "first_player_converged.py"
    spec = importlib.util.spec_from_file_location("first_player_converged", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["first_player_converged.csv", "first_player_converged_style.csv"])
def test_every_row_names_the_learned_version_and_its_exact_seed(name):
    """A row replays from its seed only if the seed is the exact 64-bit integer, and only with the
    version of learned that played it."""
    table = pd.read_csv(RESULTS / name, dtype={"seed": str})
    assert table.seed.str.fullmatch(r"\d+").all() and (table.seed.map(int) < 2**64).all()
    assert table.learned.str.fullmatch(r"learned/\d+ weights sha256:[0-9a-f]{16}").all()


def test_the_converged_script_refuses_to_mix_versions_of_learned(tmp_path):
    script = _converged_script()
    from azul_fast.core.bots.learned import fingerprint

    mine = tmp_path / "mine.csv"
    pd.DataFrame({"policy": ["learned"], "seed": ["18446744073709551557"], "learned": [fingerprint()]}).to_csv(
        mine, index=False)
    assert script._same_version(mine, pd.DataFrame()).seed.tolist() == ["18446744073709551557"]
    other = tmp_path / "other.csv"
    pd.DataFrame({"policy": ["learned"], "seed": ["1"], "learned": ["learned/1 weights sha256:0123456789abcdef"]}
                 ).to_csv(other, index=False)
    with pytest.raises(SystemExit, match=r"learned/1 weights sha256:0123456789abcdef.*Move the file away"):
        script._same_version(other, pd.DataFrame())
    unversioned = tmp_path / "old.csv"
    pd.DataFrame({"policy": ["learned"], "seed": ["1"]}).to_csv(unversioned, index=False)
    with pytest.raises(SystemExit, match="not recorded"):
        script._same_version(unversioned, pd.DataFrame())
    assert script._same_version(tmp_path / "none.csv", pd.DataFrame()).empty


def test_the_results_and_the_ladder_were_played_by_the_shipped_learned():
    """The pages quote these files as `learned`'s: the converged table, its style table and the ladder whose Elo
    they print must all have been played by the learned search and weights that ship (a new search version
    without a rerun fails here)."""
    from azul_fast.core.bots.learned import fingerprint

    for name in ("first_player_converged.csv", "first_player_converged_style.csv", "ladder_for_strength.csv"):
        assert set(pd.read_csv(RESULTS / name).learned) == {fingerprint()}, name


def test_the_converged_script_refuses_a_ladder_of_another_version_or_without_a_level(tmp_path, monkeypatch):
    """The table takes every level's Elo from the ladder file: one of another version, or one that does not rate
    a level, is refused (main reads it before any game)."""
    from azul_fast.core.bots.learned import fingerprint

    script = _converged_script()
    ladder = tmp_path / "ladder.csv"
    pd.DataFrame({"policy": ["learned"], "rating": [900.0], "ci_low": [850.0], "ci_high": [950.0],
                  "learned": ["learned/1 weights sha256:0123456789abcdef"]}).to_csv(ladder, index=False)
    monkeypatch.setattr(script, "LADDER", ladder)
    with pytest.raises(SystemExit, match=r"learned/1 weights sha256:0123456789abcdef.*Rebuild it first"):
        script._ladder_elo(["learned"])
    pd.DataFrame({"policy": ["learned"], "rating": [900.0], "ci_low": [850.0], "ci_high": [950.0],
                  "learned": [fingerprint()]}).to_csv(ladder, index=False)
    assert script._ladder_elo(["learned"]) == {"learned": (900.0, 850.0, 950.0)}
    with pytest.raises(SystemExit, match=r"does not rate learned:900: add it first with .*--add-to-ladder"):
        script._ladder_elo(["learned", "learned:900"])


def test_adjacent_levels_get_the_verdicts():
    """With three levels each is compared with the next weaker one (by Elo), its verdict on the stronger's row."""
    script = _converged_script()
    table = pd.DataFrame({"players": 2, "variant": "colored", "policy": ["b", "a", "c"], "elo": [2.0, 1.0, 3.0],
                          "first_player_share": [0.50, 0.50, 0.53], "ci_low": [0.495, 0.495, 0.525],
                          "ci_high": [0.505, 0.505, 0.535], "verdict": "", "difference": np.nan,
                          "difference_low": np.nan, "difference_high": np.nan})
    verdicts = script._verdicts(table).set_index("policy")
    assert verdicts.verdict.to_dict() == {"a": "", "b": "converged", "c": "differ"}
    assert verdicts.difference["c"] == pytest.approx(0.03)
