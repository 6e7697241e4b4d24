"""The numbers of README.md and docs/first-player.md are those of the results files they cite: one source each.

Their answer tables and sentences are written by docs/_ext/answers.py from analysis/results/ and
benchmarks/results/; a rerun that changes a CSV without the pages, or an edit of a generated block alone,
fails here, and so does any share with its interval that no results file holds.
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


def _answers():
    """docs/_ext/answers.py, which writes the pages' generated blocks from the results CSVs."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("answers", ROOT / "docs" / "_ext" / "answers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", ["README.md", "docs/first-player.md", "docs/policies.md"])
def test_the_generated_blocks_are_those_of_the_results(page):
    """The answer tables and sentences are written from the CSVs: a rerun that changes a CSV without
    `python docs/_ext/answers.py`, or an edit of a generated block by hand, fails here."""
    answers = _answers()
    path = ROOT / page
    assert path in answers.BLOCKS
    assert answers.blocks_of(path.read_text(), path)  # the markers are there
    assert answers.rendered(path) == path.read_text(), f"{page} differs from its CSVs: run python docs/_ext/answers.py"


def _style_table(path: Path) -> None:
    pd.DataFrame({
        "players": [2, 2, 2, 3], "variant": ["colored"] * 4, "style": ["margin", "score", "mixed", "margin"],
        "policy": ["learned:200", "searcher", "blend", "learned:200"], "elo": [1143.0, 1100.0, 1120.0, 1143.0],
        "games": [1000, 1000, 1000, 1000], "first_player_share": [0.498, 0.583, 0.541, 0.334],
        "ci_low": [0.493, 0.543, 0.51, 0.329], "ci_high": [0.503, 0.622, 0.572, 0.339],
        "mean_score": [39.7, 52.5, 45.0, 54.3]}).to_csv(path, index=False)


def test_the_answers_give_the_range_across_styles_once_the_style_study_exists(tmp_path, monkeypatch):
    answers = _answers()
    monkeypatch.setattr(answers, "BY_STYLE", tmp_path / "none.csv")
    without = answers.readme_answer()
    assert "styles" not in without and "styles" not in answers.article_answer()
    _style_table(tmp_path / "style.csv")
    monkeypatch.setattr(answers, "BY_STYLE", tmp_path / "style.csv")
    readme = answers.readme_answer()
    assert "| colored, across styles | gray, across styles |" in readme
    assert "| 2 | 50\u00a0% | " in readme and "| 49.8 to 58.3\u00a0% (3 styles) | not played |" in readme
    assert "| 33.4 to 33.4\u00a0% (1 style) | not played |" in readme
    article = answers.article_answer()
    assert ("at 2 players on the colored wall from 49.8\u00a0% [49.3, 50.3] (`learned:200`, margin) to "
            "58.3\u00a0% [54.3, 62.2] (`searcher`, score)") in article


def test_the_answers_name_the_strongest_level_and_its_verdict(tmp_path, monkeypatch):
    """A third, stronger level in the converged table becomes the answer, compared with the level below it."""
    answers = _answers()
    table = pd.read_csv(answers.CONVERGED)
    top = table[table.policy == "learned:200"].assign(policy="learned:5000", elo=5000.0, first_player_share=0.512,
                                                       ci_low=0.507, ci_high=0.517, verdict="differ")
    pd.concat([table, top]).to_csv(tmp_path / "converged.csv", index=False)
    monkeypatch.setattr(answers, "CONVERGED", tmp_path / "converged.csv")
    monkeypatch.setattr(answers, "BY_STYLE", tmp_path / "none.csv")
    readme = answers.readme_answer()
    assert "with `learned:5000` (+5000 Elo), the strongest level played, in" in readme
    assert "51.2\u00a0% [50.7, 51.7]" in readme
    assert "[the two differ at 2, 3 and 4 players on both walls]" in readme
    assert "`learned:5000` (+5000) |" in answers.article_table()


def test_the_answers_name_the_level_below_at_each_player_count(tmp_path, monkeypatch):
    """A level played at 2 players only is the answer there, and the level below differs by player count."""
    answers = _answers()
    table = pd.read_csv(answers.CONVERGED)
    table = table[table.policy.isin(["learned", "learned:200"])]
    two = table[(table.policy == "learned:200") & (table.players == 2)].assign(
        policy="learned:5000", elo=5000.0, first_player_share=0.545, ci_low=0.540, ci_high=0.550, verdict="differ")
    pd.concat([table, two]).to_csv(tmp_path / "converged.csv", index=False)
    monkeypatch.setattr(answers, "CONVERGED", tmp_path / "converged.csv")
    monkeypatch.setattr(answers, "BY_STYLE", tmp_path / "none.csv")
    readme = answers.readme_answer()
    assert ("with `learned:5000` (+5000 Elo) at 2 players and `learned:200` (+1125 Elo) at 3 and 4, the strongest "
            "level played at each player count") in readme
    assert "Against the level below it (`learned:200` at 2 players and `learned` at 3 and 4)" in readme


