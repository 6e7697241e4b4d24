"""A real Dask cluster in processes of its own, for the tests that kill its scheduler mid-run."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: The environment of a subprocess that imports this checkout's azul_fast (and the test's packages).
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[1] / "src"), *sys.path]))


@dataclass
class Cluster:
    address: str
    scheduler: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes]


@contextmanager
def scheduler_and_worker() -> Iterator[Cluster]:
    """A scheduler on a free loopback port and one single-threaded worker, both killed on the way out
    (the test may kill the scheduler itself first)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"], env=ENV, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                               "--no-dashboard"], env=ENV, stderr=subprocess.DEVNULL)
    try:
        yield Cluster(address, scheduler, worker)
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait()
