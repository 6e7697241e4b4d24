"""Stop signals: SIGTERM and SIGHUP stop a run, a report or a command as Ctrl-C (SIGINT) does.

Each raises KeyboardInterrupt, so every ``finally`` runs: a run keeps its finished parts, a file
being written removes its temporary file, a report its staging folder.

A KeyboardInterrupt raised by a signal handler lands wherever the main thread is, and a library's
C code that calls back into Python (matplotlib laying out a chart, for one) may clear it as if it
were its own error, so the stop would be lost. So the handlers also record the stop, and it is
never lost: `check_stop` raises it again (the long commands call it between their phases, their
charts, their pages and before a report replaces the earlier one), and a block of
`interrupt_on_signals` that ends as if nothing happened raises it as it ends.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

__all__ = ["STOP_SIGNALS", "check_stop", "interrupt_on_signals", "stop_signal"]

#: The signals that stop a run or a report like Ctrl-C (what a user, a terminal or a scheduler sends).
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


@contextmanager
def interrupt_on_signals() -> Iterator[None]:
    """While running in the main thread, SIGTERM and SIGHUP stop the block like Ctrl-C, and none
    of the three is lost (see the module).

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

    A stop that something in the block swallowed is raised again as the block ends:

    >>> try:
    ...     with interrupt_on_signals():
    ...         try:
    ...             signal.raise_signal(signal.SIGTERM)
    ...         except KeyboardInterrupt:
    ...             pass
    ... except KeyboardInterrupt as stop:
    ...     print("stopped by", stop)
    stopped by signal 15
    """
    global _depth, _stopped
    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    main = threading.current_thread() is threading.main_thread()
    if main:
        if _depth == 0:
            _stopped = None
        _depth += 1
        for name in STOP_SIGNALS:
            number = getattr(signal, name, None)  # no SIGHUP on Windows
            handler = signal.getsignal(number) if number is not None else None
            # An ignored signal stays ignored: `nohup azul-fast simulate ...` must outlive its terminal.
            # Ctrl-C is taken over only from Python's own handler (another one is the caller's choice).
            if number is not None and (handler is signal.default_int_handler if name == "SIGINT" else
                                       handler is not signal.SIG_IGN):
                previous[number] = signal.signal(number, _raise_interrupt)
    try:
        yield
        check_stop()  # a stop that the block swallowed
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if main:
            _depth -= 1
            if _depth == 0:
                _stopped = None  # given to the caller: a later block starts afresh


def check_stop() -> None:
    """Raise KeyboardInterrupt if a stop signal reached the block of `interrupt_on_signals` running in
    this (main) thread and was swallowed on its way; do nothing otherwise.

    >>> import signal
    >>> try:
    ...     with interrupt_on_signals():
    ...         check_stop()   # no signal: nothing happens
    ...         try:
    ...             signal.raise_signal(signal.SIGTERM)
    ...         except KeyboardInterrupt:
    ...             pass       # as C code that clears an error it did not raise would
    ...         check_stop()
    ...         print("not reached")
    ... except KeyboardInterrupt as stop:
    ...     print("stopped by", stop)
    stopped by signal 15
    """
    if _stopped is not None and threading.current_thread() is threading.main_thread():
        _raise_interrupt(_stopped, None)


#: The signal of a stop delivered within the outermost `interrupt_on_signals` block, and how deep
#: those blocks are nested (the main thread's: signal handlers run there only).
_stopped: int | None = None
_depth = 0


def _raise_interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    global _stopped
    _stopped = signum
    stop = KeyboardInterrupt(f"signal {signum}")
    stop.signum = signum  # type: ignore[attr-defined]  # a plain KeyboardInterrupt, as Python's own stops are
    raise stop


def stop_signal(stop: KeyboardInterrupt) -> int:
    """The signal that raised `stop`: SIGTERM or SIGHUP through `interrupt_on_signals`, else SIGINT (Ctrl-C)."""
    return int(getattr(stop, "signum", signal.SIGINT))
