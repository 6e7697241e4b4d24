"""The quick default run and the long samples behind ``-m long``.

``pytest`` runs every module's tests in a few minutes on 2 cores; the tests listed in `LONG` (large
samples of games, whole-package type checks, subprocesses that play a study or a cluster, the real
browser) carry the ``long`` marker and run with ``pytest -m long`` (CI runs both, then the ``slow``
differential sample). A test is listed here, in one place, rather than decorated in its file, so the
line between the two runs is read at a glance and moved by editing one set.
"""

from __future__ import annotations

import pytest

#: Test files, or tests (``file::name`` without parameters, or with them for one case), that are long.
LONG = {
    # 9,000 of the 10,000 reference games (block 0 stays quick) and 1,500 of the 2,000 gray ones.
    *(f"core/test_differential.py::test_core_matches_reference_on_10000_games[{b}]" for b in range(1, 10)),
    *(f"core/test_gray.py::test_core_matches_reference_on_2000_gray_games[{b}]" for b in range(1, 4)),
    "core/test_gray.py::test_invariants_hold_in_many_core_gray_games",
    "core/test_fuzz.py::test_mutated_positions_are_rejected_or_sound",
    "core/test_fuzz.py::test_two_threads_simulating_at_once_match_sequential_runs",
    # Strength matches of hundreds of searched games, and searches stopped by signals in subprocesses
    # (one signal case stays quick).
    "core/test_search.py::test_heuristic_beats_greedy",
    "core/test_search.py::test_default_search_beats_greedy_clearly",
    "core/test_learned.py::test_learned_clearly_beats_heuristic",
    "core/test_search.py::test_an_interrupt_stops_the_largest_search_within_seconds[simulate_moves-SIGINT]",
    "core/test_search.py::test_an_interrupt_stops_the_largest_search_within_seconds[run_to_folder-SIGINT]",
    "core/test_search.py::test_an_interrupt_stops_the_largest_search_within_seconds[run_to_folder-SIGTERM]",
    # mypy --strict over the package twice, and stubtest against the compiled modules.
    "package/test_typing.py::test_mypy_strict_passes",
    "package/test_typing.py::test_mypy_strict_passes_without_the_dask_and_board_extras",
    "package/test_typing.py::test_stubs_match_the_compiled_modules",
    # Whole files: a Dask cluster per test, a real Chromium per page.
    "runs/test_distributed.py",
    "studies/test_cluster_studies.py",
    "report/test_browser.py",
    # The analysis board: a worker process per engine, and its page in a real Chromium.
    "board/test_app.py",
    "board/test_engine.py",
    "board/test_page.py",
    # Subprocesses that run a study or a report end to end.
    "report/test_readme.py::test_an_analysis_rebuild_command_runs_as_written",
    "studies/test_strength.py::test_strength_command_prints_table_verdict_and_writes_csv_and_chart",
    "cli/test_cli.py::test_report_as_a_subprocess_reproduces_the_games",
    "cli/test_cli.py::test_the_reports_printed_command_runs_as_printed",
    "cli/test_cli.py::test_report_on_both_walls_plays_the_gray_wall_on_the_strength_studys_deals",
}


def _names(item: pytest.Item) -> set[str]:
    """The ways `LONG` may name `item`: its file, the test, the test with its parameters."""
    path = item.path.relative_to(item.config.rootpath / "tests").as_posix()
    test = item.name.split("[", 1)[0]
    return {path, f"{path}::{test}", f"{path}::{item.name}"}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(config.rootpath / "tests") and _names(item) & LONG:
            item.add_marker(pytest.mark.long)


@pytest.fixture
def policy_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names the policy parser reads while the test runs, in order: a test that a name is parsed once
    at a boundary and its `PolicySpec` carried on (which `parse_policy` passes through unread)."""
    from azul_fast.core.bots import policies

    calls: list[str] = []
    real = policies._parse_name

    def counting(name: str, training: bool) -> policies.PolicySpec:
        calls.append(name)
        return real(name, training)

    monkeypatch.setattr(policies, "_parse_name", counting)
    return calls
