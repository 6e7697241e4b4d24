"""Run the board: bind a port, start the engine, print the address, open the browser, serve."""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import time
import webbrowser

from azul_fast.web import positions
from azul_fast.web.app import DEFAULT_ANALYSIS, DEFAULT_DEAL, create_app
from azul_fast.web.engine import Engine

__all__ = ["run"]

#: How long the server waits for the engine's first ranking of the opening deal before it prints
#: its address (the worker loads the statistics first), so the page opens on a filled panel.
FIRST_RANKING_WAIT = 30.0
#: How long a stopping server waits for the requests it is answering (each answers at once: the
#: engine's work is in its own process), so that Ctrl+C stops the board within about a second.
STOP_WAIT = 1


def allowed_hosts(host: str) -> list[str]:
    """The names a request may address the board by (its Host header), whatever `host` it listens
    on: loopback's names, `host` itself, and this machine's names and addresses. A page elsewhere
    that reaches the board through a name of its own (DNS rebinding) is refused with any `host`."""
    names = {"127.0.0.1", "localhost", "[::1]", host, f"[{host}]" if ":" in host else host}
    if not _is_loopback(host):   # listening beyond loopback: the names others reach this machine by
        for name in {socket.gethostname(), socket.getfqdn()} - {""}:
            names.add(name)
            try:
                names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
            except OSError:   # a name that does not resolve: only the name itself
                pass
    return sorted(f"[{name}]" if ":" in name and not name.startswith("[") else name for name in names)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port` (port 0: a free one); OSError if it is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(64)
    return sock


def _first_ranking(engine: Engine) -> None:
    """Start the analysis of the opening deal and wait (bounded) until it ranks the moves."""
    text = positions.new_deal(**DEFAULT_DEAL).to_text(rng=True)
    job = {"text": text, "rollouts": None, **DEFAULT_ANALYSIS}
    engine.start("analyse", {**job, "kind": "analyse"}, job)
    deadline = time.monotonic() + FIRST_RANKING_WAIT
    while time.monotonic() < deadline:
        status = engine.status()
        if status is None or status.get("rows") or status["state"] != "running":
            return
        time.sleep(0.05)


def run(host: str, port: int, open_browser: bool, limit: float, memory_mib: int, workers: int) -> int:
    """Serve the board until Ctrl+C (or SIGINT, SIGTERM). Returns 0; the command then exits 128 + the
    signal's number, as every command a signal stopped does (`azul_fast.runs.signals` keeps the stop)."""
    import uvicorn  # the board extra's (serve checked that it is installed)

    sock = _bind(host, port)
    if not _is_loopback(host):
        print(f"azul-fast board: warning: listening on {host}, not loopback only: anyone who can reach this "
              "machine by its name or address can use the board and its processor time", file=sys.stderr)
    engine = Engine(limit, memory_mib, workers)
    try:
        engine.start_worker()
        _first_ranking(engine)
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{sock.getsockname()[1]}/"
        print(f"azul-fast board: serving {url} (Ctrl+C stops it)", flush=True)
        config = uvicorn.Config(create_app(engine, allowed_hosts(host)), log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=STOP_WAIT)
        server = uvicorn.Server(config)
        if open_browser:
            threading.Timer(0.5, webbrowser.open, args=(url,)).start()
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:   # uvicorn shuts down on Ctrl+C, then raises it again: the usual way to stop
            print("azul-fast board: stopped", flush=True)
    finally:
        engine.close()
        sock.close()
    return 0
