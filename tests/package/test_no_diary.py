"""The code says what it does now: no file of src/ or tests/ speaks of a sitting of work or an issue
number, and no comment names a numbered version (how the search got here is docs/history.md)."""

import io
import tokenize
from pathlib import Path

from diary import ISSUE_N, SITTING, VERSION_N

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = {".py", ".pyx", ".pxd", ".pxi", ".pyi"}


def _sources() -> list[Path]:
    found = [p for folder in ("src", "tests") for p in (ROOT / folder).rglob("*")
             if p.suffix in SUFFIXES and "__pycache__" not in p.parts]
    assert len(found) > 100  # the walk found the project
    return found


def _comments(text: str) -> list[str]:
    """The `#` comments of a source file; a Cython file that Python cannot tokenize gives its lines from `#`."""
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [line[line.index("#"):] for line in text.splitlines() if "#" in line]


def test_no_source_speaks_of_a_sitting_or_an_issue_number():
    said = [f"{path.relative_to(ROOT)}:{n}" for path in _sources()
            for n, line in enumerate(path.read_text().splitlines(), 1) if SITTING.search(line) or ISSUE_N.search(line)]
    assert said == []


def test_no_comment_names_a_numbered_version():
    said = [f"{path.relative_to(ROOT)}: {comment}" for path in _sources()
            for comment in _comments(path.read_text()) if VERSION_N.search(comment)]
    assert said == []


def test_the_checks_see_what_they_forbid():
    # The examples are assembled, so that this file passes the checks it holds.
    assert SITTING.search("measured in the last " + "Sess" + "ion") and ISSUE_N.search(f"(issue {23})")
    assert VERSION_N.search(_comments(f"x = 1  # as version {4} shipped it\n")[0])
    assert not SITTING.search("a possession") and not VERSION_N.search("# the version of the format")
