"""`azul-fast board` as a command: the missing extra, a taken port, a port out of range, a host that is
not loopback and the names it answers to; `azul-fast replay --game`, which replays the board's game files."""

import importlib.util
import json
import socket

import pytest

from azul_fast.cli import main


def test_without_the_extra_the_board_says_how_to_install_it(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "starlette" else real(name, *a))
    assert main(["board", "--no-browser"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and 'pip install "azul-fast[board]"' in err[0]


def test_a_taken_port_is_one_error_before_the_engine_starts(capsys):
    pytest.importorskip("uvicorn", reason="the board extra is not installed")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        assert main(["board", "--no-browser", "--port", str(taken.getsockname()[1])]) == 2
    finally:
        taken.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("azul-fast: error: ") and "in use" in err[0]


def test_only_loopback_goes_without_a_warning():
    pytest.importorskip("uvicorn", reason="the board extra is not installed")
    from azul_fast.web.server import _is_loopback

    assert all(map(_is_loopback, ["127.0.0.1", "127.0.0.2", "::1", "localhost"]))
    assert not any(map(_is_loopback, ["0.0.0.0", "::", "192.168.1.2", "example.org"]))


def test_bad_limits_are_refused_at_the_command_line(capsys):
    for args, message in [(["--time-limit", "0"], "limit must be positive"), (["--memory", "100"], "at least 512")]:
        assert main(["board", "--no-browser", *args]) == 2
        assert message in capsys.readouterr().err


def test_a_port_out_of_range_is_one_line_at_the_command_line(capsys):
    for port in ("70000", "-1", "65536"):
        assert main(["board", "--no-browser", "--port", port]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"azul-fast board: argument --port: must be in 0..65535, got {int(port)} "
                       "(see azul-fast board --help)"], err


def test_any_host_keeps_loopbacks_names_and_adds_the_machines_own():
    pytest.importorskip("uvicorn", reason="the board extra is not installed")
    from azul_fast.web.server import allowed_hosts

    near = allowed_hosts("127.0.0.1")
    assert {"127.0.0.1", "localhost", "[::1]"} <= set(near) and socket.gethostname() not in near
    anywhere = allowed_hosts("0.0.0.0")
    assert {"127.0.0.1", "localhost", "[::1]", "0.0.0.0", socket.gethostname()} <= set(anywhere)
    assert "*" not in anywhere and "[::]" in allowed_hosts("::")


def test_replay_prints_a_game_file_and_a_game_in_progress(tmp_path, capsys):
    from azul_fast.core.played_game import game_document, line_document, simulated_positions
    from azul_fast.core.state import State

    document = game_document(players=2, policy="greedy", seed=7)
    game = tmp_path / "game.json"
    game.write_text(json.dumps(document))
    assert main(["replay", "--game", str(game), "--quiet"]) == 0
    final = State.new(players=2, seed=7)
    moves = [move for _, move in simulated_positions(2, "greedy", 7)]
    for move in moves:
        final.play(move)
    assert capsys.readouterr().out.strip() == (f"{game}: 2 players: {len(moves)} moves, scores {list(final.scores)}, "
                                               f"winners {list(final.winners)}")
    begun = tmp_path / "begun.json"
    line = [State.new(players=2, seed=7)]
    for move in moves[:3]:
        line.append(line[-1].copy())
        line[-1].play(move)
    begun.write_text(json.dumps(line_document(line, moves[:3])))
    assert main(["replay", "--game", str(begun)]) == 0
    out = capsys.readouterr().out
    assert "Move 3: player 0 plays" in out and out.strip().endswith("3 moves, scores [0, 0], in progress")
    for args, message in [([], "replay needs --seed"), (["--seed", "1", "--game", str(game)], "one of them"),
                          (["--game", str(game), "--svg", str(tmp_path / "d")], "--svg draws a simulated game")]:
        assert main(["replay", *args]) == 2
        assert message in capsys.readouterr().err
    game.write_text("[" * 100_000)
    assert main(["replay", "--game", str(game)]) == 2
    assert capsys.readouterr().err.strip() == f"azul-fast: error: {game}: nested too deeply to be a position or a game"
