"""The board's engine: one worker process that runs one job (an analysis, a review or a simulated
game) at a time.

The worker (`azul_fast.web.work`) runs in its own process so that a job is bounded for real:
in memory by the process's address-space limit, in time by a watchdog that ends the process when
a job runs past its limit (the job itself stops between stages at the limit; the watchdog is for a
stage or a solve that runs on), and a cancel from the page that a job does not honour in time is
enforced the same way. A killed or dead worker is replaced by a new one for the next job.
A follower thread reads the worker's messages into the job's status, which the page polls.

The worker is a plain subprocess in a process group of its own (a Ctrl+C in the terminal is the server's
to handle), joined to the server by pipes only: no multiprocessing start method, so no resource
tracker process, and the worker ends when its control pipe does, however the server ended.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

__all__ = ["Busy", "Engine"]

#: How long past its time limit a job may run before its worker is ended.
LIMIT_GRACE = 5.0
#: How long a cancelled job has to stop at the end of its stage before its worker is ended.
CANCEL_GRACE = 3.0
#: How long a new worker may take to load (numpy, pandas, scipy) and take up its first job.
LOAD_LIMIT = 120.0


class Busy(Exception):
    """A job was asked for while another runs (the board runs one at a time)."""


@dataclass
class _Job:
    id: int
    kind: str
    request: dict[str, Any]
    started: float = field(default_factory=time.monotonic)
    running: bool = False    # the worker has taken the job up (it may still be loading before that)
    state: str = "running"   # running, finished, cancelled, time limit, failed
    body: dict[str, Any] = field(default_factory=dict)
    done: float = 0.0
    message: str | None = None
    cancel_asked: float | None = None
    seconds: float | None = None

    def status(self) -> dict[str, Any]:
        elapsed = (time.monotonic() - self.started) if self.seconds is None else self.seconds
        return {"id": self.id, "kind": self.kind, "request": self.request, "state": self.state, "done": self.done,
                "elapsed": round(elapsed, 2), "message": self.message, **self.body}


class Engine:
    """Runs the board's jobs in a worker process, one at a time, each within `limit` seconds and
    the worker within `memory_mib` MiB of address space."""

    def __init__(self, limit: float, memory_mib: int, workers: int) -> None:
        self.limit, self.memory_mib, self.workers = limit, memory_mib, workers
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._jobs: Connection | None = None
        self._results: Connection | None = None
        self._control: Connection | None = None
        self._job: _Job | None = None
        self._follower: threading.Thread | None = None
        self._count = 0

    def start_worker(self) -> None:
        """Start the worker now if none runs (it takes a moment to load the statistics)."""
        with self._lock:
            self._ensure_worker()

    @property
    def worker_pid(self) -> int | None:
        """The worker process's id (None while none runs)."""
        return None if self._process is None else self._process.pid

    def _ensure_worker(self) -> Connection:
        """The running worker's results pipe (a new worker's if none runs)."""
        if self._process is not None and self._process.poll() is None and self._results is not None:
            return self._results
        self._kill()
        jobs_in, jobs_out = os.pipe()   # not inheritable: only pass_fds reach the worker
        results_in, results_out = os.pipe()
        control_in, control_out = os.pipe()
        ends = (jobs_in, results_out, control_in)
        package_root = str(Path(__file__).resolve().parents[2])   # the worker imports this very package
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "azul_fast.web.work", *map(str, ends), str(self.memory_mib << 20)],
                pass_fds=ends, stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        finally:
            for end in ends:
                os.close(end)
        self._jobs = Connection(jobs_out, readable=False)
        self._results = results = Connection(results_in, writable=False)
        self._control = Connection(control_out, readable=False)
        return results

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
        for end in (self._jobs, self._results, self._control):
            if end is not None:
                end.close()
        self._jobs = self._results = self._control = None

    def start(self, kind: str, request: dict[str, Any], job: dict[str, Any], replace: bool = False) -> dict[str, Any]:
        """Start a job (`job` is what the worker runs, `request` what the page asked, echoed in the
        status); with `replace` a running job is cancelled first (the latest of two replacing
        requests wins), else it raises Busy."""
        while True:
            with self._lock:
                if self._job is None or self._job.state != "running":
                    results = self._ensure_worker()
                    self._count += 1
                    self._job = _Job(self._count, kind, request)
                    self._send(self._jobs, {**job, "id": self._count, "kind": kind, "limit": self.limit,
                                            "workers": self.workers})
                    self._follower = threading.Thread(target=self._follow, args=(self._job, results), daemon=True)
                    self._follower.start()
                    return self._job.status()
                if not replace:
                    raise Busy("an analysis is running; stop it first (one at a time)")
                self._ask_to_stop(self._job)
                follower = self._follower
            if follower is not None:
                follower.join()   # outside the lock: the follower takes it to end the job

    def _follow(self, job: _Job, results: Connection) -> None:
        """Read the worker's messages (from `results`) into `job` until it ends, or end the worker past its time."""
        while True:
            now = time.monotonic()
            overdue = now > job.started + (self.limit + LIMIT_GRACE if job.running else LOAD_LIMIT)
            ignored = (job.cancel_asked is not None and job.running
                       and now > max(job.cancel_asked, job.started) + CANCEL_GRACE)
            if ignored or overdue:
                why = ("a cancel it did not answer" if not overdue else f"its {self.limit:g} s limit" if job.running
                       else f"a worker that did not load in {LOAD_LIMIT:g} s")
                with self._lock:
                    self._kill()
                    self._end(job, "time limit" if overdue else "cancelled", f"stopped by ending the worker ({why})")
                return
            try:
                if not results.poll(0.1):
                    continue
                kind, body = results.recv()
            except (EOFError, OSError):
                with self._lock:
                    code = None if self._process is None else self._process.poll()
                    self._kill()
                    self._end(job, "failed", f"the worker process stopped (exit code {code})")
                return
            with self._lock:
                if kind == "started":   # the job's time runs from here, not from a worker still loading
                    job.started, job.running = time.monotonic(), True
                    continue
                if kind == "progress":
                    job.done = body.pop("done", job.done)
                    job.body.update(body)
                    continue
                if kind == "done":
                    ended = body.pop("ended")
                    job.body.update(body)
                    self._end(job, ended, None)
                else:
                    self._end(job, "failed", body)
                return

    def _end(self, job: _Job, state: str, message: str | None) -> None:
        job.state, job.message = state, message
        job.seconds = time.monotonic() - job.started
        if state == "finished":
            job.done = 1.0

    def status(self) -> dict[str, Any] | None:
        """The latest job's status (None before the first)."""
        with self._lock:
            return None if self._job is None else self._job.status()

    def cancel(self) -> dict[str, Any] | None:
        """Ask the running job to stop at the end of its stage (its worker is ended if it does not)."""
        with self._lock:
            if self._job is not None and self._job.state == "running":
                self._ask_to_stop(self._job)
            return None if self._job is None else self._job.status()

    def _ask_to_stop(self, job: _Job) -> None:
        if job.cancel_asked is None:
            job.cancel_asked = time.monotonic()
            self._send(self._control, ("stop", job.id))

    @staticmethod
    def _send(pipe: Connection | None, message: Any) -> None:
        """Send to the worker; a worker that died meanwhile is the follower's to report."""
        try:
            if pipe is not None:
                pipe.send(message)
        except OSError:
            pass

    def close(self) -> None:
        """End the worker (the server is stopping)."""
        with self._lock:
            if self._job is not None and self._job.state == "running":
                self._end(self._job, "cancelled", "the board stopped")
            self._kill()
