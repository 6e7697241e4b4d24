"""`azul-fast report`, `bench`, `ladder`, `train` and `strength` (cli/studies.py): the report end to end
(built once, in-process), its sizes, and the studies' refusals to replace a user's files."""

import html
import json
import re
import shlex
import subprocess
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from commands import SRC, run, run_subprocess  # noqa: E402

from azul_fast import available_policies, cli, load, simulate, simulate_moves  # noqa: E402
from azul_fast.core.bots.policies import policy_budget  # noqa: E402
from azul_fast.report.settings import default_policy  # noqa: E402
from azul_fast.studies.in_game import end_bonuses, marker_takers  # noqa: E402
from azul_fast.studies.openings import OPENING_FEATURES  # noqa: E402

CHARTS = ["first_player_by_strength", "seat_advantage", "score_distributions", "wall_heatmap", "opening_tiles",
          "opening_types", "opening_ranking", "marker_value", "marker_cost", "marker_rollouts", "end_bonuses",
          "score_curve", "floor_by_round", "strength_frontier"]  # every chart written is shown on the page


def linked_files(page: str) -> set[str]:
    """Every href/src of an HTML page that is not an embedded data: URI or a web address."""
    targets = set(re.findall(r'(?:href|src)="([^"]+)"', page))
    return {t for t in targets if not t.startswith(("data:", "http://", "https://", "#"))}


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
    from azul_fast.report.settings import SETTINGS

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
    assert re.search(heading + rf" \(ties split[^)]*\): first player [^(]+{games}", summary)
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
    from azul_fast.report.settings import SETTINGS
    from azul_fast.studies import ladder, strength

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


def test_bench_prints_games_per_second(capsys):
    code, out, _ = run(capsys, "bench", "--games", 300, "--workers", 1)
    lines = out.strip().splitlines()
    fast = [name for name in available_policies() if policy_budget(name) == 0]  # searches only when named
    assert code == 0 and len(lines) == len(fast)
    for name, line in zip(fast, lines):
        assert re.match(rf"\s*{name}, 2 players:\s+[\d,]+ games/s \(300 games in", line)


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


def test_default_reports_headline_is_the_strongest_policy_to_one_point():
    """At 2 players the default report's headline policy gets games enough for +/-1 point (95 %)
    whatever the share; it is a search at least as strong as learned, and every study uses it."""
    from scipy import stats

    from azul_fast.report.build import _config
    from azul_fast.report.settings import SETTINGS
    from azul_fast.studies.settings import LADDER_POLICIES, games_for_precision

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
    from azul_fast.report.settings import SETTINGS
    from azul_fast.report.steps import planned_seconds

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


def test_train_net_writes_a_network_that_loads_and_resumes_from_its_parts(tmp_path, capsys):
    from azul_fast.core.bots.value_net import load_net, trained_settings

    out = tmp_path / "net.json"
    code, printed, _ = run(capsys, "train", "--net", "--out", out, "--games", 20, "--budget", 10, "--workers", 1)
    assert code == 0 and "games on 1 cores: about" in printed and f"wrote {out}" in printed
    assert trained_settings(load_net(out)) == [("colored", 2)]
    assert len(list((tmp_path / "net.json.parts").iterdir())) == 2
    again = tmp_path / "again.json"
    assert run(capsys, "train", "--net", "--out", again, "--games", 20, "--budget", 10, "--workers", 1,
               "--work", tmp_path / "net.json.parts")[0] == 0
    assert json.loads(again.read_text())["checksum"] == json.loads(out.read_text())["checksum"]


def test_train_refuses_net_options_without_net(tmp_path, capsys):
    code, _, err = run(capsys, "train", "--out", tmp_path / "w.json", "--players", 3)
    assert code == 2 and "--players, --variants and --work are options of --net" in err
