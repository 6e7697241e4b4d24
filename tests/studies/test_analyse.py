"""analyse(): exact rows from solve, adaptive rollouts against uniform ones, errors, and the CLI."""

import json
import os

import pandas as pd
import pytest
from children import interruptible
from solving import final_round_positions

from azul_fast import State
from azul_fast.cli import main
from azul_fast.core.bots.solve import solve
from azul_fast.studies.analyse import ANALYSIS_COLUMNS, analyse


def _clear_position():
    """Late in round 1 of a greedy game: a few moves, one of them clearly best for greedy rollouts."""
    state = State.new(players=2, seed=3)
    for _ in range(8):
        state.play(state.choose("greedy"))
    return state


@pytest.mark.parametrize(("players", "variant"), [(2, "colored"), (3, "gray"), (4, "colored")])
def test_analyse_agrees_with_solve_where_the_round_is_solvable(players, variant):
    checked = 0
    for state, _value in final_round_positions(players, variant, seeds=range(7, 13)):
        result = solve(state)
        if not result.exact:
            continue
        table = analyse(state, rollouts=100, policy="greedy")
        checked += 1
        assert table.attrs["stopped"] == "exact" and table.exact.all() and (table.rollouts == 0).all()
        assert dict(zip(table.move, table.margin)) == {str(m): v for m, v in result.move_values.items()}
        assert table.move.iloc[0] in {str(m) for m in result.best_moves}
        assert (table.ci_low == table.ci_high).all() and (table.margin_low == table.margin_high).all()
        assert table.worse_than_best.tolist() == (table.margin < result.value).tolist()
    assert checked >= 2


def test_the_table_has_one_row_a_legal_move_best_first():
    state = _clear_position()
    table = analyse(state, rollouts=2000, seed=4, policy="greedy")
    assert table.columns.tolist() == ANALYSIS_COLUMNS
    assert sorted(table.move) == sorted(str(m) for m in state.legal_moves)
    assert table["rank"].tolist() == list(range(1, len(table) + 1))
    assert not table.exact.any() and table.rollouts.sum() == table.attrs["rollouts"] <= 2000
    assert ((table.ci_low <= table.win_share) & (table.win_share <= table.ci_high)).all()
    assert table.attrs["stopped"] in ("separated", "budget") and not table.worse_than_best.iloc[0]


def test_adaptive_finds_uniform_allocations_best_move_with_fewer_rollouts():
    state = _clear_position()
    uniform = analyse(state, rollouts=8000, seed=2, allocation="uniform", max_nodes=0, policy="greedy")
    adaptive = analyse(state, rollouts=8000, seed=2, max_nodes=0, policy="greedy")
    assert uniform.worse_than_best.iloc[1:].all(), "the position should be clear for this test"
    assert adaptive.attrs["stopped"] == "separated"
    assert adaptive.move.iloc[0] == uniform.move.iloc[0]
    assert adaptive.attrs["rollouts"] < uniform.attrs["rollouts"]


def test_the_table_does_not_depend_on_workers_and_a_seconds_budget_stops():
    state = _clear_position()
    one = analyse(state, rollouts=600, seed=1, workers=1, max_nodes=0, policy="greedy")
    two = analyse(state, rollouts=600, seed=1, workers=2, max_nodes=0, policy="greedy")
    pd.testing.assert_frame_equal(one, two)
    timed = analyse(State.new(players=2, seed=5), seconds=0.5, seed=1, policy="greedy")
    assert timed.attrs["seconds"] < 3 and timed.attrs["rollouts"] > 0


