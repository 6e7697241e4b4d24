"""The answer tables and sentences of README.md, docs/first-player.md and docs/policies.md, from the results CSVs.

    python docs/_ext/answers.py            # rewrite the generated blocks of the pages
    python docs/_ext/answers.py --check    # exit 1, naming the blocks, if a page differs from its CSVs
    python docs/_ext/answers.py --chart    # also redraw docs/_static/strength_for_time.png from the benchmark

A generated block sits between ``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->``;
everything outside the markers is written by hand and left alone. The numbers come from:

- ``analysis/results/first_player_converged.csv``: the first player's share under every level of the
  converged study, with the difference from the level below and its verdict;
- ``analysis/results/first_player_by_style.csv``, when it exists: the same share under strong play of
  several styles (the answer then gives the range across styles);
- ``analysis/results/first_player_converged_style.csv``: how each level plays (score, floor, bonuses);
- ``analysis/results/first_player_search_form.csv``: the share on either side of the switch to full rollouts;
- ``analysis/results/first_player_why.csv``: where the first player's margin is made, round by round;
- ``analysis/results/ladder_for_strength.csv``: the one ladder, every Elo on the pages;
- ``benchmarks/results/strength.csv``: the benchmark of record (win shares against ``mcts``, costs).

``tests/report/test_docs_results.py`` regenerates every block and fails when the committed text differs.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from azul_fast.core.bots.families import STRONG_TOP_BUDGET

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "analysis" / "results"
CONVERGED = RESULTS / "first_player_converged.csv"
BY_STYLE = RESULTS / "first_player_by_style.csv"
CONVERGED_STYLE = RESULTS / "first_player_converged_style.csv"
SEARCH_FORM = RESULTS / "first_player_search_form.csv"
WHY = RESULTS / "first_player_why.csv"
LADDER = RESULTS / "ladder_for_strength.csv"
BENCHMARK = ROOT / "benchmarks" / "results" / "strength.csv"
README = ROOT / "README.md"
ARTICLE = ROOT / "docs" / "first-player.md"
POLICIES = ROOT / "docs" / "policies.md"

NBSP = "\u00a0"  # between a number and its % sign, so that a phone never breaks the line there
WALLS = ("colored", "gray")


# --- formatting -------------------------------------------------------------------------------------

def pct(share: float) -> str:
    """0.4981 -> '49.8 %' (with a no-break space)."""
    return f"{100 * share:.1f}{NBSP}%"


def share_interval(share: float, low: float, high: float) -> str:
    """A share and its 95 % interval as the pages write it: '49.8 % [49.3, 50.3]'."""
    return f"{pct(share)} [{100 * low:.1f}, {100 * high:.1f}]"


def first_share(row: Any) -> str:
    """A row's first-player share with its interval (the converged and style tables' columns)."""
    return share_interval(row.first_player_share, row.ci_low, row.ci_high)


def win_share(row: Any) -> str:
    """A benchmark row's win share with its interval."""
    return share_interval(row.win_share, row.ci_low, row.ci_high)


def points(value: float) -> str:
    """A difference in points with its sign ('+0.3', '−0.5'); the minus sign is U+2212, as in the report."""
    text = f"{100 * value:+.1f}"
    return text.replace("-", "\u2212")


def fair(players: int) -> str:
    return {2: f"50{NBSP}%", 3: f"33.3{NBSP}%", 4: f"25{NBSP}%"}[players]


def elo(value: float) -> str:
    """+1084, −1083, and 0 for the anchor."""
    return "0" if round(value) == 0 else f"{value:+.0f}".replace("-", "\u2212")


