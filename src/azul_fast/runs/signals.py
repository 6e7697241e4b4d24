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

__all__ = ["STOP_SIGNALS", "interrupt_on_signals", "stop_signal"]

#: The signals that stop a run or a report like Ctrl-C (what a user, a terminal or a scheduler sends).
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


@contextmanager
def interrupt_on_signals() -> Iterator[None]:
    """While running in the main thread, SIGTERM and SIGHUP stop the block like Ctrl-C.

    They raise KeyboardInterrupt (`stop_signal` tells which signal), so the block's ``finally`` clauses run. Elsewhere
    (a thread) the signals are left as they are, and so is a signal the process ignores (``nohup``
    ignores SIGHUP).

    >>> import signal
    >>> try:
    ...     with interrupt_on_signals():
    ...         signal.raise_signal(signal.SIGTERM)
    ... except KeyboardInterrupt as stop:
    ...     print("stopped by", stop)
    stopped by signal 15
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
    stop = KeyboardInterrupt(f"signal {signum}")
    stop.signum = signum  # type: ignore[attr-defined]  # a plain KeyboardInterrupt, as Python's own stops are
    raise stop


def stop_signal(stop: KeyboardInterrupt) -> int:
    """The signal that raised `stop`: SIGTERM or SIGHUP through `interrupt_on_signals`, else SIGINT (Ctrl-C)."""
    return int(getattr(stop, "signum", signal.SIGINT))
