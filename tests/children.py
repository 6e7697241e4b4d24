"""Child processes that a test stops by a signal."""

import signal


def interruptible() -> None:
    """In the child before Python starts: Ctrl-C and the hang-up back to their defaults (Python turns
    the first into KeyboardInterrupt). A shell starting CI in the background (no job control) leaves
    SIGINT ignored, `nohup` leaves SIGHUP ignored, and an ignored signal stays ignored in every child."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
