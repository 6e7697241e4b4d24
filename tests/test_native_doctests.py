"""The >>> examples in the compiled modules' docstrings run too.

pytest's --doctest-modules reads only .py files; doctest itself finds the docstrings that Cython
keeps on a compiled module's classes and functions.
"""

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "azul_fast"
#: Every compiled module, named as it imports (core._state, runs._simulate, ...).
NATIVE = sorted(f"{path.parent.name}.{path.stem}" for path in PACKAGE.glob("*/_*.pyx"))


def test_every_compiled_module_is_found():
    """A layout change must not leave this file testing nothing."""
    assert {"core._state", "core._board", "runs._simulate"} <= set(NATIVE)


@pytest.mark.parametrize("module", NATIVE)
def test_docstring_examples(module, capsys):
    found = doctest.testmod(importlib.import_module(f"azul_fast.{module}"),
                            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert found.failed == 0, capsys.readouterr().out