def test_bad_arguments_are_clear_errors():
    state = State.new(players=2, seed=1)
    with pytest.raises(TypeError, match="analyse\\(\\) takes a State, got dict"):
        analyse(state.to_dict(), policy="greedy")
    with pytest.raises(ValueError, match="rollouts or seconds, not both"):
        analyse(state, rollouts=100, seconds=1.0, policy="greedy")
    with pytest.raises(ValueError, match="rollouts=10 is too few: this position has 90 legal moves"):
        analyse(state, rollouts=10, policy="greedy")
    with pytest.raises(ValueError, match="allocation must be"):
        analyse(state, allocation="greedy", policy="greedy")
    with pytest.raises(ValueError, match="seconds must be positive"):
        analyse(state, seconds=0, policy="greedy")
    with pytest.raises(ValueError, match="policy"):
        analyse(state, policy="best")


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_analyses_a_simulated_position_a_text_line_and_a_json_file(tmp_path, capsys):
    code, out, _ = run(capsys, "analyse", "--seed", 3, "--ply", 8, "--rollouts", 400, "--csv", tmp_path / "t.csv",
                       "--svg", tmp_path / "b.svg", "--policy", "greedy")
    assert code == 0 and "win share (95% CI)" in out and "rollouts by greedy" in out
    table = pd.read_csv(tmp_path / "t.csv")
    assert table.columns.tolist() == ANALYSIS_COLUMNS
    assert (tmp_path / "b.svg").read_text().startswith("<svg")
    rows = out.splitlines()[-len(table) - 2:-2]   # the same position (--seed 3 --ply 8) pasted back
    state = _clear_position()
    code, text_out, _ = run(capsys, "analyse", state.to_text(), "--rollouts", 400, "--policy", "greedy")
    assert code == 0 and text_out.splitlines()[-len(table):] == rows
    (tmp_path / "p.json").write_text(json.dumps(state.to_dict()))
    code, json_out, _ = run(capsys, "analyse", tmp_path / "p.json", "--rollouts", 400, "--policy", "greedy")
    assert code == 0 and json_out.splitlines()[-len(table):] == rows


def test_cli_errors_are_one_line(tmp_path, capsys):
    existing = tmp_path / "keep.csv"
    existing.write_text("mine")
    for args, message in [
        (["analyse"], "needs POSITION, or --seed"),
        (["analyse", "colored 7"], "field 'players'"),
        (["analyse", "4 players"], "No such file"),
        (["analyse", tmp_path / "missing.json"], "No such file"),
        (["analyse", "--seed", 1, "--csv", existing], "analyse writes only new files unless given --overwrite"),
        (["analyse", "--seed", 1, "--ply", 500], "ends after"),
    ]:
        code, _, err = run(capsys, *args)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert existing.read_text() == "mine"


def test_review_game_compares_every_move_with_the_best_on_shared_continuations():
    from azul_fast import play_game
    from azul_fast.studies.analyse import REVIEW_COLUMNS, review_game

    table = review_game(seed=12345, rollouts=100, paired=30, policy="greedy")
    record = play_game(2, "greedy", seed=12345)
    assert table.columns.tolist() == REVIEW_COLUMNS
    assert table.move.tolist() == [str(m) for m in record.moves] and len(table) == record.turns
    assert (table.loss == table.best_win_share - table.win_share).all()
    assert (table.loss[table.move == table.best_move] == 0).all()
    assert set(table.flag) <= {"", "mistake", "blunder"} and (table.flag[table.loss >= 0.25] == "blunder").all()
    assert table.exact.iloc[-1] and table.attrs["scores"] == record.scores


def test_cli_review_writes_a_new_folder_only(tmp_path, capsys):
    out = tmp_path / "review"
    code, text, _ = run(capsys, "review", "--seed", 12345, "--rollouts", 100, "--paired", 20, "--out", out)
    assert code == 0 and "mistakes" in text and (out / "review.csv").exists()
    assert (out / "first_player_share.png").exists() and (out / "first_player_share.svg").exists()
    saved = pd.read_csv(out / "review.csv")
    # the terminal in percent as analyse prints it, the CSV in 0-1 fractions
    assert saved.win_share.between(0, 1).all() and saved.loss.between(-1, 1).all()
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["ply", "round"])
    assert "win share" in lines[header] and "loss (points)" in lines[header]
    for line, row in zip(lines[header + 1:], saved.itertuples()):
        shown = line.split()
        assert f"{100 * row.win_share:.1f}%" in shown and f"{100 * row.loss:+.1f}" in shown, line
        assert f"{100 * row.first_player_share:.1f}%" == shown[-1]
    flagged = saved.flag.notna().sum()
    import matplotlib.pyplot as plt

    from azul_fast.report.review_chart import plot_first_player_share

    ax = plot_first_player_share(saved.fillna({"flag": ""}))  # the chart in percent like the table
    assert list(ax.lines[0].get_ydata()) == pytest.approx(list(100 * saved.first_player_share))
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    assert legend == {"mistake (loss >= 10 points)", "blunder (loss >= 25 points)"}
    plt.close(ax.figure)
    assert len(list(out.glob("move-*.svg"))) == flagged
    code, _, err = run(capsys, "review", "--seed", 1, "--out", out)
    assert code == 2 and "is not an empty folder" in err


