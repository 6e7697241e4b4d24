"""The quick default run and the long samples behind ``-m long``.

``pytest`` runs every module's tests in a few minutes on 2 cores; the tests listed in `LONG` (large
samples of games, whole-package type checks, subprocesses that play a study or a cluster, the real
browser) carry the ``long`` marker and run with ``pytest -m long`` (CI runs both, then the ``slow``
differential sample). A test is listed here, in one place, rather than decorated in its file, so the
line between the two runs is read at a glance and moved by editing one set.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

#: Test files, or tests (``file::name`` without parameters, or with them for one case), that are long.
LONG = {
    # The 10,000 reference games and the 2,000 gray ones (the quick run compares simulate's rows with
    # the reference engine on a few games of each wall: test_simulate_rows_equal_reference_games).
    "core/test_differential.py::test_core_matches_reference_on_10000_games",
    "core/test_gray.py::test_core_matches_reference_on_2000_gray_games",
    "core/test_gray.py::test_invariants_hold_in_many_core_gray_games",
    # The exact solver against brute force on more final rounds (2 players stay quick).
    *(f"core/test_solve.py::test_solve_agrees_with_brute_force_on_final_rounds[{case}]"
      for case in ("2-gray", "3-colored", "3-gray", "4-colored", "4-gray")),
    *(f"core/test_solve.py::test_forced_win_agrees_with_brute_force_on_final_rounds[{case}]"
      for case in ("2-colored", "3-colored", "3-gray", "4-colored", "4-gray")),
    "studies/test_analyse.py::test_analyse_agrees_with_solve_where_the_round_is_solvable[4-colored]",
    *(f"core/test_reference.py::test_tiles_are_conserved_after_every_move[{players}]" for players in (3, 4)),
    "core/test_search.py::test_searches_play_the_recorded_games[learned:500]",
    "core/test_search.py::test_the_full_rollout_searchs_two_player_settings_leave_three_and_four_players_alone",
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
    # The analysis board: a worker process per engine, its page in a real Chromium, the command as a server.
    "web/test_app.py",
    "web/test_engine.py",
    "web/test_page.py",
    "web/test_server.py",
    # A run stopped by every signal, and 1,000 bit flips of a saved file (one signal for each kind of
    # run, and the bit flips of a run's part, stay quick).
    *(f"runs/test_run_resume.py::test_a_run_killed_mid_way_resumes_to_the_uninterrupted_result[{signal}]"
      for signal in ("SIGTERM", "SIGINT", "SIGHUP")),
    "runs/test_run_tampering.py::test_bit_flips_in_a_saved_file_are_refused_or_harmless",
    "runs/test_run_resume.py::test_ctrl_c_stops_a_search_run_within_seconds_and_resume_finishes_it",
    "runs/test_run_resume.py::test_a_run_under_nohup_outlives_its_terminal",
    "runs/test_move_runs.py::test_a_move_run_killed_mid_way_resumes_to_simulate_moves",
    *(f"studies/test_analyse.py::test_a_long_search_stops_within_about_a_second_of_ctrl_c[{case}]"
      for case in ("analyse-one-worker-SIGTERM", "analyse-ply-SIGINT", "analyse-ply-SIGTERM",
                   "analyse-rollouts-SIGINT", "analyse-rollouts-SIGTERM", "openings-SIGINT", "openings-SIGTERM")),
    *(f"report/test_report_folder.py::test_a_signal_during_the_report_cleans_the_staging_folder[{signal}]"
      for signal in ("SIGTERM", "SIGHUP")),
    # Subprocesses that run a study or a report end to end, and the report on both walls; the
    # example that builds a report (the quick run builds one in tests/cli/test_studies.py).
    "src/azul_fast/report/build.py::azul_fast.report.build",
    "core/test_gray.py::test_report_compares_both_walls",
    "report/test_readme.py::test_readme_counts_the_browser_tests_that_skip_without_chromium",
    "cli/test_studies.py::test_report_seat_study_is_the_strength_studys_games",
    "cli/test_games.py::test_openings_rollouts_on_the_gray_wall",
    "studies/test_analyse.py::test_cli_review_writes_a_new_folder_only",
    "studies/test_opening_types.py::test_adaptive_types_stop_on_the_budget_or_once_separated",
    # The analysis/ scripts of the strong-play studies, each run on a small sample.
    "studies/test_strong_play_scripts.py",
    "report/test_readme.py::test_an_analysis_rebuild_command_runs_as_written",
    "studies/test_strength.py::test_strength_command_prints_table_verdict_and_writes_csv_and_chart",
    "cli/test_studies.py::test_report_as_a_subprocess_reproduces_the_games",
    "cli/test_studies.py::test_the_reports_printed_command_runs_as_printed",
    "cli/test_studies.py::test_report_on_both_walls_plays_the_gray_wall_on_the_strength_studys_deals",
}


def _names(item: pytest.Item) -> set[str]:
    """The ways `LONG` may name `item`: its file, the test, the test with its parameters (a file under
    tests/ by its path from there, a doctest of the package by its path from the project's root)."""
    root = item.config.rootpath
    path = item.path.relative_to(root / "tests" if item.path.is_relative_to(root / "tests") else root).as_posix()
    test = item.name.split("[", 1)[0]
    return {path, f"{path}::{test}", f"{path}::{item.name}"}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    named: set[str] = set()
    for item in items:
        names = _names(item) if item.path.is_relative_to(config.rootpath) else set()
        named |= names
        if names & LONG:
            item.add_marker(pytest.mark.long)
    # A renamed test would leave its LONG entry naming nothing and itself join the quick run: where a
    # whole file was collected (no test picked by node id), every entry for that file must name a test.
    if not any("::" in arg for arg in config.args):
        files = {name for name in named if "::" not in name}
        stale = sorted(entry for entry in LONG if entry.split("::")[0] in files and entry not in named)
        if stale:
            raise pytest.UsageError(f"tests/conftest.py LONG names no collected test: {', '.join(stale)}")


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


@pytest.fixture
def stoppable() -> Iterator[None]:
    """Ctrl-C and the hang-up as an interactive Python has them, for a test that raises them in its own
    process: a shell starting the tests in the background leaves SIGINT ignored and `nohup` SIGHUP, and an
    ignored signal stays ignored (`azul_fast.runs.signals` then leaves it so, as it must for a user)."""
    import signal

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGHUP)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
