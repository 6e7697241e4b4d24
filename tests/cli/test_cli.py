"""The `azul-fast` command: every subcommand in-process, the report end to end, and bad arguments."""

import argparse
import html
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import azul_fast  # noqa: E402
from azul_fast import available_policies, cli, load, play_game, simulate, simulate_moves  # noqa: E402
from azul_fast.core.bots.policies import policy_budget  # noqa: E402
from azul_fast.report.folder import REPLAY_MANIFEST, record_files  # noqa: E402
from azul_fast.runs.folders import run_to_folder  # noqa: E402
from azul_fast.studies.in_game import end_bonuses, marker_takers  # noqa: E402
from azul_fast.studies.openings import OPENING_FEATURES  # noqa: E402
from azul_fast.studies.settings import default_policy  # noqa: E402

SRC = Path(__file__).resolve().parents[2] / "src"
CHARTS = ["first_player_by_strength", "seat_advantage", "score_distributions", "wall_heatmap", "opening_tiles",
          "opening_types", "opening_ranking", "marker_value", "marker_cost", "marker_rollouts", "end_bonuses",
          "score_curve", "floor_by_round", "strength_frontier"]  # every chart written is shown on the page
COMMANDS = ["simulate", "seats", "openings", "replay", "report", "bench", "ladder", "strength"]


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_subprocess(*argv, cwd=None, module="azul_fast"):
    env = dict(os.environ, PYTHONPATH=str(SRC), MPLBACKEND="Agg")
    return subprocess.run([sys.executable, "-m", module, *map(str, argv)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def linked_files(page: str) -> set[str]:
    """Every href/src of an HTML page that is not an embedded data: URI or a web address."""
    targets = set(re.findall(r'(?:href|src)="([^"]+)"', page))
    return {t for t in targets if not t.startswith(("data:", "http://", "https://", "#"))}


# -- the report ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_run(tmp_path_factory):
    """The quick report, and the names the policy parser read while it ran (`policy_parses`)."""
    from azul_fast.core.bots import policies

    out = tmp_path_factory.mktemp("report") / "tmp"
    parses: list[str] = []
    real = policies._parse_name
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(policies, "_parse_name", lambda name, training: parses.append(name) or real(name, training))
        assert cli.main(["report", "--games", "300", "--out", str(out), "--quick", "--workers", "2", "--quiet"]) == 0
    return out, parses


@pytest.fixture(scope="module")
def report_dir(report_run):
    return report_run[0]


def test_the_report_parses_each_policy_name_at_most_once(report_run):
    """The report parses its policies where they enter it (its settings, the ladder's best level, the marker's
    candidates) and every study carries the specs: no name is read again in a step."""
    parses = report_run[1]
    assert parses and max(parses.count(name) for name in parses) == 1, parses


def policy_games(players, games=300):
    """Games of the report's policy at `players` players in the fixture's quick report."""
    from azul_fast.studies.settings import SETTINGS

    return SETTINGS["quick"].top_games(players, games)


def test_report_writes_page_summary_games_and_every_chart(report_dir):
    for name in ["index.html", "summary.md", "seat_advantage.csv", "opening_types.csv", "opening_ranking.csv"]:
        assert (report_dir / name).stat().st_size > 0, name
    for chart in CHARTS:
        assert (report_dir / f"{chart}.png").stat().st_size > 1000
        assert "<text" in (report_dir / f"{chart}.svg").read_text()
    for players in (2, 3, 4):
        games = load(report_dir / f"games-{players}p.parquet")
        assert len(games) == policy_games(players) and set(games.players) == {players}
        assert set(games.policy_0) == {default_policy("quick")}


def test_report_seat_study_is_the_strength_studys_games(report_dir):
    """One source for every number: the seat study's first-player share is the headline row's."""
    strength = pd.read_csv(report_dir / "first_player_by_strength.csv")
    seats = pd.read_csv(report_dir / "seat_advantage.csv")
    for players in (2, 3, 4):
        row = strength[(strength.players == players) & (strength.policy == default_policy("quick"))].iloc[0]
        first = seats[(seats.players == players) & (seats.seat == seats.first_player)].iloc[0]
        assert row.games == first.games == policy_games(players)
        assert first.win_share == pytest.approx(row.first_player_share)
        again = simulate(int(row.games), players, row.policy, seed=int(row.seed), workers=2)
        pd.testing.assert_frame_equal(load(report_dir / f"games-{players}p.parquet"), again)


def test_report_csvs_name_their_policy(report_dir):
    for path in sorted(report_dir.glob("*.csv")):
        table = pd.read_csv(path)
        assert "policy" in table.columns and table.policy.notna().all(), path.name
    strong = {"opening_types", "opening_moves", "opening_ranking", "marker_rollouts"}
    for name in strong:   # played by the report's policy, a search
        assert set(pd.read_csv(report_dir / f"{name}.csv").policy) == {default_policy("quick")}, name
    assert policy_budget(default_policy("quick")) > 0


def test_report_page_links_only_files_that_exist(report_dir):
    page = (report_dir / "index.html").read_text()
    links = linked_files(page)
    assert {f"{c}.svg" for c in CHARTS} <= links and "games-2p.parquet" in links
    missing = sorted(link for link in links if not (report_dir / link).is_file())
    assert not missing, missing
    assert page.count('src="data:image/png;base64,') == len(CHARTS)  # self-contained: charts embedded


def test_report_page_says_how_it_was_run(report_dir):
    page = (report_dir / "index.html").read_text()
    assert "azul-fast report --games 300 --out" in page  # as typed
    assert f"--quick --games 300 --players 2 3 4 --policy {default_policy('quick')} --seed 2024 --rollouts 2" in page
    for needle in ["How it was run", "rules", "statsmodels", "run root seeds", "first player's win share", "3B2"]:
        assert needle in page
    summary = (report_dir / "summary.md").read_text()
    # the strongest level's answer at every player count first, then the seat study
    answers = [summary.index(f"**{players} players: ") for players in (2, 3, 4)]
    assert answers == sorted(answers) and answers[-1] < summary.index("**Seat study, ")
    heading = rf"\*\*Seat study, {default_policy('quick')} \([+-]\d+ Elo\) in every seat\*\*"
    games = rf"\(fair 50.0%, {policy_games(2):,} games\)"
    assert re.search(heading + rf" \(ties split\): first player [^(]+{games}", summary)
    for chart in CHARTS:
        assert f"({chart}.svg)" in summary


def test_the_printed_run_seeds_replay_the_saved_games(report_dir):
    """The page's "run root seeds" once printed seeds spawned from the report seed while the files held the
    strength study's games, played from other seeds: each printed seed is now its file's own root_seed, and
    simulate from it gives the file's games again."""
    summary = (report_dir / "summary.md").read_text()
    printed = dict(re.findall(r"(\d) players (\d+)", re.search(r"run root seeds: `([^`]*)`", summary)[1]))
    assert sorted(printed) == ["2", "3", "4"]
    for players, seed in printed.items():
        assert load(report_dir / f"games-{players}p.parquet").attrs["root_seed"] == seed
    saved = load(report_dir / "games-2p.parquet")
    again = simulate(len(saved), 2, default_policy("quick"), seed=int(printed["2"]), workers=2)
    columns = [c for c in saved.columns if "second" not in c]
    pd.testing.assert_frame_equal(again[columns].reset_index(drop=True), saved[columns].reset_index(drop=True))


def test_report_numbers_match_the_saved_games(report_dir):
    table = pd.read_csv(report_dir / "seat_advantage.csv")
    games = load(report_dir / "games-3p.parquet")
    three = table[table.players == 3]
    assert three.wins.tolist() == [int(games[f"win_{s}"].sum()) for s in range(3)]


def test_report_move_studies_name_their_policy_and_come_from_their_seed(report_dir):
    summary = (report_dir / "summary.md").read_text()
    found = re.search(r"\*\*The first-player marker\*\* \(2 players, ([\w:]+) \(([+-]\d+) Elo\), ([\d,]+) games",
                      summary)
    assert found, "the move studies' summary names the policy and its Elo"
    policy, elo, games = found[1], int(found[2]), int(found[3].replace(",", ""))
    ladder = pd.read_csv(report_dir / "ladder.csv")
    assert policy == ladder.policy[ladder.rating.idxmax()] and elo == round(ladder.rating.max())
    seed = int(re.search(r"move studies: `[\d,]+ games of [\w:]+ at 2 players recorded move by move, root seed (\d+)",
                         summary)[1])
    records = simulate_moves(games, 2, policy, seed=seed, workers=2)
    written = pd.read_csv(report_dir / "end_bonuses.csv")
    assert set(written.policy) == {policy}
    pd.testing.assert_frame_equal(written.drop(columns="policy"), end_bonuses(records.games), check_dtype=False)
    by_round = pd.read_csv(report_dir / "marker_by_round.csv")
    assert by_round.n.sum() == len(marker_takers(records))
    for section in ("Every move: the first-player marker", "End bonuses", "Score by round and floor penalties"):
        assert f"## {section}" in summary
    rollouts = pd.read_csv(report_dir / "marker_rollouts.csv")
    assert set(rollouts["round"]) <= {1, 2, 3, 4} and rollouts.n.min() >= 1


def test_report_as_a_subprocess_reproduces_the_games(tmp_path, report_dir):
    result = run_subprocess("report", "--quick", "--games", "300", "--players", "2", "--rollouts", "2",
                            "--out", tmp_path / "r")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "r" / "index.html")
    assert "report written" in result.stderr  # progress lines go to stderr
    again = load(tmp_path / "r" / "games-2p.parquet")
    pd.testing.assert_frame_equal(again, load(report_dir / "games-2p.parquet"))


def test_the_reports_printed_command_runs_as_printed(tmp_path):
    """The page's "reproduce with" command, pasted into a shell, rebuilds the same report (it once
    named a --default option the command did not have). The folder has a space, so it must be quoted."""
    out = tmp_path / "my report"
    first = run_subprocess("report", "--quick", "--games", "300", "--players", "2", "--out", out)
    assert first.returncode == 0, first.stderr
    printed = re.search(r"- reproduce with: `(.+)`", (out / "summary.md").read_text())[1]
    assert printed == html.unescape(re.search(r"reproduce with</th><td[^>]*><code>([^<]+)</code>",
                                              (out / "index.html").read_text())[1])
    program, *argv = shlex.split(printed)
    assert program == "azul-fast" and "--quick" in argv
    games = load(out / "games-2p.parquet")
    again = run_subprocess(*argv, cwd=tmp_path)  # `azul-fast` is `python -m azul_fast` here
    assert again.returncode == 0, again.stderr
    pd.testing.assert_frame_equal(load(out / "games-2p.parquet"), games)


@pytest.mark.parametrize("setting", ["quick", "default", "thorough"])
def test_the_reproduce_command_of_every_setting_parses(setting):
    from azul_fast.report.config import ReportConfig

    config = ReportConfig(Path("my reports/it's here"), 10, (2, 3), "mcts:20", 7, 1, 2, "both", setting)
    program, *argv = shlex.split(config.command())
    args = cli.build_parser().parse_args(argv)
    assert program == "azul-fast" and args.command == "report"
    assert (args.setting, args.out, args.players, args.policy, args.variant) == (
        setting, "my reports/it's here", [2, 3], "mcts:20", "both")


def test_report_tab_shows_the_title(report_dir):
    page = (report_dir / "index.html").read_text()
    title = re.search(r"<title>(.*?)</title>", page)[1]
    assert title == re.search(r"<h1>(.*?)</h1>", page)[1] and title.startswith("azul_fast report")


# -- the other commands ---------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_help_on_every_command(capsys, command):
    code, out, err = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: azul-fast {command}") and err == ""
    assert "%%" not in out  # argparse %-formats argument help, not descriptions: 95% must print as such


def test_simulate_out_must_be_a_parquet_file_or_a_folder(tmp_path, capsys, monkeypatch):
    """`--out x.csv` used to become a folder x.csv/ of parts without a word."""
    monkeypatch.chdir(tmp_path)
    for out in ("x.csv", "games.pq", "run.v2"):
        code, printed, err = run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", out)
        assert code == 2 and printed == "" and len(err.splitlines()) == 1, err
        assert f"--out {out} is neither FILE.parquet nor a folder for a run" in err
    (tmp_path / "notes.txt").write_text("the user's")
    code, printed, err = run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", "notes.txt")
    assert code == 2 and "is a file but not .parquet" in err and (tmp_path / "notes.txt").read_text() == "the user's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    # Any case of .parquet is a file; a dotted name ending in / (or an existing folder) is a run folder.
    assert run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", "games.PARQUET")[0] == 0
    assert (tmp_path / "games.PARQUET").is_file() and len(load(tmp_path / "games.PARQUET")) == 10
    assert run(capsys, "simulate", "--games", 10, "--seed", 1, "--workers", 1, "--out", "run.v2/")[0] == 0
    assert len(load(tmp_path / "run.v2")) == 10


@pytest.mark.parametrize(("typed", "meant"), [("greedyy", "'greedy'"), ("mtcs", "'mcts'"), ("mtcs:30", "'mcts:30'"),
                                              ("lerned:5", "'learned:5'"), ("heurstic", "'heuristic'")])
def test_a_policy_typo_gets_a_suggestion(capsys, typed, meant):
    code, out, err = run(capsys, "replay", "--seed", 1, "--policy", typed, "--quiet")
    assert code == 2 and out == ""
    assert f"unknown policy '{typed}'; did you mean {meant}" in err


def test_a_policy_name_in_any_case_is_the_library_name(capsys):
    code, out, _ = run(capsys, "replay", "--seed", 1, "--policy", "Greedy", "--policy", "RANDOM", "--quiet")
    assert code == 0 and "policies greedy v random" in out
    assert cli.build_parser().parse_args(["report", "--policy", "MCTS:20"]).policy == "mcts:20"


def test_policy_help_names_every_form_of_a_search_budget(capsys):
    for command in ("simulate", "report", "ladder", "replay"):
        out = " ".join(run(capsys, command, "--help")[1].split())
        assert "mcts:N" in out and "learned:N" in out, command


@pytest.mark.parametrize(("typed", "games"), [("1e6", 1_000_000), ("1_000_000", 1_000_000), ("1,000", 1000),
                                              ("2.5e3", 2500), ("12", 12)])
def test_games_accepts_the_ways_people_write_an_integer(typed, games):
    assert cli.build_parser().parse_args(["report", "--games", typed]).games == games
    assert cli.build_parser().parse_args(["simulate", "--games", typed, "--out", "x.parquet"]).games == games


@pytest.mark.parametrize("typed", ["1.5", "1e-3", "inf", "nan", "ten", "1e"])
def test_games_refuses_what_is_not_an_integer(capsys, typed):
    code, _, err = run(capsys, "report", "--games", typed)
    assert code == 2 and "argument --games: expected an integer" in err and repr(typed) in err


def test_a_missing_file_is_no_such_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (["seats", "nonexist.parquet"], ["openings", "nonexist.parquet"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == ""
        assert err.strip() == "azul-fast: error: no such file or folder: nonexist.parquet", err
    with pytest.raises(FileNotFoundError) as raised:
        load(tmp_path / "nonexist.parquet")
    assert raised.value.filename == str(tmp_path / "nonexist.parquet")


def test_an_unknown_option_points_at_the_subcommands_help(capsys):
    code, _, err = run(capsys, "strength", "--thorogh")
    assert code == 2
    assert err.strip() == ("azul-fast strength: unrecognized arguments: --thorogh "
                           "(see azul-fast strength --help)")


def test_every_hint_the_strength_verdict_prints_is_an_option_of_the_commands_that_print_it(capsys):
    """The inconclusive verdict says "(play more games: --thorough)": both `strength` and `report`
    print it, so both must take that option (strength once refused it)."""
    from azul_fast.studies.strength import strength_verdict

    table = pd.DataFrame({"players": 2, "policy": ["a", "b"], "elo": [0.0, 100.0], "games": 1000,
                          "first_player_share": [0.52, 0.51], "ci_low": [0.49, 0.48],
                          "ci_high": [0.55, 0.54], "se": [0.0155, 0.0155]})
    hints = re.findall(r"(--[a-z][a-z-]+)", strength_verdict(table, 2)["text"])
    assert hints == ["--thorough"]
    for command in ("strength", "report"):
        for hint in hints:
            code, out, err = run(capsys, command, hint, "--help")
            assert code == 0 and err == "", (command, hint, err)
    args = cli.build_parser().parse_args(["strength", "--thorough"])
    assert args.thorough and args.seconds is None  # the sizes of report --thorough, unless given


def test_strength_thorough_plays_the_thorough_sizes(monkeypatch, capsys):
    """--thorough gives the ladder and the study the sizes of `report --thorough`; an explicit
    option wins. The study itself is replaced: only the sizes it is asked for are checked."""
    from azul_fast.studies import ladder, strength
    from azul_fast.studies.settings import SETTINGS

    asked = {}

    class Stop(Exception):
        pass

    def fake_ladder(levels, games, seed, workers, client=None):
        asked["ladder_games"] = games
        return pd.DataFrame()

    def fake_study(ratings, levels, players, seconds, **kwargs):
        asked["seconds"] = seconds
        raise Stop

    monkeypatch.setattr(ladder, "ladder", fake_ladder)
    monkeypatch.setattr(strength, "first_player_by_strength", fake_study)
    with pytest.raises(Stop):
        cli.main(["strength", "--thorough", "--quiet"])
    assert asked == {"ladder_games": SETTINGS["thorough"].ladder_games, "seconds": SETTINGS["thorough"].seconds}
    with pytest.raises(Stop):
        cli.main(["strength", "--thorough", "--seconds", "7", "--quiet"])
    assert asked == {"ladder_games": SETTINGS["thorough"].ladder_games, "seconds": 7.0}
    with pytest.raises(Stop):
        cli.main(["strength", "--quiet"])
    assert asked == {"ladder_games": 40, "seconds": 3.0}


def test_replay_bad_seed_names_what_a_command_line_can_pass(capsys):
    code, out, err = run(capsys, "replay", "--seed", "-1")
    assert code == 2 and out == ""
    assert "argument --seed: expected an integer in 0..2**64-1, got '-1'" in err
    assert "None" not in err and "SeedSequence" not in err  # the library's other seeds, not typeable here


def test_git_ignores_the_reports_default_folder_and_the_ci_venv():
    """`azul-fast report` in a clone writes azul-fast-report/ there: git status must stay clean."""
    from azul_fast.report.build import DEFAULT_OUT

    root = SRC.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    paths = [f"{DEFAULT_OUT}/summary.md", f"{DEFAULT_OUT}/charts/seat_advantage.png", ".venv-ci/pyvenv.cfg"]
    try:
        done = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=root, capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("git is not installed")
    assert done.stdout.split() == paths, done.stderr


def test_help_imports_no_statistics_or_plotting():
    """`azul-fast --help` stays quick: building the parser imports neither scipy, statsmodels nor matplotlib."""
    check = ("import sys; from azul_fast import cli; cli.build_parser(); "
             "heavy = sorted(m for m in ('scipy', 'statsmodels', 'matplotlib') if m in sys.modules); "
             "assert not heavy, heavy")
    env = dict(os.environ, PYTHONPATH=str(SRC))
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr


def test_simulate_then_seats(tmp_path, capsys):
    path = tmp_path / "games.parquet"
    code, out, _ = run(capsys, "simulate", "--games", 500, "--players", 3, "--policy", "greedy", "--seed", 9,
                       "--workers", 1, "--out", path)
    assert code == 0 and "wrote 500 games" in out and "root seed 9" in out
    games = load(path)
    assert len(games) == 500 and games.attrs["root_seed"] == "9" and set(games.policy_2) == {"greedy"}
    code, out, _ = run(capsys, "seats", path)
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 1 + 3 and "0 (first)" in lines[1]
    code, out, _ = run(capsys, "seats", path, "--csv")
    table = pd.read_csv(__import__("io").StringIO(out))
    assert table.wins.tolist() == [int(games[f"win_{s}"].sum()) for s in range(3)]


def test_simulate_seat_rotation_and_paired_table(tmp_path, capsys):
    path = tmp_path / "rotated.parquet"
    code, _, _ = run(capsys, "simulate", "--games", 200, "--policy", "greedy", "--policy", "random", "--seed", 1,
                     "--workers", 1, "--seat-rotation", "--out", path)
    games = load(path)
    assert code == 0 and len(games) == 400 and {"deal", "rotation"} <= set(games.columns)
    code, out, _ = run(capsys, "seats", path)
    assert code == 0 and "compared within each deal" in out and "seat 1" in out


def test_simulate_passes_scheduler_only_when_given(tmp_path, capsys, monkeypatch):
    from azul_fast.cli import games

    seen = []
    real = games.simulate

    def spy(*args, **kwargs):
        seen.append(dict(kwargs))
        kwargs.pop("scheduler", None)  # no cluster here: run locally
        return real(*args, **kwargs)

    monkeypatch.setattr(games, "simulate", spy)
    run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", tmp_path / "a.parquet")
    run(capsys, "simulate", "--games", 10, "--seed", 1, "--out", tmp_path / "b.parquet", "--scheduler", "tcp://x:8786")
    assert "scheduler" not in seen[0] and seen[1]["scheduler"] == "tcp://x:8786"


def test_simulate_to_a_real_folder_then_resume_and_read(tmp_path, capsys):
    pytest.importorskip("azul_fast.runs.folders")
    folder = tmp_path / "run"
    code, out, _ = run(capsys, "simulate", "--games", 300, "--policy", "greedy", "--seed", 4, "--workers", 1,
                       "--out", folder)
    assert code == 0 and "root seed 4" in out
    # Resuming a finished run keeps its own root seed, whatever --seed says now.
    code, out, _ = run(capsys, "simulate", "--games", 300, "--policy", "greedy", "--workers", 1, "--out", folder,
                       "--resume")
    assert code == 0 and "root seed 4" in out
    assert out.splitlines() == [f"the run in {folder} was already finished: nothing to play (root seed 4)"]
    assert len(load(folder)) == 300
    code, again, err = run(capsys, "simulate", "--games", 300, "--policy", "greedy", "--out", folder)
    assert code == 2 and "--resume" in err and again == ""


def test_simulate_resume_counts_only_the_games_it_plays(tmp_path, capsys):
    """Not the whole run over the seconds of the last part (an absurd games-per-second figure)."""
    folder = run_to_folder(tmp_path / "run", 300, seed=4, workers=1, chunk_size=100)
    (folder / "part-000000000100.parquet").unlink()
    code, out, _ = run(capsys, "simulate", "--games", 300, "--workers", 1, "--out", folder, "--resume")
    assert code == 0 and out.startswith(f"wrote 100 games to {folder} (root seed 4, ")


def test_simulate_resume_keeps_the_folder_seed_and_refuses_another(tmp_path, capsys):
    folder = tmp_path / "run"
    args = ("simulate", "--games", 300, "--workers", 1, "--out", folder)
    assert run(capsys, *args, "--seed", 4)[0] == 0
    code, out, err = run(capsys, *args, "--seed", 5, "--resume")
    assert code == 2 and out == "" and "differs in root_seed" in err and len(err.splitlines()) == 1
    code, out, _ = run(capsys, *args, "--seed", 4, "--resume")
    assert code == 0 and "root seed 4" in out


def test_simulate_resume_refuses_a_folder_that_is_not_a_run(tmp_path, capsys):
    folder = tmp_path / "u"
    folder.mkdir()
    (folder / ".draft.tmp").write_text("draft")
    (folder / "notes.txt").write_text("notes")
    code, out, err = run(capsys, "simulate", "--games", 1000, "--out", folder, "--resume")
    assert code == 2 and out == "" and "holds no run manifest" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in folder.iterdir()) == [".draft.tmp", "notes.txt"]


def test_simulate_refuses_an_empty_out_instead_of_the_current_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "simulate", "--games", 10, "--out", "")
    assert code == 2 and out == "" and "--out is empty" in err
    assert not list(tmp_path.iterdir())


def test_a_run_folder_in_use_or_broken_is_named_in_one_line(tmp_path, capsys):
    from azul_fast.runs.lock import run_lock

    folder = tmp_path / "run"
    folder.mkdir()
    with run_lock(folder):
        code, _, err = run(capsys, "simulate", "--games", 100, "--out", folder)
    assert code == 2 and f"in use by pid {os.getpid()}" in err and len(err.splitlines()) == 1
    assert run(capsys, "simulate", "--games", 100, "--seed", 1, "--out", folder)[0] == 0
    manifest = folder / "_manifest.json"
    manifest.write_text(manifest.read_text().replace('"parts"', '"prts"'))
    code, out, err = run(capsys, "seats", folder)
    assert code == 2 and out == "" and err.strip() == f"azul-fast: error: {manifest}: no 'parts'"


def test_replay_prints_every_move_and_board(capsys):
    code, out, _ = run(capsys, "replay", "--seed", 12345, "--players", 2, "--policy", "greedy")
    record = play_game(2, "greedy", 12345)
    assert code == 0
    assert out.count("\nMove ") == record.turns
    assert f"Move 1: player 0 (greedy) plays {record.moves[0]}" in out
    assert out.count("Factories") == record.turns + 1  # the deal, then the board after every move
    assert out.strip().splitlines()[-1].endswith(f"scores {record.scores}, winners {record.winners}")


def test_openings_rollouts_and_study(tmp_path, capsys):
    code, out, _ = run(capsys, "openings", "--seed", 5, "--rollouts", 3, "--top", 4, "--workers", 1)
    lines = out.strip().splitlines()
    assert code == 0 and lines[0].startswith(f"deal 5, 2 players, {default_policy()} in every seat, 3 rollouts")
    assert len(lines) == 2 + 4 and lines[2].split()[0] == "1"
    path = tmp_path / "g.parquet"
    run(capsys, "simulate", "--games", 300, "--seed", 2, "--workers", 1, "--out", path)
    code, out, _ = run(capsys, "openings", path, "--csv")
    study = pd.read_csv(__import__("io").StringIO(out))
    assert code == 0 and set(study.feature) == {"tiles", "line", "overflow", "source"}
    assert study.groupby("feature").games.sum().tolist() == [300] * 4


def test_openings_rollouts_on_the_gray_wall(capsys):
    args = ("openings", "--seed", 5, "--rollouts", 3, "--workers", 1, "--csv")
    _, colored, _ = run(capsys, *args)
    code, gray, _ = run(capsys, *args, "--variant", "gray")
    assert code == 0 and gray != colored  # the same deal, finished on the other wall
    ranking = pd.read_csv(__import__("io").StringIO(gray))
    assert len(ranking) == len(azul_fast.State.new(2, seed=5, variant="gray").legal_moves)
    code, out, _ = run(capsys, "openings", "--seed", 5, "--rollouts", 3, "--top", 2, "--workers", 1,
                       "--variant", "gray")
    assert out.startswith("deal 5, 2 players, gray wall, ")


def test_bench_prints_games_per_second(capsys):
    code, out, _ = run(capsys, "bench", "--games", 300, "--workers", 1)
    lines = out.strip().splitlines()
    fast = [name for name in available_policies() if policy_budget(name) == 0]  # searches only when named
    assert code == 0 and len(lines) == len(fast)
    for name, line in zip(fast, lines):
        assert re.match(rf"\s*{name}, 2 players:\s+[\d,]+ games/s \(300 games in", line)


# -- bad arguments ---------------------------------------------------------------------------


BAD = [
    [],
    ["bogus"],
    ["simulate"],
    ["simulate", "--games", "0", "--out", "x.parquet"],
    ["simulate", "--games", "ten", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--policy", "nope", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--players", "3", "--policy", "greedy", "--policy", "random", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--first-player", "5", "--out", "x.parquet"],
    ["simulate", "--games", "10", "--out", "x.parquet", "--resume"],
    ["simulate", "--games", "10", "--out", ""],
    ["seats", "missing.parquet"],
    ["seats", "not-parquet.txt"],
    ["openings", "--rollouts", "1"],
    ["openings", "--policy", "greedy", "--policy", "random"],
    ["replay", "--seed", "-1"],
    ["replay", "--players", "5", "--seed", "1"],
    ["report", "--players", "5"],
    ["report", "--games", "-3"],
    ["bench", "--workers", "0"],
    ["strength", "--seconds", "inf"],
    ["strength", "--seconds", "nan"],
    ["strength", "--policy", "mcts:05"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) or "nothing" for a in BAD])
def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-parquet.txt").write_text("hello")
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("azul-fast")
    assert not (tmp_path / "x.parquet").exists()


@pytest.mark.parametrize("command", ["seats", "openings"])
@pytest.mark.parametrize("dropped", ["win_1", "policy_0", "players", "opening"])
def test_seats_and_openings_name_a_missing_column_in_one_line(tmp_path, capsys, command, dropped):
    """A file missing a seat column used to end in a KeyError traceback."""
    path = tmp_path / "games.parquet"
    simulate(30, seed=1, workers=1).drop(columns=[dropped]).to_parquet(path)
    code, out, err = run(capsys, command, path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.strip() == f"azul-fast: error: {path}: not games saved by `azul-fast simulate`: no column {dropped}"


def test_bad_arguments_in_a_real_process(tmp_path):
    result = run_subprocess("simulate", "--games", "0", "--out", "x.parquet", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "azul-fast simulate: argument --games: must be at least 1, got 0 (see azul-fast simulate --help)"]
    version = run_subprocess("--version", module="azul_fast.cli")
    assert version.returncode == 0 and version.stdout.startswith("azul-fast ")


# -- diagrams --------------------------------------------------------------------------------


def test_replay_svg_draws_each_move_about_to_be_played_then_the_end(tmp_path, capsys):
    import xml.etree.ElementTree as ET

    folder = tmp_path / "diagrams"
    folder.mkdir()
    (folder / "move-999.svg").write_text("from a longer game")
    record_files(folder, ["move-999.svg"], REPLAY_MANIFEST)  # as an earlier replay leaves it
    (folder / "move-ideas.svg").write_text("the user's, never a replay's")
    (folder / "notes.txt").write_text("not a diagram")
    code, out, _ = run(capsys, "replay", "--seed", 12345, "--policy", "greedy", "--quiet", "--svg", folder)
    record = play_game(2, "greedy", 12345)
    assert code == 0 and out.splitlines()[-1] == f"wrote {record.turns + 1} diagrams to {folder}"
    moves = [f"move-{n:03d}.svg" for n in range(1, record.turns + 1)]
    assert sorted(p.name for p in folder.glob("*.svg")) == sorted(moves + ["final.svg", "move-ideas.svg"])
    assert (folder / "notes.txt").exists() and (folder / "move-ideas.svg").read_text() == "the user's, never a replay's"
    for name, move in zip(moves, record.moves):
        svg = ET.parse(folder / name).getroot()  # well-formed
        caption = next(e for e in svg.iter() if e.get("class") == "caption")
        assert caption.text.startswith(f"Move {move}:"), (name, caption.text)
        assert any("highlight" in (e.get("class") or "").split() for e in svg.iter())
    final = (folder / "final.svg").read_text(encoding="utf-8")
    ET.fromstring(final)
    assert "highlight" not in final and "Game over" in final


def test_replay_svg_into_a_file_is_one_line_error(tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    code, out, err = run(capsys, "replay", "--seed", 1, "--quiet", "--svg", tmp_path / "taken")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("where", ["missing", "file"])
def test_train_checks_where_it_writes_before_training(tmp_path, capsys, monkeypatch, where):
    """`train --out` into a missing folder or onto a file is refused before any training runs."""
    from azul_fast.training import pipeline as training

    monkeypatch.setattr(training, "train", lambda *args, **kwargs: pytest.fail("trained before checking --out"))
    parent = tmp_path / "dir"
    if where == "file":
        parent.write_text("not a folder")
    code, _, err = run(capsys, "train", "--out", parent / "w.json")
    why = "does not exist" if where == "missing" else "is not a folder"
    assert code == 2 and f"{parent} {why}, so the weights could not be written" in err


def test_report_shows_the_best_opening_on_the_board(report_dir):
    import base64

    from azul_fast import State, render_svg

    ranking = pd.read_csv(report_dir / "opening_ranking.csv").sort_values("rank")
    best = ranking.move.iloc[0]
    deal = int(load(report_dir / "games-2p.parquet").seed.iloc[0])  # the ranked deal: game 0 of the smallest count
    svg = (report_dir / "best_opening.svg").read_text(encoding="utf-8")
    assert svg == render_svg(State.new(2, seed=deal), move=best)
    page = (report_dir / "index.html").read_text(encoding="utf-8")
    assert 'href="best_opening.svg"' in page
    # "top", never "best"; the caption says how the adaptive rollouts stopped
    embedded = re.search(r'<img src="data:image/svg\+xml;base64,([^"]+)" alt="The top first move', page)
    stopped = {"separated": "stopped once it was separated", "budget": "budget ran out"}[ranking.stopped.iloc[0]]
    assert stopped in page
    assert embedded and base64.b64decode(embedded.group(1)).decode("utf-8") == svg
    assert "(best_opening.svg)" in (report_dir / "summary.md").read_text(encoding="utf-8")


def test_openings_played_names_what_the_opening_study_left_out(report_dir):
    """One filter: the page says which features the study dropped, and why, from the study itself."""
    shown = set(pd.read_csv(report_dir / "opening_types_played.csv").feature)
    left_out = [f for f in OPENING_FEATURES if f not in shown]
    assert "source" in left_out  # no first move takes from the empty centre
    section = (report_dir / "summary.md").read_text().split("## Openings played")[1].split("\n## ")[0]
    sentence = section.split("Left out, as they say nothing more here: ")[1].split("; opening_types_played")[0]
    assert "source factory" in sentence and sentence.endswith("(every opening)")
    for feature in left_out:
        assert re.search(rf"\b{feature} (\(the same split of the games as|\S+)", sentence), feature
    assert "| feature |" in section and not any(f"| {feature} |" in section for feature in left_out)


def test_the_seat_section_counts_a_shared_victory_as_the_rest_of_the_report_does(report_dir):
    """The seat table splits ties like its chart and the summary; the CSV keeps every column."""
    section = (report_dir / "summary.md").read_text().split("## Seat advantage")[1].split("\n## ")[0]
    words, table = section.split("\n| ")[0], [line for line in section.splitlines() if line.startswith("| ")]
    assert "split between its winners" in words and "win rate" not in words
    header = [cell.strip() for cell in table[0].strip("|").split("|")]
    assert "win share" in header and not [c for c in header if "rate" in c or c == "wins"], header
    shown = [[cell.strip() for cell in line.strip("|").split("|")][header.index("win share")] for line in table[2:]]
    saved = pd.read_csv(report_dir / "seat_advantage.csv")
    assert shown == [f"{100 * share:.1f}%" for share in saved.win_share]
    assert {"wins", "win_rate", "ci_low", "ci_high", "chi2_pvalue", "win_share"} <= set(saved.columns)


def test_a_quick_report_says_first_that_its_numbers_are_too_small_to_quote(report_dir):
    summary = (report_dir / "summary.md").read_text()
    bullets = [line for line in summary.splitlines() if line.startswith("- ")]
    assert "too small to quote" in bullets[0]


def test_report_numbers_keep_their_percent_sign(report_dir):
    """A narrow screen must not break "50.9 %" before the "%": the page never puts a breaking
    space there (the report writes "50.9%", and a no-break space where it spaces one)."""
    page = re.sub(r"<[^>]+>", " ", (report_dir / "index.html").read_text().split("<body>")[1])
    assert "%" in page and not re.search(r"\d %", page)


COMMAND_MENTION = re.compile(rf"azul-fast ({'|'.join(COMMANDS + ['train'])})\b([^\"'`\n]*)")


def _options_of(command: str) -> set[str]:
    parser = cli.build_parser()
    sub = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return {option for action in sub.choices[command]._actions for option in action.option_strings}


def test_every_option_a_message_or_page_names_exists_on_its_command():
    """A hint once named `strength --thorough`, which strength refused: every `azul-fast CMD ... --opt`
    in the code's messages and the documentation names an option CMD has."""
    root = SRC.parent
    files = [*(SRC / "azul_fast").rglob("*.py"), root / "README.md", *(root / "docs").glob("*.md"),
             root / "analysis" / "README.md"]
    checked = 0
    for path in files:
        for command, rest in COMMAND_MENTION.findall(path.read_text()):
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest.split("#")[0]):
                assert option in _options_of(command) | {"--help"}, f"{path.name}: azul-fast {command} ... {option}"
                checked += 1
    assert checked >= 30


def _limited_memory():
    """In the child: 3 GB of address space, a machine far smaller than the runs below need."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux applies it")
def test_a_run_too_large_for_memory_is_refused_up_front_in_one_line(tmp_path):
    """simulate --games 1000000000 --out x.parquet used to end in a numpy traceback under a memory limit."""
    env = dict(os.environ, PYTHONPATH=str(SRC), MPLBACKEND="Agg")
    result = subprocess.run([sys.executable, "-m", "azul_fast", "simulate", "--games", "1000000000", "--out",
                             "x.parquet"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
                            preexec_fn=_limited_memory)
    assert result.returncode == 2 and result.stdout == "", result.stderr
    # 3.2 GB here, less where a container's limit is lower still
    assert re.match(r"azul-fast: error: the results of 1,000,000,000 games need at least 42\.0 GB, more than the "
                    r"[\d.]+ GB this process may use", result.stderr), result.stderr
    assert len(result.stderr.splitlines()) == 1 and list(tmp_path.iterdir()) == []
    code = "from azul_fast import simulate_moves; simulate_moves(50_000_000)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                            preexec_fn=_limited_memory)
    assert result.returncode == 1 and "Cannot recover" not in result.stderr
    assert result.stderr.splitlines()[-1].startswith("MemoryError: the records of 50,000,000 games need at least ")


def test_the_memory_check_names_the_size_before_any_game(monkeypatch):
    monkeypatch.setattr("azul_fast.runs.plan.memory_limit", lambda: 10**9)
    with pytest.raises(MemoryError, match=r"results of 30,000,000 games need at least 1\.3 GB, more than the 1\.0 GB"):
        simulate(30_000_000, seed=1)
    with pytest.raises(MemoryError, match=r"the records of 2,000,000 games need at least 1\.4 GB"):  # 42 + 670 a game
        simulate_moves(2_000_000, seed=1)
    assert len(simulate(1000, seed=1, workers=1)) == 1000  # what fits still runs


# -- the report's sizes -----------------------------------------------------------------


def test_default_reports_headline_is_the_strongest_policy_to_one_point():
    """At 2 players the default report's headline policy gets games enough for +/-1 point (95 %)
    whatever the share; it is a search at least as strong as learned, and every study uses it."""
    from scipy import stats

    from azul_fast.report.build import _config
    from azul_fast.studies.settings import LADDER_POLICIES, SETTINGS, games_for_precision

    config = _config("x", None, (2, 3, 4), None, 2024, 2, None)
    assert config.policy == default_policy() == SETTINGS["default"].policy() == "learned"
    assert config.policy in SETTINGS["default"].levels()
    n = config.fixed_games()[2, "learned"]
    assert n == games_for_precision(0.01)
    # a tie-split share (values in [0, 1]) has a sample variance at most n / (n - 1) / 4
    assert stats.t.ppf(0.975, n - 1) * 0.5 / (n - 1) ** 0.5 <= 0.01
    for setting in SETTINGS:   # never a one-move bot where a search fits
        assert policy_budget(default_policy(setting)) > 0
        assert LADDER_POLICIES.index(default_policy(setting)) >= LADDER_POLICIES.index("fast")


@pytest.mark.parametrize(("setting", "limit"), [("quick", 1.0), ("default", 5.0)])
def test_reports_fit_their_minutes_by_the_cost_model(setting, limit):
    from azul_fast.report.build import _config
    from azul_fast.report.steps import planned_seconds
    from azul_fast.studies.settings import SETTINGS

    config = _config("x", None, (2, 3, 4), None, 2024, 2, None, setting=setting)
    minutes = sum(planned_seconds(config).values()) / 60
    assert minutes <= limit and SETTINGS[setting].minutes <= limit


def test_default_policy_names_a_setting():
    with pytest.raises(ValueError, match="setting must be one of"):
        default_policy("fastest")


def test_report_on_both_walls_plays_the_gray_wall_on_the_strength_studys_deals(tmp_path):
    """The colored seat study is the strength study's run; the gray one replays its deals on the gray wall."""
    out = tmp_path / "both"
    assert cli.main(["report", "--quick", "--players", "2", "--variant", "both", "--out", str(out), "--workers", "2",
                     "--quiet"]) == 0
    strength = pd.read_csv(out / "first_player_by_strength.csv")
    row = strength[(strength.players == 2) & (strength.policy == default_policy("quick"))].iloc[0]
    colored, gray = load(out / "games-2p.parquet"), load(out / "games-2p-gray.parquet")
    assert len(colored) == len(gray) == row.games and (colored.seed.to_numpy() == gray.seed.to_numpy()).all()
    pd.testing.assert_frame_equal(gray, simulate(int(row.games), 2, row.policy, seed=int(row.seed), workers=2,
                                                 variant="gray"))
    for name in ("variants", "variant_difference"):
        assert set(pd.read_csv(out / f"{name}.csv").policy) == {default_policy("quick")}


# -- never replace a file the command did not write ------------------------------------------------------------


def _never(*args, **kwargs):
    pytest.fail("the command ran before refusing its output")


def test_train_refuses_to_replace_a_users_file_before_training(tmp_path, capsys, monkeypatch):
    from azul_fast.training import pipeline as training

    monkeypatch.setattr(training, "train", _never)
    notes = tmp_path / "notes.json"
    notes.write_text("the user's notes")
    code, _, err = run(capsys, "train", "--out", notes)
    assert code == 2 and str(notes) in err and "--overwrite" in err
    assert notes.read_text() == "the user's notes"


def test_strength_refuses_to_replace_a_users_files_before_the_study(tmp_path, capsys, monkeypatch):
    from azul_fast.studies import ladder, strength

    monkeypatch.setattr(ladder, "ladder", _never)
    monkeypatch.setattr(strength, "first_player_by_strength", _never)
    for name in ("first_player_by_strength.csv", "first_player_by_strength.png"):
        (tmp_path / name).write_text("the user's")
        code, _, err = run(capsys, "strength", "--out", tmp_path, "--quiet")
        assert code == 2 and name in err and "--overwrite" in err
        assert (tmp_path / name).read_text() == "the user's"
        (tmp_path / name).unlink()


def test_simulate_refuses_an_existing_parquet_file_unless_told(tmp_path, capsys):
    path = tmp_path / "user.parquet"
    path.write_text("the user's")
    code, _, err = run(capsys, "simulate", "--games", 20, "--seed", 1, "--out", path)
    assert code == 2 and f"{path}" in err and "--overwrite" in err and path.read_text() == "the user's"
    assert run(capsys, "simulate", "--games", 20, "--seed", 1, "--out", path, "--overwrite")[0] == 0
    assert load(path).equals(simulate(20, seed=1))
    code, _, err = run(capsys, "simulate", "--games", 20, "--seed", 1, "--out", tmp_path / "run", "--overwrite")
    assert code == 2 and "a run folder is never replaced" in err


def test_review_keeps_a_file_that_appeared_in_its_folder_during_the_run(tmp_path, capsys, monkeypatch):
    from azul_fast.studies import analyse as position

    out = tmp_path / "review"
    real = position.review_game

    def review_then_user_writes(*args, **kwargs):
        table = real(*args, **kwargs)
        out.mkdir()
        (out / "review.csv").write_text("the user's")
        return table

    monkeypatch.setattr(position, "review_game", review_then_user_writes)
    code, _, err = run(capsys, "review", "--seed", 3, "--rollouts", 20, "--paired", 2, "--max-nodes", 0,
                       "--out", out, "--workers", 1)
    assert code == 2 and "review.csv" in err and "new folder" in err
    assert (out / "review.csv").read_text() == "the user's"
    assert sorted(p.name for p in out.iterdir()) == ["review.csv"]


def test_analyse_keeps_a_file_that_appeared_at_its_csv_during_the_run(tmp_path, capsys, monkeypatch):
    from azul_fast.studies import analyse as position

    csv = tmp_path / "table.csv"
    real = position.analyse

    def analyse_then_user_writes(*args, **kwargs):
        table = real(*args, **kwargs)
        csv.write_text("the user's")
        return table

    monkeypatch.setattr(position, "analyse", analyse_then_user_writes)
    code, _, err = run(capsys, "analyse", "--seed", 1, "--ply", 3, "--rollouts", 200, "--csv", csv, "--workers", 1)
    assert code == 2 and str(csv) in err and "--overwrite" in err
    assert csv.read_text() == "the user's" and sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]


@pytest.mark.parametrize("option", ["--csv", "--svg"])
def test_analyse_never_writes_through_a_dangling_link(tmp_path, capsys, option):
    link, target = tmp_path / "l.out", tmp_path / "elsewhere" / "x.out"
    target.parent.mkdir()
    link.symlink_to(target)
    code, _, err = run(capsys, "analyse", "--seed", 1, "--ply", 3, "--rollouts", 200, option, link)
    assert code == 2 and str(link) in err and "link" in err
    assert link.is_symlink() and not target.exists()
    assert run(capsys, "analyse", "--seed", 1, "--ply", 3, "--rollouts", 200, option, link, "--overwrite")[0] == 0
    assert not link.is_symlink() and link.stat().st_size > 0 and not target.exists()  # the link replaced


def test_replay_never_replaces_a_dangling_link_with_a_diagram(tmp_path, capsys):
    folder = tmp_path / "svg"
    folder.mkdir()
    (folder / "move-001.svg").symlink_to(tmp_path / "elsewhere.svg")
    code, _, err = run(capsys, "replay", "--seed", 1, "--quiet", "--svg", folder)
    assert code == 2 and "move-001.svg" in err
    assert (folder / "move-001.svg").is_symlink() and not (tmp_path / "elsewhere.svg").exists()
    assert [p.name for p in folder.iterdir()] == ["move-001.svg"]
