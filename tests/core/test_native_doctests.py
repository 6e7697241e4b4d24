"""The >>> examples in the compiled modules' docstrings run too.

pytest's --doctest-modules reads only .py files; doctest itself finds the docstrings that Cython
keeps on a compiled module's classes and functions.
"""

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "azul_fast"
#: Every compiled module, named as it imports (core._state, core.rules._board, runs._simulate, ...).
NATIVE = sorted(".".join(path.relative_to(PACKAGE).with_suffix("").parts) for path in PACKAGE.rglob("_*.pyx"))


def test_every_compiled_module_is_found():
    """A layout change must not leave this file testing nothing."""
    assert {"core._state", "core.rules._board", "core.bots._search", "runs._simulate"} <= set(NATIVE)


@pytest.mark.parametrize("module", NATIVE)
def test_docstring_examples(module, capsys):
    found = doctest.testmod(importlib.import_module(f"azul_fast.{module}"),
                            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert found.failed == 0, capsys.readouterr().out
