"""`azul-fast report`: one study from simulation to a publishable HTML page.

The study leads with the first player's share of wins along the strength ladder: the ladder's
policies (`azul_fast.studies.LADDER_POLICIES`, rated by a ladder played first) up to the strongest
that fits the setting's time budget, at 2, 3 and 4 players, with a verdict on whether the two
strongest levels agree (`analysis.first_player_by_strength`, `analysis.strength_verdict`). Then,
with one fast policy in every seat (``heuristic`` by default): the advantage of every seat, the
openings played, and which kind of opening is best by paired rollouts over many deals, with one
deal's ranking as a drill-down. Every number names its policy and that policy's Elo; the page
explains the bots and the move notation. `azul_fast.studies.SETTINGS` holds the three sizes
(``quick``, ``default``, ``thorough``) and the time each takes on 2 cores. It writes, into one folder:

- ``index.html``: one self-contained page (charts embedded) with the summary, tables, charts,
  seeds, versions and the exact command; it links only files in the folder;
- ``summary.md``: the summary and tables in Markdown;
- every chart as PNG (200 dpi) and SVG, and ``best_opening.svg``: the deal of the opening ranking
  with its best first move highlighted (`azul_fast.render`);
- the games as parquet, one file per player count (``games-2p.parquet``, readable with
  `azul_fast.load`), and the tables as CSV.

``variant="gray"`` runs the whole study on the gray wall; ``variant="both"`` runs it on the
colored wall and adds the same deals played on the gray wall (``games-2p-gray.parquet``), compared
side by side in one table (``variants.csv``).

>>> import tempfile, matplotlib
>>> matplotlib.use("Agg")
>>> folder = build_report(tempfile.mkdtemp(), games=300, players=[2], workers=1, setting="quick")
>>> folder.joinpath("index.html").exists(), folder.joinpath("games-2p.parquet").exists()
(True, True)
"""

from __future__ import annotations

import base64
import html
import os
import platform
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from azul_fast._state import State
from azul_fast._version import RULES_VERSION, __version__
from azul_fast.analysis import (
    first_player_by_strength,
    opening_study,
    opening_types,
    seat_advantage,
    strength_verdict,
    variant_comparison,
    variant_difference,
)
from azul_fast.formatting import (
    TOP_MOVES,
    ladder_display,
    markdown_table,
    opening_display,
    opening_types_display,
    p_phrase,
    percent,
    percent_range,
    ranking_display,
    seat_display,
    strength_display,
    variants_display,
)
from azul_fast.heartbeat import Heartbeat
from azul_fast.ladder import ladder, ms_per_game
from azul_fast.move_report import (
    MoveStudy,
    move_charts,
    move_sections,
    move_study_plan,
    move_summary,
    play_move_studies,
)
from azul_fast.moves import VARIANTS, Color
from azul_fast.policies import native_policy_id
from azul_fast.render import save_svg
from azul_fast.simulate import resolve_seed, simulate
from azul_fast.storage import save
from azul_fast.studies import DEFAULT_OUT, DEFAULT_PLAYERS, DEFAULT_SEED, SETTINGS, StudySize, default_policy

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.studies.
__all__ = ["ReportConfig", "build_report"]


@dataclass(frozen=True)
class ReportConfig:
    """Everything that determines a report's numbers (workers only change how fast it runs)."""

    out: Path
    games: int
    players: tuple[int, ...]
    policy: str
    seed: int
    workers: int
    rollouts: int
    variant: str = "colored"    # a variant of VARIANTS, or "both"
    setting: str = "default"    # a key of SETTINGS

    @property
    def size(self) -> StudySize:
        return SETTINGS[self.setting]

    @property
    def main_variant(self) -> str:
        """The wall of the main study ("both" adds the gray games beside the colored study)."""
        return "gray" if self.variant == "gray" else "colored"

    def command(self) -> str:
        """The command that reproduces this report, every option explicit."""
        players = " ".join(map(str, self.players))
        return (
            f"azul-fast report --{self.setting} --games {self.games} --players {players} --policy {self.policy} "
            f"--seed {self.seed} --rollouts {self.rollouts} --variant {self.variant} --workers {self.workers} "
            f"--out {self.out}"
        )

    def run_seed(self, players: int) -> int:
        """Root seed of the run at `players` players: spawned from the report seed, never added."""
        return resolve_seed(np.random.SeedSequence(self.seed, spawn_key=(players,)))

    def move_seed(self, kind: int) -> int:
        """Root seed of the move-level studies' games (`kind` 0) and marker rollouts (1): spawn keys
        no player count's run uses."""
        return resolve_seed(np.random.SeedSequence(self.seed, spawn_key=(kind,)))


