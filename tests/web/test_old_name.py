"""The web app's old name still imports for one release, and says where it went."""

import importlib
import sys

import pytest


def test_the_old_name_warns_and_gives_the_web_apps_modules(monkeypatch):
    for name in [name for name in sys.modules if name == "azul_fast.board" or name.startswith("azul_fast.board.")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.warns(DeprecationWarning, match="azul_fast.board is now azul_fast.web"):
        old = importlib.import_module("azul_fast.board")
    from azul_fast import web
    from azul_fast.web import positions

    assert old.serve is web.serve and old.EXTRA == web.EXTRA
    moved = importlib.import_module("azul_fast.board.positions")
    assert moved.__file__ == positions.__file__
