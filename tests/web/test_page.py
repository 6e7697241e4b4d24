"""The board as a person meets it: `azul-fast board` started as a command, its page in a real
headless Chromium (driven by selenium) at a phone's and a desktop's width: the board drawn as SVG,
the engine's ranked moves with how far each is behind the best, the position's evaluation, a move
played by clicking a tile and a pattern line, the engine panel filling for the new position, a
simulated game reviewed and exported as a game file that loads again, a malformed position
answered on the page, the server still up.

Skips where Chromium and its driver are missing (apt-get install chromium chromium-driver).
"""

import decimal
import json
import re
import shutil
import signal
import subprocess
import time
import urllib.request

import pytest

from azul_fast import State
from azul_fast.cli import main
from azul_fast.core.played_game import game_document, simulated_positions
from azul_fast.web.app import DEFAULT_DEAL

pytest.importorskip("uvicorn", reason="the board extra is not installed (pip install -e \".[board]\")")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the board extra)")

BROWSER = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(BROWSER is None or DRIVER is None,
                                    reason="no Chromium and chromedriver on PATH (apt-get install chromium "
                                           "chromium-driver)")


@pytest.fixture(scope="module")
def server(start_board):
    """`azul-fast board --no-browser` on a free port: its address, as it prints it."""
    with start_board("--time-limit", "30") as (process, url):
        assert url.startswith("http://127.0.0.1:")
        yield url
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 128 + signal.SIGINT, process.stderr.read()


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    options.binary_location = BROWSER
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    yield driver
    driver.quit()


def wait_for(driver, script, seconds=60):
    """The value of `script` (JavaScript returning a truthy value once ready)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    seen = driver.execute_script("return ['status', 'engine-note', 'error-text'].map(id => "
                                 "document.getElementById(id).textContent)")
    raise AssertionError(f"waited {seconds} s for: {script}; the page shows {seen}")


def click(driver, css):
    """Click the element `css` selects, found again if the page redrew it meanwhile (the diagram is
    redrawn when the engine's best move changes or the window's width does)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(20):
        try:
            return driver.find_element("css selector", css).click()
        except StaleElementReferenceException:
            time.sleep(0.2)
    raise AssertionError(f"{css} kept being redrawn")


RANKED = "return [...document.querySelectorAll('#ranked tbody tr td:nth-child(2)')].map(td => td.textContent)"


@needs_chromium
def test_chromium_renders_the_board_and_the_ranked_moves(server):
    """The page as `chromium --headless --dump-dom` gives it: the board as SVG and ranked moves."""
    dom = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", server],
                         capture_output=True, text=True, timeout=120).stdout
    diagram = re.search(r'<div id="diagram"[^>]*>(.*?)</div>', dom, re.S).group(1)
    assert diagram.startswith("<svg") and 'id="factory-1"' in diagram
    ranked = re.findall(r"<tr[^>]*><td>(\d+)</td><td><button[^>]*>(\w+)</button>", dom)
    legal = {str(m) for m in State.new(**DEFAULT_DEAL).legal_moves}
    assert len(ranked) > 10 and [int(r) for r, _ in ranked] == list(range(1, len(ranked) + 1))
    assert {move for _, move in ranked} <= legal


@needs_chromium
@pytest.mark.parametrize("width", [390, 1280])
def test_a_move_clicked_on_the_board_is_played_and_analysed(server, browser, width):
    browser.set_window_size(width, 1000)
    browser.get(server)
    assert browser.execute_script("return window.innerWidth") == width
    wait_for(browser, "return document.querySelector('#diagram svg')")
    # a reload shows the position the engine analysed last; the deal form starts over from the deal
    browser.find_element("css selector", "#deal-form button").click()
    wait_for(browser, "return document.querySelectorAll('#moves li').length === 0 && "
                      "document.getElementById('status').textContent.includes('player 0 to move')")
    # the engine done (while it runs, each new best move redraws the diagram under the pointer)
    wait_for(browser, "return document.getElementById('engine-note').textContent.startsWith('Done')")
    assert wait_for(browser, RANKED)
    state = State.new(**DEFAULT_DEAL)
    # a move from a factory to a pattern line, clicked as a person would: the tile, then the line
    move = next(m for m in state.legal_moves if m.source >= 0 and m.line < 5)
    colour = move.color.name.lower()
    click(browser, f"#factory-{move.source + 1} g.tile.tile-{colour}")
    assert browser.find_elements("css selector", f"#factory-{move.source + 1} g.tile.picked")
    click(browser, f"#player-0-line-{move.line + 1} rect")
    state.play(move)
    wait_for(browser, "return document.getElementById('status').textContent.includes('player 1 to move')")
    assert browser.execute_script("return document.querySelector('#moves li button').textContent") == str(move)
    assert browser.execute_script("return document.getElementById('position-text').value") == state.to_text()
    ranked = wait_for(browser, RANKED)   # the engine's panel fills for the new position
    assert set(ranked) <= {str(m) for m in state.legal_moves} and len(ranked) > 1
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    # undo goes back to the deal, and its analysis
    browser.find_element("id", "undo").click()
    wait_for(browser, "return document.getElementById('status').textContent.includes('player 0 to move')")


