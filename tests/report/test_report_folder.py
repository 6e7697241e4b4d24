"""A report folder is always one consistent run: built beside the target, swapped in whole, and
never deleting files a report does not write."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from children import interruptible

from azul_fast import cli, play_game
from azul_fast.report import build
from azul_fast.report.folder import REPLAY_MANIFEST, REPORT_MANIFEST, STAGING_OWNER
from azul_fast.runs.files import file_digest


def fake_build(files):
    """A stand-in for the study (which takes a minute): writes `files` into the staging folder."""
    def build(config, folder, started, command, log, where=None):
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
    assert sorted(p.name for p in out.iterdir()) == ["games-2p.parquet", "index.html", REPORT_MANIFEST]  # no 4p
    assert (out / "index.html").read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]  # no staging or old folder left


def test_an_interrupted_rerun_leaves_the_previous_report(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    monkeypatch.setattr(build, "_build", fake_build({"index.html": "one", "a.csv": "1"}))
    build.build_report(out, players=[2])

    def interrupted(config, folder, started, command, log, where=None):
        (folder / "index.html").write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "_build", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build.build_report(out, players=[2])
    assert (out / "index.html").read_text() == "one" and (out / "a.csv").read_text() == "1"
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]


EMPTY_MANIFEST = '{"format": "azul_fast/written-files/1", "files": {}}'


@pytest.mark.parametrize("files, message", [
    ({"notes.txt": "mine"}, "holds files but no report"),
    ({"index.html": "old", "notes.txt": "mine"}, r"holds files but no report manifest.*\(index.html, notes.txt\)"),
    ({"index.html": "old", "notes.txt": "mine", REPORT_MANIFEST: EMPTY_MANIFEST},
     r"does not write, or that changed since it wrote them \(index.html, notes.txt\)"),
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


# -- a report replaces only what a report wrote ---------------------------------------------------------


def _report(out, monkeypatch, files):
    monkeypatch.setattr(build, "_build", fake_build(files))
    return build.build_report(out, players=[2])


def test_the_report_folder_lists_its_files_with_their_digests(tmp_path, monkeypatch):
    out = _report(tmp_path / "rep", monkeypatch, {"index.html": "one", "a.csv": "1"})
    manifest = json.loads((out / REPORT_MANIFEST).read_text())
    assert manifest["files"] == {name: file_digest(out / name) for name in ("a.csv", "index.html")}
    assert sorted(p.name for p in out.iterdir()) == ["a.csv", "index.html", REPORT_MANIFEST]


@pytest.mark.parametrize("name", ["thesis-notes.md", "photo.png", "games-9p.parquet"])
def test_a_users_file_with_a_report_suffix_is_refused_and_left_alone(tmp_path, monkeypatch, name):
    """`echo x > site/index.html; echo notes > site/thesis-notes.md` once lost thesis-notes.md."""
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("x")
    (out / name).write_text("notes")
    with pytest.raises(ValueError, match=f"no report manifest.*{re.escape(name)}"):
        _report(out, monkeypatch, {"index.html": "new"})
    assert {p.name: p.read_text() for p in out.iterdir()} == {"index.html": "x", name: "notes"}
    _report(tmp_path / "rep", monkeypatch, {"index.html": "one"})  # beside an earlier report too
    (tmp_path / "rep" / name).write_text("notes")
    with pytest.raises(ValueError, match=rf"does not write, or that changed since it wrote them \({re.escape(name)}\)"):
        _report(tmp_path / "rep", monkeypatch, {"index.html": "two"})
    assert (tmp_path / "rep" / name).read_text() == "notes" and (tmp_path / "rep" / "index.html").read_text() == "one"


def test_a_report_file_edited_by_the_user_is_theirs(tmp_path, monkeypatch):
    out = _report(tmp_path / "rep", monkeypatch, {"index.html": "one", "summary.md": "s"})
    (out / "summary.md").write_text("my own summary")
    with pytest.raises(ValueError, match=r"changed since it wrote them \(summary.md\)"):
        _report(out, monkeypatch, {"index.html": "two", "summary.md": "t"})
    assert (out / "summary.md").read_text() == "my own summary"


def test_a_file_saved_into_the_folder_while_the_report_runs_is_kept(tmp_path, monkeypatch):
    out = _report(tmp_path / "rep", monkeypatch, {"index.html": "one", "a.csv": "1"})

    def saving(config, folder, started, command, log, where=None):
        (out / "thesis-notes.md").write_text("saved meanwhile")  # after the check at the start
        (out / "a.csv").write_text("edited meanwhile")  # a report's name, edited: the user's now
        (folder / "index.html").write_text("two")
        (folder / "a.csv").write_text("2")

    monkeypatch.setattr(build, "_build", saving)
    with pytest.warns(UserWarning, match="were kept"):
        build.build_report(out, players=[2])
    assert (out / "thesis-notes.md").read_text() == "saved meanwhile"
    assert (out / "index.html").read_text() == "two" and (out / "a.csv").read_text() == "2"
    kept = tmp_path / f"rep-kept-{os.getpid()}"
    assert {p.name: p.read_text() for p in kept.iterdir()} == {"a.csv": "edited meanwhile"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep", kept.name]


def test_games_below_two_are_refused_with_the_reason(tmp_path):
    with pytest.raises(ValueError, match="games must be at least 2, got 1: the opening-type study"):
        build.build_report(tmp_path / "rep", games=1, players=[2])
    assert not (tmp_path / "rep").exists()


# -- no staging folder is left behind ---------------------------------------------------------------------

CHILD = """
import sys, time
from azul_fast import cli
from azul_fast.report import build

