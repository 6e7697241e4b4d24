"""What a new user meets first: `help()` on the public API, the layers as attributes,
and the progress lines of a long command."""

import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import azul_fast
from azul_fast.runs.heartbeat import Heartbeat, format_duration

SRC = Path(__file__).resolve().parents[2] / "src"
SECTIONS = ("Parameters", "Returns", "Raises", "Examples")
# What returns nothing (no Returns section) or takes nothing (no Parameters, no Raises).
RETURNS_NONE = {"State.play", "State.check_invariants", "save", "studies.strength.check_budget"}
#: The studies whose public functions a user reads first (docs/studies.md, the changelog's table).
STUDIES = ("seats", "strength", "openings", "opening_types", "intervals")


def _sections(doc: str) -> set[str]:
    """The numpydoc sections of a docstring: a title line underlined with dashes."""
    return set(re.findall(r"^\s*(\w+)\n\s*-{3,}\s*$", inspect.cleandoc(doc), flags=re.M))


def _takes_arguments(function) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):  # a compiled method without a signature: ask its docstring
        return "Parameters" in _sections(function.__doc__ or "")
    return any(name not in ("self", "cls") for name in parameters)


def _public_functions():
    """(name, function) for every function of `azul_fast.__all__` and public method of its classes."""
    for name in azul_fast.__all__:
        thing = getattr(azul_fast, name)
        if inspect.isclass(thing):
            for method, raw in vars(thing).items():
                if not method.startswith("_") and (callable(raw) or isinstance(raw, (classmethod, staticmethod))):
                    yield f"{name}.{method}", getattr(thing, method)
        elif callable(thing) and not isinstance(thing, type):
            yield name, thing


def _study_functions():
    for module in STUDIES:
        study = importlib.import_module(f"azul_fast.studies.{module}")
        for name in study.__all__:
            if inspect.isfunction(getattr(study, name)):
                yield f"studies.{module}.{name}", getattr(study, name)


PUBLIC = sorted(_public_functions())
STUDY = sorted(_study_functions())


@pytest.mark.parametrize(("name", "function"), PUBLIC + STUDY, ids=[name for name, _ in PUBLIC + STUDY])
def test_every_public_function_has_the_numpydoc_sections(name, function):
    """`help(azul_fast.simulate)` once left out first_player, max_rounds and progress: every
    public function says what it takes, gives, refuses, and shows it with a >>> example."""
    doc = function.__doc__ or ""
    found = _sections(doc)
    wanted = {"Examples"}
    if _takes_arguments(function):
        wanted |= {"Parameters", "Raises"}
    if name not in RETURNS_NONE:
        wanted.add("Returns")
    assert wanted <= found, f"{name} lacks {sorted(wanted - found)}"
    assert ">>>" in doc.split("Examples")[-1], f"{name}: no >>> example under Examples"


def test_public_functions_cover_the_api():
    names = {name for name, _ in PUBLIC}
    assert {"simulate", "simulate_moves", "play_game", "load", "save", "render_svg", "save_svg", "parse_move",
            "available_policies", "State.new", "State.play", "State.choose", "State.to_dict"} <= names
    assert len(STUDY) >= 14


def test_parameters_section_names_every_argument_of_simulate():
    """The sections exist, and simulate's lists every argument by name (some once forgot three)."""
    doc = azul_fast.simulate.__doc__
    parameters = doc.split("Parameters")[1].split("Returns")[0]
    for argument in inspect.signature(azul_fast.simulate).parameters:
        assert re.search(rf"^\s*{argument} :", parameters, flags=re.M), argument