@needs_chromium
def test_a_malformed_position_is_answered_on_the_page_and_the_server_goes_on(server, browser, capsys):
    browser.set_window_size(1280, 1000)
    browser.get(server)
    wait_for(browser, "return document.querySelector('#diagram svg')")
    field = browser.find_element("id", "position-text")
    field.clear()
    field.send_keys("colored 7")
    browser.find_element("css selector", "#text-form button").click()
    shown = wait_for(browser, "return !document.getElementById('error').hidden && "
                              "document.getElementById('error-text').textContent")
    assert main(["analyse", "colored 7"]) == 2
    assert capsys.readouterr().err.strip() == f"azul-fast: error: {shown}"
    with urllib.request.urlopen(server, timeout=30) as page:   # the server still answers
        assert page.status == 200 and b'id="diagram"' in page.read()


def set_up(driver, text):
    """Paste `text` as the position and wait for it on the board."""
    field = driver.find_element("id", "position-text")
    field.clear()
    field.send_keys(text)
    click(driver, "#text-form button")
    wait_for(driver, f"return board.view.plain === {text!r}")   # the page's own record of what it shows
    # the engine done with it (while it runs, each new best move redraws the diagram under the pointer)
    wait_for(driver, "return document.getElementById('engine-note').textContent.startsWith('Done')")


@needs_chromium
def test_a_gray_wall_column_is_a_click_on_the_wall(server, browser):
    state = State.new(players=2, seed=4, variant="gray")
    while state.tiling is None:
        state.play(state.copy().choose("greedy"))
    browser.set_window_size(1280, 1000)
    browser.get(server)
    set_up(browser, state.to_text())
    seat, line = state.tiling
    assert len(browser.find_elements("css selector", f"#player-{seat}-wall > *")) == 25
    click(browser, f"#player-{seat}-wall > :nth-child({5 * line + 3})")   # that line's row, third column
    state.play(f"@{line + 1}.3")
    wait_for(browser, f"return board.view.plain === {state.to_text()!r}")
    assert browser.execute_script("return document.querySelector('#moves li button').textContent") == f"@{line + 1}.3"


@needs_chromium
def test_the_exports_download_the_diagram_and_the_position(server, browser, downloads):
    browser.set_window_size(1280, 1000)
    browser.get(server)
    text = State.new(players=3, seed=9).to_text()
    set_up(browser, text)
    svg = browser.execute_script("return document.querySelector('#diagram svg').outerHTML")
    for button in ("export-svg", "export-png", "export-text"):
        click(browser, f"#{button}")
    deadline = time.monotonic() + 30
    names = {"azul-position-0.svg", "azul-position-0.png", "azul-position-0.txt"}
    # a download's file appears before Chromium has written it: wait until each is there and not empty
    def written() -> bool:
        return all((downloads / name).is_file() and (downloads / name).stat().st_size > 0 for name in names) \
            and not any(p.suffix == ".crdownload" for p in downloads.iterdir())

    while time.monotonic() < deadline and not written():
        time.sleep(0.1)
    assert written(), sorted(p.name for p in downloads.iterdir())
    assert (downloads / "azul-position-0.txt").read_text() == text + "\n"
    assert (downloads / "azul-position-0.svg").read_text().startswith("<svg") and 'id="player-2"' in svg
    png = (downloads / "azul-position-0.png").read_bytes()
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") >= 1000   # drawn at twice its width


FITS = ("return document.documentElement.scrollWidth <= window.innerWidth && [...document.querySelectorAll("
        "'section')].every(s => s.getBoundingClientRect().right <= window.innerWidth)")


def fixed(x):
    """`x.toFixed(1)` as JavaScript writes it: the exact value rounded, a tie away from zero."""
    return str(decimal.Decimal(x).quantize(decimal.Decimal("0.1"), decimal.ROUND_HALF_UP))


def rows_shown(driver):
    """The ranked table's cells as shown, and the rows of the job it shows."""
    return driver.execute_script(
        "return [[...document.querySelectorAll('#ranked tbody tr')].map(tr => [...tr.cells].map(td => "
        "td.textContent)), board.job.rows]")


