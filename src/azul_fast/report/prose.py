"""The report's words: the summary, the glossary of bots and notation, and how the study was run.
"""

from __future__ import annotations

import os
import platform
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from azul_fast._version import RULES_VERSION, __version__
from azul_fast.core.bots.families import STRONG_BUDGET
from azul_fast.core.bots.policies import FAST_BUDGET, FULL_ROLLOUTS_FROM, LEARNED_BUDGET
from azul_fast.core.rules.moves import Color
from azul_fast.report.formatting import (
    interval_text,
    percent,
)
from azul_fast.report.move_section import (
    move_summary,
)
from azul_fast.studies.published import PublishedAnswer, compare_with_published, published_answer
from azul_fast.studies.strength import CONVERGENCE_PRECISION, strength_verdict

if TYPE_CHECKING:
    pass

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.report.settings.
from azul_fast.report.config import ReportRun

_Z = 1.959963984540054   # the 95 % normal quantile: a seat share's interval back to its standard error


def named_policy(results: ReportRun, policy: str) -> str:
    """A policy's name with its strength: ``heuristic (+412 Elo)``."""
    rating = results.ladder.set_index("policy").rating.get(policy)
    return policy if rating is None else f"{policy} ({rating:+.0f} Elo)"


#: The quick report's first line: its samples are sized to check the pipeline, not to be quoted.
QUICK_WARNING = ("**A quick report: its numbers are too small to quote.** It checks the tool on a few thousand "
                 "games; run `azul-fast report` for numbers to publish.")


def summary_lines(results: ReportRun) -> list[str]:
    """The findings in short sentences: the first player's answer at each player count (the project's
    published answer under its strongest level where one ships with the package, else this run's strongest
    level), whether stronger play moves it (levels of one family), how this run's own figures compare with
    the published ones, then the other studies; each names its policy and that policy's Elo, and which
    ladder the Elo is from."""
    config = results.config
    lines = [QUICK_WARNING] if config.setting == "quick" else []
    published = {players: published_answer(players, config.main_variant) for players in config.players}
    lines += [_bold_claim(answer) for answer in headline(results)]
    answers = [answer for answer in published.values() if answer is not None]
    if answers:
        lines.append(_stronger_play_line(answers))
        lines.append(_reproduction_line(results, published))
    if len(answers) < len(config.players):
        lines.append(_agreement_line([strength_verdict(results.strength, players) for players in config.players
                                      if published[players] is None]))
    lines.append(_seat_summary(results))
    lines.append(_opening_summary(results))
    if results.moves is not None:
        lines.append(move_summary(results.moves, lambda policy: named_policy(results, policy)))
    mine = results.ladder.set_index("policy").loc[config.policy]
    rank = int(cast("int", mine["rank"]))
    project = "; the published answer's are the project's ladder" if answers else ""
    lines.append(
        f"**Every {'other ' if answers else ''}Elo on this page is this run's ladder** "
        f"({results.ladder.attrs['anchor']} = 0, last section{project}): {config.policy} is {mine.rating:+.0f} "
        f"[{mine.ci_low:+.0f}, {mine.ci_high:+.0f}], rank {rank} of {len(results.ladder)}."
    )
    return lines


def headline(results: ReportRun) -> list[str]:
    """The answer at each player count in one sentence: the published answer's strongest level where the
    package ships one for the report's wall, else this run's strongest level (`strength_verdict`)."""
    config = results.config
    lines = []
    for players in config.players:
        answer = published_answer(players, config.main_variant)
        lines.append(_published_claim(answer) if answer is not None
                     else strength_verdict(results.strength, players)["answer"])
    return lines


def _published_claim(answer: PublishedAnswer) -> str:
    """The published answer at one player count, as `strength_verdict` words a run's."""
    top, players = answer.strongest, answer.players
    fair = 1 / players
    gap = 100 * (top.share - fair)
    claim = (f"the first player has an advantage of {gap:+.1f} points" if top.low > fair else
             f"the first player has a disadvantage of {gap:+.1f} points" if top.high < fair else
             "no advantage of the first player is detected")
    return (f"{players} players: {claim}, {100 * top.share:.1f}% [{100 * top.low:.1f}, {100 * top.high:.1f}] of "
            f"wins against a fair {100 * fair:.1f}% (ties split; {top.policy}, {top.elo:+.0f} Elo on the "
            f"project's ladder, {top.games:,} games: the published answer).")


