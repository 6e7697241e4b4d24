"""The board's endpoints against the Python API: the same positions, moves, ranked moves and review
as `State`, `analyse` and `review_game` give, and every bad input answered with the command line's
message while the server goes on answering."""

import json
import re
import time

import pytest

pytest.importorskip("starlette", reason="the board extra is not installed (pip install -e \".[board]\")")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the board extra)")

from starlette.testclient import TestClient  # noqa: E402

from azul_fast import State  # noqa: E402
from azul_fast.cli import main  # noqa: E402
from azul_fast.core.played_game import game_document, line_document, replay_document  # noqa: E402
from azul_fast.studies.analyse import analyse, review_game  # noqa: E402
from azul_fast.web.app import DEFAULT_DEAL, create_app  # noqa: E402
from azul_fast.web.engine import Engine  # noqa: E402

LIMIT = 30.0


@pytest.fixture(scope="module")
def engine():
    engine = Engine(LIMIT, memory_mib=4096, workers=1)
    engine.start_worker()
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def client(engine):
    with TestClient(create_app(engine)) as client:
        yield client


def ok(client, name, **body):
    response = client.post(f"/api/{name}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def refused(client, name, status=400, **body):
    response = client.post(f"/api/{name}", json=body)
    assert response.status_code == status, response.text
    return response.json()["error"]


def finished(client, job_id, seconds=LIMIT + 10):
    """The job's status once it has ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get("/api/job").json()["job"]
        if job["id"] == job_id and job["state"] != "running":
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still running after {seconds} s")


def cli_error(capsys, *args):
    """What `azul-fast ARGS` prints after 'azul-fast: error: ' (it must fail with exit code 2)."""
    assert main([str(a) for a in args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("azul-fast: error: "), err
    return err.removeprefix("azul-fast: error: ")


def test_the_page_carries_the_opening_deal_drawn_and_its_moves(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    initial = json.loads(re.search(r'<script id="initial" type="application/json">(.*?)</script>', page.text,
                                   re.S).group(1))
    state = State.new(**DEFAULT_DEAL)
    assert initial["view"]["svg"].startswith("<svg") and initial["view"]["text"] == state.to_text(rng=True)
    assert initial["view"]["legal"] == [str(m) for m in state.legal_moves]
    for name in ("board.js", "board.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_a_deal_played_on_is_the_game_state_plays(client):
    view = ok(client, "new", players=3, seed=5, variant="gray")["view"]
    state = State.new(players=3, seed=5, variant="gray")
    assert view["text"] == state.to_text(rng=True) and view["plain"] == state.to_text()
    while not state.is_game_over():   # across the round ends: the deals continue as State.new's do
        move = state.copy().choose("greedy")   # a copy: choosing draws on the game's policy stream
        answer = ok(client, "play", text=view["text"], move=str(move))
        state.play(move)
        view = answer["view"]
        assert answer["move"] == str(move) and view["text"] == state.to_text(rng=True)
    assert view["over"] and view["winners"] == list(state.winners) and view["legal"] == []
    drawn = ok(client, "position", text=State.new(players=2, seed=7).to_text(), highlight="1B1", columns=1)["view"]
    assert "Move 1B1" in drawn["svg"] and drawn["svg"].count('class="board') == 2


def test_bad_positions_and_moves_get_the_command_lines_message(client, capsys):
    wrong_board = State.new(players=2, seed=7).to_text().replace("0:-/-/-/-/-", "0:-/-/-/-", 1)
    for text in ("colored 7", "colored 2 1/100 play 0 0 C", wrong_board):
        assert refused(client, "position", text=text) == cli_error(capsys, "analyse", text)
    start = State.new(players=2, seed=7)
    with pytest.raises(ValueError) as illegal:
        start.copy().play("1K3")
    message = refused(client, "play", text=start.to_text(), move="1K3")
    assert message == str(illegal.value) and message.startswith("illegal move 1K3")
    assert refused(client, "play", text=start.to_text(), move="1Q3").startswith("bad move notation '1Q3'")
    assert refused(client, "new", players=5) == "players must be one of 2, 3, 4, got 5"
    assert refused(client, "new", seed=-1) == "seed must be in 0..2**64-1, got -1"
    assert client.post("/api/new", content=b"{not json").status_code == 400
    elsewhere = client.post("/api/new", json={}, headers={"origin": "http://example.org"})
    assert elsewhere.status_code == 403 and elsewhere.json()["error"] == "the board answers only its own page"
    assert client.post("/api/new", json={}, headers={"origin": "http://testserver"}).status_code == 200
    assert ok(client, "new", players=2, seed=1)["view"]["players"] == 2   # and the server goes on


def test_a_game_file_is_its_positions_and_a_bad_one_the_command_lines_message(client, capsys, tmp_path):
    document = game_document(players=2, seed=7)
    line = ok(client, "game", content=json.dumps(document))
    positions = replay_document(document)
    assert [p["text"] for p in line["plies"]] == [s.to_text(rng=True) for s, _ in positions]
    assert [p["move"] for p in line["plies"]] == [str(m) for _, m in positions]
    broken = json.loads(json.dumps(document))
    broken["rounds"][1]["moves"][2] = "9Q9"
    for content in ("{not json", json.dumps(broken), json.dumps({"format": "other"})):
        path = tmp_path / "game.json"
        path.write_text(content)
        assert refused(client, "game", content=content) == cli_error(capsys, "review", path).removeprefix(f"{path}: ")


def test_the_ranked_moves_are_analyses(client):
    state = State.new(players=2, seed=7)
    job = ok(client, "analyse", text=state.to_text(rng=True), policy="greedy", rollouts=600, seed=1)
    done = finished(client, job["id"])
    expected = analyse(state, policy="greedy", rollouts=600, seed=1)
    assert done["state"] == "finished" and done["attrs"]["stopped"] == expected.attrs["stopped"]
    assert done["rows"] == expected.astype(object).where(expected.notna(), None).to_dict("records")
    assert done["attrs"]["rollouts"] == expected.attrs["rollouts"] and done["done"] == 1.0


def test_an_exact_final_round_comes_back_exact(client):
    from solving import final_round_positions

    state, expected = next((s, table) for s, _ in final_round_positions(2, "colored", seeds=range(7, 13))
                           if len(s.legal_moves) > 1 and (table := analyse(s, rollouts=100)).attrs["stopped"] == "exact"
                           )
    done = finished(client, ok(client, "analyse", text=state.to_text(), seconds=2)["id"])
    assert done["attrs"]["stopped"] == "exact" and all(row["exact"] for row in done["rows"])
    assert [(r["move"], r["margin"]) for r in done["rows"]] == list(zip(expected.move, expected.margin))


def test_one_job_at_a_time_and_a_cancel_keeps_what_was_ranked(client):
    text = State.new(players=2, seed=2).to_text()
    first = ok(client, "analyse", text=text, seconds=20, policy="greedy")   # stages shorter than the cancel's grace
    assert refused(client, "analyse", status=409, text=text, seconds=1).startswith("an analysis is running")
    while not client.get("/api/job").json()["job"].get("rows"):   # the first stage has ranked the moves
        time.sleep(0.1)
    asked = time.monotonic()
    client.post("/api/cancel", json={})
    done = finished(client, first["id"])
    assert done["state"] == "cancelled" and done["attrs"]["stopped"] == "interrupted" and done["rows"]
    assert time.monotonic() - asked < 6
    # replace: true cancels the running job and starts the new one
    ok(client, "analyse", text=text, seconds=20)
    third = ok(client, "analyse", text=text, rollouts=400, replace=True)
    assert finished(client, third["id"])["state"] == "finished"


def test_analysis_arguments_are_checked(client):
    text = State.new(players=2, seed=7).to_text()
    assert refused(client, "analyse", text=text, seconds=LIMIT + 1).startswith("seconds must be a number in 0.1..30")
    assert "policy" in refused(client, "analyse", text=text, seconds=1, policy="best")
    assert refused(client, "analyse", text=text, seconds=1, rollouts=100).startswith("analyse takes rollouts or")
    done = finished(client, ok(client, "analyse", text=text, rollouts=10)["id"])   # analyse's own check
    assert done["state"] == "failed" and done["message"].startswith("rollouts=10 is too few")


def test_the_review_is_review_games(client):
    job = ok(client, "review", players=2, policy="greedy", seed=3, rollouts=2, paired=4)
    done = finished(client, job["id"])
    expected = review_game(2, "greedy", 3, rollouts=2, paired=4)
    assert done["state"] == "finished" and len(done["rows"]) == len(expected) == done["attrs"]["plies"]
    assert done["rows"] == expected.astype(object).where(expected.notna(), None).to_dict("records")
    assert done["csv"] == expected.to_csv(index=False)
    bad = {"format": "azul_fast/game/1", "players": 7}
    assert refused(client, "review", document=bad).startswith("game field 'players' must be 2, 3 or 4")


def test_on_loopback_the_board_answers_only_to_loopback_names(engine):
    with TestClient(create_app(engine, hosts=["127.0.0.1", "localhost"]), base_url="http://127.0.0.1:8000") as near:
        assert near.get("/api/job").status_code == 200
    with TestClient(create_app(engine, hosts=["127.0.0.1", "localhost"]), base_url="http://rebound.example") as far:
        assert far.get("/api/job").status_code == 400 and far.get("/").status_code == 400


def test_the_engine_panel_opens_on_the_learned_policy(client):
    initial = json.loads(re.search(r'<script id="initial" type="application/json">(.*?)</script>',
                                   client.get("/").text, re.S).group(1))
    assert initial["analysis"]["policy"] == "learned" and "learned" in initial["policies"]


def test_the_played_line_exports_as_a_game_file_that_loads_again(client):
    state = State.new(players=2, seed=7)
    texts, moves = [state.to_text(rng=True)], []
    for _ in range(25):   # into round 3, the round left unfinished
        move = str(state.copy().choose("greedy"))
        state.play(move)
        moves.append(move)
        texts.append(state.to_text(rng=True))
    document = ok(client, "export", texts=texts, moves=moves)["document"]
    assert document == line_document([State.from_text(t) for t in texts], moves)
    assert len(document["rounds"]) == state.round == 3
    line = ok(client, "game", content=json.dumps(document))
    assert [p["move"] for p in line["plies"]] == moves
    assert [State.from_text(p["text"]).to_text() for p in line["plies"]] == [State.from_text(t).to_text()
                                                                             for t in texts[:-1]]
    assert State.from_text(line["final"]).to_text() == state.to_text()
    whole = game_document(players=3, seed=2)
    played = ok(client, "game", content=json.dumps(whole))
    assert ok(client, "export", texts=[p["text"] for p in played["plies"]] + [played["final"]],
              moves=[p["move"] for p in played["plies"]])["document"] == whole   # its own deals kept
    # a line from a position that is not a deal has no game file, nor one whose moves do not lead on
    assert refused(client, "export", texts=texts[3:6], moves=moves[3:5]).startswith("a game file starts from")
    assert refused(client, "export", texts=texts[:2], moves=[moves[1]]).startswith("a game file starts from")
    illegal = refused(client, "export", texts=texts[:2], moves=["1K3"])
    assert illegal.startswith("the line is not a game from its first position") and "illegal move 1K3" in illegal
    assert refused(client, "export", texts=texts[:2], moves="2K2").startswith("moves must be a list")


def test_every_malformed_field_is_a_one_line_400(client):
    """Each endpoint's fields given values of every wrong type: a one-line refusal, never a server error
    (the test client raises the server's own exceptions)."""
    text = State.new(players=2, seed=7).to_text()
    good = {"players": 2, "seed": 1, "variant": "colored", "columns": 1, "text": text, "highlight": "1B1",
            "move": "1B1", "content": json.dumps(game_document(players=2, seed=1)), "policy": "greedy",
            "rollouts": 400, "paired": 4, "moves": ["1B1"], "texts": [text, text]}
    wrong = [None, True, -1, 2.5, 1e308, "x", "", [], {}, [[["deep"]]], "9" * 5000, {"a": {"b": 1}}]
    for name, fields in {"new": ["players", "seed", "variant", "columns"],
                         "position": ["text", "highlight", "columns"], "play": ["text", "move", "columns"],
                         "game": ["content"], "export": ["texts", "moves"],
                         "simulate": ["players", "policy", "seed", "variant"],
                         "analyse": ["text", "policy", "seconds", "rollouts", "seed"],
                         "review": ["document", "players", "policy", "seed", "rollouts", "paired"]}.items():
        for field in fields:
            for value in wrong:
                body = {**good, field: value}
                if name == "analyse":
                    body.pop("rollouts" if field != "rollouts" else "seconds", None)
                response = client.post(f"/api/{name}", json=body)
                assert response.status_code in (200, 400, 409), (name, field, value, response.text)
                if response.status_code != 200:
                    error = response.json()["error"]
                    assert error and "\n" not in error, (name, field, value, error)
                client.post("/api/cancel", json={})
    deep = client.post("/api/new", content=b"[" * 200_000)
    assert deep.status_code == 400
    assert deep.json()["error"] == "the request is nested too deeply to be a board's request"
    assert client.post("/api/new", content=b"x" * ((1 << 20) + 1)).status_code == 413
