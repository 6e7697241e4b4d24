"""A stopped command ends at once: its clean-up done, it leaves the heap to the process's end (frozen),
instead of the interpreter's last collections, which took seconds after a run on a Dask cluster."""

from __future__ import annotations

import gc
import signal

import pytest

from azul_fast import cli
from azul_fast.cli import games

pytestmark = pytest.mark.usefixtures("stoppable")   # Ctrl-C and SIGHUP as a terminal has them


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_an_interrupted_command_leaves_no_heap_to_collect(monkeypatch, capsys, unfrozen, sig):
    def stopped(args):
        signal.raise_signal(sig)

    monkeypatch.setattr(games, "_cmd_openings", stopped)
    assert gc.get_freeze_count() == 0
    assert cli.main(["openings", "--seed", "1"]) == 128 + sig
    assert capsys.readouterr().err.strip() == f"azul-fast: interrupted ({sig.name})"
    assert gc.get_freeze_count() > 0


def test_a_finished_command_leaves_the_collector_alone(capsys, unfrozen):
    assert cli.main(["replay", "--seed", "3", "--quiet"]) == 0
    assert gc.get_freeze_count() == 0
