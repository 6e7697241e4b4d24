"""Stop signals are never lost: a KeyboardInterrupt that C code swallowed on its way (matplotlib laying
out a chart clears it as its own error) is raised again by the next check, and as the block ends."""

from __future__ import annotations

import signal

import pytest
from children import swallowed

from azul_fast.runs.pool import run_ranges
from azul_fast.runs.signals import check_stop, interrupt_on_signals, stop_signal

pytestmark = pytest.mark.usefixtures("stoppable")   # Ctrl-C and SIGHUP as a terminal has them


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_swallowed_stop_is_raised_as_the_block_ends(sig):
    with pytest.raises(KeyboardInterrupt) as stopped:
        with interrupt_on_signals():
            swallowed(sig)
    assert stop_signal(stopped.value) == sig
    with interrupt_on_signals():  # the stop was given to the caller: the next block starts afresh
        check_stop()


def test_check_stop_raises_a_swallowed_stop_and_nothing_else():
    ran = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt_on_signals():
            check_stop()
            ran.append("before")
            swallowed(signal.SIGTERM)
            check_stop()
            ran.append("after")
    assert ran == ["before"]


def test_a_run_stops_at_the_next_range_after_a_swallowed_stop():
    played = []

    def on_done(start, stop, result):
        if start == 0:
            swallowed(signal.SIGTERM)

    with pytest.raises(KeyboardInterrupt):
        with interrupt_on_signals():
            run_ranges(lambda a, b: played.append(a), [(k, k + 1) for k in range(50)], workers=1, total=50,
                       progress=False, on_done=on_done)
            played.append("the caller went on")
    assert "the caller went on" not in played
