"""`azul-fast simulate`, `seats`, `openings` and `replay` (cli/games.py): games to files, run folders,
their statistics, one game replayed and drawn."""

import os
import re
import subprocess
import sys

import pandas as pd
import pytest
from commands import SRC, run

import azul_fast
from azul_fast import load, play_game, simulate, simulate_moves
from azul_fast.report.folder import REPLAY_MANIFEST, record_files
from azul_fast.report.settings import default_policy
from azul_fast.runs.folders import run_to_folder


def test_simulate_out_must_be_a_parquet_file_or_a_folder(tmp_path, capsys, monkeypatch):
    """`--out x.csv` used to become a folder x.csv/ of parts without a word."""
    monkeypatch.chdir(tmp_path)
    for out in ("x.csv", "games.pq", "run.v2"):
        code, printed, err = run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", out)
        assert code == 2 and printed == "" and len(err.splitlines()) == 1, err
        assert f"--out {out} is neither FILE.parquet nor a folder for a run" in err
    (tmp_path / "notes.txt").write_text("the user's")
    code, printed, err = run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", "notes.txt")
    assert code == 2 and "is a file but not .parquet" in err and (tmp_path / "notes.txt").read_text() == "the user's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    # Any case of .parquet is a file; a dotted name ending in / (or an existing folder) is a run folder.
    assert run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", "games.PARQUET")[0] == 0
    assert (tmp_path / "games.PARQUET").is_file() and len(load(tmp_path / "games.PARQUET")) == 10
    assert run(capsys, "simulate", "--games", 10, "--seed", 1, "--workers", 1, "--out", "run.v2/")[0] == 0
    assert len(load(tmp_path / "run.v2")) == 10


def test_replay_bad_seed_names_what_a_command_line_can_pass(capsys):
    code, out, err = run(capsys, "replay", "--seed", "-1")
    assert code == 2 and out == ""
    assert "argument --seed: expected an integer in 0..2**64-1, got '-1'" in err
    assert "None" not in err and "SeedSequence" not in err  # the library's other seeds, not typeable here


def test_simulate_then_seats(tmp_path, capsys):
    path = tmp_path / "games.parquet"
    code, out, _ = run(capsys, "simulate", "--games", 500, "--players", 3, "--policy", "greedy", "--seed", 9,
                       "--workers", 1, "--out", path)
    assert code == 0 and "wrote 500 games" in out and "root seed 9" in out
    games = load(path)
    assert len(games) == 500 and games.attrs["root_seed"] == "9" and set(games.policy_2) == {"greedy"}
    code, out, _ = run(capsys, "seats", path)
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 1 + 3 and "0 (first)" in lines[1]
    code, out, _ = run(capsys, "seats", path, "--csv")
    table = pd.read_csv(__import__("io").StringIO(out))
    assert table.wins.tolist() == [int(games[f"win_{s}"].sum()) for s in range(3)]


def test_simulate_seat_rotation_and_paired_table(tmp_path, capsys):
    path = tmp_path / "rotated.parquet"
    code, _, _ = run(capsys, "simulate", "--games", 200, "--policy", "greedy", "--policy", "random", "--seed", 1,
                     "--workers", 1, "--seat-rotation", "--out", path)
    games = load(path)
    assert code == 0 and len(games) == 400 and {"deal", "rotation"} <= set(games.columns)
    code, out, _ = run(capsys, "seats", path)
    assert code == 0 and "compared within each deal" in out and "seat 1" in out


def test_simulate_passes_scheduler_only_when_given(tmp_path, capsys, monkeypatch):
    from azul_fast.cli import games

    seen = []
    real = games.simulate

    def spy(*args, **kwargs):
        seen.append(dict(kwargs))
        kwargs.pop("scheduler", None)  # no cluster here: run locally
        return real(*args, **kwargs)

    monkeypatch.setattr(games, "simulate", spy)
    run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", tmp_path / "a.parquet")
    run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", tmp_path / "b.parquet", "--scheduler", "tcp://x:8786")
    assert "scheduler" not in seen[0] and seen[1]["scheduler"] == "tcp://x:8786"


