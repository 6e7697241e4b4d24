"""Studies on a real Dask cluster give the local answers: a LocalCluster of two worker processes on
the loopback, its dashboard off."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from clusters import ENV, scheduler_and_worker  # noqa: E402

from azul_fast import State, cli  # noqa: E402
from azul_fast.runs.cluster import SchedulerLostError  # noqa: E402
from azul_fast.runs.rollouts import continuation_seeds, rollouts  # noqa: E402
from azul_fast.runs.where import Where, run_where  # noqa: E402
from azul_fast.studies.analyse import analyse, review_game  # noqa: E402
from azul_fast.studies.in_game import marker_rollouts  # noqa: E402
from azul_fast.studies.opening_types import opening_types  # noqa: E402
from azul_fast.studies.openings import opening_rollouts  # noqa: E402

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        yield client


def without_seconds(table: pd.DataFrame) -> pd.DataFrame:
    """The table and its attrs but the wall time, which is all that may differ."""
    table = table.copy()
    table.attrs = {key: value for key, value in table.attrs.items() if key != "seconds"}
    return table


def test_strength_on_a_cluster_writes_the_same_csv(cluster, tmp_path):
    """The bar: `azul-fast strength` with two cheap levels, on the cluster and here, the same file."""
    command = ["strength", "--policy", "random", "--policy", "greedy", "--players", "2", "3", "--seconds", "0.02",
               "--ladder-games", "20", "--seed", "5", "--quiet", "--csv"]
    assert cli.main([*command, "--out", str(tmp_path / "local"), "--workers", "2"]) == 0
    assert cli.main([*command, "--out", str(tmp_path / "dask"), "--scheduler", cluster.scheduler_address]) == 0
    local = (tmp_path / "local" / "first_player_by_strength.csv").read_bytes()
    assert (tmp_path / "dask" / "first_player_by_strength.csv").read_bytes() == local
    table = pd.read_csv(tmp_path / "local" / "first_player_by_strength.csv")
    assert list(table.policy) == ["random", "greedy"] * 2 and (table.games >= 100).all()


def test_the_ladder_on_a_cluster_is_the_same(cluster, capsys):
    command = ["ladder", "--policy", "random", "--policy", "greedy", "--policy", "heuristic", "--games", "30",
               "--seed", "2", "--csv"]
    assert cli.main([*command, "--workers", "2"]) == 0
    local = capsys.readouterr().out
    assert cli.main([*command, "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == local and "heuristic" in local


def test_rollouts_on_a_cluster_are_the_local_arrays(client):
    state = State.new(players=3, seed=4)
    state.play(state.legal_moves[5])
    seeds = continuation_seeds(9, 40)
    here = rollouts(state, [*state.legal_moves, None], "greedy", seeds, workers=2)
    there = rollouts(state, [*state.legal_moves, None], "greedy", seeds, client=client)
    assert there.moves == here.moves and there.seat == here.seat
    assert (there.scores == here.scores).all() and (there.winners == here.winners).all()
    assert here.scores.any()


def test_rollout_studies_on_a_cluster_are_the_local_tables(client):
    ranking = opening_rollouts(7, players=2, rollouts=6, workers=2, policy="greedy")
    clustered = opening_rollouts(7, players=2, rollouts=6, client=client, policy="greedy")
    pd.testing.assert_frame_equal(without_seconds(clustered),
                                  without_seconds(ranking))
    state = State.new(players=2, seed=11)
    table = analyse(state, rollouts=600, seed=3, workers=2, policy="greedy")
    pd.testing.assert_frame_equal(without_seconds(analyse(state, rollouts=600, seed=3, client=client, policy="greedy")),
                                  without_seconds(table))
    types, moves = opening_types(deals=3, rollouts=2, seed=1, workers=2)
    cluster_types, cluster_moves = opening_types(deals=3, rollouts=2, seed=1, client=client)
    pd.testing.assert_frame_equal(without_seconds(cluster_types), without_seconds(types))
    pd.testing.assert_frame_equal(cluster_moves, moves)


def test_review_and_marker_rollouts_on_a_cluster_are_the_local_tables(client):
    review = review_game(seed=3, rollouts=100, paired=10, max_nodes=0, workers=2, policy="greedy")
    clustered = review_game(seed=3, rollouts=100, paired=10, max_nodes=0, client=client, policy="greedy")
    pd.testing.assert_frame_equal(clustered, review)
    markers = marker_rollouts(3, 2, "greedy", rollouts=4, seed=5)
    assert len(markers)
    pd.testing.assert_frame_equal(marker_rollouts(3, 2, "greedy", rollouts=4, seed=5, client=client), markers)


def test_a_lost_workers_rollouts_are_played_again(cluster, client):
    """A worker killed while it plays its tasks: Dask reschedules them, and the table is the local one."""
    expected = opening_rollouts(9, players=2, policy="heuristic", rollouts=300, workers=2)
    pids = client.run(os.getpid)
    result: dict[str, pd.DataFrame] = {}
    study = threading.Thread(target=lambda: result.update(
        table=opening_rollouts(9, players=2, policy="heuristic", rollouts=300, client=client)))
    study.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and study.is_alive() and time.monotonic() < deadline:
        for address, worker in list(cluster.scheduler.workers.items()):
            if worker.processing and address in pids:
                os.kill(pids[address], signal.SIGKILL)
                killed = address
                break
        time.sleep(0.005)
    study.join(240)
    assert killed is not None, "no worker was seen playing the study's tasks"
    assert killed not in cluster.scheduler.workers  # it was lost, not only asked
    pd.testing.assert_frame_equal(without_seconds(result["table"]), without_seconds(expected))


def test_run_where_checks_its_arguments_once(client):
    with run_where(workers=3) as where:
        assert where == Where(3) and not where.on_cluster
    with run_where(client=client) as where:
        assert where.client is client and where.on_cluster
    with pytest.raises(ValueError, match="not both"):
        with run_where(scheduler="tcp://127.0.0.1:1", client=client):
            pass
    with pytest.raises(TypeError, match="client must be a distributed.Client"):
        with run_where(client="tcp://127.0.0.1:1"):
            pass
    with pytest.raises(ConnectionError, match="no Dask scheduler answered"):
        opening_rollouts(7, rollouts=2, scheduler="tcp://127.0.0.1:1", policy="greedy")


def test_a_scheduler_lost_mid_study_is_one_line_naming_the_study(client, monkeypatch):
    """The run that notices the loss speaks of a run; the study's boundary says what was kept."""
    from azul_fast.runs import cluster as cluster_module

    def lost(client, futures, no_workers_timeout):
        raise SchedulerLostError("the Dask scheduler was lost mid-run (gone); no rows were returned", why="gone")
        yield  # a generator, as the real one is

    monkeypatch.setattr(cluster_module, "_as_completed", lost)
    with pytest.raises(SchedulerLostError, match=r"^the Dask scheduler was lost mid-study \(gone\); nothing of it"):
        opening_rollouts(7, rollouts=2, client=client, policy="greedy")


