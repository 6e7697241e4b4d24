"""Progress lines for long studies, also when the output is not a terminal.

A study step can run for minutes inside one native call (a search policy plays a game in
milliseconds, thousands of them per run) without returning to report anything. `Heartbeat`
runs a timer thread that calls ``say`` with the step's name and elapsed time whenever no other
line was printed for `interval` seconds, so a log file or a CI job always shows that the work
goes on.

>>> lines = []
>>> with Heartbeat(lines.append, interval=0.05) as beat:
...     beat.step("simulate")
...     time.sleep(0.2)
>>> lines[0].startswith("simulate: still running")
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from azul_fast.core.checks import check_seconds

__all__ = ["INTERVAL", "Heartbeat"]

#: Seconds without a line before the heartbeat speaks (under the 10 s the README promises).
INTERVAL = 8.0


class Heartbeat:
    """A context manager: `say` what runs whenever `interval` seconds pass without a line.

    Use `say` (this object's method) for the study's own lines so they reset the timer, and
    `step` to name what runs now.
    """

    def __init__(self, say: Callable[[str], Any], interval: float = INTERVAL) -> None:
        check_seconds(interval, "interval")
        self._say = say
        self._interval = interval
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._name = "working"
        self._started = self._last = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name="azul_fast-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()

    def say(self, line: str) -> None:
        """Print a line now (and restart the timer)."""
        with self._lock:
            self._last = time.perf_counter()
            self._say(line)

    def step(self, name: str) -> None:
        """Name the step that runs from now on (printed by the timer only)."""
        with self._lock:
            self._name, self._started = name, time.perf_counter()

    def _run(self) -> None:
        while not self._stop.wait(self._interval / 4):
            with self._lock:
                now = time.perf_counter()
                if now - self._last >= self._interval:
                    self._last = now
                    self._say(f"{self._name}: still running ({now - self._started:.0f} s)")