def test_simulate_to_a_real_folder_then_resume_and_read(tmp_path, capsys):
    pytest.importorskip("azul_fast.runs.folders")
    folder = tmp_path / "run"
    code, out, _ = run(capsys, "simulate", "--games", 300, "--policy", "greedy", "--seed", 4, "--workers", 1,
                       "--out", folder)
    assert code == 0 and "root seed 4" in out
    # Resuming a finished run keeps its own root seed, whatever --seed says now.
    code, out, _ = run(capsys, "simulate", "--games", 300, "--policy", "greedy", "--workers", 1, "--out", folder,
                       "--resume")
    assert code == 0 and "root seed 4" in out
    assert out.splitlines() == [f"the run in {folder} was already finished: nothing to play (root seed 4)"]
    assert len(load(folder)) == 300
    code, again, err = run(capsys, "simulate", "--games", 300, "--policy", "greedy", "--out", folder)
    assert code == 2 and "--resume" in err and again == ""


def test_simulate_resume_counts_only_the_games_it_plays(tmp_path, capsys):
    """Not the whole run over the seconds of the last part (an absurd games-per-second figure)."""
    folder = run_to_folder(tmp_path / "run", 300, seed=4, workers=1, chunk_size=100)
    (folder / "part-000000000100.parquet").unlink()
    code, out, _ = run(capsys, "simulate", "--games", 300, "--workers", 1, "--out", folder, "--resume")
    assert code == 0 and out.startswith(f"wrote 100 games to {folder} (root seed 4, ")


def test_simulate_resume_keeps_the_folder_seed_and_refuses_another(tmp_path, capsys):
    folder = tmp_path / "run"
    args = ("simulate", "--games", 300, "--workers", 1, "--out", folder)
    assert run(capsys, *args, "--seed", 4)[0] == 0
    code, out, err = run(capsys, *args, "--seed", 5, "--resume")
    assert code == 2 and out == "" and "differs in root_seed" in err and len(err.splitlines()) == 1
    code, out, _ = run(capsys, *args, "--seed", 4, "--resume")
    assert code == 0 and "root seed 4" in out


def test_simulate_resume_refuses_a_folder_that_is_not_a_run(tmp_path, capsys):
    folder = tmp_path / "u"
    folder.mkdir()
    (folder / ".draft.tmp").write_text("draft")
    (folder / "notes.txt").write_text("notes")
    code, out, err = run(capsys, "simulate", "--games", 1000, "--out", folder, "--resume")
    assert code == 2 and out == "" and "holds no run manifest" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in folder.iterdir()) == [".draft.tmp", "notes.txt"]


def test_simulate_refuses_an_empty_out_instead_of_the_current_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "simulate", "--games", 10, "--out", "")
    assert code == 2 and out == "" and "--out is empty" in err
    assert not list(tmp_path.iterdir())


def test_a_run_folder_in_use_or_broken_is_named_in_one_line(tmp_path, capsys):
    from azul_fast.runs.lock import run_lock

    folder = tmp_path / "run"
    folder.mkdir()
    with run_lock(folder):
        code, _, err = run(capsys, "simulate", "--games", 100, "--out", folder)
    assert code == 2 and f"in use by pid {os.getpid()}" in err and len(err.splitlines()) == 1
    assert run(capsys, "simulate", "--games", 100, "--seed", 1, "--out", folder)[0] == 0
    manifest = folder / "_manifest.json"
    manifest.write_text(manifest.read_text().replace('"parts"', '"prts"'))
    code, out, err = run(capsys, "seats", folder)
    assert code == 2 and out == "" and err.strip() == f"azul-fast: error: {manifest}: no 'parts'"


