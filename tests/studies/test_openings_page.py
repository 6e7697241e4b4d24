"""docs/openings.md quotes only the openings and move-level result files: its tables are the ones
analysis/openings_page.py draws from the CSVs, and every number of its prose is one of those
tables' numbers (a rerun that changes the CSVs without the page, or an edit of the page alone,
fails here)."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "openings.md"
_NUMBER = re.compile(r"(?<![\w.])[+−-]?\d[\d,]*(?:\.\d+)?")


def _page_script():
    spec = importlib.util.spec_from_file_location("openings_page", ROOT / "analysis" / "openings_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _numbers(text: str) -> list[str]:
    """The numbers of `text` as written, without sign or thousands separators."""
    return [n.lstrip("+−-").replace(",", "") for n in _NUMBER.findall(text)]


def _prose(text: str) -> str:
    """The page without its tables, code, figure directives, links' targets and headings' anchors."""
    text = re.sub(r"<!-- table:\w+ -->.*?<!-- /table -->", "", text, flags=re.S)
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r":::\{figure\}.*?\n(?::\w+:.*\n)*", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # link targets: file names, not quotes
    return re.sub(r"`[^`]*`", "", text)  # code: policy names (learned:200), file names, options


@pytest.fixture(scope="module")
def script():
    return _page_script()


def test_every_table_of_the_page_is_drawn_from_the_csvs(script):
    tables = script.page_tables(PAGE.read_text())
    assert set(tables) == set(script.TABLES)
    for name, table in tables.items():
        assert table == script.TABLES[name](), f"table {name} differs from the CSVs: run analysis/openings_page.py"


def test_every_number_of_the_prose_is_in_a_table_of_the_page(script):
    text = PAGE.read_text()
    quoted = {n for table in script.page_tables(text).values() for n in _numbers(table)}
    # the structure of the game itself: seats, rounds, lines, tiles; and the intervals' 95 %
    structural = {str(k) for k in range(0, 7)} | {"95"}
    loose = [n for n in _numbers(_prose(text)) if n not in quoted and n not in structural]
    assert not loose, f"numbers in the prose of {PAGE.name} that no table of it holds: {loose}"


def test_the_page_shows_both_styles_and_is_in_the_toctree(script):
    text = PAGE.read_text()
    for style in script.STYLES:
        assert f"`{style}`" in script.TABLES["types"](), style
    assert "\nopenings\n" in (ROOT / "docs" / "index.md").read_text()
    for name in script.FIGURES:
        if f"_static/{name}" in text:
            assert (ROOT / "docs" / "_static" / name).exists(), name