def _stronger_play_line(answers: list[PublishedAnswer]) -> str:
    """Whether the published answer moves between its two strongest levels (one family), at every player count."""
    parts = []
    for answer in answers:
        top, below = answer.strongest, answer.runner_up
        if below is None or top.verdict is None:
            continue
        parts.append(f"{answer.players} players, {top.policy} against {below.policy}: {top.verdict} "
                     f"({100 * top.difference:+.1f} points [{100 * top.difference_low:+.1f}, "
                     f"{100 * top.difference_high:+.1f}])")
    if not parts:
        return "**Does stronger play move it?** The published answer has one level only."
    return "**Does stronger play move it?** Published: " + "; ".join(parts) + "."


def _reproduction_line(results: ReportRun, published: dict[int, PublishedAnswer | None]) -> str:
    """This run's figure for its policy beside the published row of the same policy, at every player count."""
    policy = results.config.policy
    parts = []
    for players, answer in published.items():
        row = None if answer is None else answer.levels.get(policy)
        mine = _first_player_row(results, players)
        share = f"{100 * mine.win_share:.1f}% {interval_text(100 * mine.share_low, 100 * mine.share_high)}"
        if row is None:
            parts.append(f"{share} at {players} players (no published {policy} row)")
            continue
        se = (mine.share_high - mine.share_low) / (2 * _Z)
        verdict, difference, _, _ = compare_with_published(float(mine.win_share), float(se), row)
        parts.append(f"{share} at {players} players against {100 * row.share:.1f}% ({verdict})")
    return f"**This run's {named_policy(results, policy)} beside the published**: " + "; ".join(parts) + "."


def _first_player_row(results: ReportRun, players: int) -> Any:
    """The seat study's row of the first player at `players` players."""
    rows = results.seats[results.seats.players == players]
    return rows[rows.seat == rows.first_player].iloc[0]


def _bold_claim(answer: str) -> str:
    """The verdict's answer with its claim (up to the first comma) in bold, so that no two bullets
    start with the same bold label."""
    claim, _, rest = answer.partition(", ")
    return f"**{claim}**, {rest}"


def _agreement_line(verdicts: list[dict[str, Any]]) -> str:
    """Whether this run's two strongest levels agree, at every player count in one sentence."""
    first = verdicts[0]
    pair = f"{first['strongest']['policy']} against {first['runner_up']['policy']}"
    parts = []
    for verdict in verdicts:
        state = ("converged" if verdict["converged"] else "agree, not yet converged" if verdict["agree"]
                 else "disagree")
        parts.append(f"{int(verdict['strongest']['players'])} players {state} "
                     f"({100 * verdict['diff']:+.1f} points [{100 * verdict['diff_low']:+.1f}, "
                     f"{100 * verdict['diff_high']:+.1f}])")
    hint = ("" if all(v["converged"] for v in verdicts) else
            f". Converged means within +/-{100 * CONVERGENCE_PRECISION:.1f} points (--thorough plays more)")
    return f"**Do this run's two strongest levels agree?** {pair}: " + "; ".join(parts) + f"{hint}."


def _seat_summary(results: ReportRun) -> str:
    """The seat study's first player at every player count, ties split (as in its chart)."""
    seats = results.seats
    parts = []
    for k, players in enumerate(results.config.players):
        rows = seats[seats.players == players]
        first = rows[rows.seat == rows.first_player].iloc[0]
        parts.append(f"{percent(first.win_share)} {interval_text(100 * first.share_low, 100 * first.share_high)} "
                     f"at {players}{' players' if k == 0 else ''} (fair {percent(first.fair_share)}, "
                     f"{int(first.games):,} games)")
    # A bot weaker than the headline's plays its own habits, not the strongest play: the published answer's
    # strongest level, or where none is published the two levels this run's headline compares.
    config = results.config
    answer = published_answer(config.players[0], config.main_variant)
    if answer is not None:
        weaker = config.policy != answer.strongest.policy
    else:
        rating = results.ladder.set_index("policy").rating.get(config.policy)
        top_two = results.strength.elo.drop_duplicates().nlargest(2)
        weaker = rating is not None and len(top_two) == 2 and rating < top_two.min()
    note = "; a weaker bot than the headline's" if weaker else ""
    return (f"**Seat study, {named_policy(results, results.config.policy)} in every seat** (ties split{note}): "
            "first player " + ", ".join(parts) + ".")


