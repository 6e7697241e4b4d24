"""`azul-fast report`: one study from simulation to a publishable HTML page.

The default study (about two minutes on 2 cores) measures the first player's advantage at 2, 3
and 4 players with one policy in every seat, describes the openings played, and ranks every
first move of one deal by rollouts, and rates the policy on a small strength ladder against the
other built-in policies (azul_fast.ladder). It writes, into one folder:

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
>>> folder = build_report(tempfile.mkdtemp(), games=300, players=[2], rollouts=2, workers=1)
>>> folder.joinpath("index.html").exists(), folder.joinpath("games-2p.parquet").exists()
(True, True)
"""

from __future__ import annotations

import base64
import html
import os
import platform
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from azul_fast._state import State
from azul_fast._version import RULES_VERSION, __version__
from azul_fast.analysis import (
    opening_rollouts, opening_study, seat_advantage, short_lineup, variant_difference, win_interval,
)
from azul_fast.ladder import ladder
from azul_fast.moves import VARIANTS
from azul_fast.policies import available_policies, native_policy_id
from azul_fast.render import save_svg
from azul_fast.simulate import resolve_seed, simulate
from azul_fast.storage import save

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_OUT",
    "DEFAULT_PLAYERS",
    "DEFAULT_SEED",
    "ReportConfig",
    "build_report",
    "default_policy",
    "default_rollouts",
    "ladder_display",
    "markdown_table",
    "opening_display",
    "paired_display",
    "ranking_display",
    "seat_display",
    "variant_comparison",
    "variants_display",
]

#: Games per player count in the default study: about two minutes on 2 cores with greedy.
DEFAULT_GAMES = 300_000
DEFAULT_PLAYERS = (2, 3, 4)
DEFAULT_SEED = 2024
DEFAULT_OUT = "azul-fast-report"
#: Moves shown in the opening ranking table and chart.
TOP_MOVES = 20
#: Deals per pair in the report's strength ladder.
LADDER_GAMES = 50
# Preference for the default policy: strongest first among those fast enough for the default study
# (see the ladder). A search plays a game in milliseconds, thousands of times slower: --policy mcts:N.
_FAST_POLICIES_BY_STRENGTH = ("heuristic", "greedy", "random")
# The ladder the report's policy is rated on (the report's policy joins it).
_LADDER_POLICIES = ("random", "greedy", "heuristic", "mcts:50")


def default_policy() -> str:
    """The strongest built-in policy fast enough for the default study (``heuristic`` today).

    >>> default_policy() in available_policies()
    True
    """
    names = available_policies()
    return next((name for name in _FAST_POLICIES_BY_STRENGTH if name in names), names[0])


