"""What the board's worker process runs: one analysis, review or simulated game at a time, reported as it goes.

The server (`azul_fast.web.engine`) starts this module as its own process
(``python -m azul_fast.web.work JOBS RESULTS CONTROL MEMORY``: three pipe descriptors and the
address-space bound in bytes). It sends a job as a dict on JOBS and reads back on RESULTS
``("started", None)`` when the worker takes it up, ``("progress", body)`` messages, then one
``("done", body)`` or ``("error", message)``. On CONTROL it sends ``("stop", job id)`` to stop a
job between stages; the end of CONTROL (the server gone, however it ended, ``kill -9`` included)
ends the worker at once, so no worker outlives its board. The worker bounds its own address space
(``RLIMIT_AS``), so an analysis that outgrows the memory bound fails with a MemoryError here
instead of taking the machine's memory, and it stops a job between stages when the server asks or
when the job's time limit is reached.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

import pandas as pd

__all__ = ["Stops", "main", "one_line", "run_job", "serve_jobs"]


def one_line(error: BaseException) -> str:
    """An error as one line: what the command line prints after ``azul-fast: error:``."""
    return " ".join(str(error).split()) or type(error).__name__


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows as dicts of Python values, NaN as None (JSON has no NaN), every float exact."""
    rows = table.astype(object).where(table.notna(), None).to_dict("records")
    return [{str(key): value for key, value in row.items()} for row in rows]


def _attrs(table: pd.DataFrame) -> dict[str, Any]:
    attrs: dict[str, Any] = json.loads(json.dumps(table.attrs, default=str))
    return attrs


def _simulate(job: dict[str, Any], report: Callable[[dict[str, Any]], None], ended: Callable[[], str | None]
              ) -> dict[str, Any]:
    """The game `play_game` replays for the job's deal and policy, as the page keeps a line; it
    stops between moves when `ended` names why (the line is then left out)."""
    from azul_fast.core.played_game import iter_simulated_positions
    from azul_fast.web.positions import line_of

    played = []
    for position in iter_simulated_positions(job["players"], job["policy"], job["seed"], job["variant"]):
        played.append(position)
        report({"moves": len(played)})
        why = ended()
        if why is not None:
            return {"line": None, "moves": len(played), "ended": why}
    final = played[-1][0].copy()
    final.play(played[-1][1])
    return {"line": line_of(played, final), "moves": len(played), "ended": "finished"}


def run_job(job: dict[str, Any], report: Callable[[dict[str, Any]], None], stop: Callable[[], bool]) -> dict[str, Any]:
    """Run `job` (``kind`` "analyse", "review" or "simulate"), calling `report` with the table so
    far and its share done after every stage or move; return the final result and how it ended
    (``"finished"``, ``"cancelled"`` when `stop` said so, or ``"time limit"``)."""
    from azul_fast.core.state import State
    from azul_fast.studies.analyse import analyse, review_game

    started = time.monotonic()

    def why_ended() -> str | None:
        return "cancelled" if stop() else "time limit" if time.monotonic() - started >= job["limit"] else None

    if job["kind"] == "simulate":
        return _simulate(job, report, why_ended)
    ended = "finished"

    def progress(table: pd.DataFrame, done: float) -> bool:
        nonlocal ended
        elapsed = time.monotonic() - started
        report({"rows": _records(table), "attrs": _attrs(table), "done": min(1.0, max(done, elapsed / job["limit"]))})
        ended = why_ended() or "finished"
        return ended != "finished"

    if job["kind"] == "analyse":
        seconds, rollouts = job["seconds"], job["rollouts"]

        def analysed(table: pd.DataFrame) -> bool:
            done = table.attrs["seconds"] / seconds if seconds else table.attrs["rollouts"] / rollouts
            return progress(table, done)

        table = analyse(State.from_text(job["text"]), policy=job["policy"], rollouts=rollouts, seconds=seconds,
                        seed=job["seed"], workers=job["workers"], progress=analysed)
        return {"rows": _records(table), "attrs": _attrs(table), "ended": ended}
    table = review_game(job["players"], job["policy"], job["seed"], job["variant"], rollouts=job["rollouts"],
                        paired=job["paired"], workers=job["workers"], document=job["document"],
                        progress=lambda t: progress(t, len(t) / t.attrs["plies"]))
    return {"rows": _records(table), "attrs": _attrs(table), "ended": ended, "csv": table.to_csv(index=False)}


class Stops:
    """The jobs the server asked to stop, read from the control pipe by a thread of their own;
    the pipe's end (the server gone) ends the process."""

    def __init__(self, control: Connection) -> None:
        self._asked: set[int] = set()
        self._control = control
        threading.Thread(target=self._listen, name="board control", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                _what, job_id = self._control.recv()
            except (EOFError, OSError):
                os._exit(0)   # the server is gone: nobody reads what this process would go on making
            self._asked.add(job_id)

    def asked(self, job_id: int) -> bool:
        """Whether the server asked job `job_id` to stop."""
        return job_id in self._asked


def serve_jobs(jobs: Connection, results: Connection, control: Connection, memory_bytes: int) -> None:
    """The worker process: run each job `jobs` brings until the server closes it (or `control` ends)."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    stops = Stops(control)
    import azul_fast.studies.analyse  # noqa: F401  (loaded now: the first job should not wait for scipy)

    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):   # the server closed the pipe: done
            return
        results.send(("started", None))
        try:
            body = run_job(job, lambda message: results.send(("progress", message)), partial(stops.asked, job["id"]))
        except MemoryError:
            results.send(("error", f"the {job['kind']} went over the board's memory bound of "
                                   f"{memory_bytes >> 20} MiB (azul-fast board --memory)"))
        except (ValueError, TypeError) as error:
            results.send(("error", one_line(error)))
        else:
            results.send(("done", body))


def main(argv: list[str]) -> None:
    """The worker's entry: the three pipes' descriptors and the memory bound, as the engine passes them."""
    # a Ctrl+C in the terminal is the board's to handle: it ends this process with the rest
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    jobs, results, control, memory = (int(arg) for arg in argv)
    serve_jobs(Connection(jobs, writable=False), Connection(results, readable=False),
               Connection(control, writable=False), memory)


if __name__ == "__main__":
    main(sys.argv[1:])
