"""`azul-fast board` as a command: the missing extra, a taken port, a host that is not loopback."""

import importlib.util
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
    from azul_fast.board.server import _is_loopback

    assert all(map(_is_loopback, ["127.0.0.1", "127.0.0.2", "::1", "localhost"]))
    assert not any(map(_is_loopback, ["0.0.0.0", "::", "192.168.1.2", "example.org"]))


def test_bad_limits_are_refused_at_the_command_line(capsys):
    for args, message in [(["--time-limit", "0"], "limit must be positive"), (["--memory", "100"], "at least 512")]:
        assert main(["board", "--no-browser", *args]) == 2
        assert message in capsys.readouterr().err
