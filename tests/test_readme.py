"""The README's examples are real: its ```python blocks with a >>> prompt run as one doctest session.

The blocks run in order in one namespace, as a reader would type them (the quick start's second
block uses the first block's import).
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


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
