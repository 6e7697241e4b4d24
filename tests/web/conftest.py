"""`azul-fast board` started as a command, as a person starts it: its process and the address it prints."""

import re
import signal
import subprocess
import sys
from contextlib import contextmanager

import pytest
from children import interruptible


@contextmanager
def board_process(*args):
    """`azul-fast board --no-browser ARGS` on a free port: the process and the address it prints;
    stopped with SIGINT (as Ctrl+C does) at the end, and killed if that did not stop it."""
    pytest.importorskip("uvicorn", reason="the board extra is not installed (pip install -e \".[board]\")")
    process = subprocess.Popen([sys.executable, "-m", "azul_fast", "board", "--no-browser", "--workers", "1", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=interruptible)
    try:
        line = process.stdout.readline()
        found = re.match(r"azul-fast board: serving (http://\S+/) ", line)
        assert found, line + (process.stderr.read() if process.poll() is not None else "")
        yield process, found.group(1)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            finally:
                process.kill()


@pytest.fixture(scope="module")
def start_board():
    """`board_process`, for tests and fixtures of any scope."""
    return board_process
