"""The README's examples are real: its ```python blocks with a >>> prompt run as one doctest.

The blocks run in order in one namespace, as a reader would type them (the quick start's second
block uses the first block's import).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from diary import ISSUE_N, SITTING, VERSION_N

import azul_fast

README = Path(__file__).resolve().parents[2] / "README.md"
ANALYSIS = README.parent / "analysis"


def test_readme_examples_print_what_the_readme_says(tmp_path, monkeypatch):
    text = README.read_text()
    blocks = [block for block in re.findall(r"```python\n(.*?)```", text, flags=re.S) if ">>>" in block]
    assert len(blocks) >= 3, "the README lost its examples"
    monkeypatch.chdir(tmp_path)  # examples that save files write here
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}
    for i, block in enumerate(blocks):
        line = text[: text.index(block)].count("\n")  # failures name the README's own line numbers
        test = doctest.DocTestParser().get_doctest(block, namespace, f"README block {i}", str(README), line)
        runner.run(test, clear_globs=False)
        namespace = test.globs  # the DocTest ran in a copy
    assert runner.failures == 0, f"{runner.failures} README example(s) failed (the output above shows which)"


def test_pages_point_at_nothing_outside_the_clone():
    """A user has the clone only: no page sends them to the development machine's ../shared folder
    (the rules source and the speed-of-light program are described in docs/ instead), and no
    relative link leaves the repository."""
    root = README.parent
    pages = [README, *(root / "docs").rglob("*.md"), *(root / "analysis").rglob("*.md")]
    pages = [page for page in pages if "_build" not in page.parts]
    assert len(pages) >= 8
    for page in pages:
        text = page.read_text()
        assert "../shared" not in text, page
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" not in target and not target.startswith("mailto:"):
                assert root in (page.parent / target).resolve().parents, f"{page}: {target}"


def _analysis_commands() -> list[str]:
    text = (ANALYSIS / "README.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [line.split("#")[0].strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_analysis_rebuild_commands_are_written_as_a_user_runs_them():
    """After `pip install .` a fresh clone has no compiled core in src/, so a command that sets
    PYTHONPATH=src fails there: the commands name only `python` and a script that exists, with
    options the script takes."""
    commands = _analysis_commands()
    scripts = sorted(path.name for path in ANALYSIS.glob("*.py"))
    assert sorted({shlex.split(command)[1].removeprefix("analysis/") for command in commands}) == scripts
    for command in commands:
        program, script, *options = shlex.split(command)
        assert program == "python", command  # not `PYTHONPATH=src python`
        source = (README.parent / script).read_text()
        for option in options[::2]:
            assert f'"{option}"' in source, f"{script} has no option {option}"


def test_an_analysis_rebuild_command_runs_as_written(tmp_path):
    """The README's command for the seat-advantage study, run as written (from the top of a clone,
    with only the installed package importable) with a small --games. The script writes beside
    itself, so it runs from a copy: the results in git are left alone."""
    command = next(c for c in _analysis_commands() if "first_player_advantage.py" in c)
    program, script, *options = shlex.split(command)
    (tmp_path / "analysis").mkdir()
    shutil.copy(README.parent / script, tmp_path / script)
    installed = Path(azul_fast.__file__).resolve().parents[1]  # where this test's azul_fast is installed
    env = dict(os.environ, PYTHONPATH=str(installed), MPLBACKEND="Agg")
    done = subprocess.run([sys.executable, script, *options, "--games", "200", "--policy", "random"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("random") == 3  # a line per player count
    table = (tmp_path / "analysis" / "results" / "first_player_advantage.csv").read_text().splitlines()
    assert len(table) == 1 + 2 + 3 + 4  # a header, then a row per seat of 2, 3 and 4 players
    assert (tmp_path / "analysis" / "figures" / "seat_advantage_random.png").stat().st_size > 1000


def test_readme_counts_the_browser_tests_that_skip_without_chromium():
    """The README says how many tests skip without Chromium: that count is the browser file's."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                           "-m", "long or not long",
                           str(README.parent / "tests" / "report" / "test_browser.py")],
                          capture_output=True, text=True, timeout=120, cwd=README.parent)
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert collected, done.stdout + done.stderr
    said = re.search(r"the (\d+) browser tests \(`tests/report/test_browser.py`", README.read_text())
    assert said and int(said[1]) == len(collected)
    assert "apt-get install chromium" in README.read_text()