@pytest.mark.parametrize(("players", "variant"), [(2, "colored"), (3, "gray"), (4, "colored")])
def test_a_game_document_replays_the_simulated_game_position_by_position(players, variant):
    from azul_fast.core.played_game import game_document, replay_document

    document = game_document(players=players, policy="greedy", seed=11, variant=variant)
    state = State.new(players=players, seed=11, variant=variant)
    replayed = replay_document(json.loads(json.dumps(document)))
    for position, move in replayed:
        assert position.to_text() == state.to_text()   # the same position, the random streams aside
        assert move == state.choose("greedy")
        state.play(move)
    assert state.is_game_over()


def test_a_document_that_is_no_legal_game_is_one_error_naming_the_round_and_move():
    from azul_fast.core.played_game import game_document, replay_document

    good = game_document(players=2, policy="greedy", seed=11)
    cases = []
    bad = json.loads(json.dumps(good))
    bad["rounds"][1]["moves"][2] = "9B1"
    cases.append((bad, "round 2 move 3 \\('9B1'\\): illegal move 9B1"))
    bad = json.loads(json.dumps(good))
    bad["rounds"][0]["moves"].pop()
    cases.append((bad, "round 1: tiles are left on the table"))
    bad = json.loads(json.dumps(good))
    bad["rounds"][1]["factories"] = ["BBBB"] * 5   # 20 blues, but round 1 left some on the boards
    cases.append((bad, "round 2 factories need 20 B tiles; only 1[0-9] are left to draw"))
    bad = json.loads(json.dumps(good))
    bad["rounds"][0]["factories"][0] = "BBBBB"
    cases.append((bad, "round 1 factory 1 must be up to 4 colour letters"))
    cases.append(({"format": "other"}, "a game document is an object"))
    for document, message in cases:
        with pytest.raises(ValueError, match=message):
            replay_document(document)


def test_cli_reviews_a_game_file(tmp_path, capsys):
    from azul_fast.core.played_game import game_document

    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_document(players=2, policy="greedy", seed=12345)))
    code, out, _ = run(capsys, "review", path, "--rollouts", 100, "--paired", 20, "--max-nodes", 0,
                       "--policy", "greedy")
    assert code == 0 and f"{path}, 2 players, greedy: scores" in out
    code, _, err = run(capsys, "review", path, "--seed", 1)
    assert code == 2 and "GAME.json or --seed" in err


def test_review_help_names_the_thresholds_review_game_flags_by(capsys, monkeypatch):
    from azul_fast.cli import analysis
    from azul_fast.studies import analyse as position

    def help_text():
        code, out, _ = run(capsys, "review", "--help")
        assert code == 0
        return " ".join(out.split())  # argparse wraps the description to the terminal's width

    assert (f"a loss of win share of {100 * position.MISTAKE:g} percentage points is a mistake, "
            f"{100 * position.BLUNDER:g} a blunder") in help_text()
    # read when the parser is built, not written out a second time
    monkeypatch.setattr(analysis, "MISTAKE", 0.07)
    monkeypatch.setattr(analysis, "BLUNDER", 0.3)
    assert "of 7 percentage points is a mistake, 30 a blunder" in help_text()


def test_alpha_is_spent_over_the_looks_of_a_race():
    state = _clear_position()
    raced = analyse(state, rollouts=2000, seed=4, max_nodes=0, policy="greedy")
    # stages of 8, 16, ..., 1024 continuations fit a budget of 2,000: at most 8 looks, alpha / 8 each
    assert raced.attrs["level"] == pytest.approx(0.05 / 8)
    uniform = analyse(state, rollouts=2000, seed=4, allocation="uniform", max_nodes=0, policy="greedy")
    assert uniform.attrs["level"] == 0.05   # one look: all of alpha
    timed = analyse(state, seconds=0.3, seed=4, max_nodes=0, policy="greedy")
    assert timed.attrs["level"] in [0.05 / 2 ** k for k in range(1, 40)]


def test_progress_sees_every_stage_and_can_stop_analyse_and_review():
    from azul_fast.studies.analyse import review_game

    state = State.new(players=2, seed=5)
    seen = []
    whole = analyse(state, rollouts=6000, seed=1, max_nodes=0, policy="greedy",
                    progress=lambda t: seen.append(t.attrs["rollouts"]))
    assert seen == sorted(seen) and 0 < seen[0] < seen[-1] < whole.attrs["rollouts"]
    assert whole.attrs["stopped"] != "interrupted"
    cut = analyse(state, rollouts=6000, seed=1, max_nodes=0, policy="greedy",
                  progress=lambda t: t.attrs["rollouts"] >= seen[1])
    assert cut.attrs["stopped"] == "interrupted" and cut.attrs["rollouts"] == seen[1]
    assert cut.columns.tolist() == ANALYSIS_COLUMNS and len(cut) == len(whole)
    plies = []
    review = review_game(seed=3, rollouts=100, paired=10, max_nodes=0, policy="greedy",
                         progress=lambda t: plies.append(len(t)))
    assert plies == list(range(1, len(review))) and review.attrs["plies"] == len(review)
    short = review_game(seed=3, rollouts=100, paired=10, max_nodes=0, policy="greedy",
                        progress=lambda t: len(t) == 4)
    pd.testing.assert_frame_equal(short, review.head(4), check_like=False)


