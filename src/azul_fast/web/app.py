"""The board's web application (Starlette): the page, and a JSON endpoint for each thing it does.

Every endpoint takes a JSON object and answers one; a bad input (a malformed position text or game
file, an illegal move, an argument out of range) answers 400 with ``{"error": message}``, the
message the command line prints for the same input, and the server goes on serving. The page
keeps the positions (their texts); the server keeps only the engine's job, and reads and writes
no file: a game file comes as the text the page read, and every export is made in the browser.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from azul_fast.core.bots.policies import available_policies, parse_policy
from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.moves import PLAYER_COUNTS, VARIANTS
from azul_fast.core.rules.seeds import check_seed
from azul_fast.core.state import State
from azul_fast.studies.settings import ANALYSIS_POLICY
from azul_fast.web import positions
from azul_fast.web.engine import Busy, Engine
from azul_fast.web.work import one_line

if TYPE_CHECKING:   # the board extra's; imported when the app is made, so that the rest loads without it
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["DEFAULT_DEAL", "create_app"]

STATIC = Path(__file__).parent / "static"
#: The largest request body read (a game file is a few kB).
MAX_BODY = 1 << 20
#: The deal the board opens on, and analyses when it starts.
DEFAULT_DEAL: dict[str, Any] = {"players": 2, "seed": 1, "variant": "colored"}
#: The page's default analysis: seconds of rollouts by this policy.
DEFAULT_ANALYSIS: dict[str, Any] = {"policy": ANALYSIS_POLICY, "seconds": 3.0, "seed": 0}
#: The page's default review: analyse's budget a move and the paired continuations (as `review`'s).
DEFAULT_REVIEW: dict[str, Any] = {"rollouts": 400, "paired": 100}
#: The largest rollout budget a page may ask for.
MAX_ROLLOUTS = 10_000_000
#: The most moves a line sent for export may hold (a game has about a hundred).
MAX_MOVES = 10_000

Handler = Callable[[dict[str, Any]], Any]


class _BadInput(ValueError):
    """A request the board refuses, with the reason shown on the page."""


def _field(body: dict[str, Any], name: str, default: Any = None) -> Any:
    value = body.get(name, default)
    if value is None and default is None:
        raise _BadInput(f"the request needs '{name}'")
    return value


def _players(body: dict[str, Any]) -> int:
    players = _field(body, "players", DEFAULT_DEAL["players"])
    if players not in PLAYER_COUNTS or isinstance(players, bool):
        raise _BadInput(f"players must be one of {', '.join(map(str, PLAYER_COUNTS))}, got {players!r}")
    return int(players)


def _variant(body: dict[str, Any]) -> str:
    variant = _field(body, "variant", DEFAULT_DEAL["variant"])
    if variant not in VARIANTS:
        raise _BadInput(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    return str(variant)


def _policy(body: dict[str, Any]) -> str:
    policy = str(_field(body, "policy", DEFAULT_ANALYSIS["policy"])).strip().lower()
    parse_policy(policy)   # the command line's message for an unknown name
    return policy


def _text(body: dict[str, Any]) -> str:
    text = _field(body, "text")
    if not isinstance(text, str):
        raise _BadInput(f"text must be a position's text line, got {type(text).__name__}")
    return " ".join(text.split())


def _moves(body: dict[str, Any]) -> list[str]:
    moves = _field(body, "moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(isinstance(m, str) for m in moves):
        raise _BadInput(f"moves must be a list of up to {MAX_MOVES:,} moves in the move notation")
    return moves


def _number(body: dict[str, Any], name: str, low: float, high: float) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise _BadInput(f"{name} must be a number in {low:g}..{high:g}, got {value!r}")
    return float(value)


async def _read_body(request: Request) -> bytes | None:
    """The request's body, counted as it arrives: None as soon as it passes `MAX_BODY` (a declared
    length over it is refused before a byte is read), so a large body never sits in memory."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(engine: Engine, hosts: list[str] | None = None) -> Starlette:
    """The board's application, its analyses run by `engine`, answering only requests addressed to
    one of `hosts` (the Host header; None: any).

    The host check keeps a web page elsewhere from reaching the board through a name that resolves
    to this machine (DNS rebinding); a request that a browser marks as coming from a page of
    another origin (its Origin header) is refused, so such a page cannot start jobs either.
    """
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    def page(initial: dict[str, Any]) -> str:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        # the page draws its first position from this at once, before any request of its own
        data = json.dumps(initial).replace("<", "\\u003c")
        return html.replace("{{initial}}", data)

    async def index(request: Request) -> Response:
        job = engine.status()
        if job is not None and job["kind"] == "analyse":   # a reload shows the position the engine analyses
            shown = State.from_text(job["request"]["text"])
            best = job["rows"][0]["move"] if job.get("rows") else None
        else:
            shown, best = positions.new_deal(**DEFAULT_DEAL), None
        initial = {"view": positions.view(shown, best), "job": job, "limit": engine.limit,
                   "policies": available_policies(), "deal": DEFAULT_DEAL, "analysis": DEFAULT_ANALYSIS,
                   "review": DEFAULT_REVIEW}
        return HTMLResponse(await run_in_threadpool(page, initial))

    def new(body: dict[str, Any]) -> dict[str, Any]:
        state = positions.new_deal(_players(body), check_seed(_field(body, "seed", 0)), _variant(body))
        return {"view": positions.view(state, columns=_field(body, "columns", 2))}

    def position(body: dict[str, Any]) -> dict[str, Any]:
        highlight = body.get("highlight")
        return {"view": positions.view(State.from_text(_text(body)), None if highlight is None else str(highlight),
                                       _field(body, "columns", 2))}

    def play(body: dict[str, Any]) -> dict[str, Any]:
        state, move = positions.play(_text(body), str(_field(body, "move")))
        return {"view": positions.view(state, columns=_field(body, "columns", 2)), "move": move}

    def game(body: dict[str, Any]) -> dict[str, Any]:
        content = _field(body, "content")
        if not isinstance(content, str):
            raise _BadInput("content must be the text of a game file")
        return positions.game_line(content)

    def simulate(body: dict[str, Any]) -> dict[str, Any]:
        job = {"players": _players(body), "policy": _policy(body), "seed": check_seed(_field(body, "seed", 0)),
               "variant": _variant(body)}
        return engine.start("simulate", {**job, "kind": "simulate"}, job, replace=bool(body.get("replace")))

    def export(body: dict[str, Any]) -> dict[str, Any]:
        moves = _moves(body)
        texts = _field(body, "texts")
        if not isinstance(texts, list) or len(texts) != len(moves) + 1 or not all(isinstance(t, str) for t in texts):
            raise _BadInput("texts must list the position texts of the line, one more than its moves")
        return {"document": positions.line_file(texts, moves)}

    def analyse(body: dict[str, Any]) -> dict[str, Any]:
        text = _text(body)
        State.from_text(text)   # read here, so a malformed text is this request's error (analyse checks the rest)
        seconds = _number(body, "seconds", 0.1, engine.limit)
        rollouts = body.get("rollouts")
        if rollouts is not None:
            rollouts = check_int(rollouts, "rollouts", 1, MAX_ROLLOUTS)
        if (seconds is None) == (rollouts is None):
            raise _BadInput("analyse takes rollouts or seconds, one of them")
        job = {"text": text, "policy": _policy(body), "seconds": seconds, "rollouts": rollouts,
               "seed": check_seed(_field(body, "seed", 0))}
        return engine.start("analyse", {**job, "kind": "analyse"}, job, replace=bool(body.get("replace")))

    def review(body: dict[str, Any]) -> dict[str, Any]:
        document = body.get("document")
        if document is not None:
            positions.game_line(json.dumps(document))   # a bad game file is this request's error
        job = {"document": document, "players": _players(body), "variant": _variant(body), "policy": _policy(body),
               "seed": check_seed(_field(body, "seed", 0)),
               "rollouts": check_int(_field(body, "rollouts", DEFAULT_REVIEW["rollouts"]), "rollouts", 2, 100_000),
               "paired": check_int(_field(body, "paired", DEFAULT_REVIEW["paired"]), "paired", 2, 100_000)}
        request = {"kind": "review", **{name: job[name] for name in ("policy", "rollouts", "paired")}}
        return engine.start("review", request, job, replace=bool(body.get("replace")))

    def job(_body: dict[str, Any]) -> dict[str, Any]:
        return {"job": engine.status()}

    def cancel(_body: dict[str, Any]) -> dict[str, Any]:
        return {"job": engine.cancel()}

    def endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            body: Any = {}
            if request.method == "POST":
                origin = request.headers.get("origin")
                if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
                    return JSONResponse({"error": "the board answers only its own page"}, status_code=403)
                raw = await _read_body(request)
                if raw is None:
                    return JSONResponse({"error": f"the request is over {MAX_BODY >> 20} MiB"}, status_code=413)
                try:
                    body = json.loads(raw or b"{}")
                except RecursionError:
                    return JSONResponse({"error": "the request is nested too deeply to be a board's request"},
                                        status_code=400)
                except ValueError as error:
                    return JSONResponse({"error": f"the request is not JSON: {one_line(error)}"}, status_code=400)
                if not isinstance(body, dict):
                    return JSONResponse({"error": "the request must be a JSON object"}, status_code=400)
            try:
                return JSONResponse(await run_in_threadpool(handler, body))
            except Busy as error:
                return JSONResponse({"error": str(error)}, status_code=409)
            except (ValueError, TypeError) as error:   # the library's own message, as the CLI prints it
                return JSONResponse({"error": one_line(error)}, status_code=400)
            except RecursionError:
                return JSONResponse({"error": "a value of the request is nested too deeply"}, status_code=400)
        return answer

    api = {"new": new, "position": position, "play": play, "game": game, "simulate": simulate, "export": export,
           "analyse": analyse, "review": review, "cancel": cancel}
    routes = [Route("/", index), Route("/api/job", endpoint(job)),
              *(Route(f"/api/{name}", endpoint(handler), methods=["POST"]) for name, handler in api.items()),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [] if hosts is None else [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)]
    return Starlette(routes=routes, middleware=middleware)
