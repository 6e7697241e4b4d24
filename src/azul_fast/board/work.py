"""What the board's worker process runs: one analysis or review at a time, reported as it goes.

The server (`azul_fast.board.engine`) sends a job as a dict and reads back ``("started", None)``
when the worker takes it up, ``("progress", body)`` messages, then one ``("done", body)`` or
``("error", message)``. The worker bounds its own
address space (``RLIMIT_AS``), so an analysis that outgrows the memory bound fails with a
MemoryError here instead of taking the machine's memory, and it stops a job between stages when
the server asks (`stop`) or when the job's time limit is reached.
"""

from __future__ import annotations

import json
import resource
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Protocol

import pandas as pd

__all__ = ["Flag", "one_line", "run_job", "serve_jobs"]


class Flag(Protocol):
    """What the worker asks whether to stop: a `multiprocessing.Event` (set by the server's cancel)."""

    def is_set(self) -> bool: ...


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


def run_job(job: dict[str, Any], report: Callable[[dict[str, Any]], None], stop: Callable[[], bool]) -> dict[str, Any]:
    """Run `job` (``kind`` "analyse" or "review"), calling `report` with the table so far and its
    share done after every stage or move; return the final table, its attrs and how it ended
    (``"finished"``, ``"cancelled"`` when `stop` said so, or ``"time limit"``)."""
    from azul_fast.core.state import State
    from azul_fast.studies.analyse import analyse, review_game

    started = time.monotonic()
    ended = "finished"

    def progress(table: pd.DataFrame, done: float) -> bool:
        nonlocal ended
        elapsed = time.monotonic() - started
        report({"rows": _records(table), "attrs": _attrs(table), "done": min(1.0, max(done, elapsed / job["limit"]))})
        if stop():
            ended = "cancelled"
        elif elapsed >= job["limit"]:
            ended = "time limit"
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


def serve_jobs(jobs: Connection, results: Connection, stop: Flag, memory_bytes: int) -> None:
    """The worker process: run each job `jobs` brings until the server closes it."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    import azul_fast.studies.analyse  # noqa: F401  (loaded now: the first job should not wait for scipy)

    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):   # the server closed the pipe: done
            return
        results.send(("started", None))
        try:
            body = run_job(job, lambda message: results.send(("progress", message)), stop.is_set)
        except MemoryError:
            results.send(("error", f"the {job['kind']} went over the board's memory bound of "
                                   f"{memory_bytes >> 20} MiB (azul-fast board --memory)"))
        except (ValueError, TypeError) as error:
            results.send(("error", one_line(error)))
        else:
            results.send(("done", body))
