"""The board's engine bounds its jobs: the worker's address space, the time limit (stopping between
stages, and ending the worker when a stage runs on), a worker that dies; one job at a time."""

import os
import signal
import time

import pytest

from azul_fast import State
from azul_fast.web import engine as engine_module
from azul_fast.web.engine import Busy, Engine

TEXT = State.new(players=2, seed=7).to_text()


def ended(engine, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = engine.status()
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the job still runs after {seconds} s")


def analysis(**budget):
    job = {"text": TEXT, "policy": "greedy", "seed": 0, "seconds": None, "rollouts": None, **budget}
    return {"kind": "analyse"}, job


def wait_running(engine):
    while not (engine.status() or {}).get("rows"):
        time.sleep(0.05)


@pytest.fixture(scope="module")
def engine():
    """One engine for these tests (a new worker takes seconds to load), its time limit set by each."""
    engine = Engine(limit=60, memory_mib=3000, workers=1)
    engine.start_worker()
    yield engine
    engine.close()


def test_the_worker_runs_within_the_memory_bound(engine):
    deadline = time.monotonic() + 60   # the worker sets its bound once it has started
    while time.monotonic() < deadline:
        limits = open(f"/proc/{engine.worker_pid}/limits").read()
        line = next(row for row in limits.splitlines() if row.startswith("Max address space"))
        if line.split()[3:5] == [str(3000 << 20)] * 2:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the worker's address space is not bounded: {line}")


def test_a_job_stops_at_the_time_limit_between_stages(engine, monkeypatch):
    monkeypatch.setattr(engine, "limit", 1.0)
    engine.start("analyse", *analysis(rollouts=10_000_000))
    with pytest.raises(Busy):
        engine.start("analyse", *analysis(rollouts=1000))
    status = ended(engine)
    assert status["state"] == "time limit" and status["attrs"]["stopped"] == "interrupted"
    assert 0 < status["attrs"]["rollouts"] < 10_000_000 and status["elapsed"] < 1.0 + engine_module.LIMIT_GRACE


def test_a_job_past_its_time_is_ended_with_its_worker_and_the_next_gets_a_new_one(engine, monkeypatch):
    monkeypatch.setattr(engine_module, "LIMIT_GRACE", 0.0)
    monkeypatch.setattr(engine, "limit", 0.05)   # less than one stage takes
    first = engine.worker_pid
    engine.start("analyse", *analysis(rollouts=10_000_000))
    status = ended(engine)
    assert status["state"] == "time limit" and "ending the worker" in status["message"]
    assert not os.path.exists(f"/proc/{first}")
    monkeypatch.setattr(engine, "limit", 60.0)
    engine.start("analyse", *analysis(rollouts=400))
    assert ended(engine)["state"] == "finished" and engine.worker_pid != first


def test_a_worker_that_dies_fails_its_job_and_is_replaced(engine):
    engine.start("analyse", *analysis(seconds=30.0))
    wait_running(engine)
    os.kill(engine.worker_pid, signal.SIGKILL)
    status = ended(engine)
    assert status["state"] == "failed" and "worker process stopped" in status["message"]
    engine.start("analyse", *analysis(rollouts=400))
    assert ended(engine)["state"] == "finished"


def test_of_two_replacing_requests_the_latest_runs(engine):
    """Two pages (or one page's quick clicks) replacing the running job at once: neither is refused."""
    import threading

    engine.start("analyse", *analysis(seconds=30.0))
    wait_running(engine)
    answers = []
    starts = [threading.Thread(target=lambda n=n: answers.append(
        engine.start("analyse", {"kind": "analyse", "n": n}, analysis(rollouts=400)[1], replace=True)))
        for n in range(2)]
    for thread in starts:
        thread.start()
    for thread in starts:
        thread.join()
    assert len(answers) == 2
    assert ended(engine)["state"] == "finished" and engine.status()["id"] == max(a["id"] for a in answers)


def test_a_simulated_game_is_the_game_play_game_replays(engine):
    from azul_fast.core.played_game import simulated_positions

    engine.start("simulate", {"kind": "simulate"}, {"players": 3, "policy": "greedy", "seed": 5, "variant": "gray"})
    status = ended(engine)
    expected = simulated_positions(3, "greedy", 5, "gray")
    assert status["state"] == "finished" and status["moves"] == len(expected)
    assert [p["text"] for p in status["line"]["plies"]] == [s.to_text(rng=True) for s, _ in expected]
    assert [p["move"] for p in status["line"]["plies"]] == [str(m) for _, m in expected]


def test_a_cancel_asked_of_an_earlier_job_does_not_stop_the_next(engine):
    engine.start("analyse", *analysis(seconds=30.0))
    wait_running(engine)
    engine.cancel()
    assert ended(engine)["state"] == "cancelled"
    engine.start("analyse", *analysis(rollouts=400))
    assert ended(engine)["state"] == "finished"
