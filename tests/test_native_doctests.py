"""The >>> examples in the compiled modules' docstrings run too.

pytest's --doctest-modules reads only .py files; doctest itself finds the docstrings that Cython
keeps on a compiled module's classes and functions.
"""

import doctest
import importlib
from pathlib import Path

import pytest

NATIVE = sorted(path.stem for path in (Path(__file__).resolve().parents[1] / "src" / "azul_fast").glob("_*.pyx"))


@pytest.mark.parametrize("module", NATIVE)
def test_docstring_examples(module, capsys):
    found = doctest.testmod(importlib.import_module(f"azul_fast.{module}"),
                            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert found.failed == 0, capsys.readouterr().out