def default_rollouts(games: int) -> int:
    """Rollouts per opening move: one per 1,500 games of the study, between 20 and 200.

    >>> default_rollouts(300_000), default_rollouts(2_000)
    (200, 20)
    """
    return int(np.clip(games // 1_500, 20, 200))


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

    @property
    def main_variant(self) -> str:
        """The wall of the main study ("both" adds the gray games beside the colored study)."""
        return "gray" if self.variant == "gray" else "colored"

    def command(self) -> str:
        """The command that reproduces this report, every option explicit."""
        players = " ".join(map(str, self.players))
        return (
            f"azul-fast report --games {self.games} --players {players} --policy {self.policy} "
            f"--seed {self.seed} --rollouts {self.rollouts} --variant {self.variant} --workers {self.workers} "
            f"--out {self.out}"
        )

    def run_seed(self, players: int) -> int:
        """Root seed of the run at `players` players: spawned from the report seed, never added."""
        return resolve_seed(np.random.SeedSequence(self.seed, spawn_key=(players,)))


@dataclass
class _Results:
    """What the study found, gathered step by step."""

    config: ReportConfig
    runs: dict[int, pd.DataFrame] = field(default_factory=dict)
    gray_runs: dict[int, pd.DataFrame] = field(default_factory=dict)  # variant "both": the same deals, gray
    variants: pd.DataFrame = field(default_factory=pd.DataFrame)
    variant_pairs: pd.DataFrame = field(default_factory=pd.DataFrame)  # analysis.variant_difference
    # Empty until _analyse fills them.
    seats: pd.DataFrame = field(default_factory=pd.DataFrame)
    openings: pd.DataFrame = field(default_factory=pd.DataFrame)
    ranking: pd.DataFrame = field(default_factory=pd.DataFrame)
    ladder: pd.DataFrame = field(default_factory=pd.DataFrame)
    charts: dict[str, str] = field(default_factory=dict)  # name -> title
    diagrams: set[str] = field(default_factory=set)  # the charts that are board diagrams (SVG only)
    files: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def build_report(
    out: str | os.PathLike[str] = DEFAULT_OUT,
    games: int = DEFAULT_GAMES,
    players: Sequence[int] = DEFAULT_PLAYERS,
    policy: str | None = None,
    seed: int = DEFAULT_SEED,
    workers: int | None = None,
    rollouts: int | None = None,
    command: str | None = None,
    log: Callable[[str], Any] | None = None,
    variant: str = "colored",
) -> Path:
    """Run the study and write the report folder; return the folder.

    Parameters
    ----------
    out : path
        Folder to write (created; existing report files in it are replaced).
    games : int
        Games per player count.
    players : sequence of int
        Player counts to study (2, 3, 4).
    policy : str or None
        Built-in policy for every seat (None: `default_policy()`).
    seed : int
        Report seed; each player count's run gets a root seed spawned from it.
    workers : int or None
        Threads for the simulations and processes for the rollouts (None: every core).
    rollouts : int or None
        Rollouts per first move in the opening ranking (None: `default_rollouts(games)`).
    command : str or None
        The command as typed, shown on the page beside the explicit one.
    log : callable or None
        Called with a line of progress text after each step.
    variant : str
        ``"colored"``, ``"gray"`` (the whole study on the gray wall) or ``"both"`` (the colored
        study, plus the same deals on the gray wall compared side by side).
    """
    config = _config(out, games, players, policy, seed, workers, rollouts, variant)
    say = log or (lambda line: None)
    config.out.mkdir(parents=True, exist_ok=True)
    results = _Results(config)
    started = time.perf_counter()
    _simulate_runs(results, say)
    _analyse(results, say)
    _draw_charts(results, say)
    _draw_best_opening(results)
    results.seconds["total"] = time.perf_counter() - started
    _write_pages(results, command)
    say(f"report written to {config.out / 'index.html'} in {results.seconds['total']:.0f} s")
    return config.out


def _config(
    out: str | os.PathLike[str], games: int, players: Sequence[int], policy: str | None, seed: int,
    workers: int | None, rollouts: int | None, variant: str = "colored",
) -> ReportConfig:
    counts = tuple(sorted(set(int(p) for p in players)))
    if not counts or not set(counts) <= {2, 3, 4}:
        raise ValueError(f"players must be among 2, 3, 4, got {list(players)}")
    policy = default_policy() if policy is None else policy
    native_policy_id(policy)  # an unknown name raises ValueError listing the valid forms
    workers = (os.cpu_count() or 1) if workers is None else int(workers)
    rollouts = default_rollouts(games) if rollouts is None else int(rollouts)
    if variant not in (*VARIANTS, "both"):
        raise ValueError(f"variant must be one of {[*VARIANTS, 'both']}, got {variant!r}")
    return ReportConfig(Path(out), int(games), counts, policy, int(resolve_seed(seed)), workers, rollouts, variant)


def _timed(results: _Results, step: str, say: Callable[[str], Any], started: float) -> None:
    results.seconds[step] = time.perf_counter() - started
    say(f"{step}: {results.seconds[step]:.1f} s")


def _simulate_runs(results: _Results, say: Callable[[str], Any]) -> None:
    config = results.config
    for players in config.players:
        started = time.perf_counter()
        df = simulate(config.games, players, config.policy, seed=config.run_seed(players),
                      workers=config.workers, progress=False, variant=config.main_variant)
        name = f"games-{players}p.parquet"
        save(df, config.out / name)
        results.runs[players] = df
        results.files.append(name)
        _timed(results, f"simulate {players} players", say, started)
        if config.variant == "both":
            started = time.perf_counter()
            gray = simulate(config.games, players, config.policy, seed=config.run_seed(players),
                            workers=config.workers, progress=False, variant="gray")
            save(gray, config.out / f"games-{players}p-gray.parquet")
            results.gray_runs[players] = gray
            results.files.append(f"games-{players}p-gray.parquet")
            _timed(results, f"simulate {players} players, gray wall", say, started)


def variant_comparison(runs: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """One row per run: its variant and player count, the first player's win rate (Wilson 95%),
    mean score, rounds and complete colours per seat, and the share of truncated games."""
    rows = []
    for df in runs:
        players = int(df.attrs["players"])
        first = int(df.attrs["first_player"])
        wins = int(df[f"win_{first}"].sum())
        low, high = win_interval(wins, len(df))
        seats = range(players)
        rows.append({
            "players": players,
            "variant": df.attrs.get("variant", "colored"),
            "games": len(df),
            "first_player_win_rate": wins / len(df),
            "ci_low": float(low),
            "ci_high": float(high),
            "mean_score": float(np.mean([df[f"score_{p}"].mean() for p in seats])),
            "mean_rounds": float(df.rounds.mean()),
            "mean_colors": float(np.mean([df[f"colors_{p}"].mean() for p in seats])),
            "truncated": float(df.truncated.mean()),
        })
    return pd.DataFrame(rows)


def variants_display(table: pd.DataFrame, pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """`variant_comparison` for people; with `pairs` (analysis.variant_difference) the gray rows
    also show the paired difference of the first player's tie-split share."""
    shown = pd.DataFrame({
        "players": table.players,
        "wall": table.variant,
        "games": table.games.map("{:,}".format),
        "first player wins": [f"{_pct(r)} ({_pct_range(lo, hi)})"
                              for r, lo, hi in zip(table.first_player_win_rate, table.ci_low, table.ci_high)],
        "mean score": table.mean_score.map("{:.1f}".format),
        "rounds": table.mean_rounds.map("{:.2f}".format),
        "complete colours": table.mean_colors.map("{:.2f}".format),
        "truncated": table.truncated.map(_pct),
    })
    if pairs is not None and not pairs.empty:
        by_players = pairs.set_index("players")
        shown["gray - colored, ties split (paired)"] = [
            "" if wall != "gray" else
            f"{by_players.diff_pp[p]:+.1f} pp [{by_players.diff_pp_low[p]:+.1f}, {by_players.diff_pp_high[p]:+.1f}]"
            for p, wall in zip(table.players, table.variant)
        ]
    return shown


def _analyse(results: _Results, say: Callable[[str], Any]) -> None:
    config = results.config
    started = time.perf_counter()
    results.seats = pd.concat([seat_advantage(df) for df in results.runs.values()], ignore_index=True)
    results.openings = pd.concat([opening_study(df) for df in results.runs.values()], ignore_index=True)
    _timed(results, "seat and opening statistics", say, started)
    started = time.perf_counter()
    first = results.runs[config.players[0]]
    results.ranking = opening_rollouts(
        int(first.seed.iloc[0]), players=config.players[0], policy=config.policy,
        rollouts=config.rollouts, workers=config.workers, variant=config.main_variant,
    )
    _timed(results, "opening rollouts", say, started)
    started = time.perf_counter()
    results.ladder = ladder(list(dict.fromkeys(_LADDER_POLICIES + (config.policy,))), games=LADDER_GAMES,
                            seed=config.seed, workers=config.workers)
    _timed(results, "strength ladder", say, started)
    tables = [("seat_advantage", results.seats), ("opening_types", results.openings),
              ("opening_ranking", results.ranking), ("ladder", results.ladder)]
    if results.gray_runs:
        runs = [df for p in config.players for df in (results.runs[p], results.gray_runs[p])]
        results.variants = variant_comparison(runs)
        results.variant_pairs = pd.concat(
            [variant_difference(results.runs[p], results.gray_runs[p]) for p in config.players], ignore_index=True
        )
        tables += [("variants", results.variants), ("variant_difference", results.variant_pairs)]
    for name, table in tables:
        table.to_csv(config.out / f"{name}.csv", index=False)
        results.files.append(f"{name}.csv")


def _draw_charts(results: _Results, say: Callable[[str], Any]) -> None:
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
            _save_chart(results, "variant_difference", "The first player on the colored and the gray wall, same deals", fig)
    _timed(results, "charts", say, started)


def _draw_best_opening(results: _Results) -> None:
    """The deal of the opening ranking as a board diagram, its best first move highlighted."""
    ranking = results.ranking
    best = ranking.iloc[0]
    deal = State.new(ranking.attrs["players"], seed=ranking.attrs["seed"], first_player=ranking.attrs["first_player"],
                     variant=results.config.main_variant)
    name = "best_opening"
    save_svg(deal, results.config.out / f"{name}.svg", move=best.move)
    results.files.append(f"{name}.svg")
    results.diagrams.add(name)
    results.charts[name] = (
        f"The best first move of deal {ranking.attrs['seed']} by rollouts, {best.move} "
        f"(first player wins {_pct(best.win_rate)} of {best.rollouts} rollouts), on the starting position"
    )


def _save_chart(results: _Results, name: str, title: str, fig: Figure) -> None:
    import matplotlib.pyplot as plt

    from azul_fast.plotting import save_figure

    for path in save_figure(fig, results.config.out / name):
        results.files.append(path.name)
    plt.close(fig)
    results.charts[name] = title


# -- tables for people ---------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(low: float, high: float, fmt: str = "{:.1f}") -> str:
    if pd.isna(low) or pd.isna(high):
        return ""
    return f"[{fmt.format(low)}, {fmt.format(high)}]"


def _p(value: float) -> str:
    if pd.isna(value):
        return ""
    return "< 1e-300" if value == 0 else f"{value:.3g}"  # 0.0 is an underflow, not a certainty


def _pct_range(low: float, high: float) -> str:
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def _p_phrase(value: float) -> str:
    text = _p(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def seat_display(table: pd.DataFrame) -> pd.DataFrame:
    """`analysis.seat_advantage` output as strings for people (percentages, intervals)."""
    return pd.DataFrame({
        "players": table.players,
        "policy": table.policies.map(short_lineup),
        "seat": [f"{s}{' (first)' if s == f else ''}" for s, f in zip(table.seat, table.first_player)],
        "games": table.games.map("{:,}".format),
        "wins": table.wins.map("{:,}".format),
        "ties": table.ties.map("{:,}".format),
        "win rate": table.win_rate.map(_pct),
        "95% CI": [_interval(100 * a, 100 * b) for a, b in zip(table.ci_low, table.ci_high)],
        "vs fair share (pp)": [f"{d:+.1f} {_interval(a, b)}" for d, a, b in
                               zip(table.diff_pp, table.diff_pp_low, table.diff_pp_high)],
        "ties split": table.win_share.map(_pct),
        "mean score": table.mean_score.map("{:.1f}".format),
        "median score": table.median_score.map("{:.0f}".format),
        "all seats equal: p": table.chi2_pvalue.map(_p),
    })


def paired_display(paired: pd.DataFrame) -> pd.DataFrame:
    """`analysis.paired_rotation_stats` output as strings for people."""
    return pd.DataFrame({
        "players": paired.players,
        "lineup": paired.policies,
        "effect": paired.effect,
        "level": paired.level,
        "deals": paired.deals.map("{:,}".format),
        "win rate": paired.win_rate.map(_pct),
        "95% CI": [_interval(100 * a, 100 * b) for a, b in zip(paired.ci_low, paired.ci_high)],
        "score vs rest (per deal)": [f"{d:+.2f} {_interval(a, b, '{:.2f}')}" if pd.notna(d) else "" for d, a, b in
                                     zip(paired.score_diff, paired.score_diff_low, paired.score_diff_high)],
        "paired t: p": paired.t_pvalue.map(_p),
        "Wilcoxon: p": paired.wilcoxon_pvalue.map(_p),
    })


def opening_display(study: pd.DataFrame) -> pd.DataFrame:
    """`analysis.opening_study` output as strings for people."""
    return pd.DataFrame({
        "players": study.players,
        "policy": study.policies.map(short_lineup),
        "feature": study.feature,
        "value": study.value,
        "games": study.games.map("{:,}".format),
        "share": study.share.map(_pct),
        "first player wins": study.win_rate.map(_pct),
        "95% CI": [_interval(100 * a, 100 * b) for a, b in zip(study.ci_low, study.ci_high)],
        "mean margin": [f"{m:+.2f} {_interval(a, b, '{:.2f}')}" for m, a, b in
                        zip(study.mean_margin, study.margin_low, study.margin_high)],
        "independence: p": study.pvalue.map(_p),
    })


def ranking_display(ranking: pd.DataFrame, top: int = TOP_MOVES) -> pd.DataFrame:
    """The first `top` rows of `analysis.opening_rollouts` as strings for people."""
    shown = ranking.head(top)
    return pd.DataFrame({
        "rank": shown["rank"],
        "move": shown.move,
        "tiles": shown.tiles,
        "line": shown.line,
        "wins": [f"{w}/{n}" for w, n in zip(shown.wins, shown.rollouts)],
        "win rate": shown.win_rate.map(_pct),
        "95% CI": [_interval(100 * a, 100 * b) for a, b in zip(shown.ci_low, shown.ci_high)],
        "mean margin": shown.mean_margin.map("{:+.2f}".format),
        "p vs best (adjusted)": shown.p_adjusted.map(_p),
        "worse than best": shown.worse_than_best.map({True: "yes", False: ""}),
    })


def ladder_display(table: pd.DataFrame) -> pd.DataFrame:
    """`ladder.ladder` output as strings for people."""
    return pd.DataFrame({
        "rank": table["rank"],
        "policy": table.policy,
        "rating (Elo)": table.rating.map("{:+.0f}".format),
        "95% CI": [_interval(a, b, "{:+.0f}") for a, b in zip(table.ci_low, table.ci_high)],
        "games": table.games.map("{:,}".format),
        "win share": table.win_share.map(_pct),
    })


def markdown_table(table: pd.DataFrame) -> str:
    """A pipe table (pandas' to_markdown needs the optional tabulate package).

    >>> print(markdown_table(pd.DataFrame({"a": [1], "b": ["x|y"]})))
    | a | b |
    | --- | --- |
    | 1 | x\\|y |
    """
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |", "| " + " | ".join("---" for _ in table.columns) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


# -- the summary and the pages -----------------------------------------------------------


def _summary_lines(results: _Results) -> list[str]:
    """The findings in sentences, each naming the policy that produced it."""
    config = results.config
    seats = results.seats
    lines = []
    for players in config.players:
        rows = seats[seats.players == players]
        first = rows[rows.seat == rows.first_player].iloc[0]
        best = rows.iloc[rows.win_rate.argmax()]
        # Judged on the tie-split share: counting a tie as a win for each winner inflates every seat.
        verdict = ("an advantage" if first.share_low > first.fair_share else
                   "a disadvantage" if first.share_high < first.fair_share else "no detectable edge")
        text = (
            f"**{players} players, {config.policy} in every seat** ({first.games:,} games): the first player wins "
            f"{_pct(first.win_rate)} (95% CI {_pct_range(first.ci_low, first.ci_high)}), "
            f"{first.diff_pp:+.1f} percentage points from the fair share of {_pct(first.fair_share)}; with shared "
            f"victories split between their winners {_pct(first.win_share)} "
            f"({_pct_range(first.share_low, first.share_high)}): {verdict}. "
            f"Best seat: seat {best.seat} with {_pct(best.win_rate)}."
        )
        if players >= 3:
            text += f" Chi-square test that all seats win equally often: {_p_phrase(first.chi2_pvalue)}."
        lines.append(text)
    lines.append(_opening_summary(results))
    mine = results.ladder.set_index("policy").loc[config.policy]
    lines.append(
        f"**Strength of {config.policy}:** rated {mine.rating:+.0f} Elo (95% CI {mine.ci_low:+.0f} to "
        f"{mine.ci_high:+.0f}) against {results.ladder.attrs['anchor']} = 0, rank {mine['rank']} of "
        f"{len(results.ladder)} on the ladder below."
    )
    return lines


def _opening_summary(results: _Results) -> str:
    config = results.config
    ranking = results.ranking
    best = ranking.iloc[0]
    worse = int(ranking.worse_than_best.sum())
    tiles = results.openings[(results.openings.feature == "tiles") & (results.openings.players == config.players[0])]
    most = tiles.iloc[tiles.games.argmax()]
    return (
        f"**Openings ({config.players[0]} players, {config.policy}):** the most common opening takes {most.value} "
        f"tile(s) ({_pct(most.share)} of games; first player wins {_pct(most.win_rate)}). In deal "
        f"{ranking.attrs['seed']}, rolling out each of its {len(ranking)} first moves {config.rollouts} times with "
        f"{config.policy} (common random numbers), the best was {best.move} with {_pct(best.win_rate)} "
        f"(95% CI {_pct_range(best.ci_low, best.ci_high)}); {worse} of the other {len(ranking) - 1} "
        f"moves are significantly worse after the Holm correction."
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
        ("opening deal", f"game seed {results.ranking.attrs['seed']} (game 0 of the {config.players[0]}-player run), "
                         f"{config.rollouts} rollouts per move, continuation seeds spawned from (deal seed, k)"),
        ("policy", f"{config.policy} in every seat"),
        ("wall", {"colored": "colored", "gray": "gray (the rulebook's variant)",
                  "both": "colored, and the same deals on the gray wall"}[config.variant]),
        ("games", f"{config.games:,} per player count"),
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
img { max-width: 100%; height: auto; }
figure { margin: 1rem 0 2rem; }
code { background: #f3f3f3; padding: 0.1rem 0.3rem; }
"""


def _bold(text: str) -> str:
    """Markdown **bold** to HTML, after escaping."""
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(text))


def _figure_html(results: _Results, name: str) -> str:
    """A figure embedded in the page (so it stands alone), linking the files it was made from."""
    kind, suffixes = ("svg+xml", ["svg"]) if name in results.diagrams else ("png", ["svg", "png"])
    data = base64.b64encode((results.config.out / f"{name}.{suffixes[-1]}").read_bytes()).decode("ascii")
    title = html.escape(results.charts[name])
    links = ", ".join(f'<a href="{name}.{suffix}">{suffix.upper()}</a>' for suffix in suffixes)
    return (
        f'<figure><img src="data:image/{kind};base64,{data}" alt="{title}">'
        f"<figcaption>{title} ({links})</figcaption></figure>"
    )


def _table_html(table: pd.DataFrame) -> str:
    return table.to_html(index=False, border=0, escape=True)


def _sections(results: _Results) -> list[tuple[str, str, pd.DataFrame, list[str]]]:
    """(title, text, table, charts) of each section, shared by the HTML page and summary.md."""
    config = results.config
    wall = " on the gray wall" if config.variant == "gray" else ""
    sections = [
        ("Seat advantage",
         f"Win rate of every seat with {config.policy} in every seat{wall}; a shared victory counts as a win for each "
         "winner (and as a tie); 'ties split' divides it between the winners instead, so equal seats would each "
         "have exactly the fair share. Intervals are Wilson 95%; the p-value is a chi-square test that all seats "
         "win equally often (3 and 4 players).",
         seat_display(results.seats), ["seat_advantage", "score_distributions", "wall_heatmap"]),
        ("Openings played",
         f"The first player's win rate and score margin (own score minus the best opponent's) by what the opening "
         f"move did, in the same {config.policy} games. The p-value tests independence of the feature and winning.",
         opening_display(results.openings), ["opening_tiles"]),
        ("Opening ranking",
         f"Every legal first move of deal {results.ranking.attrs['seed']}, each followed by {config.rollouts} "
         f"rollouts with {config.policy} in every seat. Rollout k of every move uses the same tile draws and policy "
         "choices (common random numbers); each move is compared with the best by McNemar's exact test, Holm-"
         f"corrected. The top {TOP_MOVES} are shown; opening_ranking.csv has all.",
         ranking_display(results.ranking), ["opening_ranking", "best_opening"]),
        ("Strength ladder",
         f"Every pair of {', '.join(results.ladder.policy.sort_values())} played {LADDER_GAMES} deals at 2 players, "
         "each deal once per seat (a shared victory counts half). Bradley-Terry ratings on the Elo scale, "
         f"{results.ladder.attrs['anchor']} at 0, with 95% Wald intervals (azul_fast.ladder); ladder.csv has "
         "the numbers.",
         ladder_display(results.ladder), []),
    ]
    if not results.variants.empty:
        sections.insert(1, (
            "Colored and gray wall",
            f"The same deals (same run seeds, {config.policy} in every seat) on both sides of the player boards: on "
            "the gray wall every tiled line's player picks the column (the rulebook's variant). The first player's "
            "win rate counts a shared victory as a win; intervals are Wilson 95%. Scores, rounds and complete "
            "colours are means per seat. The last column pairs the walls deal by deal: the first player's share "
            "with shared victories split, gray minus colored, with a paired t interval "
            "(analysis.variant_difference). variants.csv and variant_difference.csv have the numbers.",
            variants_display(results.variants, results.variant_pairs), ["variant_difference"]))
    return sections


def _write_pages(results: _Results, command: str | None) -> None:
    config = results.config
    summary = _summary_lines(results)
    how = _how_it_was_run(results, command)
    files = sorted(set(results.files) | {"summary.md"})
    title = f"azul_fast report: first-player advantage and openings ({config.policy})"

    body = [f"<h1>{html.escape(title)}</h1>", "<h2>Summary</h2>", "<ul>"]
    body += [f"<li>{_bold(line)}</li>" for line in summary]
    body.append("</ul>")
    for heading, text, table, charts in _sections(results):
        body += [f"<h2>{html.escape(heading)}</h2>", f"<p>{html.escape(text)}</p>", _table_html(table)]
        body += [_figure_html(results, name) for name in charts]
    body += ["<h2>How it was run</h2>", "<table>"]
    body += [f"<tr><th>{html.escape(k)}</th><td style='text-align:left'><code>{html.escape(v)}</code></td></tr>"
             for k, v in how]
    body += ["</table>", "<h2>Files</h2>", "<ul>"]
    body += [f'<li><a href="{html.escape(name)}">{html.escape(name)}</a></li>' for name in files]
    body.append("</ul>")
    page = (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    (config.out / "index.html").write_text(page, encoding="utf-8")

    md = [f"# {title}", "", "## Summary", ""] + [f"- {line}" for line in summary]
    for heading, text, table, charts in _sections(results):
        md += ["", f"## {heading}", "", text, "", markdown_table(table), ""]
        md += [f"![{results.charts[name]}]({name}.svg)" for name in charts]
    md += ["", "## How it was run", ""] + [f"- {k}: `{v}`" for k, v in how]
    md += ["", "## Files", ""] + [f"- [{name}]({name})" for name in files]
    (config.out / "summary.md").write_text("\n".join(md) + "\n", encoding="utf-8")