DOCS = README.parent / "docs"


def _prose(text: str) -> str:
    """`text` without its fenced code blocks and inline code (what a reader sees as words)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def test_a_number_and_its_percent_sign_never_part():
    """At 390 px "50.9 %" broke before the "%": every page writes a no-break space there."""
    pages = [README, ANALYSIS / "README.md", *DOCS.glob("*.md")]
    for page in pages:
        for line in _prose(page.read_text()).splitlines():
            assert not re.search(r"\d %", line), f"{page.name}: {line.strip()[:80]}"


def test_the_site_has_a_copy_button_that_strips_prompts():
    conf = (DOCS / "conf.py").read_text()
    assert '"sphinx_copybutton"' in conf and "copybutton_prompt_text" in conf
    assert "copybutton_only_copy_prompt_lines = True" in conf  # output lines of a doctest are not copied
    prompts = re.search(r'copybutton_prompt_text = r"(.+)"', conf)[1]
    assert re.match(prompts, ">>> x") and re.match(prompts, "... x") and re.match(prompts, "$ x")
    pyproject = (README.parent / "pyproject.toml").read_text()
    assert re.search(r'^docs = \[.*"sphinx-copybutton', pyproject, flags=re.M)


def _toctree_entries() -> list[str]:
    entries = []
    for page in DOCS.glob("*.md"):
        for block in re.findall(r"```\{toctree\}\n(.*?)```", page.read_text(), flags=re.S):
            entries += [line.strip() for line in block.splitlines() if line.strip() and not line.startswith(":")]
    # The gallery's index (generated by sphinx-gallery) lists every example script.
    entries += [f"auto_examples/{path.stem}" for path in (DOCS / "examples").glob("plot_*.py")]
    return entries


def test_no_page_is_in_two_tables_of_contents():
    """The tutorial was in the user guide's toctree and the gallery's: twice in the sidebar."""
    entries = _toctree_entries()
    assert "auto_examples/plot_article_in_twenty_lines" in entries
    assert sorted({e for e in entries if entries.count(e) > 1}) == []


def test_getting_started_and_studies_have_no_doubled_headings():
    """Getting started had "A first study" as a heading over the README's "A first study:" text;
    the Studies page stacked its own title over the included README's."""
    started = (DOCS / "getting-started.md").read_text()
    headings = re.findall(r"^#+ (.+)$", _prose(started), flags=re.M)
    assert len(headings) == len(set(headings))
    quick = README.read_text().split("<!-- quick start: begin -->")[1].split("<!-- quick start: end -->")[0]
    leads = {line.split(":")[0] for line in quick.splitlines() if re.match(r"[A-Z][\w ,]+:", line)}
    assert not leads & set(headings), leads & set(headings)
    studies = (DOCS / "studies.md").read_text()
    included = (ANALYSIS / "README.md").read_text().splitlines()
    skipped = int(re.search(r":start-line: (\d+)", studies)[1])
    titles = [line for line in _prose(studies).splitlines() + included[skipped:] if line.startswith("# ")]
    assert titles == [included[0]], titles  # one page title: the README's, once


def test_the_api_page_of_a_module_shows_the_function_it_is_named_after():
    """api/runs.simulate once documented only thread_chunks: simulate was on the azul_fast page."""
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import api_pages
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    for module, function in (("runs.simulate", "simulate"), ("runs.simulate_moves", "simulate_moves")):
        page = api_pages.module_page(module)
        assert f".. autofunction:: azul_fast.{module}.{function}\n   :no-index:" in page, page


#: Policy names as the pages write them, longest first (so that ``mcts:200`` is not read as ``mcts``).
_POLICY = r"(?:random|greedy|heuristic|mcts(?::\d+)?|learned(?:-own|-half|-margin)?(?::\d+)?|fast(?::\d+)?)"


