"""`azul-fast analyse` and `review` (cli/analysis.py): the files they write, never through a link or over a
file that appeared while they ran."""


import pytest
from commands import run


def test_review_keeps_a_file_that_appeared_in_its_folder_during_the_run(tmp_path, capsys, monkeypatch):
    from azul_fast.studies import analyse as position

    out = tmp_path / "review"
    real = position.review_game

    def review_then_user_writes(*args, **kwargs):
        table = real(*args, **kwargs)
        out.mkdir()
        (out / "review.csv").write_text("the user's")
        return table

    monkeypatch.setattr(position, "review_game", review_then_user_writes)
    code, _, err = run(capsys, "review", "--seed", 3, "--rollouts", 20, "--paired", 2, "--max-nodes", 0,
                       "--out", out, "--workers", 1)
    assert code == 2 and "review.csv" in err and "new folder" in err
    assert (out / "review.csv").read_text() == "the user's"
    assert sorted(p.name for p in out.iterdir()) == ["review.csv"]


def test_analyse_keeps_a_file_that_appeared_at_its_csv_during_the_run(tmp_path, capsys, monkeypatch):
    from azul_fast.studies import analyse as position

    csv = tmp_path / "table.csv"
    real = position.analyse

    def analyse_then_user_writes(*args, **kwargs):
        table = real(*args, **kwargs)
        csv.write_text("the user's")
        return table

    monkeypatch.setattr(position, "analyse", analyse_then_user_writes)
    code, _, err = run(capsys, "analyse", "--seed", 1, "--ply", 3, "--rollouts", 200, "--csv", csv, "--workers", 1)
    assert code == 2 and str(csv) in err and "--overwrite" in err
    assert csv.read_text() == "the user's" and sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]


@pytest.mark.parametrize("option", ["--csv", "--svg"])
def test_analyse_never_writes_through_a_dangling_link(tmp_path, capsys, option):
    link, target = tmp_path / "l.out", tmp_path / "elsewhere" / "x.out"
    target.parent.mkdir()
    link.symlink_to(target)
    code, _, err = run(capsys, "analyse", "--seed", 1, "--ply", 3, "--rollouts", 200, option, link)
    assert code == 2 and str(link) in err and "link" in err
    assert link.is_symlink() and not target.exists()
    assert run(capsys, "analyse", "--seed", 1, "--ply", 3, "--rollouts", 200, option, link, "--overwrite")[0] == 0
    assert not link.is_symlink() and link.stat().st_size > 0 and not target.exists()  # the link replaced