def test_replay_prints_every_move_and_board(capsys):
    code, out, _ = run(capsys, "replay", "--seed", 12345, "--players", 2, "--policy", "greedy")
    record = play_game(2, "greedy", 12345)
    assert code == 0
    assert out.count("\nMove ") == record.turns
    assert f"Move 1: player 0 (greedy) plays {record.moves[0]}" in out
    assert out.count("Factories") == record.turns + 1  # the deal, then the board after every move
    assert out.strip().splitlines()[-1].endswith(f"scores {record.scores}, winners {record.winners}")


def test_openings_rollouts_and_study(tmp_path, capsys):
    code, out, _ = run(capsys, "openings", "--seed", 5, "--rollouts", 3, "--top", 4, "--workers", 1)
    lines = out.strip().splitlines()
    assert code == 0 and lines[0].startswith(f"deal 5, 2 players, {default_policy()} in every seat, 3 rollouts")
    assert len(lines) == 2 + 4 and lines[2].split()[0] == "1"
    path = tmp_path / "g.parquet"
    run(capsys, "simulate", "--games", 300, "--seed", 2, "--workers", 1, "--out", path)
    code, out, _ = run(capsys, "openings", path, "--csv")
    study = pd.read_csv(__import__("io").StringIO(out))
    assert code == 0 and set(study.feature) == {"tiles", "line", "overflow", "source"}
    assert study.groupby("feature").games.sum().tolist() == [300] * 4


def test_openings_rollouts_on_the_gray_wall(capsys):
    args = ("openings", "--seed", 5, "--rollouts", 3, "--workers", 1, "--csv")
    _, colored, _ = run(capsys, *args)
    code, gray, _ = run(capsys, *args, "--variant", "gray")
    assert code == 0 and gray != colored  # the same deal, finished on the other wall
    ranking = pd.read_csv(__import__("io").StringIO(gray))
    assert len(ranking) == len(azul_fast.State.new(2, seed=5, variant="gray").legal_moves)
    code, out, _ = run(capsys, "openings", "--seed", 5, "--rollouts", 3, "--top", 2, "--workers", 1,
                       "--variant", "gray")
    assert out.startswith("deal 5, 2 players, gray wall, ")


