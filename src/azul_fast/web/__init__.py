"""The analysis board: `azul-fast board` serves a page to set up a position, play it move by move,
see the engine's ranked moves (`azul_fast.analyse`) and a game's review (`review_game`), and export
the diagram, the position's text and the review's table.

It needs the optional extra ``board`` (a web framework and its server):
``pip install "azul-fast[board]"``. Only `serve` is imported with the package, so a missing extra
is one clear message instead of an ImportError.
"""

from __future__ import annotations

import importlib.util
import sys

__all__ = ["EXTRA", "serve"]

#: What installs the board's dependencies.
EXTRA = 'pip install "azul-fast[board]"'
_NEEDS = ("starlette", "uvicorn")


def serve(host: str = "127.0.0.1", port: int = 0, open_browser: bool = True, limit: float = 120.0,
          memory_mib: int = 4096, workers: int = 1) -> int:
    """Serve the board on `host`:`port` (0: a free port) until interrupted; return the exit code.

    The address is printed once the engine has ranked the opening deal's moves, and opened in the
    browser with `open_browser`. Every analysis or review stops at `limit` seconds, and the worker
    process that runs them is bounded to `memory_mib` MiB of address space; `workers` threads roll
    out. A host other than loopback gets a warning. Without the extra installed: one line on
    stderr naming it, and exit code 2.
    """
    from azul_fast.core.rules.checks import check_int, check_seconds

    limit = check_seconds(limit, "limit")
    memory_mib = check_int(memory_mib, "memory_mib", 512, 1 << 30)
    workers = check_int(workers, "workers", 1, 1024)
    missing = [name for name in _NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        print(f"azul-fast board: needs {' and '.join(missing)}, which the board extra installs: {EXTRA}",
              file=sys.stderr)
        return 2
    from azul_fast.web.server import run

    return run(host, port, open_browser, limit, memory_mib, workers)
