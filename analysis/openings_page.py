"""The tables of docs/openings.md, written from the openings and move-level result files.

    python analysis/openings_page.py          # rewrite the page's tables and copy its figures (a second)

Each table of the page sits between ``<!-- table:NAME -->`` and ``<!-- /table -->``; this script
replaces what is between them with `TABLES[NAME]` drawn from analysis/results/, and copies the
figures the page shows into docs/_static/. tests/studies/test_openings_page.py checks that the
page's tables are these, and that every number of its prose is one of its tables' numbers. The
heuristic column and rows come from analysis/results/baseline/ (the earlier answer under
one-move play, kept for the comparison and named as such).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
BASELINE = RESULTS / "baseline"
PAGE = HERE.parent / "docs" / "openings.md"
STATIC = HERE.parent / "docs" / "_static"
#: The styles the page compares, in its order: the default search and the second style.
STYLES = ("learned", "learned-own")
#: Figures the page shows (copied from analysis/figures/ into docs/_static/).
FIGURES = [f"opening_types_{s}.png" for s in STYLES]
_BLOCK = re.compile(r"(<!-- table:(\w+) -->\n)(.*?)(<!-- /table -->)", re.S)


def _pp(value: float) -> str:
    return f"{100 * value:+.1f}".replace("-", "−")


def _pct(value: float) -> str:
    return f"{100 * value:.1f}".replace("-", "−")


def _interval(low: float, high: float, scale: float = 100, signed: bool = True) -> str:
    form = "{:+.1f}" if signed else "{:.1f}"
    return "[" + ", ".join(form.format(scale * v).replace("-", "−") for v in (low, high)) + "]"


def _styles(table: pd.DataFrame) -> list[str]:
    return [s for s in STYLES if s in set(table.policy)]


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def types_table() -> str:
    """Common opening types: each style's edge over the deal's average first move, and heuristic's."""
    types = pd.read_csv(RESULTS / "opening_types_by_rollouts.csv")
    baseline = pd.read_csv(BASELINE / "heuristic_opening_types_by_rollouts.csv").assign(policy="heuristic")
    styles = _styles(types)
    columns = [*styles, "heuristic"]
    tables = {s: types[types.policy == s].set_index("type") for s in styles} | {"heuristic": baseline.set_index("type")}
    order = tables[styles[0]]
    order = order[order.common].sort_values("rank").index
    header = ["opening type"] + [f"`{c}`{' (one-move baseline)' if c == 'heuristic' else ''}: edge, pp [95 %], rank"
                                 for c in columns]
    rows = []
    for name in order:
        cells = [name]
        for c in columns:
            row = tables[c].loc[name] if name in tables[c].index else None
            if row is None:
                cells.append("")
                continue
            mark = ", worse" if row.worse_than_best else ""
            cells.append(f"{_pp(row.edge)} {_interval(row.edge_low, row.edge_high)} ({int(row['rank'])}{mark})")
        rows.append(cells)
    return _markdown(header, rows)


def types_sizes_table() -> str:
    """How many deals, moves and rollouts each style's type table rests on."""
    types = pd.read_csv(RESULTS / "opening_types_by_rollouts.csv")
    baseline = pd.read_csv(BASELINE / "heuristic_opening_types_by_rollouts.csv")
    rows = []
    for s in _styles(types):
        mine = types[types.policy == s]
        rows.append([f"`{s}`", f"{mine.deals.max():,}", f"{mine.moves.sum():,}", f"{mine.rollouts.iloc[0]}",
                     f"{int(mine.worse_than_best.sum())} of {int(mine.p_vs_best.notna().sum())}"])
    rows.append(["`heuristic` (baseline)", f"{baseline.deals.max():,}", f"{baseline.moves.sum():,}", "",
                 f"{int(baseline.worse_than_best.sum())} of {int(baseline.p_vs_best.notna().sum())}"])
    return _markdown(["policy", "deals", "first moves", "rollouts a move", "types worse than the top (Holm)"], rows)


def played_table() -> str:
    """The openings each search chooses in its own games, and the first player's share after each."""
    played = pd.read_csv(RESULTS / "opening_types.csv")
    played = played[played.feature == "tiles"]
    rows = [[f"`{r.policy}`", str(r.value), f"{r.games:,}", _pct(r.share), f"{_pct(r.win_share)} "
             f"{_interval(r.win_share_low, r.win_share_high, signed=False)}", f"{r.mean_margin:+.2f}".replace("-", "−")]
            for s in _styles(played) for r in played[played.policy == s].itertuples()]
    return _markdown(["policy", "tiles taken", "games", "share of games, %", "first player's win share, % [95 %]",
                      "mean margin"], rows)


def deals_table() -> str:
    """Every first move of the ranked deals: the best, its interval, how many moves are worse."""
    rows = []
    for path in sorted(RESULTS.glob("opening_ranking_*.csv")):
        ranking = pd.read_csv(path)
        for s in _styles(ranking):
            mine = ranking[ranking.policy == s].sort_values("rank")
            best = mine.iloc[0]
            line = "the floor" if str(best.line) == "F" else f"line {best.line}"
            rows.append([path.stem.rsplit("_", 1)[1], f"`{s}`", str(len(mine)), str(best.rollouts),
                         f"{best.move} ({best.tiles} tile(s), {line})",
                         f"{_pct(best.win_rate)} {_interval(best.ci_low, best.ci_high, signed=False)}",
                         f"{int(mine.worse_than_best.sum())} of {len(mine) - 1}"])
    return _markdown(["deal", "policy", "legal moves", "rollouts", "best move", "its win rate, % [95 %]",
                      "significantly worse (Holm)"], rows)