@pytest.mark.parametrize("command", ["seats", "openings"])
@pytest.mark.parametrize("dropped", ["win_1", "policy_0", "players", "opening"])
def test_seats_and_openings_name_a_missing_column_in_one_line(tmp_path, capsys, command, dropped):
    """A file missing a seat column used to end in a KeyError traceback."""
    path = tmp_path / "games.parquet"
    azul_fast.save(simulate(30, seed=1, workers=1).drop(columns=[dropped]), path)
    code, out, err = run(capsys, command, path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.strip() == f"azul-fast: error: {path}: not games saved by `azul-fast simulate`: no column {dropped}"


def test_replay_svg_draws_each_move_about_to_be_played_then_the_end(tmp_path, capsys):
    import xml.etree.ElementTree as ET

    folder = tmp_path / "diagrams"
    folder.mkdir()
    (folder / "move-999.svg").write_text("from a longer game")
    record_files(folder, ["move-999.svg"], REPLAY_MANIFEST)  # as an earlier replay leaves it
    (folder / "move-ideas.svg").write_text("the user's, never a replay's")
    (folder / "notes.txt").write_text("not a diagram")
    code, out, _ = run(capsys, "replay", "--seed", 12345, "--policy", "greedy", "--quiet", "--svg", folder)
    record = play_game(2, "greedy", 12345)
    assert code == 0 and out.splitlines()[-1] == f"wrote {record.turns + 1} diagrams to {folder}"
    moves = [f"move-{n:03d}.svg" for n in range(1, record.turns + 1)]
    assert sorted(p.name for p in folder.glob("*.svg")) == sorted(moves + ["final.svg", "move-ideas.svg"])
    assert (folder / "notes.txt").exists() and (folder / "move-ideas.svg").read_text() == "the user's, never a replay's"
    for name, move in zip(moves, record.moves):
        svg = ET.parse(folder / name).getroot()  # well-formed
        caption = next(e for e in svg.iter() if e.get("class") == "caption")
        assert caption.text.startswith(f"Move {move}:"), (name, caption.text)
        assert any("highlight" in (e.get("class") or "").split() for e in svg.iter())
    final = (folder / "final.svg").read_text(encoding="utf-8")
    ET.fromstring(final)
    assert "highlight" not in final and "Game over" in final


def test_replay_svg_into_a_file_is_one_line_error(tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    code, out, err = run(capsys, "replay", "--seed", 1, "--quiet", "--svg", tmp_path / "taken")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def _limited_memory():
    """In the child: 3 GB of address space, a machine far smaller than the runs below need."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux applies it")
def test_a_run_too_large_for_memory_is_refused_up_front_in_one_line(tmp_path):
    """simulate --games 1000000000 --out x.parquet used to end in a numpy traceback under a memory limit."""
    env = dict(os.environ, PYTHONPATH=str(SRC), MPLBACKEND="Agg")
    result = subprocess.run([sys.executable, "-m", "azul_fast", "simulate", "--games", "1000000000", "--out",
                             "x.parquet"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
                            preexec_fn=_limited_memory)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    # 3.2 GB here, less where a container's limit is lower still
    assert re.match(r"azul-fast: error: the results of 1,000,000,000 games need at least 42\.0 GB, more than the "
                    r"[\d.]+ GB this process may use", result.stderr), result.stderr
    assert len(result.stderr.splitlines()) == 1 and list(tmp_path.iterdir()) == []
    code = "from azul_fast import simulate_moves; simulate_moves(50_000_000)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                            preexec_fn=_limited_memory)
    assert result.returncode == 1 and "Cannot recover" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("MemoryError: the records of 50,000,000 games need at least ")


def test_the_memory_check_names_the_size_before_any_game(monkeypatch):
    monkeypatch.setattr("azul_fast.runs.plan.memory_limit", lambda: 10**9)
    with pytest.raises(MemoryError, match=r"results of 30,000,000 games need at least 1\.3 GB, more than the 1\.0 GB"):
        simulate(30_000_000, seed=1)
    with pytest.raises(MemoryError, match=r"the records of 2,000,000 games need at least 1\.4 GB"):  # 42 + 670 a game
        simulate_moves(2_000_000, seed=1)
    assert len(simulate(1000, seed=1, workers=1)) == 1000  # what fits still runs


def test_simulate_refuses_an_existing_parquet_file_unless_told(tmp_path, capsys):
    path = tmp_path / "user.parquet"
    path.write_text("the user's")
    code, _, err = run(capsys, "simulate", "--games", 20, "--seed", 1, "--out", path)
    assert code == 2 and f"{path}" in err and "--overwrite" in err and path.read_text() == "the user's"
    assert run(capsys, "simulate", "--games", 20, "--seed", 1, "--out", path, "--overwrite")[0] == 0
    assert load(path).equals(simulate(20, seed=1))
    code, _, err = run(capsys, "simulate", "--games", 20, "--seed", 1, "--out", tmp_path / "run", "--overwrite")
    assert code == 2 and "a run folder is never replaced" in err


def test_replay_never_replaces_a_dangling_link_with_a_diagram(tmp_path, capsys):
    folder = tmp_path / "svg"
    folder.mkdir()
    (folder / "move-001.svg").symlink_to(tmp_path / "elsewhere.svg")
    code, _, err = run(capsys, "replay", "--seed", 1, "--quiet", "--svg", folder)
    assert code == 2 and "move-001.svg" in err
    assert (folder / "move-001.svg").is_symlink() and not (tmp_path / "elsewhere.svg").exists()
    assert [p.name for p in folder.iterdir()] == ["move-001.svg"]
