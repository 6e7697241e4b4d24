"""Runs on a real Dask cluster: a LocalCluster of two worker processes on the loopback."""

from __future__ import annotations

import contextlib
import dataclasses
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")
dd = pytest.importorskip("dask.dataframe")
ds = pytest.importorskip("pyarrow.dataset")

from clusters import ENV, scheduler_and_worker  # noqa: E402

from azul_fast import cli, load, simulate, simulate_moves  # noqa: E402
from azul_fast.runs.cluster import NoWorkersError, SchedulerUnreachableError, run_on_cluster  # noqa: E402
from azul_fast.runs.files import file_digest  # noqa: E402
from azul_fast.runs.folders import run_to_folder  # noqa: E402
from azul_fast.runs.manifest import MANIFEST, RUN_FORMAT  # noqa: E402
from azul_fast.runs.plan import RunPlan, plan_run  # noqa: E402

# The workers cannot import this test module: FlakyPlan below travels to them by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

POLICIES = ["greedy", "random", "random"]
pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def cluster(monkeypatch):
    """A fresh cluster for every test: no test inherits another's lost or restarted workers.

    The workers must be able to import this module (FlakyPlan's tasks and errors refer to it):
    `python -m pytest` puts the checkout on sys.path, the `pytest` script does not; spawned
    workers start from this process's sys.path, so put the checkout there.
    """
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster


@pytest.fixture
def client(cluster):
    with distributed.Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        yield client


@pytest.fixture(scope="module")
def local_run():
    return simulate(6_000, players=3, policies=POLICIES, seed=11, workers=2, progress=False)


def assert_same_rows(local: pd.DataFrame, other: pd.DataFrame) -> None:
    """Equal rows; parts read back together order the opening categories by first appearance."""
    pd.testing.assert_frame_equal(local, other, check_categorical=False)
    assert (local.opening.astype(str) == other.opening.astype(str)).all()