@pytest.mark.skipif(sys.platform == "win32", reason="kills processes by signal")
def test_strength_with_a_scheduler_lost_ends_in_one_line(tmp_path):
    """A scheduler that dies mid-study: exit code 2 and one error line, not a traceback."""
    with scheduler_and_worker() as cluster:
        child = subprocess.Popen([sys.executable, "-m", "azul_fast", "strength", "--policy", "greedy", "--policy",
                                  "mcts:200", "--players", "2", "--seconds", "30", "--ladder-games", "20",
                                  "--scheduler", cluster.address, "--out", str(tmp_path / "out")],
                                 env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1)
        deadline = time.monotonic() + 120  # the ladder's games are out once the worker has work
        while time.monotonic() < deadline and child.poll() is None and not _busy(cluster.address):
            time.sleep(0.2)
        cluster.scheduler.kill()
        out, err = child.communicate(timeout=90)
    errors = [line for line in err.splitlines() if line.startswith("azul-fast: error")]
    assert child.returncode == 2 and out == "", err
    assert len(errors) == 1 and "the Dask scheduler was lost mid-study" in errors[0], err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def _busy(address: str) -> bool:
    """Whether the scheduler at `address` has tasks in its workers' hands."""
    try:
        with distributed.Client(address, timeout=5, set_as_default=False) as probe:
            return any(probe.processing().values())
    except OSError:
        return False