@needs_chromium
@pytest.mark.parametrize("width", [390, 1280])
def test_the_engine_shows_its_policy_the_evaluation_and_each_moves_distance_from_the_best(server, browser, width):
    browser.set_window_size(width, 1000)
    browser.get(server)
    wait_for(browser, "return document.querySelector('#diagram svg')")
    assert browser.execute_script("return document.getElementById('engine-policy').value") == "learned"
    browser.find_element("css selector", "#deal-form button").click()
    deal = State.new(**DEFAULT_DEAL).to_text()
    wait_for(browser, f"return board.view.plain === {deal!r} && sameJob() && "
                      "document.getElementById('engine-note').textContent.startsWith('Done')")
    cells, rows = rows_shown(browser)
    assert len(cells) == len(rows) == len(State.new(**DEFAULT_DEAL).legal_moves)
    best = rows[0]
    for shown, row in zip(cells, rows):
        gap = 100 * (best["win_share"] - row["win_share"])
        sign = "" if float(fixed(abs(gap))) == 0 else "−" if gap > 0 else "+"
        behind = "best" if row is best else f"{sign}{fixed(abs(gap))}"
        assert shown[1] == row["move"] and shown[3:5] == [behind, f"{row['rollouts']:,}"], (shown, row)
        low, share, high = (fixed(100 * row[name]) for name in ("ci_low", "win_share", "ci_high"))
        assert shown[2] == f"{share} % ({low} – {high})"
    assert sum(row["rollouts"] for row in rows) == browser.execute_script("return board.job.attrs.rollouts")
    evaluation = browser.execute_script("return ['eval-figure', 'eval-detail', 'engine-badge', 'engine-note'].map("
                                        "id => document.getElementById(id).textContent)")
    assert evaluation[0] == f"{fixed(100 * best['win_share'])} %"
    assert evaluation[1] == (f"player 0 to win (95% CI {fixed(100 * best['ci_low'])}–{fixed(100 * best['ci_high'])}) "
                             f"· best {best['move']}")
    assert evaluation[2] == "learned · 3 s" and evaluation[3].endswith("· policy learned")
    assert browser.execute_script(FITS)
    # on a phone the sections stack: the board, the engine, then the review
    tops = browser.execute_script("return ['play', 'engine', 'review', 'setup'].map(id => "
                                  "document.getElementById(id).getBoundingClientRect().top)")
    assert tops == sorted(tops) if width == 390 else tops[1] < tops[0] + 50   # beside the board on a desktop


@needs_chromium
@pytest.mark.parametrize("width", [390, 1280])
def test_a_simulated_game_is_reviewed_on_a_large_graph(server, browser, width):
    browser.set_window_size(width, 1000)
    browser.get(server)
    wait_for(browser, "return document.querySelector('#diagram svg')")
    moves = [str(move) for _, move in simulated_positions(2, "greedy", 3)]
    browser.execute_script("document.getElementById('sim-policy').value = 'greedy';"
                           "document.getElementById('sim-seed').value = '3';")
    click(browser, "#sim-form button")
    wait_for(browser, f"return document.getElementById('review-game').textContent === "
                      f"'seed 3, 2 players, greedy: {len(moves)} moves.'")
    assert browser.execute_script("return board.game.moves") == moves
    browser.execute_script("document.getElementById('review-rollouts').value = '4';"
                           "document.getElementById('review-paired').value = '4';")
    click(browser, "#review-start")
    note = wait_for(browser, "const note = document.getElementById('review-note').textContent;"
                             "return note.startsWith('Reviewed') && note", seconds=120)
    assert note.startswith(f"Reviewed {len(moves)} of {len(moves)} moves") and "policy greedy" in note
    assert browser.execute_script("return document.querySelectorAll('#graph circle.point').length") == len(moves)
    graph = browser.execute_script("const r = document.getElementById('graph').getBoundingClientRect();"
                                   "return [r.width, r.height]")
    assert graph[0] >= 0.8 * width - 40 if width == 390 else graph[0] >= 700 and graph[1] >= 270
    assert browser.execute_script(FITS)


@needs_chromium
def test_the_played_line_exports_as_a_game_file_that_replay_and_the_board_load(server, browser, downloads, capsys):
    browser.set_window_size(1280, 1000)
    browser.get(server)
    wait_for(browser, "return document.querySelector('#diagram svg')")
    browser.execute_script("document.getElementById('sim-policy').value = 'greedy';"
                           "document.getElementById('sim-seed').value = '5';")
    click(browser, "#sim-form button")
    wait_for(browser, "return document.getElementById('review-game').textContent.startsWith('seed 5,')")
    click(browser, "#export-game")
    saved = downloads / "azul-game.json"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (saved.exists() and saved.stat().st_size > 0
                                               and not any(p.suffix == ".crdownload" for p in downloads.iterdir())):
        time.sleep(0.1)
    document = json.loads(saved.read_text())
    assert document == game_document(players=2, policy="greedy", seed=5)
    assert main(["replay", "--game", str(saved), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith(f"{saved}: 2 players: {sum(len(r['moves']) for r in document['rounds'])}")
    # and the board loads it again: the same line
    browser.get(server)
    wait_for(browser, "return document.querySelector('#diagram svg')")
    browser.find_element("id", "game-file").send_keys(str(saved))
    wait_for(browser, "return document.getElementById('review-game').textContent.startsWith('azul-game.json: ')")
    assert browser.execute_script("return board.game.moves") == [m for r in document["rounds"] for m in r["moves"]]