def test_the_layers_are_attributes_and_dir_lists_no_internals():
    """`az.studies.seats` works after a plain import (the issue's `az.analysis` is `az.studies`
    since 0.2.0), `import azul_fast` loads no statistics or plotting, and dir() hides the modules
    behind the public names."""
    check = (
        "import sys, azul_fast as az\n"
        "heavy = [m for m in ('scipy', 'statsmodels', 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "assert az.studies.seats.seat_advantage and az.report.charts.plot_seat_advantage\n"
        "assert 'matplotlib' in sys.modules\n"
        "listed = set(dir(az))\n"
        "assert {'core', 'runs', 'studies', 'report', 'simulate', 'State'} <= listed\n"
        "hidden = {'lock', 'plan', 'storage', 'move_records', 'heartbeat', 'folders', 'lazy', '_state'} & listed\n"
        "assert not hidden, hidden\n"
        "assert not [n for n in listed if n.startswith('_') and not n.startswith('__')]\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(azul_fast.__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    with pytest.raises(AttributeError, match="has no attribute 'analysis'"):
        azul_fast.analysis  # noqa: B018  (the 0.1.0 name: the changelog's table says where it went)


# -- progress ------------------------------------------------------------------------------


def test_format_duration():
    assert [format_duration(s) for s in (0, 59.4, 60, 61, 3599, 3600, 5430)] == [
        "0 s", "59 s", "1 min", "1 min 1 s", "59 min 59 s", "1 h 00 min", "1 h 30 min"]
    assert format_duration(-3) == "0 s"


def _clock(monkeypatch, start=100.0):
    """A clock the test moves by hand, so the estimates are exact."""
    now = [start]
    monkeypatch.setattr("azul_fast.runs.heartbeat.time.perf_counter", lambda: now[0])
    return now


def test_the_plan_gives_the_fraction_done_and_the_time_left(monkeypatch):
    lines = []
    now = _clock(monkeypatch)
    with Heartbeat(lines.append, interval=3600, plan={"ladder": 10.0, "study": 30.0, "charts": 10.0}) as beat:
        beat.step("ladder")
        now[0] += 20  # the ladder took 20 s for its 10 planned: this machine runs at half the plan's speed
        beat.step("study")
        beat.say("study begins")
        beat.progress(0.5)  # 15 of 30 planned seconds, in 30 s
        now[0] += 30
        beat.progress(0.5)
        beat.say("half the study")
        now[0] += 10  # no progress since: the estimate counts down
        beat.say("later")
        now[0] += 60  # past the estimate
        beat.say("overdue")
        beat.step("charts")
        beat.step("pages")  # every planned step done
        beat.say("written")
    assert lines == ["study begins [20 % done, about 1 min 20 s left]",
                     "half the study [50 % done, about 50 s left]",
                     "later [50 % done, about 40 s left]",
                     "overdue [50 % done, this step is taking longer than planned]",
                     "written"]


def _timer_line(plan: dict[str, float] | None) -> str:
    lines = []
    with Heartbeat(lines.append, interval=0.05, plan=plan) as beat:
        beat.step("study")
        beat.step("second")
        beat.progress(0.25)
        deadline = __import__("time").monotonic() + 5
        while not lines and __import__("time").monotonic() < deadline:
            __import__("time").sleep(0.02)
    return lines[0]


def test_the_timer_line_shows_one_figure_of_progress():
    """A line said "80 % done, still running (180 s) [50 % done, ...]": the step's share and the whole
    command's on one line. With a plan it shows the whole command's; without one, the step's."""
    with_plan = _timer_line({"study": 1.0, "second": 1.0})
    assert re.fullmatch(r"second: still running \(\d+ s\) \[62 % done, .+\]", with_plan)
    assert re.fullmatch(r"second: 25 % done, still running \(\d+ s\)", _timer_line(None))


def test_without_a_plan_lines_are_unchanged():
    lines = []
    with Heartbeat(lines.append, interval=3600) as beat:
        beat.step("x")
        beat.progress(0.5)
        beat.say("a line")
    assert lines == ["a line"]


def test_a_bad_plan_is_refused():
    with pytest.raises(ValueError, match="plan: every step's estimate"):
        Heartbeat(print, plan={"a": -1.0})
    with pytest.raises(ValueError, match="plan: every step's estimate"):
        Heartbeat(print, plan={"a": float("nan")})


def test_the_strength_study_reports_its_fraction_by_cost():
    """The report's longest step tells how far it is: after each run, weighed by the cost model."""
    from azul_fast.studies.ladder import ladder
    from azul_fast.studies.strength import estimated_study_seconds, first_player_by_strength

    ratings = ladder(["random", "greedy"], games=10, seed=1, workers=1)
    fractions, lines = [], []
    first_player_by_strength(ratings, ["random", "greedy"], players=[2, 3], seconds=0.005, min_games=20, workers=1,
                             log=lines.append, progress=fractions.append)
    assert len(fractions) == 4 and fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert lines[0].endswith("(run 1 of 4)") and lines[-1].endswith("(run 4 of 4)")
    total = estimated_study_seconds(["random", "greedy"], [2, 3], seconds=0.005, min_games=20)
    assert 0 < fractions[0] < 1 and total > 0


def test_the_report_plan_covers_every_step_and_weighs_the_strength_study_most():
    from azul_fast.report.build import _config
    from azul_fast.report.steps import planned_seconds

    plan = planned_seconds(_config("x", None, (2, 3, 4), None, 2024, 2, None, "colored", "default"))
    assert set(plan) == {"strength ladder", "first player by strength", "simulate", "statistics", "opening types",
                         "move studies", "charts"}
    assert max(plan, key=plan.get) == "first player by strength"
    build = (SRC / "azul_fast" / "report" / "build.py").read_text()
    for step in plan:  # the plan's names are the steps build_report names
        assert f'("{step}", ' in build, step


def test_the_docs_promise_no_log_file_the_report_does_not_write():
    text = (SRC.parent / "docs" / "getting-started.md").read_text()
    assert "log file" not in text.replace("\n", " ")


def test_the_compiled_states_examples_run(capsys):
    """The State methods' examples live in a compiled module, which --doctest-modules does not
    read: doctest finds them in the docstrings Cython keeps."""
    import doctest

    from azul_fast.core import _state

    found = doctest.testmod(_state, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert found.attempted >= 30 and found.failed == 0, capsys.readouterr().out


def test_before_any_progress_the_time_left_is_the_cost_models(monkeypatch):
    lines = []
    now = _clock(monkeypatch)
    with Heartbeat(lines.append, interval=3600, plan={"tiny": 0.001, "rest": 10.0}) as beat:
        beat.step("tiny")
        now[0] += 2  # a step the plan thought free took 2 s: that says nothing about the speed of the rest
        beat.step("rest")
        beat.say("rest begins")
    assert lines == ["rest begins [0 % done, about 8 s left by the cost model]"]


def test_a_study_planned_past_an_hour_warns_before_it_starts(capsys, monkeypatch):
    """`strength` with mcts:1000000 and 1,000 deals a pair takes hours: it says so up front, with the
    cost model's estimate, instead of "[0 % done]"."""
    from azul_fast import cli
    from azul_fast.studies import ladder

    class Stop(Exception):
        pass

    def stop(*args, **kwargs):
        raise Stop

    monkeypatch.setattr(ladder, "ladder", stop)
    with pytest.raises(Stop):
        cli.main(["strength", "--policy", "greedy", "--policy", "mcts:1000000", "--ladder-games", "1000",
                  "--workers", "2"])
    lines = capsys.readouterr().err.splitlines()
    assert re.fullmatch(r"warning: by the cost model this takes about \d+ h \d\d min on 2 cores; .*", lines[0])
    assert re.search(r"\[0 % done, about \d+ h \d\d min left by the cost model\]", lines[1]), lines


def test_strength_prints_its_progress_and_time_left(capsys):
    from azul_fast import cli

    code = cli.main(["strength", "--policy", "random", "--policy", "greedy", "--players", "2", "3", "--seconds",
                     "0.05", "--ladder-games", "10", "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 0
    assert re.search(r"\(run 2 of 4\) \[\d+ % done, about [\dminhs ]+ left\]", err), err