def _opening_summary(results: ReportRun) -> str:
    """The opening types in one sentence: a best kind is named only when every other type tested is
    significantly worse; otherwise the page says that the data do not separate them."""
    config = results.config
    types = results.types
    best = types.iloc[0]
    worse = int(types.worse_than_best.sum())
    tested = int(types.p_vs_best.notna().sum())
    setup = (f"({config.players[0]} players, {named_policy(results, config.policy)}, {types.attrs['deals']} deals, "
             f"{config.rollouts} rollouts a move)")
    edge = f"{100 * best.edge:+.1f} points [{100 * best.edge_low:+.1f}, {100 * best.edge_high:+.1f}]"
    if tested and worse == tested:
        return (f"**The best kind of opening is \"{best.type}\"** {setup}: {edge} over the deal's average first "
                f"move; each of the {tested} other types is significantly worse.")
    return (f"**The data do not separate the kinds of opening** {setup}: {tested - worse} of the {tested} other "
            f"types are not significantly worse than the top one, \"{best.type}\" ({edge}).")


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
               f"opponent; below {FULL_ROLLOUTS_FROM} iterations its rollouts stop once every opponent has "
               "answered (the round is then ended where it stands, and at 2 players the tiles left on the table are "
               "valued by a second trained model). learned:N searches N iterations per move, "
               f"plain learned {LEARNED_BUDGET}: stronger than mcts in a tenth of its time. It never sees the "
               "future tile draws.",
    "fast": "the learned search with rollouts that stop once every opponent has answered (the round is then "
            "ended where it stands) and a tree of 12 moves at the root and 2 below, for bulk studies: fast:N "
            "searches N iterations per move, "
            f"plain fast {FAST_BUDGET}: stronger than mcts:200 in a twelfth of its time. It never sees the "
            "future tile draws.",
    "learned-own": "the learned search playing for its own score alone, as most people play: it gives no "
                   "thought to the opponents' scores and never takes tiles only to spoil an opponent's line. "
                   "learned-own:N searches N iterations per move.",
    "strong": "the learned search with a value network in place of its linear evaluation: a network the project "
              "trained on the learned search's games and then on its own (azul-fast train --net) values the boards "
              "at the round's end from where every tile lies. strong:N searches N iterations per move, plain "
              f"strong {STRONG_BUDGET} (learned's time). Trained at 2 players on the colored wall; elsewhere it "
              "plays learned's games. It never sees the future tile draws.",
    "learned-half": "the learned search playing for its score less half the strongest opponent's, without "
                    "spoiling opponents' lines on purpose. learned-half:N searches N iterations per move.",
    "learned-margin": "the learned search playing for its margin over the strongest opponent, as learned does, "
                      "but without crediting a take that spoils an opponent's line. learned-margin:N searches N "
                      "iterations per move.",
}


def glossary(results: ReportRun) -> pd.DataFrame:
    """The bots of this report in plain words, with their Elo on its ladder."""
    rows = []
    anchor = results.ladder.attrs.get("anchor", "greedy")
    for _, row in results.ladder.sort_values("rating").iterrows():
        words = _BOTS.get(str(row.policy).partition(":")[0], "see the policy's documentation.")
        rows.append({"bot": row.policy, f"Elo, this run's ladder ({anchor} = 0)": f"{row.rating:+.0f}",
                     "what it does": words})
    return pd.DataFrame(rows)


NOTATION = (
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


def _move_setup(results: ReportRun) -> str:
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


def how_it_was_run(results: ReportRun, command: str | None) -> list[tuple[str, str]]:
    config = results.config
    steps = ", ".join(f"{step} {s:.1f} s" for step, s in results.seconds.items())
    # the seeds the saved games were played from (each file's own root_seed attribute): a run the seat study
    # takes over from the strength study has that study's seed, not `config.run_seed`
    run_seeds = ", ".join(f"{p} players {df.attrs['root_seed']}" for p, df in results.runs.items()) + (
        f" (simulate(games, players, {config.policy!r}, seed=...) reproduces games-<players>p.parquet"
        + (", and with variant='gray' games-<players>p-gray.parquet" if results.gray_runs else "") + ")")
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
        ("policy", f"{named_policy(results, config.policy)} in every seat of the seat and opening studies"),
        ("move studies", _move_setup(results)),
        ("wall", {"colored": "colored", "gray": "gray (the rulebook's variant)",
                  "both": "colored, and the same deals on the gray wall"}[config.variant]),
        ("games", "per player count in the seat study: " + ", ".join(
            f"{int(part.games.iloc[0]):,} at {players} players" for players, part in results.seats.groupby("players"))
         + " (the strength study's games of the report's policy)"),
        ("workers", f"{config.workers} (the numbers do not depend on it)"),
        ("runtime", f"{results.seconds['total']:.1f} s ({steps})"),
        ("machine", f"{platform.platform()}, {os.cpu_count()} cores"),
        ("date", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("versions", ", ".join(f"{k} {v}" for k, v in _versions().items())),
    ]
    return rows