def marker_table() -> str:
    """The marker with the position held fixed: centre take minus factory take, by round."""
    rollouts = pd.read_csv(RESULTS / "moves_marker_rollouts.csv")
    baseline = pd.read_csv(BASELINE / "heuristic_moves_marker_rollouts.csv")
    rows = []
    for label, table in [*((f"`{s}`", rollouts[rollouts.policy == s]) for s in _styles(rollouts)),
                         ("`heuristic` (baseline)", baseline)]:
        for r in table.itertuples():
            rollouts = str(r.rollouts) if hasattr(r, "rollouts") else ""
            share = f"{_pp(r.share_diff)} {_interval(r.share_low, r.share_high)}"
            rows.append([label, str(r.round), str(r.n), rollouts, share,
                         f"{r.margin_diff:+.2f} {_interval(r.margin_low, r.margin_high, scale=1)}".replace("-", "−")])
    return _markdown(["policy", "round", "positions", "rollouts a move", "win share, centre − factory, pp [95 %]",
                      "score, centre − factory [95 %]"], rows)


def marker_takers_table() -> str:
    """Who takes the marker and how they fare, by round (an association, not the marker's effect)."""
    by_round = pd.read_csv(RESULTS / "moves_marker_by_round.csv")
    rows = [[f"`{s}`", str(r.round), f"{r.n:,}",
             f"{_pct(r.win_share)} {_interval(r.share_low, r.share_high, signed=False)}",
             f"{r.margin:+.2f}".replace("-", "−")]
            for s in _styles(by_round) for r in by_round[by_round.policy == s].itertuples() if r.n >= 100]
    return _markdown(["policy", "round", "takes", "taker's win share, % [95 %]", "taker's mean margin"], rows)


def bonuses_table() -> str:
    """End bonuses of winners and losers per style (and heuristic's for comparison)."""
    bonuses = pd.read_csv(RESULTS / "moves_end_bonuses.csv")
    baseline = pd.read_csv(BASELINE / "heuristic_moves_end_bonuses.csv")
    rows = []
    for label, table in [*((f"`{s}`", bonuses[bonuses.policy == s]) for s in _styles(bonuses)),
                         ("`heuristic` (baseline)", baseline)]:
        for bonus, group in table.groupby("bonus", sort=False):
            won, lost = group.set_index("group").loc["winners"], group.set_index("group").loc["losers"]
            rows.append([label, bonus, f"{won.mean_count:.2f}", f"{lost.mean_count:.2f}",
                         f"{won.mean_points - lost.mean_points:+.2f}".replace("-", "−")])
    return _markdown(["policy", "bonus", "winners: mean completed", "losers: mean completed",
                      "points, winners − losers"], rows)


def rounds_table() -> str:
    """Score after each round and floor points lost in it, per seat (seat 0 moves first)."""
    curve = pd.read_csv(RESULTS / "moves_score_curve.csv")
    floor = pd.read_csv(RESULTS / "moves_floor_by_round.csv")
    rows = []
    for s in _styles(curve):
        scores = curve[curve.policy == s].pivot(index="round", columns="seat", values="median")
        penalty = floor[floor.policy == s].pivot(index="round", columns="seat", values="mean_penalty")
        games = floor[floor.policy == s].groupby("round").n.max()
        for round_no in scores.index:
            rows.append([f"`{s}`", str(round_no), f"{games[round_no]:,}",
                         " / ".join(f"{scores.loc[round_no, seat]:g}" for seat in scores.columns),
                         " / ".join(f"{penalty.loc[round_no, seat]:.2f}" for seat in penalty.columns)])
    return _markdown(["policy", "round", "games reaching it", "median score after it, seat 0 / 1",
                      "mean floor points lost in it, seat 0 / 1"], rows)


#: The page's tables by the name in its markers.
TABLES: dict[str, Callable[[], str]] = {
    "types": types_table, "types_sizes": types_sizes_table, "played": played_table, "deals": deals_table,
    "marker": marker_table, "marker_takers": marker_takers_table, "bonuses": bonuses_table, "rounds": rounds_table,
}


def page_tables(text: str) -> dict[str, str]:
    """The tables of the page text `text`, by name."""
    return {match[2]: match[3] for match in _BLOCK.finditer(text)}


def write_page() -> None:
    text = PAGE.read_text()
    names = set(page_tables(text))
    unknown = names - set(TABLES)
    if unknown:
        raise SystemExit(f"{PAGE.name} has tables this script does not know: {sorted(unknown)}")
    PAGE.write_text(_BLOCK.sub(lambda m: m[1] + TABLES[m[2]]() + m[4], text))
    for name in FIGURES:
        if (HERE / "figures" / name).exists():
            shutil.copyfile(HERE / "figures" / name, STATIC / name)
    print(f"{PAGE}: {len(names)} tables written")


if __name__ == "__main__":
    write_page()