@dataclasses.dataclass(frozen=True)
class FlakyPlan(RunPlan):
    """A plan whose shard at `fail_at` fails the first time it runs (a file marks that it did).

    `how` is "raise" (the task raises: Dask's retries) or "exit" (the worker process dies mid-task:
    Dask reschedules the lost work). Every run of a shard is logged, one start per line.
    """

    folder: str = ""
    fail_at: int = 0
    how: str = "raise"

    def run(self, start: int, stop: int):
        with open(os.path.join(self.folder, "runs.log"), "a") as log:
            log.write(f"{start}\n")
        if start == self.fail_at:
            try:
                os.close(os.open(os.path.join(self.folder, "failed"), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass  # failed once already
            else:
                if self.how == "exit":
                    os._exit(1)
                raise RuntimeError("a shard that fails once")
        return super().run(start, stop)


def flaky(plan: RunPlan, folder, how: str) -> FlakyPlan:
    fields = {f.name: getattr(plan, f.name) for f in dataclasses.fields(RunPlan)}
    return FlakyPlan(**fields, folder=str(folder), fail_at=2_000, how=how)


def test_same_frame_as_a_local_run_whatever_the_shards(client, local_run):
    for shard_size in (1_000, 6_000):
        df = run_on_cluster(plan_run(6_000, 3, POLICIES, 11), client=client, shard_size=shard_size, progress=False)
        pd.testing.assert_frame_equal(df, local_run)
        assert df.attrs == local_run.attrs


def test_simulate_with_a_scheduler_address(cluster):
    kwargs = dict(players=2, policies="greedy", seed=5, seat_rotation=True, progress=False)
    remote = simulate(1_000, scheduler=cluster.scheduler_address, **kwargs)
    pd.testing.assert_frame_equal(remote, simulate(1_000, workers=1, **kwargs))


def test_dataset_holds_every_game_once(client, local_run, tmp_path):
    plan = plan_run(6_000, 3, POLICIES, 11)
    folder = run_on_cluster(plan, client=client, shard_size=1_500, dataset=tmp_path / "run", progress=False)
    parts = [f"part-{a:012d}.parquet" for a in (0, 1_500, 3_000, 4_500)]
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST, *parts]
    back = pd.read_parquet(folder)
    np.testing.assert_array_equal(np.sort(back.game.to_numpy()), np.arange(6_000))
    assert_same_rows(local_run, back)
    assert load(folder / parts[2]).attrs == plan.attrs
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["format"] == RUN_FORMAT and manifest["parts"] == parts and manifest["chunk_size"] == 1_500
    assert manifest["digests"] == {name: {"games": file_digest(folder / name)} for name in parts}  # the receipts
    assert_same_rows(local_run, load(folder))  # a run folder, as azul_fast.runs.folders writes them
    with pytest.raises(FileExistsError, match="already holds a run"):
        run_on_cluster(plan, client=client, dataset=folder)
    (folder / parts[1]).unlink()  # the cluster went away: finish the run here, in its own part size
    run_to_folder(folder, 6_000, 3, POLICIES, workers=1, resume=True)
    assert_same_rows(local_run, load(folder))


def test_move_records_on_a_cluster_are_the_local_ones(cluster, client):
    kwargs = dict(players=3, policies=POLICIES, seed=11, progress=False)
    local = simulate_moves(1_500, workers=1, **kwargs)
    sharded = run_on_cluster(plan_run(1_500, 3, POLICIES, 11), client=client, shard_size=400, moves=True,
                             progress=False)
    by_address = simulate_moves(1_500, scheduler=cluster.scheduler_address, **kwargs)
    for records in (sharded, by_address):
        for ours, theirs in zip(local, records):
            pd.testing.assert_frame_equal(ours, theirs)
            assert ours.attrs == theirs.attrs


def test_a_move_run_on_a_cluster_is_a_move_run_folder(cluster, tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["simulate", "--games", "1000", "--players", "3", "--policy", "greedy", "--seed", "4", "--moves",
            "--out", str(out)]
    assert cli.main([*argv, "--scheduler", cluster.scheduler_address]) == 0, capsys.readouterr().err
    local = simulate_moves(1_000, players=3, policies="greedy", seed=4, workers=1)
    for table in ("games", "moves", "rounds"):
        pd.testing.assert_frame_equal(load(out, table=table), getattr(local, table))
    readers = {"pandas": pd.read_parquet(out), "dask": dd.read_parquet(out).compute(scheduler="sync"),
               "pyarrow.dataset": ds.dataset(out).to_table().to_pandas()}
    for reader, df in readers.items():  # the games alone, as the workers wrote them
        assert sorted(df.game) == list(range(1_000)) and list(df.columns) == list(local.games.columns), reader
    (out / "_moves" / "part-000000000000.parquet.moves").unlink()  # the cluster went away: finish here
    assert cli.main([*argv, "--resume"]) == 0
    pd.testing.assert_frame_equal(load(out, table="moves"), local.moves)


@pytest.mark.parametrize("how, to_disk", [("raise", False), ("exit", True)])
def test_a_retried_shard_is_counted_once(client, local_run, tmp_path, how, to_disk):
    plan = flaky(plan_run(6_000, 3, POLICIES, 11), tmp_path, how)
    dataset = tmp_path / "run" if to_disk else None
    out = run_on_cluster(plan, client=client, shard_size=1_000, dataset=dataset, progress=False)
    runs = (tmp_path / "runs.log").read_text().split()
    assert runs.count("2000") >= 2, "the failing shard should have run again"
    assert set(runs) == {str(a) for a in range(0, 6_000, 1_000)}
    df = pd.read_parquet(out) if to_disk else out
    assert df.game.is_unique and len(df) == 6_000
    assert_same_rows(local_run, df)


@pytest.mark.parametrize("address, error", [
    ("tcp://127.0.0.1:1", SchedulerUnreachableError),  # nothing listens on port 1
    ("not an address", ValueError),
])
def test_a_bad_scheduler_fails_fast_and_clearly(address, error):
    start = time.monotonic()
    with pytest.raises(error, match="scheduler"):
        simulate(100, seed=1, scheduler=address, progress=False)
    assert time.monotonic() - start < 10


def test_python_policies_stay_local_and_the_refusal_names_the_callable_not_a_built_in_seat():
    def first_move(state):
        return state.legal_moves[0]

    plan = plan_run(10, 2, ["random", first_move], 1)
    with pytest.raises(ValueError, match="only built-in policies") as refused:
        run_on_cluster(plan, scheduler="tcp://127.0.0.1:1")
    assert f"not the Python callable {plan.names[1]!r}" in str(refused.value) and "'random'" not in str(refused.value)


def test_without_dask_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    with pytest.raises(ImportError, match=r'pip install "azul_fast\[dask\]"'):
        simulate(10, seed=1, scheduler="tcp://127.0.0.1:8786")


def test_a_cluster_without_workers_gives_up_clearly(monkeypatch):
    """Dask would wait for ever on a scheduler whose workers are gone; the run says so instead."""
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        with distributed.Client(cluster, set_as_default=False) as client:
            start = time.monotonic()
            with pytest.raises(NoWorkersError, match=r"no workers for 2 s with 3 of 3 shards left"):
                run_on_cluster(plan_run(3_000, 2, "random", 1), client=client, shard_size=1_000,
                               no_workers_timeout=2, progress=False)
            assert time.monotonic() - start < 30
            deadline = time.monotonic() + 10  # its tasks are cancelled, not left queued on the scheduler
            while cluster.scheduler.tasks and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not cluster.scheduler.tasks


@pytest.mark.parametrize(("bad", "error"), [(0, ValueError), (-1, ValueError), (float("nan"), ValueError),
                                            ("60", TypeError), (True, TypeError)])
def test_no_workers_timeout_is_checked(bad, error):
    with pytest.raises(error, match="no_workers_timeout must be"):
        run_on_cluster(plan_run(10, 2, "random", 1), scheduler="tcp://127.0.0.1:1", no_workers_timeout=bad)


@pytest.mark.parametrize(("name", "bad", "error"), [("shard_size", 0, ValueError), ("shard_size", 2.0, TypeError),
                                                     ("retries", -1, ValueError), ("retries", True, TypeError)])
def test_shard_size_and_retries_are_checked(name, bad, error):
    with pytest.raises(error, match=name):
        run_on_cluster(plan_run(10, 2, "random", 1), scheduler="tcp://127.0.0.1:1", **{name: bad})


# -- attacks: a wrong --scheduler fails within 5 s, one line, exit code 2 (only 127.0.0.1) -----


@contextlib.contextmanager
def impostor(kind: str):
    """The address of a local service that is not a Dask scheduler (or of a closed port)."""
    if kind == "http":
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"tcp://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            server.server_close()
        return
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        if kind == "refused":
            listener.close()
            yield f"tcp://127.0.0.1:{port}"
            return
        listener.listen()
        accepted: list[socket.socket] = []
        if kind == "banner":  # as an SSH or mail server greets: Dask would read it as a frame length
            def greet():
                connection, _ = listener.accept()
                accepted.append(connection)
                connection.sendall(b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n")
            threading.Thread(target=greet, daemon=True).start()
        try:
            yield f"tcp://127.0.0.1:{port}"  # "silent": the kernel accepts, nobody ever speaks
        finally:
            for connection in accepted:
                connection.close()


IMPOSTORS = ["silent", "banner", "http", "refused"]


def address_of(kind: str):
    return contextlib.nullcontext("nonsense") if kind == "nonsense" else impostor(kind)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", [*IMPOSTORS, "nonsense"])
def test_a_wrong_scheduler_fails_within_5_s_with_one_line(tmp_path, capsys, kind):
    cli.build_parser()  # the imports of a first command (the report's charts) are not what is timed here
    for out in (tmp_path / "games.parquet", tmp_path / "run"):
        with address_of(kind) as address:
            start = time.monotonic()
            code = cli.main(["simulate", "--games", "10", "--seed", "1", "--out", str(out), "--scheduler", address])
            elapsed = time.monotonic() - start
        _, err = capsys.readouterr()
        assert code == 2 and elapsed < 5, (elapsed, err)
        assert len(err.strip().splitlines()) == 1 and "scheduler" in err, err
        assert not out.exists()


@pytest.mark.timeout(60)
def test_a_wrong_scheduler_leaves_no_traceback_at_exit(tmp_path):
    """The command used to print an ignored exception after the error and stall for 10 s."""
    result = subprocess.run([sys.executable, "-m", "azul_fast", "simulate", "--games", "10", "--out",
                             str(tmp_path / "g.parquet"), "--scheduler", "nonsense"],
                            capture_output=True, text=True, timeout=50)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", IMPOSTORS)
def test_a_wrong_scheduler_raises_scheduler_unreachable(kind):
    with impostor(kind) as address:
        with pytest.raises(SchedulerUnreachableError, match=re.escape(address)):
            run_on_cluster(plan_run(10, 2, "random", 1), scheduler=address, connect_timeout=1)


@pytest.mark.parametrize("address, message", [
    ("http://127.0.0.1:8787", "is not a Dask address such as 'tcp://host:8786' (unknown address scheme 'http'"),
    ("inproc://nothing", "is not a Dask address such as 'tcp://host:8786'"),
    ("tls://127.0.0.1:1", "a tls:// scheduler needs security settings"),
])
def test_a_non_tcp_scheduler_is_one_line_without_the_clients_traceback(tmp_path, address, message):
    """The right line used to be followed by Client.__del__'s traceback (a TimeoutError, 4 s later)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[2] / "src"), *sys.path]))
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "azul_fast", "simulate", "--games", "10", "--scheduler", address,
                             "--out", "x.parquet"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr
    assert time.monotonic() - start < 20 and list(tmp_path.iterdir()) == []


def test_a_scheduler_lost_mid_run_is_one_line_and_resume_finishes_the_run(tmp_path):
    """It used to end in some 60 lines of traceback (FutureCancelledError), although the parts were whole."""
    folder = tmp_path / "run"
    run = ("simulate", "--games", "1000", "--policy", "mcts:100", "--seed", "3", "--out", str(folder))
    with scheduler_and_worker() as cluster:
        child = subprocess.Popen([sys.executable, "-m", "azul_fast", *run, "--scheduler", cluster.address], env=ENV,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while len(list(folder.glob("part-*.parquet"))) < 2 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        cluster.scheduler.kill()
        _, err = child.communicate(timeout=60)
        # The worker lives on, orphaned, and finishes the task it had: the client has let the folder go, so
        # it writes nothing more.
        parts = sorted(folder.glob("part-*.parquet"))
        time.sleep(5)
        assert sorted(folder.glob("part-*.parquet")) == parts and not list(folder.glob(".*.tmp"))
    assert child.returncode == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("azul-fast: error: the Dask scheduler was lost mid-run") and "--resume" in err
    assert cli.main([*run, "--resume"]) == 0  # here, without the cluster
    pd.testing.assert_frame_equal(load(folder), simulate(1000, policies="mcts:100", seed=3))


def test_a_worker_writes_no_part_for_a_folder_whose_lock_its_run_does_not_hold(tmp_path):
    """A task that outlived its run (its scheduler died, its client let the folder go) finds the lock
    released, or another run's: it writes nothing, not even a temporary file."""
    from azul_fast.runs.cluster import _write_shard
    from azul_fast.runs.lock import LockLostError, run_lock

    plan = plan_run(100, 2, "random", seed=1)
    folder = tmp_path / "run"
    folder.mkdir()
    with run_lock(folder) as token:
        pass  # the run's client held the lock, then let it go
    with pytest.raises(LockLostError, match="no longer locked by the run"):
        _write_shard(plan, 0, 100, str(folder), False, token)
    with run_lock(folder):  # another run (a local --resume) holds it now
        with pytest.raises(LockLostError):
            _write_shard(plan, 0, 100, str(folder), False, token)
    assert list(folder.iterdir()) == []


def test_a_scheduler_lost_that_the_client_sees_first_is_reported_as_lost(client, monkeypatch):
    """On a loaded machine the client's own connection can report the loss (CommClosedError, an
    OSError) before Dask cancels the futures: the run still says the scheduler was lost, in one line."""
    from distributed.comm.core import CommClosedError

    from azul_fast.runs import cluster as cluster_module

    def closed(client, futures, no_workers_timeout):
        raise CommClosedError("in <TCP (closed) local=tcp://127.0.0.1:1 remote=tcp://127.0.0.1:2>: "
                              "ConnectionResetError: [Errno 104] Connection reset by peer")
        yield  # a generator, as the real one is

    monkeypatch.setattr(cluster_module, "_as_completed", closed)
    with pytest.raises(cluster_module.SchedulerLostError, match=r"^the Dask scheduler was lost mid-run \(in <TCP"):
        run_on_cluster(plan_run(2_000, 2, "random", 1), client=client, shard_size=1_000, progress=False)