# -- Ctrl-C stops a search within about a second, whatever its budget ---------------------------------------------

LONG_SEARCHES = {
    "analyse-ply": ["analyse", "--seed", "1", "--ply", "2", "--policy", "mcts:1000000", "--seconds", "40"],
    "analyse-rollouts": ["analyse", "--seed", "1", "--policy", "mcts:1000000", "--rollouts", "200", "--max-nodes", "0"],
    "analyse-one-worker": ["analyse", "--seed", "1", "--policy", "mcts:1000000", "--rollouts", "200", "--max-nodes",
                           "0", "--workers", "1"],
    "openings": ["openings", "--seed", "1", "--policy", "mcts:1000000", "--rollouts", "2"],
}


def _wait_for_cpu(pid: int, seconds: float) -> None:
    """Until process `pid` has used `seconds` of CPU (on a shared machine the wall clock says little)."""
    import os
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= seconds:
            return
        time.sleep(0.1)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads the child's CPU time from /proc")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("argv", LONG_SEARCHES.values(), ids=LONG_SEARCHES.keys())
def test_a_long_search_stops_within_about_a_second_of_ctrl_c(argv, sig):
    """The searches in the main thread run the signal handlers themselves, those in the pool's
    threads are asked to stop: a million iterations a move no longer outlast Ctrl-C by minutes."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    child = subprocess.Popen([sys.executable, "-m", "azul_fast", *argv], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=env,
                             preexec_fn=interruptible)
    _wait_for_cpu(child.pid, 4.0)  # well into the searches (Python's start and imports take about a second)
    assert child.poll() is None, child.stderr.read()
    child.send_signal(getattr(signal, sig))
    sent = time.monotonic()
    try:
        child.wait(timeout=10)
    finally:
        child.kill()
    took = time.monotonic() - sent
    err = child.stderr.read()
    assert child.returncode == 128 + getattr(signal, sig), err
    assert err.strip() == f"azul-fast: interrupted ({sig})"
    assert took < 3, f"stopped {took:.1f} s after {sig}"


# -- impossible positions and malformed files: one line, exit 2 ---------------------------------------------------


def _position_in_round(rounds_done: int, seed: int = 5) -> dict:
    """A greedy game's position at the start of the round after `rounds_done` tilings."""
    state = State.new(players=2, seed=seed)
    while state.round <= rounds_done and not state.is_game_over():
        state.play(state.choose("greedy"))
    return state.to_dict()


def test_walls_no_game_reaches_are_refused_naming_the_field(tmp_path, capsys):
    later = _position_in_round(3)
    tiles = sum(row.count(".") < 5 and 5 - row.count(".") for row in later["boards"][0]["wall"])
    assert later["round"] == 4 and tiles >= 3
    early = dict(later, round=1)  # the same walls in round 1: nothing was ever tiled
    with pytest.raises(ValueError, match=r"'boards\[\d\]\.wall': row \d holds \d tiles in round 1"):
        State.from_dict(early)
    finished = State.new(players=2, seed=5)
    while not finished.is_game_over():
        finished.play(finished.choose("greedy"))
    going_on = dict(finished.to_dict(), game_over=False, truncated=False)  # a complete row, and play goes on
    with pytest.raises(ValueError, match=r"'boards\[\d\]\.wall': row \d (is complete but the game goes on|holds)"):
        State.from_dict(going_on)
    for position in (early,):  # (going_on has an empty table in play: refused on that count too)
        text = State.from_dict(position, reachable=False).to_text()
        with pytest.raises(ValueError, match=r"boards\[\d\]\.wall"):
            State.from_text(text)
        path = tmp_path / "position.json"
        path.write_text(json.dumps(position))
        for argv in (["analyse", text], ["analyse", str(path)]):
            assert main(argv) == 2
            err = capsys.readouterr().err
            assert len(err.splitlines()) == 1 and "wall" in err, err
    State.from_dict(later)  # the position itself is fine


@pytest.mark.parametrize("command", ["analyse", "review"])
def test_a_deeply_nested_json_file_is_one_line_and_exit_2(tmp_path, capsys, command):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err and str(path) in err
