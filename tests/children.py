"""Child processes that a test stops by a signal, and a stop that C code swallows."""

import signal
import subprocess
import sys


def interruptible() -> None:
    """In the child before Python starts: Ctrl-C and the hang-up back to their defaults (Python turns
    the first into KeyboardInterrupt). A shell starting CI in the background (no job control) leaves
    SIGINT ignored, `nohup` leaves SIGHUP ignored, and an ignored signal stays ignored in every child."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def python_child(code: str, *argv: str) -> subprocess.Popen:
    """Python running `code` (with `argv`) in a child that a signal stops, its output piped as text."""
    return subprocess.Popen([sys.executable, "-c", code, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=interruptible)


def swallowed(sig: int) -> None:
    """A signal delivered while C code runs that clears the error the handler raised."""
    try:
        signal.raise_signal(sig)
    except KeyboardInterrupt:
        pass
