"""A report folder is always one consistent run: built beside the target, swapped in whole, and
never deleting files a report does not write (issue 16, item 7)."""

import pytest

from azul_fast.report import build


def fake_build(files):
    """A stand-in for the study (which takes a minute): writes `files` into the staging folder."""
    def build(config, folder, started, command, log):
        assert folder != config.out.resolve() and folder.parent == config.out.resolve().parent
        for name, text in files.items():
            (folder / name).write_text(text)
    return build


def test_a_rerun_replaces_the_report_whole(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    monkeypatch.setattr(build, "_build", fake_build({"index.html": "one", "games-4p.parquet": "x"}))
    build.build_report(out, players=[2])
    monkeypatch.setattr(build, "_build", fake_build({"index.html": "two", "games-2p.parquet": "y"}))
    build.build_report(out, players=[2])
    assert sorted(p.name for p in out.iterdir()) == ["games-2p.parquet", "index.html"]  # no stale 4p games
    assert (out / "index.html").read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]  # no staging or old folder left


def test_an_interrupted_rerun_leaves_the_previous_report(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    monkeypatch.setattr(build, "_build", fake_build({"index.html": "one", "a.csv": "1"}))
    build.build_report(out, players=[2])

    def interrupted(config, folder, started, command, log):
        (folder / "index.html").write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "_build", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build.build_report(out, players=[2])
    assert (out / "index.html").read_text() == "one" and (out / "a.csv").read_text() == "1"
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]


@pytest.mark.parametrize("files, message", [
    ({"notes.txt": "mine"}, "holds files but no report"),
    ({"index.html": "old", "notes.txt": "mine"}, r"does not write \(notes.txt\)"),
])
def test_a_folder_with_other_files_is_refused_and_left_alone(tmp_path, monkeypatch, files, message):
    out = tmp_path / "rep"
    out.mkdir()
    for name, text in files.items():
        (out / name).write_text(text)
    monkeypatch.setattr(build, "_build", fake_build({"index.html": "new"}))
    with pytest.raises(ValueError, match=message):
        build.build_report(out, players=[2])
    assert {p.name: p.read_text() for p in out.iterdir()} == files


def test_a_file_is_not_a_report_folder(tmp_path):
    (tmp_path / "rep").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        build.build_report(tmp_path / "rep", players=[2])


def test_every_built_in_policy_is_explained_in_plain_words():
    from azul_fast import available_policies
    from azul_fast.report import prose

    assert set(prose._BOTS) == set(available_policies())
