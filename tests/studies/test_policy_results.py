"""Result files of one study under several policies (azul_fast.studies.policy_results), and the
strong-play result files in analysis/results: every row names the search policy that played it."""

from pathlib import Path

import pandas as pd
import pytest

from azul_fast.core.bots.policies import policy_budget
from azul_fast.studies.policy_results import policy_label, read_policy_rows, require_search, write_policy_rows

RESULTS = Path(__file__).resolve().parents[2] / "analysis" / "results"
#: The openings and move-level studies: their files hold strong play only.
STRONG_PLAY_FILES = sorted([*RESULTS.glob("opening*.csv"), *RESULTS.glob("moves_*.csv")])


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic"])
def test_one_move_policies_are_refused(name):
    with pytest.raises(ValueError, match=f"search policy.*not '{name}'"):
        require_search(name)


def test_search_policies_pass_and_unknown_names_are_named():
    assert [require_search(p) for p in ("learned", "fast", "mcts:50", "learned:900")] == [
        "learned", "fast", "mcts:50", "learned:900"]
    with pytest.raises(ValueError, match="learnt"):
        require_search("learnt")


def test_a_label_is_a_file_name():
    assert policy_label("learned:900") == "learned-900"


def test_a_run_replaces_its_policy_rows_and_keeps_the_others(tmp_path):
    path = tmp_path / "study.csv"
    write_policy_rows(path, pd.DataFrame({"x": [1, 2]}), "learned")
    write_policy_rows(path, pd.DataFrame({"x": [3]}), "fast")
    merged = write_policy_rows(path, pd.DataFrame({"x": [4, 5, 6]}), "learned")
    back = pd.read_csv(path)
    assert back.to_dict("list") == {"x": [3, 4, 5, 6], "policy": ["fast", "learned", "learned", "learned"]}
    assert merged.equals(back)
    assert [p.name for p in tmp_path.iterdir()] == ["study.csv"]  # no temporary file left


def test_weak_rows_of_an_earlier_file_are_dropped(tmp_path):
    path = tmp_path / "study.csv"
    pd.DataFrame({"x": [1, 2, 3], "policy": ["heuristic", "learned", "greedy"]}).to_csv(path, index=False)
    assert read_policy_rows(path).to_dict("list") == {"x": [2], "policy": ["learned"]}
    pd.DataFrame({"x": [1]}).to_csv(path, index=False)
    assert read_policy_rows(path).empty  # no policy column: nothing it could name
    assert read_policy_rows(tmp_path / "absent.csv").empty


def test_game_seeds_come_back_exact(tmp_path):
    """A file whose seeds all fit int64, joined with rows whose seeds do not, keeps every digit."""
    path = tmp_path / "moves.csv"
    small, large = 7846130036975119721, 16050657217027384550
    write_policy_rows(path, pd.DataFrame({"deal": [small]}), "learned")
    held = read_policy_rows(path)
    write_policy_rows(path, pd.concat([held, pd.DataFrame({"deal": [large], "policy": ["learned"]})]), "learned")
    assert [int(d) for d in read_policy_rows(path).deal] == [small, large]
    assert str(large) in path.read_text()


def test_rows_of_another_policy_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"rows of \['fast'\] given as rows of 'learned'"):
        write_policy_rows(tmp_path / "study.csv", pd.DataFrame({"x": [1], "policy": ["fast"]}), "learned")
    with pytest.raises(ValueError, match="not 'greedy'"):
        write_policy_rows(tmp_path / "study.csv", pd.DataFrame({"x": [1]}), "greedy")
    assert not (tmp_path / "study.csv").exists()


def test_the_strong_play_result_files_name_a_search_policy_in_every_row():
    assert STRONG_PLAY_FILES, "no opening or move-level result file in analysis/results"
    for path in STRONG_PLAY_FILES:
        table = pd.read_csv(path)
        assert "policy" in table.columns, path.name
        assert table.policy.notna().all() and len(table), path.name
        weak = sorted({p for p in table.policy if policy_budget(p) == 0})
        assert not weak, f"{path.name} holds rows of {weak}"
