"""The published answer that ships with the package is the analysis's table, byte for byte, and reads as
the answer pages read it."""

from pathlib import Path

import pytest

from azul_fast.studies.published import PUBLISHED_FILE, compare_with_published, published_answer

ANALYSIS = Path(__file__).resolve().parents[2] / "analysis" / "results" / "first_player_converged.csv"


def test_the_shipped_table_is_the_analysis_table():
    assert PUBLISHED_FILE.read_bytes() == ANALYSIS.read_bytes()


@pytest.mark.parametrize("variant", ["colored", "gray"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_strongest_level_is_the_highest_rated_and_its_verdict_compares_the_level_below(players, variant):
    answer = published_answer(players, variant)
    ranked = sorted(answer.levels.values(), key=lambda row: row.elo)
    assert answer.strongest == ranked[-1] and answer.runner_up == ranked[-2]
    top = answer.strongest
    assert top.low < top.share < top.high and top.difference == pytest.approx(top.share - answer.runner_up.share,
                                                                               abs=1e-5)


def test_a_wall_that_does_not_exist_is_refused_and_a_missing_count_has_no_answer():
    with pytest.raises(ValueError, match="variant must be one of"):
        published_answer(2, "grey")
    assert published_answer(5) is None


def test_a_share_is_compared_with_a_published_row_by_the_interval_of_their_difference():
    row = published_answer(2).levels["learned"]
    assert compare_with_published(row.share + 0.004, 0.002, row)[0] == "converged"
    assert compare_with_published(row.share + 0.004, 0.02, row)[0] == "agreement not shown"
    verdict, difference, low, high = compare_with_published(row.share - 0.05, 0.002, row)
    assert verdict == "differ" and high < 0 and difference == pytest.approx(-0.05)