@dataclass
class _Results:
    """What the study found, gathered step by step."""

    config: ReportConfig
    say: Callable[[str], Any]
    folder: Path  # where the files are written: a staging folder beside config.out (see build_report)
    runs: dict[int, pd.DataFrame] = field(default_factory=dict)
    gray_runs: dict[int, pd.DataFrame] = field(default_factory=dict)  # variant "both": the same deals, gray
    variants: pd.DataFrame = field(default_factory=pd.DataFrame)
    variant_pairs: pd.DataFrame = field(default_factory=pd.DataFrame)  # analysis.variant_difference
    # Empty until _analyse fills them.
    strength: pd.DataFrame = field(default_factory=pd.DataFrame)  # analysis.first_player_by_strength
    seats: pd.DataFrame = field(default_factory=pd.DataFrame)
    openings: pd.DataFrame = field(default_factory=pd.DataFrame)
    types: pd.DataFrame = field(default_factory=pd.DataFrame)  # analysis.opening_types
    type_moves: pd.DataFrame = field(default_factory=pd.DataFrame)  # its per-deal drill-down
    ranking: pd.DataFrame = field(default_factory=pd.DataFrame)  # the first deal of the drill-down
    ladder: pd.DataFrame = field(default_factory=pd.DataFrame)
    moves: MoveStudy | None = None  # the move-level studies (azul_fast.move_report)
    charts: dict[str, str] = field(default_factory=dict)  # name -> title
    diagrams: set[str] = field(default_factory=set)  # the charts that are board diagrams (SVG only)
    files: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def build_report(
    out: str | os.PathLike[str] = DEFAULT_OUT,
    games: int | None = None,
    players: Sequence[int] = DEFAULT_PLAYERS,
    policy: str | None = None,
    seed: int = DEFAULT_SEED,
    workers: int | None = None,
    rollouts: int | None = None,
    command: str | None = None,
    log: Callable[[str], Any] | None = None,
    variant: str = "colored",
    setting: str = "default",
) -> Path:
    """Run the study and write the report folder; return the folder.

    Parameters
    ----------
    out : path
        Folder to write: new, empty, or an earlier report, which is replaced whole only once the new
        one is complete (it is built in a staging folder beside it); a folder holding other files is
        refused.
    games : int or None
        Games per player count in the seat study (None: the setting's).
    players : sequence of int
        Player counts to study (2, 3, 4).
    policy : str or None
        Built-in policy for every seat of the seat and opening studies (None: `studies.default_policy()`).
    seed : int
        Report seed; each run gets a root seed spawned from it.
    workers : int or None
        Threads for the simulations and processes for the rollouts (None: every core).
    rollouts : int or None
        Rollouts per first move in the opening studies (None: the setting's).
    command : str or None
        The command as typed, shown on the page beside the explicit one.
    log : callable or None
        Called with a line of progress text after each step, and at least every 10 seconds.
    variant : str
        ``"colored"``, ``"gray"`` (the whole study on the gray wall) or ``"both"`` (the colored
        study, plus the same deals on the gray wall compared side by side).
    setting : str
        ``"quick"``, ``"default"`` or ``"thorough"`` (`studies.SETTINGS`): how many games and how strong
        the strongest level of the strength study.
    """
    config = _config(out, games, players, policy, seed, workers, rollouts, variant, setting)
    target = config.out.resolve()
    _check_out(target)
    # Everything is written into a staging folder beside the target and swapped in at the end, so an
    # interrupted or failed run (a full disk, Ctrl-C) leaves the previous report whole.
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.building-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    started = time.perf_counter()
    try:
        _build(config, staging, started, command, log)
        _swap_in(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return config.out


#: What a report folder holds: the page, the summary, tables, charts and the games.
REPORT_SUFFIXES = (".html", ".md", ".csv", ".png", ".svg", ".parquet")


def _check_out(out: Path) -> None:
    """A report goes into a new or empty folder, or replaces an earlier report whole; a folder with
    anything a report does not write is refused, so no other file is ever deleted."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file; a report is a folder")
    entries = list(out.iterdir()) if out.is_dir() else []
    if entries and not (out / "index.html").is_file():
        raise ValueError(f"--out {out} holds files but no report (index.html): name a new or empty folder")
    foreign = sorted(p.name for p in entries if p.is_dir() or p.suffix not in REPORT_SUFFIXES)
    if foreign:
        raise ValueError(f"--out {out} holds files a report does not write ({', '.join(foreign[:3])}): "
                         "move them, or name another folder")


def _swap_in(staging: Path, out: Path) -> None:
    """Replace `out` (an earlier report, or nothing) with the finished `staging` folder."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.replace(out, old)
    os.replace(staging, out)
    shutil.rmtree(old, ignore_errors=True)


def _build(config: ReportConfig, folder: Path, started: float, command: str | None,
           log: Callable[[str], Any] | None) -> None:
    with Heartbeat(log or (lambda line: None)) as beat:
        results = _Results(config, beat.say, folder)
        results.say(f"report ({config.setting} setting, about {config.size.minutes:g} min on 2 cores): "
                    f"{', '.join(config.size.levels())} at {', '.join(map(str, config.players))} players")
        for step, run in (("strength ladder", _rate_levels), ("first player by strength", _strength_study),
                          ("simulate", _simulate_runs), ("statistics", _analyse), ("opening types", _opening_types),
                          ("move studies", _move_studies), ("charts", _draw_charts)):
            beat.step(step)
            run(results)
        _draw_best_opening(results)
        results.seconds["total"] = time.perf_counter() - started
        _write_pages(results, command)
        results.say(f"report written to {config.out / 'index.html'} in {results.seconds['total']:.0f} s")


def _config(
    out: str | os.PathLike[str], games: int | None, players: Sequence[int], policy: str | None, seed: int,
    workers: int | None, rollouts: int | None, variant: str = "colored", setting: str = "default",
) -> ReportConfig:
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {list(SETTINGS)}, got {setting!r}")
    size = SETTINGS[setting]
    counts = tuple(sorted(set(int(p) for p in players)))
    if not counts or not set(counts) <= {2, 3, 4}:
        raise ValueError(f"players must be among 2, 3, 4, got {list(players)}")
    policy = default_policy() if policy is None else policy
    native_policy_id(policy)  # an unknown name raises ValueError listing the valid forms
    workers = (os.cpu_count() or 1) if workers is None else int(workers)
    if variant not in (*VARIANTS, "both"):
        raise ValueError(f"variant must be one of {[*VARIANTS, 'both']}, got {variant!r}")
    return ReportConfig(Path(out), int(size.games if games is None else games), counts, policy,
                        int(resolve_seed(seed)), workers, int(size.rollouts if rollouts is None else rollouts),
                        variant, setting)


def _timed(results: _Results, step: str, started: float) -> None:
    results.seconds[step] = time.perf_counter() - started
    results.say(f"{step}: {results.seconds[step]:.1f} s")


def _rate_levels(results: _Results) -> None:
    """The strength ladder of the study's levels and the report's policy: the Elo of every number."""
    config = results.config
    started = time.perf_counter()
    names = list(dict.fromkeys(config.size.levels() + (config.policy,)))
    results.ladder = ladder(names, games=config.size.ladder_games, seed=config.seed, workers=config.workers)
    # One core's milliseconds per 2-player self-play game: the time axis of the strength-for-time chart.
    results.ladder["ms_per_game"] = [ms_per_game(p, config.size.timing, config.main_variant)
                                     for p in results.ladder.policy]
    _timed(results, "strength ladder", started)


def _strength_study(results: _Results) -> None:
    config = results.config
    started = time.perf_counter()
    size = config.size
    results.strength = first_player_by_strength(
        results.ladder, size.levels(), config.players, seconds=size.seconds, min_games=size.min_games,
        seed=config.seed, workers=config.workers, log=results.say,
    )
    _timed(results, "first player by strength", started)


def _simulate_runs(results: _Results) -> None:
    config = results.config
    for players in config.players:
        started = time.perf_counter()
        df = simulate(config.games, players, config.policy, seed=config.run_seed(players),
                      workers=config.workers, progress=False, variant=config.main_variant)
        name = f"games-{players}p.parquet"
        save(df, results.folder / name)
        results.runs[players] = df
        results.files.append(name)
        _timed(results, f"simulate {players} players", started)
        if config.variant == "both":
            started = time.perf_counter()
            gray = simulate(config.games, players, config.policy, seed=config.run_seed(players),
                            workers=config.workers, progress=False, variant="gray")
            save(gray, results.folder / f"games-{players}p-gray.parquet")
            results.gray_runs[players] = gray
            results.files.append(f"games-{players}p-gray.parquet")
            _timed(results, f"simulate {players} players, gray wall", started)


def _analyse(results: _Results) -> None:
    config = results.config
    started = time.perf_counter()
    results.seats = pd.concat([seat_advantage(df) for df in results.runs.values()], ignore_index=True)
    results.openings = pd.concat([opening_study(df) for df in results.runs.values()], ignore_index=True)
    _timed(results, "seat and opening statistics", started)
    if results.gray_runs:
        runs = [df for p in config.players for df in (results.runs[p], results.gray_runs[p])]
        results.variants = variant_comparison(runs)
        results.variant_pairs = pd.concat(
            [variant_difference(results.runs[p], results.gray_runs[p]) for p in config.players], ignore_index=True
        )


def _opening_types(results: _Results) -> None:
    """Opening types over the first deals of the smallest player count's run (deal 0 is the drill-down)."""
    config = results.config
    started = time.perf_counter()
    first = results.runs[config.players[0]]
    seeds = [int(s) for s in first.seed.iloc[:max(2, config.size.deals)]]
    results.types, results.type_moves = opening_types(
        seeds, players=config.players[0], policy=config.policy, rollouts=config.rollouts, seed=config.seed,
        workers=config.workers, log=results.say, variant=config.main_variant,
    )
    ranking = results.type_moves[results.type_moves.deal == seeds[0]].drop(columns="deal").reset_index(drop=True)
    ranking.attrs.update(seed=seeds[0], players=config.players[0], first_player=0, policy=config.policy,
                         rollouts=config.rollouts, correction="holm", variant=config.main_variant)
    results.ranking = ranking
    _timed(results, "opening types", started)
    tables = [("first_player_by_strength", results.strength), ("seat_advantage", results.seats),
              ("opening_types_played", results.openings), ("opening_types", results.types),
              ("opening_moves", results.type_moves), ("opening_ranking", results.ranking), ("ladder", results.ladder)]
    if results.gray_runs:
        tables += [("variants", results.variants), ("variant_difference", results.variant_pairs)]
    for name, table in tables:
        table.to_csv(results.folder / f"{name}.csv", index=False)
        results.files.append(f"{name}.csv")


def _move_studies(results: _Results) -> None:
    """The move-level studies: games of the strongest bot the setting affords, recorded move by move."""
    config = results.config
    started = time.perf_counter()
    size = config.size
    players = config.players[0]
    policy, games = move_study_plan(results.ladder, size, players)
    results.say(f"move studies: {games:,} games of {policy} at {players} players, recorded move by move")
    results.moves = play_move_studies(
        policy, players, seed=config.move_seed(0), games=games, marker_games=size.marker_games,
        rollouts=size.marker_rollouts, workers=config.workers, variant=config.main_variant,
        rollout_seed=config.move_seed(1),
    )
    for name, table in results.moves.tables.items():
        table.to_csv(results.folder / f"{name}.csv", index=False)
        results.files.append(f"{name}.csv")
    _timed(results, "move studies", started)


def _draw_charts(results: _Results) -> None:
    import matplotlib.pyplot as plt

    from azul_fast import plotting

    started = time.perf_counter()
    config = results.config
    smallest = config.players[0]
    scores = pd.concat(
        [df[["players"] + [c for c in df.columns if c.startswith(("score_", "policy_"))]]
         for df in results.runs.values()], ignore_index=True,
    )
    charts: list[tuple[str, str, Callable[[], Any]]] = [
        ("first_player_by_strength", "The first player's share of wins along the strength ladder",
         lambda: plotting.plot_first_player_by_strength(results.strength)),
        ("strength_frontier", "Strength for time: each bot's Elo against its milliseconds per game",
         lambda: plotting.plot_strength_frontier(results.ladder.rename(columns={"rating": "elo"}))),
        ("opening_types", f"Opening types over {len(results.type_moves.deal.unique())} deals, ranked by rollouts",
         lambda: plotting.plot_opening_types(results.types, ax=plt.subplots(figsize=(6.4, 6.4))[1])),
        ("seat_advantage", "Win rate of each seat minus its fair share",
         lambda: plotting.plot_seat_advantage(results.seats)),
        ("score_distributions", "Final scores by seat",
         lambda: plotting.plot_score_distributions(scores)),
        ("opening_tiles", "First player's win rate by tiles taken in the opening move",
         lambda: plotting.plot_opening_study(results.openings, "tiles")),
        ("opening_ranking", f"Every first move of one {smallest}-player deal, ranked by rollouts",
         lambda: plotting.plot_opening_ranking(results.ranking, ax=plt.subplots(figsize=(6.4, 6.4))[1],
                                               top=TOP_MOVES)),
    ]
    if results.moves is not None:
        charts += move_charts(results.moves)
    with plotting.azul_style():
        for name, title, draw in charts:
            _save_chart(results, name, title, draw().figure)
        fig, axes = plt.subplots(1, smallest, figsize=(4.6 * smallest, 4.2), squeeze=False)
        for seat, ax in enumerate(axes[0]):
            plotting.plot_wall_heatmap(results.runs[smallest], seat=seat, ax=ax)
        _save_chart(results, "wall_heatmap", f"Wall cells filled at the end, by seat ({smallest} players)", fig)
        if not results.variant_pairs.empty:
            fig, ax = plt.subplots()
            plotting.plot_variant_difference(results.variant_pairs, ax=ax)
            _save_chart(results, "variant_difference",
                        "The first player on the colored and the gray wall, same deals", fig)
    _timed(results, "charts", started)


def _draw_best_opening(results: _Results) -> None:
    """The deal of the opening ranking as a board diagram, its best first move highlighted."""
    ranking = results.ranking
    best = ranking.iloc[0]
    deal = State.new(ranking.attrs["players"], seed=ranking.attrs["seed"], first_player=ranking.attrs["first_player"],
                     variant=results.config.main_variant)
    name = "best_opening"
    save_svg(deal, results.folder / f"{name}.svg", move=best.move)
    results.files.append(f"{name}.svg")
    results.diagrams.add(name)
    results.charts[name] = (
        f"The best first move of deal {ranking.attrs['seed']} by rollouts, {best.move} "
        f"(first player wins {percent(best.win_rate)} of {best.rollouts} rollouts), on the starting position"
    )


def _save_chart(results: _Results, name: str, title: str, fig: Figure) -> None:
    import matplotlib.pyplot as plt

    from azul_fast.plotting import save_figure

    for path in save_figure(fig, results.folder / name):
        results.files.append(path.name)
    plt.close(fig)
    results.charts[name] = title


# -- the summary and the pages -----------------------------------------------------------


def _named(results: _Results, policy: str) -> str:
    """A policy's name with its strength: ``heuristic (+412 Elo)``."""
    rating = results.ladder.set_index("policy").rating.get(policy)
    return policy if rating is None else f"{policy} ({rating:+.0f} Elo)"


def _summary_lines(results: _Results) -> list[str]:
    """The findings in sentences, the strength study first; each names its policy and that policy's Elo."""
    config = results.config
    lines = [f"**First player by strength of play.** {strength_verdict(results.strength, players)['text']}"
             for players in config.players]
    seats = results.seats
    for players in config.players:
        rows = seats[seats.players == players]
        first = rows[rows.seat == rows.first_player].iloc[0]
        best = rows.iloc[rows.win_share.argmax()]
        # Judged on the tie-split share: counting a tie as a win for each winner inflates every seat.
        verdict = ("an advantage" if first.share_low > first.fair_share else
                   "a disadvantage" if first.share_high < first.fair_share else "no detectable edge")
        text = (
            f"**{players} players, {_named(results, config.policy)} in every seat** ({first.games:,} games): "
            f"with shared victories split between their winners the first player wins {percent(first.win_share)} "
            f"({percent_range(first.share_low, first.share_high)}) against a fair share of "
            f"{percent(first.fair_share)}: {verdict} for this policy. Counting every shared victory as a win: "
            f"{percent(first.win_rate)} ({percent_range(first.ci_low, first.ci_high)}). "
            f"Best seat: seat {best.seat} with {percent(best.win_share)}."
        )
        if players >= 3:
            text += f" Chi-square test that all seats win equally often: {p_phrase(first.chi2_pvalue)}."
        lines.append(text)
    lines.append(_opening_summary(results))
    if results.moves is not None:
        lines.append(move_summary(results.moves, lambda policy: _named(results, policy)))
    mine = results.ladder.set_index("policy").loc[config.policy]
    rank = int(cast("int", mine["rank"]))
    lines.append(
        f"**Strength of {config.policy}:** rated {mine.rating:+.0f} Elo (95% CI {mine.ci_low:+.0f} to "
        f"{mine.ci_high:+.0f}) against {results.ladder.attrs['anchor']} = 0, rank {rank} of "
        f"{len(results.ladder)} on the ladder below."
    )
    return lines


def _opening_summary(results: _Results) -> str:
    config = results.config
    types = results.types
    best = types.iloc[0]
    worse = int(types.worse_than_best.sum())
    tested = int(types.p_vs_best.notna().sum())
    return (
        f"**Openings ({config.players[0]} players, {_named(results, config.policy)} finishing every game):** over "
        f"{types.attrs['deals']} deals, every legal first move rolled out {config.rollouts} times, the best kind of "
        f"opening was \"{best.type}\": its moves win {100 * best.edge:+.1f} points "
        f"[{100 * best.edge_low:+.1f}, {100 * best.edge_high:+.1f}] more often than the deal's average first move. "
        f"{worse} of the {tested} other types tested are significantly worse (paired over deals, Holm-corrected)."
    )


#: Plain words for each policy (by the name before any ``:budget``).
_BOTS = {
    "random": "plays a uniformly random legal move. A floor for comparison, not a player.",
    "greedy": "takes the move that scores the most points right now (tiles placed on the wall this round, "
              "minus floor penalties), with no look-ahead.",
    "heuristic": "plays the move that most improves a static evaluation of its board: points, what partly "
                 "filled lines will likely bring, and progress towards the end-of-game bonuses. One move deep.",
    "mcts": "a Monte Carlo tree search over the rest of the round (every tile still to be taken is visible), "
            "scoring boards with the heuristic's evaluation; mcts:N searches N iterations per move, plain mcts "
            "1,000. It never sees the future tile draws.",
    "learned": "the same search, but it scores the boards at the round's end with an evaluation the project "
               "trained on its own games (azul-fast train), playing for its margin over the strongest "
               "opponent; learned:N searches N iterations per move, plain learned 75: about mcts's strength "
               "for a tenth of its time. It never sees the future tile draws.",
}


def _glossary(results: _Results) -> pd.DataFrame:
    """The bots of this report in plain words, with their Elo on its ladder."""
    rows = []
    for _, row in results.ladder.sort_values("rating").iterrows():
        words = _BOTS.get(str(row.policy).partition(":")[0], "see the policy's documentation.")
        rows.append({"bot": row.policy, "strength (Elo, greedy = 0)": f"{row.rating:+.0f}", "what it does": words})
    return pd.DataFrame(rows)


_NOTATION = (
    "Moves are written as three characters: the source (1-9 for a factory display, C for the centre), the "
    "colour (" + ", ".join(f"{c.letter} {c.name.lower()}" for c in Color) + ") and the destination (1-5 for "
    "a pattern line, 1 being the one-tile line, F for the floor). So 3B2 takes the blue tiles of factory 3 "
    "and puts them on pattern line 2. Strength is an Elo rating from 2-player games between the bots (greedy "
    "at 0; 400 points more means winning about 10 games in 11)."
)


def _versions() -> dict[str, str]:
    import matplotlib
    import pyarrow
    import scipy
    import statsmodels

    return {
        "azul_fast": __version__, "rules": RULES_VERSION, "python": platform.python_version(),
        "numpy": np.__version__, "pandas": pd.__version__, "scipy": scipy.__version__,
        "statsmodels": statsmodels.__version__, "matplotlib": matplotlib.__version__, "pyarrow": pyarrow.__version__,
    }


def _move_setup(results: _Results) -> str:
    study = results.moves
    if study is None:
        return "not run"
    size = results.config.size
    text = (f"{study.games:,} games of {study.policy} at {study.players} players recorded move by move, root seed "
            f"{study.seed} (simulate_moves(..., seed=...) reproduces them): the best-rated bot of the ladder, as "
            f"many games as {size.move_seconds:g} s of one core pay for by the cost model, between "
            f"{size.min_games:,} and {size.move_games:,}")
    if "marker_rollouts" in study.tables:
        text += (f"; marker rollouts: {study.marker_games} games from root seed {results.config.move_seed(1)}, "
                 f"{study.rollouts} finishes per candidate, {study.rollout_policy} in every seat")
    return text


def _how_it_was_run(results: _Results, command: str | None) -> list[tuple[str, str]]:
    config = results.config
    steps = ", ".join(f"{step} {s:.1f} s" for step, s in results.seconds.items())
    run_seeds = "; ".join(
        f"{p} players: {config.run_seed(p)} (simulate(..., seed=...) reproduces the parquet)" for p in config.players
    )
    rows = [
        ("command", command or config.command()),
        ("reproduce with", config.command()),
        ("report seed", str(config.seed)),
        ("run root seeds", run_seeds),
        ("setting", f"{config.setting}: strength levels {', '.join(config.size.levels())}, "
                    f"{config.size.seconds:g} s of one core per level and player count by the cost model, "
                    f"ladder {config.size.ladder_games} deals per pair"),
        ("opening deals", f"the first {results.types.attrs['deals']} game seeds of the {config.players[0]}-player "
                          f"run, {config.rollouts} rollouts per move, continuation seeds spawned from (deal seed, k)"),
        ("policy", f"{_named(results, config.policy)} in every seat of the seat and opening studies"),
        ("move studies", _move_setup(results)),
        ("wall", {"colored": "colored", "gray": "gray (the rulebook's variant)",
                  "both": "colored, and the same deals on the gray wall"}[config.variant]),
        ("games", f"{config.games:,} per player count in the seat study"),
        ("workers", f"{config.workers} (the numbers do not depend on it)"),
        ("runtime", f"{results.seconds['total']:.1f} s ({steps})"),
        ("machine", f"{platform.platform()}, {os.cpu_count()} cores"),
        ("date", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("versions", ", ".join(f"{k} {v}" for k, v in _versions().items())),
    ]
    return rows


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.5rem 0 1.5rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th { background: #f3f3f3; }
img { max-width: min(100%, 56rem); height: auto; }
figure { margin: 1rem 0 2rem; }
code { background: #f3f3f3; padding: 0.1rem 0.3rem; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
table.words td, table.words th { text-align: left; min-width: 5rem; }
"""


def _bold(text: str) -> str:
    """Markdown **bold** to HTML, after escaping."""
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(text))


def _figure_html(results: _Results, name: str) -> str:
    """A figure embedded in the page (so it stands alone), linking the files it was made from."""
    kind, suffixes = ("svg+xml", ["svg"]) if name in results.diagrams else ("png", ["svg", "png"])
    data = base64.b64encode((results.folder / f"{name}.{suffixes[-1]}").read_bytes()).decode("ascii")
    title = html.escape(results.charts[name])
    links = ", ".join(f'<a href="{name}.{suffix}">{suffix.upper()}</a>' for suffix in suffixes)
    return (
        f'<figure><img src="data:image/{kind};base64,{data}" alt="{title}">'
        f"<figcaption>{title} ({links})</figcaption></figure>"
    )


def _table_html(table: pd.DataFrame) -> str:
    """A table of numbers (right-aligned), or of words (left-aligned) when a column holds sentences."""
    sentences = any(table[c].astype(str).str.len().max() > 60 for c in table.columns) if len(table) else False
    return table.to_html(index=False, border=0, escape=True, classes="words" if sentences else None)


def _sections(results: _Results) -> list[tuple[str, str, pd.DataFrame, list[str]]]:
    """(title, text, table, charts) of each section, shared by the HTML page and summary.md."""
    config = results.config
    wall = " on the gray wall" if config.variant == "gray" else ""
    mine = _named(results, config.policy)
    strength = results.strength
    sections = [
        ("The bots and the notation", _NOTATION, _glossary(results), []),
        ("First player by strength of play",
         "The same policy in every seat, seat 0 moving first, at each level of the strength ladder (colored wall). "
         "'first player' is seat 0's share of wins with a shared victory split between its winners, so equal seats "
         "would each get exactly the fair share; every seat's share follows. Intervals are 95% t intervals; "
         f"{int(strength.games.sum()):,} games in all, spread over the levels by their cost (a search plays a game "
         "in milliseconds). The verdict compares the two strongest levels: converged when their difference's 95% "
         "interval holds 0. first_player_by_strength.csv has the numbers.",
         strength_display(strength), ["first_player_by_strength"]),
        ("Seat advantage",
         f"Win rate of every seat with {mine} in every seat{wall}; a shared victory counts as a win for each "
         "winner (and as a tie); 'ties split' divides it between the winners instead, so equal seats would each "
         "have exactly the fair share. Intervals are Wilson 95%; the p-value is a chi-square test that all seats "
         "win equally often (3 and 4 players). These describe this policy, not expert play: see the study above.",
         seat_display(results.seats), ["seat_advantage", "score_distributions", "wall_heatmap"]),
        ("Which opening is best",
         f"Every legal first move of {results.types.attrs['deals']} deals ({config.players[0]} players), each "
         f"followed by {config.rollouts} rollouts with {mine} in every seat; rollout k of every move of a deal uses "
         "the same tile draws and policy choices (common random numbers). A move's type is what it does "
         f"({', '.join(results.types.attrs['features'])}); features that carry no information on a first move were "
         f"dropped ({', '.join(results.types.attrs['dropped']) or 'none'}: on the first move the centre holds no "
         "tiles, so no opening takes the first-player marker). 'edge' is how much more often the type's moves win "
         "than the deal's average first move, averaged over the deals it occurs in (95% t interval). Types seen "
         "in at least half the deals are ranked first, the rare ones after them (marked rare): a rare type's "
         "edge rests on few deals. Each type is "
         "compared with the top one by a paired t test over the deals where both occur, Holm-corrected: a mark "
         "depends on how many deals the type shares with the top one as well as on its edge, so a rare type can "
         "stay unmarked below a marked one. opening_types.csv has the table, opening_moves.csv every move of "
         "every deal.",
         opening_types_display(results.types), ["opening_types"]),
        ("One deal in detail",
         f"The drill-down of the first deal (game seed {results.ranking.attrs['seed']}): every legal first move, "
         f"{config.rollouts} rollouts with {mine}, each compared with the best by McNemar's exact test, "
         f"Holm-corrected. The top {TOP_MOVES} are shown; opening_ranking.csv has all.",
         ranking_display(results.ranking), ["opening_ranking", "best_opening"]),
        ("Openings played",
         f"The first player's win rate and score margin (own score minus the best opponent's) by what the opening "
         f"move did, in the {mine} games of the seat study. These mix the choice with the deal (a factory must "
         "hold 3 tiles of a colour to take 3), which the rollouts above take out. The p-value tests independence "
         "of the feature and winning.",
         opening_display(results.openings), ["opening_tiles"]),
        ("Strength ladder",
         f"Every pair of {', '.join(results.ladder.policy.sort_values())} played "
         f"{config.size.ladder_games} deals at 2 players, each deal once per seat (a shared victory counts half). "
         f"Bradley-Terry ratings on the Elo scale, {results.ladder.attrs['anchor']} at 0, with 95% Wald intervals "
         "(azul_fast.ladder); ladder.csv has the numbers.",
         ladder_display(results.ladder), []),
    ]
    if not results.variants.empty:
        sections.insert(3, (
            "Colored and gray wall",
            f"The same deals (same run seeds, {mine} in every seat) on both sides of the player boards: on "
            "the gray wall every tiled line's player picks the column (the rulebook's variant). The first player's "
            "win rate counts a shared victory as a win; intervals are Wilson 95%. Scores, rounds and complete "
            "colours are means per seat. The last column pairs the walls deal by deal: the first player's share "
            "with shared victories split, gray minus colored, with a paired t interval "
            "(analysis.variant_difference). variants.csv and variant_difference.csv have the numbers.",
            variants_display(results.variants, results.variant_pairs), ["variant_difference"]))
    if results.moves is not None:  # before the strength ladder, the last section
        sections[-1:-1] = move_sections(results.moves, lambda policy: _named(results, policy))
    return sections


def _write_pages(results: _Results, command: str | None) -> None:
    summary = _summary_lines(results)
    how = _how_it_was_run(results, command)
    files = sorted(set(results.files) | {"summary.md"})
    title = "azul_fast report: the first player's advantage by strength of play, and openings"

    body = [f"<h1>{html.escape(title)}</h1>", "<h2>Summary</h2>", "<ul>"]
    body += [f"<li>{_bold(line)}</li>" for line in summary]
    body.append("</ul>")
    for heading, text, table, charts in _sections(results):
        body += [f"<h2>{html.escape(heading)}</h2>", f"<p>{html.escape(text)}</p>",
                 f"<div class='scroll'>{_table_html(table)}</div>"]
        body += [_figure_html(results, name) for name in charts]
    body += ["<h2>How it was run</h2>", "<div class='scroll'><table>"]
    body += [f"<tr><th>{html.escape(k)}</th><td style='text-align:left'><code>{html.escape(v)}</code></td></tr>"
             for k, v in how]
    body += ["</table></div>", "<h2>Files</h2>", "<ul>"]
    body += [f'<li><a href="{html.escape(name)}">{html.escape(name)}</a></li>' for name in files]
    body.append("</ul>")
    page = (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    (results.folder / "index.html").write_text(page, encoding="utf-8")

    md = [f"# {title}", "", "## Summary", ""] + [f"- {line}" for line in summary]
    for heading, text, table, charts in _sections(results):
        md += ["", f"## {heading}", "", text, "", markdown_table(table), ""]
        md += [f"![{results.charts[name]}]({name}.svg)" for name in charts]
    md += ["", "## How it was run", ""] + [f"- {k}: `{v}`" for k, v in how]
    md += ["", "## Files", ""] + [f"- [{name}]({name})" for name in files]
    (results.folder / "summary.md").write_text("\n".join(md) + "\n", encoding="utf-8")