def slow(config, folder, started, command, log, where=None):
    (folder / "index.html").write_text("half")
    print("building", flush=True)
    time.sleep(60)

build._build = slow
sys.exit(cli.main(["report", "--quick", "--players", "2", "--out", sys.argv[1]]))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_during_the_report_cleans_the_staging_folder(tmp_path, sig):
    out = tmp_path / "rep"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=interruptible)
    assert child.stdout.readline() == "building\n", child.stderr.read()
    assert len(list(tmp_path.glob(".rep.building-*"))) == 1
    child.send_signal(sig)
    assert child.wait(timeout=30) == 128 + sig, child.stderr.read()  # as a shell reports a process a signal stopped
    assert list(tmp_path.iterdir()) == []


def _staging_of(out, pid, owner=True):
    folder = out.with_name(f".{out.name}.building-{pid}")
    folder.mkdir()
    (folder / "index.html").write_text("half")
    if owner:
        (folder / STAGING_OWNER).write_text(json.dumps({"pid": pid, "host": socket.gethostname()}))
    return folder


def test_a_stale_staging_folder_of_a_dead_process_is_cleared_and_nothing_else(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    stale = _staging_of(out, dead_pid)
    alive = _staging_of(out, os.getppid())  # a live process's build: not ours to touch
    unowned = _staging_of(tmp_path / "other", dead_pid, owner=False)
    lookalike = _staging_of(out, dead_pid + 1, owner=False)  # no owner record: not provably ours
    _report(out, monkeypatch, {"index.html": "one"})
    assert not stale.exists() and alive.exists() and unowned.exists() and lookalike.exists()


# -- replay --svg DIR removes only the diagrams a replay wrote ---------------------------------------------


def _replay(folder, seed=12345, policy="greedy"):
    return cli.main(["replay", "--seed", str(seed), "--policy", policy, "--quiet", "--svg", str(folder)])


def test_replay_keeps_a_users_move_svg_and_replaces_its_own(tmp_path, capsys):
    """`replay --svg DIR` once deleted every move-*.svg in DIR, a user's move-ideas.svg too."""
    folder = tmp_path / "diagrams"
    folder.mkdir()
    (folder / "move-ideas.svg").write_text("mine")
    assert _replay(folder, policy="random") == 0
    first = play_game(2, "random", 12345)
    assert sorted(json.loads((folder / REPLAY_MANIFEST).read_text())["files"]) == sorted(
        [f"move-{n:03d}.svg" for n in range(1, first.turns + 1)] + ["final.svg"])
    assert _replay(folder) == 0  # another game: the first one's diagrams go, the user's stays
    second = play_game(2, "greedy", 12345)
    assert sorted(p.name for p in folder.glob("*.svg")) == sorted(
        [f"move-{n:03d}.svg" for n in range(1, second.turns + 1)] + ["final.svg", "move-ideas.svg"])
    assert (folder / "move-ideas.svg").read_text() == "mine"
    capsys.readouterr()


@pytest.mark.parametrize("how", ["users", "edited"])
def test_replay_refuses_to_overwrite_a_diagram_it_did_not_write(tmp_path, capsys, how):
    folder = tmp_path / "diagrams"
    if how == "users":
        folder.mkdir()
        (folder / "move-001.svg").write_text("mine")
    else:
        assert _replay(folder) == 0
        (folder / "move-001.svg").write_text("annotated by hand")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert _replay(folder, seed=7) == 2
    assert "holds move-001.svg, not written by an earlier replay" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_signal_during_the_swap_waits_until_the_new_report_is_in_place(tmp_path, monkeypatch):
    out = _report(tmp_path / "rep", monkeypatch, {"index.html": "one"})
    real = os.replace

    def replace(source, target):
        real(source, target)
        if Path(target).name.startswith(".rep.old-"):  # between the two renames of the swap
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.2)  # where an unheld signal lands

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        _report(out, monkeypatch, {"index.html": "two"})
    monkeypatch.setattr(os, "replace", real)
    assert (out / "index.html").read_text() == "two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_swap_cut_short_by_a_kill_is_put_back_on_the_next_run(tmp_path, monkeypatch):
    out = _report(tmp_path / "rep", monkeypatch, {"index.html": "one", "a.csv": "1"})
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    aside = tmp_path / f".rep.old-{int(dead.stdout)}"
    out.rename(aside)  # as a SIGKILL between the two renames leaves it: no report at rep
    _report(out, monkeypatch, {"index.html": "two"})
    assert (out / "index.html").read_text() == "two" and not (out / "a.csv").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]
    out.rename(aside)
    (aside / "notes.md").write_text("saved meanwhile")
    with pytest.raises(ValueError, match=r"does not write.*\(notes.md\)"):  # put back, then checked as ever
        _report(out, monkeypatch, {"index.html": "three"})
    assert (out / "index.html").read_text() == "two" and (out / "notes.md").read_text() == "saved meanwhile"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_report_into_a_folder_of_notes_keeps_the_notes(tmp_path, capsys):
    """mkdir site; echo x > site/index.html; echo notes > site/thesis-notes.md; azul-fast report --quick --out site"""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("x\n")
    (site / "thesis-notes.md").write_text("notes\n")
    (site / "photo.png").write_bytes(b"\x89PNG")
    assert cli.main(["report", "--quick", "--quiet", "--out", str(site)]) == 2
    err = capsys.readouterr().err
    assert f"--out {site} holds files but no report manifest" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in site.iterdir()) == ["index.html", "photo.png", "thesis-notes.md"]
    assert (site / "thesis-notes.md").read_text() == "notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
