"""The board as a server meets a hostile or careless client: work that runs past its bounds, a body
too large, JSON nested too deep, a name it was not given (DNS rebinding), a `kill -9`. Each with
`azul-fast board` started as a command."""

import json
import os
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

pytest.importorskip("uvicorn", reason="the board extra is not installed (pip install -e \".[board]\")")


def post(url, name, body, timeout=20, headers=None):
    """The status and JSON answer of POST /api/NAME (raises on no answer within `timeout`)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}api/{name}", data=data, method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get(url, path="api/job", host=None):
    request = urllib.request.Request(f"{url}{path}", headers={} if host is None else {"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def job_ended(url, job_id, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{url}api/job", timeout=20) as answer:
            job = json.loads(answer.read())["job"]
        if job["id"] == job_id and job["state"] != "running":
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still runs after {seconds} s")


def children(pid):
    """The processes whose parent is `pid`: {pid: command line}."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
                command = open(f"/proc/{entry}/cmdline", "rb").read().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found[int(entry)] = command
    return found


def alive(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(scope="module")
def bounded(start_board):
    """A board bounded as a shared machine would bound it."""
    with start_board("--time-limit", "8", "--memory", "2048") as (process, url):
        yield process, url


def test_a_simulated_game_runs_in_the_bounded_engine_and_ctrl_c_stops_the_board(start_board):
    with start_board("--time-limit", "8", "--memory", "2048") as (process, url):
        request = {"players": 4, "policy": "mcts:1000000", "seed": 1}
        answers = []
        asking = [threading.Thread(target=lambda: answers.append(post(url, "simulate", request))) for _ in range(4)]
        for thread in asking:
            thread.start()
        for thread in asking:
            thread.join(timeout=30)
        # each answered at once: one game started in the engine, the others refused while it runs
        assert sorted(status for status, _ in answers) == [200, 409, 409, 409], answers
        started = next(body for status, body in answers if status == 200)
        assert started["kind"] == "simulate" and started["request"]["policy"] == "mcts:1000000"
        # the engine's time limit holds it: stopped (by ending the worker if a move runs on)
        ended = job_ended(url, started["id"], 60)
        assert ended["state"] == "time limit" and ended.get("line") is None
        # a game that fits in the limit comes back as its line, then Ctrl+C while another runs
        quick = post(url, "simulate", {"players": 2, "policy": "greedy", "seed": 3})[1]
        line = job_ended(url, quick["id"], 60)["line"]
        from azul_fast.core.played_game import simulated_positions
        assert [p["move"] for p in line["plies"]] == [str(m) for _, m in simulated_positions(2, "greedy", 3)]
        assert post(url, "simulate", request)[0] == 200
        worker = set(children(process.pid))
        process.send_signal(signal.SIGINT)
        # stopped by Ctrl+C as every command (about a second; the bound leaves room for a loaded machine)
        assert process.wait(timeout=10) == 128 + signal.SIGINT
        assert not any(alive(pid) for pid in worker)
        assert "Traceback" not in process.stderr.read()


def test_a_body_over_the_limit_is_refused_as_it_arrives(bounded):
    _process, url = bounded
    address = urlsplit(url)
    head = (f"POST /api/new HTTP/1.1\r\nHost: {address.netloc}\r\nContent-Type: application/json\r\n"
            "Connection: close\r\n")
    for framing in ("Content-Length: 300000000\r\n", "Transfer-Encoding: chunked\r\n"):
        with socket.create_connection((address.hostname, address.port), timeout=20) as sock:
            sock.sendall((head + framing + "\r\n").encode())
            chunk = b" " * 65536
            sent = 0
            try:   # far more than the limit, never the whole body: the answer must not wait for its end
                while sent < 64 << 20:
                    sock.sendall(chunk if "Length" in framing else b"10000\r\n" + chunk + b"\r\n")
                    sent += len(chunk)
            except OSError:   # the server answered and closed the connection: it read no more
                pass
            answer = sock.recv(4096).decode(errors="replace")
        assert answer.startswith("HTTP/1.1 413"), (framing, answer[:200])
        assert "the request is over 1 MiB" in answer


def test_json_nested_too_deep_is_a_one_line_400(bounded):
    process, url = bounded
    for name in ("new", "position", "play", "game", "simulate", "export", "analyse", "review"):
        status, body = post(url, name, b"[" * 200_000)
        assert status == 400 and body["error"] == "the request is nested too deeply to be a board's request"
        status, body = post(url, name, json.dumps({"document": [[[[]]]], "content": "[" * 100_000,
                                                   "text": "[" * 100_000}).encode())
        assert status == 200 or (status in (400, 409) and "\n" not in body["error"]), (name, body)
    assert get(url) == 200


def test_kill_9_of_the_board_ends_its_worker_and_leaves_no_other_process(start_board):
    with start_board("--time-limit", "8") as (process, url):
        assert post(url, "analyse", {"text": json.loads(urllib.request.urlopen(url + "api/job").read())["job"]
                                     ["request"]["text"], "seconds": 8, "replace": True})[0] == 200
        spawned = children(process.pid)
        assert len(spawned) == 1 and "azul_fast.web.work" in next(iter(spawned.values())), spawned
        process.kill()
        process.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in spawned):
            time.sleep(0.1)
        assert not any(alive(pid) for pid in spawned), spawned


def test_on_any_host_the_board_answers_only_to_its_own_names(start_board):
    with start_board("--host", "0.0.0.0", "--time-limit", "8") as (process, url):
        port = urlsplit(url).port
        near = f"http://127.0.0.1:{port}/"
        assert get(near) == 200 and get(near, host=f"localhost:{port}") == 200
        assert get(near, host=f"{socket.gethostname()}:{port}") == 200
        assert get(near, host=f"rebound.example:{port}") == 400 and get(near, "", host="rebound.example") == 400
