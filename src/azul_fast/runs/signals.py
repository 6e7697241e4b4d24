"""Stop signals: SIGTERM and SIGHUP stop a run, a report or a command as Ctrl-C (SIGINT) does.

Each raises KeyboardInterrupt, so every ``finally`` runs: a run keeps its finished parts, a file
being written removes its temporary file, a report its staging folder.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

__all__ = ["STOP_SIGNALS", "StopSignal", "interrupt_on_signals"]

#: The signals that stop a run or a report like Ctrl-C (what a user, a terminal or a scheduler sends).
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


class StopSignal(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised as KeyboardInterrupt; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


@contextmanager
def interrupt_on_signals() -> Iterator[None]:
    """While running in the main thread, SIGTERM and SIGHUP stop the block like Ctrl-C.

    They raise `StopSignal` (a KeyboardInterrupt), so the block's ``finally`` clauses run. Elsewhere
    (a thread) the signals are left as they are, and so is a signal the process ignores (``nohup``
    ignores SIGHUP).

    >>> import signal
    >>> try:
    ...     with interrupt_on_signals():
    ...         signal.raise_signal(signal.SIGHUP)
    ... except KeyboardInterrupt as stop:
    ...     print("stopped by", stop)
    stopped by signal 1
    """
    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    if threading.current_thread() is threading.main_thread():
        for name in STOP_SIGNALS[1:]:  # SIGINT raises KeyboardInterrupt already
            number = getattr(signal, name, None)  # no SIGHUP on Windows
            # An ignored signal stays ignored: `nohup azul-fast simulate ...` must outlive its terminal.
            if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, _raise_interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _raise_interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise StopSignal(signum)
