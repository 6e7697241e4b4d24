"""Progress lines for long studies, also when the output is not a terminal.

A study step can run for minutes inside one native call (a search policy plays a game in
milliseconds, thousands of them per run) without returning to report anything. `Heartbeat`
runs a timer thread that calls ``say`` with the step's name and elapsed time whenever no other
line was printed for `interval` seconds, so a CI job or stderr redirected to a file always shows
that the work goes on.

Given a `plan` (every step's estimated seconds, from a cost model), it also says how far the
whole command has come and the time left: every line ends with ``[35 % done, about 2 min left]``.
Before the first point of progress the time left is the plan's own (``by the cost model``), and
a plan that comes to more than `LONG_SECONDS` is announced with a warning as the block starts.
The estimate scales the plan by the speed seen so far (the seconds it took to get to the last
step or fraction done, over the planned seconds done), so a slower or shared machine lengthens
it, and counts down between those points; a step that can tell its own fraction done
(`Heartbeat.progress`) moves it within the step, and the timer's line shows that fraction.

>>> lines = []
>>> with Heartbeat(lines.append, interval=0.05) as beat:
...     beat.step("simulate")
...     time.sleep(0.2)
>>> lines[0].startswith("simulate: still running")
True
>>> with Heartbeat(lines.append, plan={"ladder": 1.0, "study": 3.0}) as beat:
...     beat.step("ladder")
...     beat.step("study")
...     beat.progress(0.5)
...     beat.say("half way")
>>> lines[-1].startswith("half way [62 % done, ")
True
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any

from azul_fast.core.rules.checks import check_int, check_seconds
from azul_fast.runs.signals import check_stop

__all__ = ["INTERVAL", "LONG_SECONDS", "Heartbeat", "format_duration"]

#: Seconds without a line before the heartbeat speaks (under the 10 s the README promises).
INTERVAL = 8.0
#: A plan longer than this (wall seconds) is announced with a warning before it starts.
LONG_SECONDS = 3600.0
#: The fraction of the plan done before a time left is guessed: below it, the overhead of the
#: first calls (threads, imports, the learned weights) outweighs the plan's seconds done.
_MIN_FRACTION = 0.01


def format_duration(seconds: float) -> str:
    """A duration as people say it: ``45 s``, ``3 min 20 s``, ``1 h 05 min``.

    Parameters
    ----------
    seconds : float
        The duration, at least 0.

    Returns
    -------
    str
        Rounded to the second under an hour, to the minute above.

    Examples
    --------
    >>> format_duration(7.4), format_duration(200), format_duration(3900)
    ('7 s', '3 min 20 s', '1 h 05 min')
    """
    total = max(0, round(seconds))
    if total < 60:
        return f"{total} s"
    if total < 3600:
        return f"{total // 60} min {total % 60} s" if total % 60 else f"{total // 60} min"
    hours, minutes = divmod(round(total / 60), 60)
    return f"{hours} h {minutes:02d} min"


class Heartbeat:
    """A context manager: `say` what runs whenever `interval` seconds pass without a line.

    Use `say` (this object's method) for the study's own lines so they reset the timer, `step`
    to name what runs now, and `progress` for the fraction of that step done, if it knows it.

    Parameters
    ----------
    say : callable
        Called with each line of text (``print`` to stderr, a list's ``append``, ...).
    interval : float
        Seconds without a line before the timer speaks (default `INTERVAL`).
    plan : mapping of str to float, optional
        Every step's name and its estimated seconds of one core (a cost model's). With a plan,
        each line ends with the fraction of the plan done and the time left, and a plan of more
        than `LONG_SECONDS` on `cores` is announced with a warning when the block starts.
    cores : int
        The cores that play the plan (its wall time is its seconds over them).

    Raises
    ------
    ValueError
        If `interval` is not a positive number of seconds, or a step's estimate is negative.
    TypeError
        If `interval` is not a number.

    Examples
    --------
    >>> lines = []
    >>> with Heartbeat(lines.append, plan={"a": 1.0, "b": 1.0}) as beat:
    ...     beat.step("a")
    ...     beat.step("b")
    ...     beat.say("b started")
    >>> lines[0].startswith("b started [50 % done, ")
    True
    """

    def __init__(self, say: Callable[[str], Any], interval: float = INTERVAL,
                 plan: Mapping[str, float] | None = None, cores: int = 1) -> None:
        check_seconds(interval, "interval")
        self._cores = check_int(cores, "cores", 1, 1 << 16)
        self._plan = dict(plan or {})
        bad = {name: cost for name, cost in self._plan.items() if not (math.isfinite(cost) and cost >= 0)}
        if bad:
            raise ValueError(f"plan: every step's estimate must be a number of seconds >= 0, got {bad}")
        self._say = say
        self._interval = interval
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._name = "working"
        self._fraction: float | None = None  # of the current step, when it tells
        self._finished: set[str] = set()
        self._begun = self._started = self._last = self._moved = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name="azul_fast-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        planned = sum(self._plan.values()) / self._cores
        if planned > LONG_SECONDS:
            self._say(f"warning: by the cost model this takes about {format_duration(planned)} on {self._cores} "
                      f"core{'s' if self._cores > 1 else ''}; Ctrl-C stops it, or ask for less")
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()

    def say(self, line: str) -> None:
        """Print a line now (and restart the timer), with the whole plan's progress if there is one."""
        with self._lock:
            self._last = time.perf_counter()
            self._say(line + self._overall(self._last))

    def step(self, name: str) -> None:
        """Name the step that runs from now on (printed by the timer only); the one before is done.

        A stop that was swallowed on its way (`azul_fast.runs.signals.check_stop`) is raised here:
        no step starts after one."""
        check_stop()
        with self._lock:
            self._finished.add(self._name)
            self._name, self._started, self._fraction = name, time.perf_counter(), None
            self._moved = self._started

    def progress(self, fraction: float) -> None:
        """The fraction (0..1) of the current step done, for the timer's line and the estimate."""
        with self._lock:
            self._fraction = min(max(float(fraction), 0.0), 1.0)
            self._moved = time.perf_counter()

    def _overall(self, now: float) -> str:
        """`` [35 % done, about 2 min left]`` by the plan and the speed so far; empty without a plan."""
        total = sum(self._plan.values())
        if total <= 0:
            return ""
        done = sum(cost for name, cost in self._plan.items() if name in self._finished)
        done += self._plan.get(self._name, 0.0) * (self._fraction or 0.0)
        fraction = done / total
        if fraction >= 1:  # every step done: the line that says so needs no estimate
            return ""
        if fraction < _MIN_FRACTION:  # too early to trust the speed seen: the plan's own estimate
            left = (total - done) / self._cores - (now - self._begun)
            return f" [0 % done, about {format_duration(max(left, 1))} left by the cost model]"
        # The speed up to the last point of progress, then a countdown from there.
        left = (self._moved - self._begun) * (1 - fraction) / fraction - (now - self._moved)
        if left <= 0:  # the step outlasts its share of the plan: a number now would be a guess
            return f" [{100 * fraction:.0f} % done, this step is taking longer than planned]"
        return f" [{100 * fraction:.0f} % done, about {format_duration(max(left, 1))} left]"

    def _run(self) -> None:
        while not self._stop.wait(self._interval / 4):
            with self._lock:
                now = time.perf_counter()
                if now - self._last >= self._interval:
                    self._last = now
                    overall = self._overall(now)
                    # one figure a line: the whole command's share done when there is a plan, else the step's
                    part = "" if self._fraction is None or overall else f"{100 * self._fraction:.0f} % done, "
                    self._say(f"{self._name}: {part}still running ({now - self._started:.0f} s)" + overall)