def join(parts: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def setting(players: int, wall: str) -> str:
    return f"{players} players on the {wall} wall"


def settings(where: list[tuple[int, str]]) -> str:
    """Player counts and walls in few words: 'at 2 and 3 players on both walls', 'at 4 players on
    the colored wall and 2 on the gray'."""
    counts = {wall: sorted(p for p, w in where if w == wall) for wall in WALLS}
    if counts["colored"] == counts["gray"]:
        return f"at {join([str(p) for p in counts['colored']])} players on both walls"
    parts = [f"{join([str(p) for p in found])} {'players ' if not k else ''}on the {wall}{' wall' if not k else ''}"
             for k, (wall, found) in enumerate((w, c) for w, c in counts.items() if c)]
    return "at " + " and ".join(parts)


# --- the data ---------------------------------------------------------------------------------------

def converged() -> pd.DataFrame:
    return pd.read_csv(CONVERGED)


def by_style() -> pd.DataFrame | None:
    """The style study's table, or None before it has been run."""
    return pd.read_csv(BY_STYLE) if BY_STYLE.is_file() else None


def ladder() -> pd.Series:
    return pd.read_csv(LADDER).set_index("policy").rating


def benchmark() -> pd.DataFrame:
    return pd.read_csv(BENCHMARK)


def strongest(table: pd.DataFrame) -> pd.DataFrame:
    """Per player count and wall, the row of the highest-rated level."""
    rows = table.sort_values("elo").groupby(["players", "variant"], sort=False).tail(1)
    return rows.sort_values(["variant", "players"], key=lambda c: c.map(WALLS.index) if c.name == "variant" else c)


def levels(table: pd.DataFrame) -> list[tuple[str, float]]:
    """The converged study's levels, weakest first, with their Elo."""
    first = table.groupby("policy").elo.first().sort_values()
    return list(first.items())


def strongest_levels(top: pd.DataFrame) -> str:
    """The strongest level with its Elo, by player count where they differ: '`learned:200` (+1125 Elo)', or
    '`learned:900` (+1340 Elo) at 2 players and `learned:200` (+1125 Elo) at 3 and 4'."""
    counts = top.groupby("policy", sort=False).players.apply(lambda p: sorted(set(p)))
    named = [(policy, counts[policy], top[top.policy == policy].elo.iloc[0])
             for policy in sorted(counts.index, key=lambda name: counts[name][0])]
    if len(named) == 1:
        return f"`{named[0][0]}` ({elo(named[0][2])} Elo)"
    where = {policy: sorted(zip(rows.players, rows.variant)) for policy, rows in top.groupby("policy", sort=False)}
    counts = [[{p for p, w in pairs if w == wall} for wall in WALLS] for pairs in where.values()]
    if any(colored != gray for colored, gray in counts):
        # the walls' strongest levels differ at some player count: say where each level is the strongest
        return join([f"`{policy}` ({elo(rating)} Elo) {settings(where[policy])}" for policy, _, rating in named])
    return join([f"`{policy}` ({elo(rating)} Elo) at {join([str(p) for p in players])}{' players' if not k else ''}"
                 for k, (policy, players, rating) in enumerate(named)])


def match(policy: str, opponent: str = "mcts", players: int = 2) -> pd.Series:
    table = benchmark()
    rows = table[(table.policy == policy) & (table.opponent == opponent) & (table.players == players)]
    if len(rows) != 1:
        raise LookupError(f"{BENCHMARK.name} has {len(rows)} rows of {policy} against {opponent} at {players} players")
    return rows.iloc[0]


# --- the blocks ------------------------------------------------------------------------------------

def readme_answer() -> str:
    """The README's answer: the first player's share under the strongest level on both walls and,
    once the style study exists, its range across the styles of strong play."""
    top = strongest(converged())
    styles = by_style()
    names = sorted(set(top.policy))
    header = "| players | fair share | colored wall | gray wall |"
    if styles is not None:
        header += " colored, across styles | gray, across styles |"
    level = "the strongest level played" if len(names) == 1 else "the strongest level played at each player count"
    lines = [
        f"The first player's share of the wins (ties split) with {strongest_levels(top)}, {level}, in "
        f"every seat; 95{NBSP}% intervals:",
        "",
        header,
        "|" + " --- |" * (header.count("|") - 1),
    ]
    for players in sorted(top.players.unique()):
        cells = []
        for wall in WALLS:
            row = top[(top.players == players) & (top.variant == wall)].iloc[0]
            cells.append(f"{first_share(row)} of {row.games:,} games")
        if styles is not None:
            cells += [style_range(styles[(styles.players == players) & (styles.variant == wall)]) for wall in WALLS]
        lines.append(f"| {players} | {fair(players)} | " + " | ".join(cells) + " |")
    lines += ["", verdict_sentence(top, "docs/first-player.md")]
    return "\n".join(lines)


def style_range(rows: pd.DataFrame) -> str:
    """'49.8 to 58.3 %' across the styles of `rows`, or 'not played'."""
    if rows.empty:
        return "not played"
    low, high = rows.first_player_share.min(), rows.first_player_share.max()
    count = rows["style"].nunique()
    return f"{100 * low:.1f} to {pct(high)} ({count} style{'s' if count > 1 else ''})"


def edge_sentence(top: pd.DataFrame) -> str:
    """How far the strongest level's share lies from the fair share, and where its interval holds it."""
    gaps = top.first_player_share - 1 / top.players
    widest = top.loc[gaps.abs().idxmax()]
    where = {"holds": [], "above": [], "below": []}
    for r in top.itertuples():
        side = "above" if r.ci_low > 1 / r.players else "below" if r.ci_high < 1 / r.players else "holds"
        where[side].append((r.players, r.variant))
    parts = []
    if where["holds"]:
        parts.append("holds the fair share " + ("everywhere" if len(where["holds"]) == len(top)
                                                else settings(where["holds"])))
    for side in ("above", "below"):
        if where[side]:
            parts.append(f"lies {side} it {settings(where[side])}")
    return (f"The first player's share lies within {abs(100 * gaps).max():.1f} points of the fair share "
            f"(the most {settings([(widest.players, widest.variant)])}); its interval {join(parts)}.")


def verdict_sentence(top: pd.DataFrame, link: str) -> str:
    """Whether the strongest level agrees with the level below it (the `verdict` of the CSV)."""
    table = converged()
    groups: dict[str, list[tuple[int, str]]] = {}
    below = []
    for row in top.itertuples():
        groups.setdefault(row.verdict, []).append((row.players, row.variant))
        here = table[(table.players == row.players) & (table.variant == row.variant) & (table.elo < row.elo)]
        below.append(here.sort_values("elo").policy.iloc[-1])
    pairs = strongest_levels(top.assign(policy=below, elo=0.0)).replace(" (0 Elo)", "")
    phrases = {"converged": "the two have converged", "agreement not shown": "agreement is not shown",
               "differ": "the two differ"}
    parts = [f"{phrases[verdict]} {settings(groups[verdict])}" for verdict in sorted(groups, key=list(phrases).index)]
    return f"Against the level below it ({pairs}), [{'; '.join(parts)}]({link}#converged)."


def style_sentence() -> str:
    """The range of the first player's share across styles of strong play, once that study exists."""
    table = by_style()
    if table is None:
        return ""
    parts = []
    for (players, wall), rows in table.groupby(["players", "variant"], sort=True):
        low, high = rows.loc[rows.first_player_share.idxmin()], rows.loc[rows.first_player_share.idxmax()]
        parts.append(f"at {setting(players, wall)} from {first_share(low)} "
                     f"(`{low.policy}`, {low['style']}) to {first_share(high)} "
                     f"(`{high.policy}`, {high['style']})")
    counts = table.groupby("players")["style"].nunique()
    played = join([f"{n} at {players} players" if k == 0 else f"{n} at {players}"
                   for k, (players, n) in enumerate(counts.items())])
    return (f"Across the styles of strong play of the style study ({played}), the first player's "
            f"share ranges {'; '.join(parts)}.")


def readme_bots() -> str:
    """The strength of the default bots, one line each."""
    rating = ladder()
    learned, fast = match("learned"), match("fast", "mcts:200")
    strong = match(f"strong:{STRONG_TOP_BUDGET}", "learned:900")
    mcts_ms = benchmark().query("policy == 'mcts'").ms_per_game.iloc[0]
    return "\n".join([
        f"- `learned` (the default strong bot, {elo(rating['learned'])} Elo): wins "
        f"{win_share(learned)} of {learned.games:,.0f} games against "
        f"`mcts` ({elo(rating['mcts'])} Elo, a plain search of 1,000 iterations a move) in "
        f"{learned.time_vs_opponent:g}x its time: {learned.ms_per_game:.1f} against {mcts_ms:.1f} ms a "
        f"2-player game on one core ({learned.time_vs_opponent_at_once:g}x when the two are timed at once).",
        f"- `fast` (for bulk studies, {elo(rating['fast'])} Elo): wins {win_share(fast)} "
        f"of {fast.games:,.0f} games against `mcts:200` in {fast.time_vs_opponent_at_once:g}x its time; "
        f"{match('fast').games_per_second:,.0f} games a second on 2 cores.",
        f"- `{strong.policy}` (the learned search with a value network, {elo(rating[strong.policy])} Elo): wins "
        f"{win_share(strong)} of {strong.games:,.0f} games against `learned:900` ({elo(rating['learned:900'])} Elo) "
        f"in {strong.time_vs_opponent_at_once:g}x its time.",
    ])


def strong_targets() -> list[str]:
    """One line per target of the benchmark (its rows with a ``target``: the least win share in at most the
    opponent's time): the match, its time and whether the target is met."""
    table = benchmark()
    lines = []
    for row in table[table.target.notna()].itertuples():
        met = row.win_share >= row.target and row.time_vs_opponent_at_once <= 1.0
        lines.append(f"- `{row.policy}` against `{row.opponent}`: {win_share(row)} of {row.games:,.0f} games in "
                     f"{row.time_vs_opponent_at_once:g}x its time timed at once (target: at least "
                     f"{100 * row.target:.0f}{NBSP}% in at most its time: {'met' if met else 'not met'}).")
    return lines


def article_answer() -> str:
    """docs/first-player.md's answer paragraph: the strongest level's shares and the verdicts."""
    table = converged()
    top = strongest(table)
    names = levels(table)
    parts = []
    for wall in WALLS:
        rows = list(top[top.variant == wall].itertuples())
        parts.append(f"on the {wall} wall " + join([
            f"{first_share(r)} at {r.players}{' players' if not k else ''}"
            for k, r in enumerate(rows)]))
    where = "" if top.policy.nunique() == 1 else " at each player count"
    lines = [
        f"Under {strongest_levels(top)}, the strongest level played{where} ({len(names)} levels in all), in every "
        "seat, "
        f"the first player wins {parts[0]}; {parts[1]} (fair shares: "
        f"{join([fair(p) for p in sorted(top.players.unique())])}).",
        "",
        edge_sentence(top) + " " + verdict_sentence(top, ""),
    ]
    style = style_sentence()
    if style:
        lines += ["", style]
    return "\n".join(lines)


def article_table() -> str:
    """Every row of the converged study: the page's one table."""
    table = converged()
    lines = ["| players, wall | policy (Elo) | games | first player's share | difference, verdict |",
             "|---|---|---|---|---|"]
    table = table.sort_values(["variant", "players", "elo"],
                              key=lambda c: c.map(WALLS.index) if c.name == "variant" else c)
    for row in table.itertuples():
        verdict = ("" if pd.isna(row.verdict) else
                   f"{points(row.difference)} [{points(row.difference_low)}, {points(row.difference_high)}], "
                   f"{row.verdict}")
        lines.append(f"| {row.players}, {row.variant} | `{row.policy}` ({elo(row.elo)}) | {row.games:,} | "
                     f"{first_share(row)} | {verdict} |")
    return "\n".join(lines)


def article_style_table() -> str:
    """How each level plays: score, points a round, floor a round, end bonuses."""
    style = pd.read_csv(CONVERGED_STYLE)
    lines = ["| players | wall | policy | score a game | points a round | floor a round | end bonus a game |",
             "|---|---|---|---|---|---|---|"]
    for row in style.itertuples():
        lines.append(f"| {row.players} | {row.variant} | `{row.policy}` | {row.mean_score:.1f} | "
                     f"{row.points_per_round:.1f} | {row.floor_per_round:.1f} | {row.end_bonus_per_game:.1f} |")
    return "\n".join(lines)


def article_search_form() -> str:
    """The budgets on either side of the switch to full rollouts, beside the converged table's levels of the
    same player count and wall."""
    from azul_fast.core.bots.policies import parse_policy

    form = pd.read_csv(SEARCH_FORM)
    table = converged()
    lines = ["| policy | rollouts | games | first player's share |", "|---|---|---|---|"]
    for (players, wall), rows in form.groupby(["players", "variant"]):
        levels_here = table[(table.players == players) & (table.variant == wall)].copy()
        specs = [parse_policy(policy) for policy in levels_here.policy]
        levels_here["budget"] = [spec.budget for spec in specs]
        levels_here["rollouts"] = ["to the round's end" if spec.full_rollouts else "to the opponent's answer"
                                   for spec in specs]
        both = pd.concat([levels_here, rows]).sort_values("budget")
        for row in both.itertuples():
            lines.append(f"| `{row.policy}` | {row.rollouts} | {row.games:,} | {first_share(row)} |")
    return "\n".join(lines)


def article_why() -> str:
    """Where the first player's margin is made under the two levels of the search-form step, round by round
    (analysis/results/first_player_why.csv), with how often the second player takes the marker in round 1.
    The rare rounds after the fifth are added to it (R5+), so the row's parts add up to its final margin."""
    table = pd.read_csv(WHY)
    header = ["wall", "level", "R1", "R2", "R3", "R4", "R5+", "bonuses", "final margin", "games",
              "R1 marker to the 2nd"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for (wall, policy), rows in table.groupby(["variant", "policy"], sort=False):
        rows = rows.set_index("part")
        final, first = rows.loc["final margin"], rows.loc["round 1"]
        late = rows.margin[[part for part in rows.index if part.startswith("round ") and
                            int(part.split()[1].rstrip("+")) >= 5]].sum()
        cells = [wall, f"`{policy}`", *[signed(rows.margin[f"round {r}"]) for r in range(1, 5)], signed(late),
                 signed(rows.margin["end bonuses"]),
                 f"{signed(final.margin)} [{signed(final.margin_low)}, {signed(final.margin_high)}]",
                 f"{int(final.games):,}", pct(first.second_takes_marker)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def signed(points_value: float) -> str:
    """A margin in points with its sign, the minus sign U+2212: '+0.3', '−0.5'."""
    return f"{points_value:+.2f}".replace("-", "\u2212")


def policies_strength() -> str:
    """docs/policies.md's table: every policy's Elo on the ladder beside the benchmark's match and cost."""
    rating = ladder()
    table = benchmark()
    two = table[(table.players == 2) & (table.opponent.isin(["mcts"]) | table.opponent.isna())]
    lines = [f"| policy | Elo (ladder) | wins against `mcts` (95{NBSP}% interval, games) | ms a game "
             "| instructions vs `mcts` |",
             "| --- | --- | --- | --- | --- |"]
    for row in two.itertuples():
        rated = elo(rating[row.policy]) if row.policy in rating else "not on it"
        if pd.isna(row.games):
            against = "(itself)"
        elif pd.isna(row.ci_low):
            against = f"{pct(row.win_share)} ({row.games:,.0f})"
        else:
            against = f"{share_interval(row.win_share, max(row.ci_low, 0.0), row.ci_high)} ({row.games:,.0f})"
        cost = "–" if pd.isna(row.ms_per_game) else f"{row.ms_per_game:.2f}"
        count = "–" if pd.isna(row.instructions_vs_mcts) else f"{row.instructions_vs_mcts:.3f}x"
        lines.append(f"| `{row.policy}` | {rated} | {against} | {cost} | {count} |")
    fast = match("fast", "mcts:200")
    lines += ["", f"- `fast` against `mcts:200`: {win_share(fast)} of "
              f"{fast.games:,.0f} games, in {fast.time_vs_opponent_at_once:g}x its time timed at once (1/"
              f"{1 / fast.time_vs_opponent_at_once:.1f}); {match('fast').games_per_second:,.0f} games a second with 2 "
              f"workers, a million in {1e6 / match('fast').games_per_second / 60:.1f} minutes."]
    for policy in ("learned", "learned:900", "learned:1000"):
        row = match(policy)
        lines.append(f"- `{policy}` against `mcts`: {win_share(row)} of "
                     f"{row.games:,.0f} games in {row.time_vs_opponent_at_once:g}x its time timed at once (the two "
                     f"policies timed together, one a core).")
    lines += strong_targets()
    multi = table[table.players > 2]
    lines.append("- One seat against `mcts` in the others at 3 and 4 players (seats rotated): " + join([
        f"`{r.policy}` {win_share(r)} at {r.players} (fair {fair(r.players)}, "
        f"{r.games:,.0f} games)" for r in multi.itertuples()]) + ".")
    return "\n".join(lines)


#: The chart of docs/policies.md, drawn from the benchmark by ``--chart``.
STRENGTH_CHART = ROOT / "docs" / "_static" / "strength_for_time"
#: Families of policies, their colour and where each budget's label sits (points, from the point).
_FAMILIES = {"random": "0.45", "greedy": "0.45", "heuristic": "0.45", "mcts": "#0072B2", "fast": "#E69F00",
             "learned": "#009E73", "strong": "#CC79A7"}
_LABEL_AT = {"learned:800": (-8, 4), "learned:900": (-8, 10), "learned:1000": (6, -12), "learned:300": (-8, 6),
             "learned": (-8, 6), "learned:20": (6, -10), "fast:100": (6, -6), "mcts": (6, -4), "mcts:200": (6, -6),
             "mcts:50": (6, -6), "fast": (6, -8), "heuristic": (6, 8), "greedy": (6, -8), "random": (2, 12)}


def draw_strength_chart() -> list[Path]:
    """Every policy's win share against `mcts` (2 players, 95 % intervals) against its milliseconds a game
    on one core (log scale), from the benchmark of record: the strength-for-time chart without a second Elo."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from azul_fast.report.charts import azul_style, save_figure

    table = benchmark()
    two = table[(table.players == 2) & ((table.opponent == "mcts") | table.policy.eq("mcts"))
                & table.ms_per_game.notna()].copy()   # a level added from another run has no time to place it
    two.loc[two.policy == "mcts", ["win_share", "ci_low", "ci_high"]] = 0.5  # the reference against itself
    with azul_style():
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        for family, color in _FAMILIES.items():
            rows = two[two.policy.str.split(":").str[0] == family].sort_values("ms_per_game")
            share = 100 * rows.win_share.to_numpy(float)
            low = 100 * rows.ci_low.fillna(rows.win_share).clip(lower=0).to_numpy(float)
            high = 100 * rows.ci_high.fillna(rows.win_share).to_numpy(float)
            ax.errorbar(rows.ms_per_game, share, yerr=[share - low, high - share], color=color, marker="o",
                        linestyle="-" if family in ("mcts", "fast", "learned", "strong") else "none", capsize=2)
            for row, y in zip(rows.itertuples(), share):
                dx, dy = _LABEL_AT.get(row.policy, (6, 2))
                ax.annotate(row.policy, (row.ms_per_game, y), xytext=(dx, dy), textcoords="offset points",
                            ha="right" if dx < 0 else "left", va="center", fontsize="small", color=color)
        ax.set_xscale("log")
        ax.axhline(50, color="0.3", linestyle=":", linewidth=1)
        ax.set_xlabel("milliseconds per 2-player self-play game, one core (log scale)")
        ax.set_ylabel("wins against mcts (%, 2 players)")
        ax.set_title("Strength for time: the benchmark of record", fontsize="medium")
        written = save_figure(fig, STRENGTH_CHART, overwrite=True)
        plt.close(fig)
    return written


#: page: {block name: renderer}
BLOCKS: dict[Path, dict[str, Callable[[], str]]] = {
    README: {"answer": readme_answer, "bots": readme_bots},
    ARTICLE: {"answer": article_answer, "table": article_table, "search_form": article_search_form,
              "why": article_why, "style": article_style_table},
    POLICIES: {"strength": policies_strength},
}


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {name} -->\n)(.*?)(<!-- end generated: {name} -->)", re.S)


def blocks_of(text: str, page: Path) -> dict[str, str]:
    """The committed text of every generated block of `page`."""
    found = {}
    for name in BLOCKS[page]:
        match_ = _pattern(name).search(text)
        if match_ is None:
            raise LookupError(f"{page.name} has no block '{name}' (<!-- generated: {name} --> ... "
                              f"<!-- end generated: {name} -->)")
        found[name] = match_.group(2).rstrip("\n")
    return found


def rendered(page: Path) -> str:
    """`page` with every generated block written afresh from the CSVs."""
    text = page.read_text()
    blocks_of(text, page)  # every block is there
    for name, render in BLOCKS[page].items():
        body = render()
        text = _pattern(name).sub(lambda found, body=body: found.group(1) + body + "\n" + found.group(3), text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a page differs")
    parser.add_argument("--chart", action="store_true",
                        help=f"also redraw {STRENGTH_CHART.relative_to(ROOT)}.png and .svg from the benchmark")
    args = parser.parse_args(argv)
    if args.chart and not args.check:
        print("drew", ", ".join(str(path.relative_to(ROOT)) for path in draw_strength_chart()))
    stale = []
    for page in BLOCKS:
        new = rendered(page)
        if new != page.read_text():
            stale.append(page.relative_to(ROOT))
            if not args.check:
                page.write_text(new)
    if args.check and stale:
        print(f"out of date with the results CSVs: {', '.join(map(str, stale))} "
              f"(python docs/_ext/answers.py rewrites them)", file=sys.stderr)
        return 1
    for page in stale:
        print(f"rewrote the generated blocks of {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