#: "49.8 % [49.3, 50.3]": a share and its interval as the pages write them (a no-break space before %).
_QUOTED = re.compile(r"(\d+\.\d)\s?%\s?\[(−?-?\d+\.\d), (−?-?\d+\.\d)\]")


def _intervals_in_results() -> list[tuple[float, float, float, tuple[float, ...]]]:
    """(low, high, row values) of every interval column pair (`X_low`/`X_high`, `ci_low`/`ci_high`) of every
    CSV under analysis/results/ and benchmarks/, in percent."""
    found = []
    for path in [*RESULTS.rglob("*.csv"), *(ROOT / "benchmarks").rglob("*.csv")]:
        table = pd.read_csv(path).select_dtypes("number")
        pairs = [(c, c[:-3] + "high") for c in table.columns if c.endswith("low") and c[:-3] + "high" in table.columns]
        for row in table.itertuples(index=False):
            values = tuple(100 * v for v in row if pd.notna(v))
            record = row._asdict()
            for low, high in pairs:
                if pd.notna(record[low]) and pd.notna(record[high]):
                    found.append((100 * record[low], 100 * record[high], values))
    return found


def _quoted_intervals(text: str) -> list[tuple[float, float, float]]:
    return [tuple(float(x.replace("−", "-")) for x in m.groups()) for m in _QUOTED.finditer(text)]


@pytest.mark.parametrize("page", ["README.md", "docs/first-player.md"])
def test_every_share_and_interval_a_page_quotes_is_in_a_results_csv(page):
    """Every "X % [a, b]" of the page is a row's interval (its low and high columns) and a share in the same row
    of a CSV under analysis/results/ or benchmarks/, each to 0.1."""
    quoted = _quoted_intervals((ROOT / page).read_text())
    assert len(quoted) >= 3, quoted
    results = _intervals_in_results()
    missing = [q for q in quoted
               if not any(abs(q[1] - low) < 0.051 and abs(q[2] - high) < 0.051
                          and any(abs(q[0] - v) < 0.051 for v in values) for low, high, values in results)]
    assert missing == []


def test_the_interval_finder_reads_the_forms_the_pages_use():
    assert _quoted_intervals("wins 49.8\u00a0% [49.3, 50.3] of ... and 53.3 % [50.5, 56.1]; 4 % of them") == [
        (49.8, 49.3, 50.3), (53.3, 50.5, 56.1)]
    results = _intervals_in_results()
    assert any(abs(low - 49.3) < 0.051 and abs(high - 50.3) < 0.051 for low, high, _ in results)
    assert not any(abs(low - 49.4) < 0.051 and abs(high - 50.3) < 0.051 and 49.8 in [round(v, 1) for v in values]
                   for low, high, values in results)


def _converged_script():
    """analysis/first_player_converged.py as a module (it is a script, not part of the package)."""
    import importlib.util

    path = ROOT / "analysis" / "first_player_converged.py"
    spec = importlib.util.spec_from_file_location("first_player_converged", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["first_player_converged.csv", "first_player_converged_style.csv",
                                  "first_player_search_form.csv"])
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
    they print must all have been played by the learned search and weights that ship (a change to the search
    or its weights without a rerun fails here)."""
    from azul_fast.core.bots.learned import fingerprint

    for name in ("first_player_converged.csv", "first_player_converged_style.csv", "first_player_search_form.csv",
                 "ladder_for_strength.csv"):
        assert set(pd.read_csv(RESULTS / name).learned) == {fingerprint()}, name


def test_the_ladders_strong_levels_were_played_by_the_shipped_network():
    """A level of the strong family is rated with the value network that ships (its ``net`` column), the others
    with none."""
    from azul_fast.core.bots import value_net
    from azul_fast.core.bots.policies import parse_policy

    ladder = pd.read_csv(RESULTS / "ladder_for_strength.csv", keep_default_na=False)
    for row in ladder.itertuples():
        assert row.net == (value_net.fingerprint() if parse_policy(row.policy).plays_net else ""), row.policy


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


def test_the_policies_page_names_the_strong_level_that_ships():
    """The page's advice names the strong family's strong level by the budget the benchmark measures it at."""
    from azul_fast.core.bots.families import STRONG_TOP_BUDGET

    text = (ROOT / "docs" / "policies.md").read_text()
    assert f"`strong:{STRONG_TOP_BUDGET}`" in text
