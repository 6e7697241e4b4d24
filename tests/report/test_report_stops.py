"""A stop reaches every phase of the report: a signal whose interrupt the charts' C code swallowed
still stops the report before its next chart, its pages and the swap, with the earlier report kept
and the command's exit code that of the signal."""

from __future__ import annotations

import signal

import pytest
from children import swallowed

from azul_fast import cli
from azul_fast.report import build, figures
from azul_fast.report.folder import make_staging, swap_in
from azul_fast.runs.signals import interrupt_on_signals

pytestmark = pytest.mark.usefixtures("stoppable")   # Ctrl-C and SIGHUP as a terminal has them


def quick_study(monkeypatch, index: str, charts=lambda results: None) -> None:
    """The report's steps as stand-ins (the study takes a minute); the pages write `index`."""
    for step in ("rate_levels", "strength_study", "simulate_runs", "analyse", "opening_type_study",
                 "move_level_studies"):
        monkeypatch.setattr(build, step, lambda results: None)
    monkeypatch.setattr(build, "draw_charts", charts)
    monkeypatch.setattr(build, "draw_best_opening", lambda results: None)
    monkeypatch.setattr(build, "write_pages",
                        lambda results, command: (results.folder / "index.html").write_text(index))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_stop_swallowed_in_the_charts_stops_the_report_and_keeps_the_earlier_one(tmp_path, monkeypatch, capsys,
                                                                                      sig):
    out = tmp_path / "rep"
    quick_study(monkeypatch, "one")
    assert cli.main(["report", "--quick", "--players", "2", "--out", str(out), "--quiet"]) == 0
    pages = []
    quick_study(monkeypatch, "two", charts=lambda results: swallowed(sig))
    monkeypatch.setattr(build, "write_pages", lambda results, command: pages.append("written"))
    assert cli.main(["report", "--quick", "--players", "2", "--out", str(out), "--quiet"]) == 128 + sig
    assert f"interrupted ({sig.name})" in capsys.readouterr().err
    assert pages == []  # stopped before the pages
    assert (out / "index.html").read_text() == "one"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rep"]  # no staging folder left


def test_a_stop_swallowed_by_one_chart_stops_before_the_next(tmp_path):
    drawn = []
    with pytest.raises(KeyboardInterrupt), interrupt_on_signals():
        swallowed(signal.SIGTERM)  # as inside the chart before
        figures.save_chart(None, "next", "The next chart", lambda: drawn.append("next"))
    assert drawn == []


def test_a_stop_swallowed_before_the_swap_keeps_the_earlier_report(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "index.html").write_text("one")
    staging = make_staging(out)
    (staging / "index.html").write_text("two")
    with pytest.raises(KeyboardInterrupt), interrupt_on_signals():
        swallowed(signal.SIGTERM)
        swap_in(staging, out)
    assert (out / "index.html").read_text() == "one"