def _quoted_elo(text: str) -> list[tuple[str, int]]:
    """(policy, Elo) of every ``policy (+881)``, ``policy (+881 Elo)`` and ``policy, +881 Elo`` in `text`."""
    sign = r"([+−-]\d[\d,]*|0)"  # an Elo is signed, greedy's 0 aside ("mcts (1,000 iterations)" is not one)
    patterns = [rf"`?({_POLICY})`? \({sign}(?: Elo)?[),;]", rf"`?({_POLICY})`?[ ,(]+{sign} Elo\b"]
    found = {(m.start(), m.group(1), int(m.group(2).replace("−", "-").replace(",", "")))
             for pattern in patterns for m in re.finditer(pattern, text)}
    return [(policy, elo) for _, policy, elo in sorted(found)]


def test_every_elo_the_pages_quote_is_the_one_ladder_file():
    """One Elo per policy across the README, docs and analysis: each figure a page quotes next to a
    policy's name is that policy's rating in analysis/results/ladder_for_strength.csv, rounded (or,
    for a level only the converged first-player study plays, that study's)."""
    import pandas as pd

    ladder = pd.read_csv(ANALYSIS / "results" / "ladder_for_strength.csv").set_index("policy").rating
    # a level the ladder does not play (learned:200) is rated once, by the converged study's match
    # against a ladder level, and that study takes the ladder's rating for the levels it shares
    converged = pd.read_csv(ANALYSIS / "results" / "first_player_converged.csv").groupby("policy").elo.first()
    shared = converged.index.intersection(ladder.index)
    assert (converged[shared].round() == ladder[shared].round()).all()
    ladder = pd.concat([ladder, converged.drop(shared)])
    pages = [README, ANALYSIS / "README.md",
             *(page for page in (README.parent / "docs").glob("*.md") if page.name != "history.md")]
    quoted = [(page.name, policy, elo) for page in pages for policy, elo in _quoted_elo(page.read_text())]
    assert len(quoted) >= 20, quoted  # the strength table of analysis/README alone quotes 24
    wrong = [(page, policy, elo, round(ladder[policy])) for page, policy, elo in quoted
             if policy in ladder and elo != round(ladder[policy])]
    unknown = [(page, policy, elo) for page, policy, elo in quoted if policy not in ladder]
    assert wrong == [] and unknown == []


def test_the_elo_reader_finds_the_forms_the_pages_use():
    text = "| 2 | learned (+881) | … `heuristic` (+100 Elo on the ladder) … mcts:200 (−1,080 Elo), +5 points"
    assert _quoted_elo(text) == [("learned", 881), ("heuristic", 100), ("mcts:200", -1080)]


#: Pages that tell the project's history by version: the release notes and the tuning history.
_HISTORY_PAGES = {"changelog.md", "history.md"}


def test_the_readme_is_short_and_tells_no_history():
    """A user's README: at most 120 lines and 1,000 words, no search version history."""
    text = README.read_text()
    assert len(text.splitlines()) <= 120
    assert len(text.split()) <= 1000
    assert not VERSION_N.search(text) and not SITTING.search(text)


def test_the_docs_tell_history_on_the_history_pages_only():
    """Outside the changelog and the history page, the docs (and analysis/README, which the site includes)
    name a version at most 5 times in all, and none speaks of a sitting of work or an issue number."""
    pages = [ANALYSIS / "README.md", *(page for page in DOCS.glob("*.md") if page.name not in _HISTORY_PAGES)]
    versions = {page.name: len(VERSION_N.findall(page.read_text())) for page in pages}
    assert sum(versions.values()) <= 5, versions
    history = [DOCS / name for name in sorted(_HISTORY_PAGES)]
    assert all(page.is_file() for page in history)
    texts = {page.name: page.read_text() for page in pages + history}
    assert [name for name, text in texts.items() if SITTING.search(text) or ISSUE_N.search(text)] == []
    assert "{doc}`history`" in (DOCS / "changelog.md").read_text()  # the release notes link the history
