"""The README's examples are real: its ```python blocks with a >>> prompt run as one doctest session.

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

import azul_fast

README = Path(__file__).resolve().parents[1] / "README.md"
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
                           str(README.parent / "tests" / "test_browser.py")],
                          capture_output=True, text=True, timeout=120, cwd=README.parent)
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert collected, done.stdout + done.stderr
    said = re.search(r"the (\d+) browser tests \(`tests/test_browser.py`", README.read_text())
    assert said and int(said[1]) == len(collected)
    assert "apt-get install chromium" in README.read_text()
