"""Tables and numbers for people: the formatters shared by the `azul-fast` commands and the report.

Each ``*_display`` function takes a table from a study of `azul_fast.studies` and
returns the same rows as strings (percentages, intervals in brackets, p-values), ready for
``to_string``, HTML or Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from azul_fast.core.bots.policies import short_lineup

__all__ = [
    "TOP_MOVES",
    "analysis_display",
    "interval_text",
    "ladder_display",
    "markdown_table",
    "opening_display",
    "opening_types_display",
    "p_phrase",
    "p_text",
    "paired_display",
    "percent",
    "ranking_display",
    "ranking_splits_ties",
    "review_display",
    "seat_display",
    "signed_text",
    "strength_display",
    "variants_display",
]

#: Moves shown in the opening ranking tables and chart.
TOP_MOVES = 20


def percent(x: float) -> str:
    """A fraction as a percentage with one decimal.

    >>> percent(0.4567)
    '45.7%'
    """
    return f"{100 * x:.1f}%"


def interval_text(low: float, high: float, fmt: str = "{:.1f}") -> str:
    """An interval in brackets; empty when a bound is missing.

    >>> interval_text(1.234, 5.678), interval_text(float("nan"), 1.0)
    ('[1.2, 5.7]', '')
    """
    if pd.isna(low) or pd.isna(high):
        return ""
    return f"[{fmt.format(low)}, {fmt.format(high)}]"


def signed_text(value: float, low: float, high: float, fmt: str = "{:+.1f}") -> str:
    """A signed difference with its interval, every number signed the same way, so that a gain and a
    loss read alike: '+4.2 [+4.1, +4.3]', '-4.2 [-4.3, -4.1]'; empty when the value is missing.

    >>> signed_text(4.2, 4.1, 4.3), signed_text(-4.2, -4.3, -4.1), signed_text(0.31, -0.2, 0.8, "{:+.2f}")
    ('+4.2 [+4.1, +4.3]', '-4.2 [-4.3, -4.1]', '+0.31 [-0.20, +0.80]')
    """
    if pd.isna(value):
        return ""
    return f"{fmt.format(value)} {interval_text(low, high, fmt)}".rstrip()


def p_text(value: float) -> str:
    """A p-value to three significant digits; empty when missing.

    >>> p_text(0.012345), p_text(0.0)
    ('0.0123', '< 1e-300')
    """
    if pd.isna(value):
        return ""
    return "< 1e-300" if value == 0 else f"{value:.3g}"  # 0.0 is an underflow, not a certainty


def p_phrase(value: float) -> str:
    """A p-value for a sentence.

    >>> p_phrase(0.5), p_phrase(0.0)
    ('p = 0.5', 'p < 1e-300')
    """
    text = p_text(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def seat_display(table: pd.DataFrame) -> pd.DataFrame:
    """`seats.seat_advantage` output as strings for people, ties split: each seat's win share (a
    shared victory split between its winners, as the report's chart and summary count it) with its
    t interval, and against the fair share.

    The whole-win columns (``wins``, ``win_rate`` with its Wilson interval, ``chi2_pvalue``) stay
    in the table and its CSV, not here: a page that counted a shared victory two ways would read
    as two different shares.

    Parameters
    ----------
    table : DataFrame
        `seats.seat_advantage`'s rows.

    Returns
    -------
    DataFrame
        One row per row of `table`, one column of text each.

    Examples
    --------
    >>> from azul_fast.studies.seats import seat_advantage
    >>> games = pd.DataFrame({"players": 2, "first_player": 0, "policy_0": "greedy", "policy_1": "greedy",
    ...                       "win_0": [True, True, False, True], "win_1": [False, True, True, False],
    ...                       "score_0": [30, 20, 10, 25], "score_1": [12, 20, 15, 5]})
    >>> seat_display(seat_advantage(games))[["seat", "ties", "win share", "vs fair share (pp)"]]
            seat ties win share    vs fair share (pp)
    0  0 (first)    1     62.5%  +12.5 [-63.7, +88.7]
    1          1    1     37.5%  -12.5 [-88.7, +63.7]
    """
    fair = table.fair_share
    return pd.DataFrame({
        "players": table.players,
        "policy": table.policies.map(short_lineup),
        "seat": [f"{s}{' (first)' if s == f else ''}" for s, f in zip(table.seat, table.first_player)],
        "games": table.games.map("{:,}".format),
        "ties": table.ties.map("{:,}".format),
        "win share": table.win_share.map(percent),
        "95% CI": [interval_text(100 * a, 100 * b) for a, b in zip(table.share_low, table.share_high)],
        "vs fair share (pp)": [signed_text(100 * d, 100 * a, 100 * b) for d, a, b in
                               zip(table.win_share - fair, table.share_low - fair, table.share_high - fair)],
        "mean score": table.mean_score.map("{:.1f}".format),
        "median score": table.median_score.map("{:.0f}".format),
    })


def paired_display(paired: pd.DataFrame) -> pd.DataFrame:
    """`seats.paired_rotation_stats` output as strings for people."""
    return pd.DataFrame({
        "players": paired.players,
        "lineup": paired.policies,
        "effect": paired.effect,
        "level": paired.level,
        "deals": paired.deals.map("{:,}".format),
        "win rate": paired.win_rate.map(percent),
        "95% CI": [interval_text(100 * a, 100 * b) for a, b in zip(paired.ci_low, paired.ci_high)],
        "score vs rest (per deal)": [signed_text(d, a, b, "{:+.2f}") for d, a, b in
                                     zip(paired.score_diff, paired.score_diff_low, paired.score_diff_high)],
        "paired t: p": paired.t_pvalue.map(p_text),
        "Wilcoxon: p": paired.wilcoxon_pvalue.map(p_text),
    })


def opening_display(study: pd.DataFrame) -> pd.DataFrame:
    """`openings.opening_study` output as strings for people, ties split: the first player's win
    share (a shared victory split between its winners, as the rest of the report counts it) with
    its t interval, and the share's test of independence from the feature.

    The whole-win columns (``wins``, ``win_rate`` with its Wilson interval, ``pvalue``) stay in the
    table and its CSV, not here, as `seat_display` leaves them out.

    Parameters
    ----------
    study : DataFrame
        `openings.opening_study`'s rows.

    Returns
    -------
    DataFrame
        One row per row of `study`, one column of text each.

    Examples
    --------
    >>> from azul_fast import simulate
    >>> from azul_fast.studies.openings import opening_study
    >>> study = opening_study(simulate(200, players=2, policies="greedy", seed=4, workers=1), features=["line"])
    >>> opening_display(study).columns.tolist()[4:7]
    ['games', 'share of games', "first player's win share"]
    """
    return pd.DataFrame({
        "players": study.players,
        "policy": study.policies.map(short_lineup),
        "feature": study.feature,
        "value": study.value,
        "games": study.games.map("{:,}".format),
        "share of games": study.share.map(percent),
        "first player's win share": study.win_share.map(percent),
        "95% CI": [interval_text(100 * a, 100 * b) for a, b in zip(study.win_share_low, study.win_share_high)],
        "mean margin": [signed_text(m, a, b, "{:+.2f}") for m, a, b in
                        zip(study.mean_margin, study.margin_low, study.margin_high)],
        "independence: p": study.win_share_pvalue.map(p_text),
    })


def analysis_display(table: pd.DataFrame) -> pd.DataFrame:
    """`azul_fast.analyse`'s table as strings for people: shares in percent, each with its interval
    (an exact row's value alone).

    >>> table = pd.DataFrame({"rank": [1], "move": ["CB5"], "win_share": [0.5586], "ci_low": [0.4721],
    ...                       "ci_high": [0.6417], "margin": [0.13], "margin_low": [-2.77], "margin_high": [3.04],
    ...                       "rollouts": [128], "exact": [False], "worse_than_best": [False]})
    >>> print(analysis_display(table).to_string(index=False))
     rank move    win share (95% CI)   margin (95% CI)  rollouts exact worse than best
        1  CB5 55.9% [47.2, 64.2]     +0.13 [-2.77, +3.04]       128
    """
    return pd.DataFrame({
        "rank": table["rank"],
        "move": table.move,
        # an exact row's interval has width zero: the value alone
        "win share (95% CI)": [percent(s) if exact else f"{percent(s)} {interval_text(100 * a, 100 * b)}"
                               for s, a, b, exact in zip(table.win_share, table.ci_low, table.ci_high, table.exact)],
        "margin (95% CI)": [f"{m:+.2f}" if exact else f"{m:+.2f} {interval_text(a, b, '{:+.2f}')}"
                            for m, a, b, exact in zip(table.margin, table.margin_low, table.margin_high, table.exact)],
        "rollouts": table.rollouts,
        "exact": _yes(table.exact),
        "worse than best": _yes(table.worse_than_best),
    })


def _yes(flags: pd.Series) -> pd.Series:
    """A boolean column for people: "yes" where True, blank elsewhere (the exceptions stand out)."""
    return flags.map({True: "yes", False: ""})


def review_display(table: pd.DataFrame) -> pd.DataFrame:
    """`azul_fast.studies.analyse.review_game`'s table as strings for people: shares in percent as
    `analysis_display` prints them, the loss in percentage points (the table holds 0-1 fractions).

    Parameters
    ----------
    table : DataFrame
        `review_game`'s rows (its `REVIEW_COLUMNS`).

    Returns
    -------
    DataFrame
        The same rows, one column of text each.

    Examples
    --------
    >>> table = pd.DataFrame({"ply": [0], "round": [1], "seat": [0], "move": ["2B1"], "best_move": ["1R4"],
    ...                       "win_share": [0.49], "best_win_share": [0.6], "loss": [0.11], "exact": [False],
    ...                       "flag": ["mistake"], "first_player_share": [0.49]})
    >>> print(review_display(table).to_string(index=False))
     ply  round  seat move best move win share best's win share loss (points) exact    flag first player's share
       0      1     0  2B1       1R4     49.0%            60.0%         +11.0       mistake                49.0%
    """
    return pd.DataFrame({
        "ply": table.ply,
        "round": table["round"],
        "seat": table.seat,
        "move": table.move,
        "best move": table.best_move,
        "win share": table.win_share.map(percent),
        "best's win share": table.best_win_share.map(percent),
        "loss (points)": table.loss.map(lambda loss: f"{100 * loss:+.1f}"),
        "exact": _yes(table.exact),
        "flag": table.flag,
        "first player's share": table.first_player_share.map(percent),
    })


def ranking_splits_ties(ranking: pd.DataFrame) -> bool:
    """Whether a ranking's ``wins`` and ``win_rate`` split a shared first place between its winners.

    `openings.opening_analysis`'s do (its ``win_rate`` is the mover's tie-split share);
    `openings.opening_rollouts`' count a shared first place as a win for the mover (McNemar's
    test pairs whole outcomes) and keep the tie-split share apart, in ``win_share``. That column
    tells the two apart, in memory or read back from a CSV file.

    Parameters
    ----------
    ranking : DataFrame
        The rows of `openings.opening_analysis` or `openings.opening_rollouts`.

    Returns
    -------
    bool
        True for `openings.opening_analysis`' rows.

    Raises
    ------
    ValueError
        If `ranking` has no ``win_rate`` column (it is neither).

    Examples
    --------
    >>> from azul_fast.studies.openings import opening_analysis, opening_rollouts
    >>> raced = opening_analysis(7, rollouts=2, policy="greedy")
    >>> whole = opening_rollouts(7, rollouts=2, policy="greedy")
    >>> ranking_splits_ties(raced), ranking_splits_ties(whole)
    (True, False)
    """
    if "win_rate" not in ranking.columns:
        raise ValueError("not an opening ranking (opening_analysis or opening_rollouts): it has no win_rate column")
    return "win_share" not in ranking.columns


def ranking_display(ranking: pd.DataFrame, top: int = TOP_MOVES) -> pd.DataFrame:
    """The first `top` rows of an opening ranking as strings for people, named by how they count a
    shared first place (`ranking_splits_ties`).

    `openings.opening_analysis` (the report's drill-down) splits it between its winners: its
    columns read "tie-split wins" and "win share". `openings.opening_rollouts` (the ``openings``
    command) counts it as a win for the mover: "wins" and "win rate".

    Parameters
    ----------
    ranking : DataFrame
        The rows of `opening_analysis` or `opening_rollouts`, best first.
    top : int
        How many rows to show.

    Returns
    -------
    DataFrame
        The first `top` rows, one column of text each.

    Raises
    ------
    ValueError
        If `ranking` is not an opening ranking.

    Examples
    --------
    >>> from azul_fast.studies.openings import opening_analysis
    >>> ranking_display(opening_analysis(seed=7, rollouts=2, policy="greedy"), top=3).columns.tolist()[4:6]
    ['tie-split wins', 'win share']
    """
    split = ranking_splits_ties(ranking)
    shown = ranking.head(top)
    table = pd.DataFrame({
        "rank": shown["rank"],
        "move": shown.move,
        "tiles": shown.tiles,
        "line": shown.line,
        # a race's wins are fractional (a k-way shared first place gives each winner 1/k)
        "tie-split wins" if split else "wins": [f"{w:g}/{n}" for w, n in zip(shown.wins.round(1), shown.rollouts)],
        "win share" if split else "win rate": shown.win_rate.map(percent),
        "95% CI": [interval_text(100 * a, 100 * b) for a, b in zip(shown.ci_low, shown.ci_high)],
        "mean margin": shown.mean_margin.map("{:+.2f}".format),
        "p vs best (adjusted)": shown.p_adjusted.map(p_text),
        "worse than best": shown.worse_than_best.map({True: "yes", False: ""}),
    })
    # a race keeps only its decisions, no p-values: no column of dashes
    return table.drop(columns="p vs best (adjusted)") if shown.p_adjusted.isna().all() else table


def ladder_display(table: pd.DataFrame) -> pd.DataFrame:
    """`ladder.ladder` output as strings for people."""
    return pd.DataFrame({
        "rank": table["rank"],
        "policy": table.policy,
        "rating (Elo)": table.rating.map("{:+.0f}".format),
        "95% CI": [interval_text(a, b, "{:+.0f}") for a, b in zip(table.ci_low, table.ci_high)],
        "games": table.games.map("{:,}".format),
        "win share": table.win_share.map(percent),
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

    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |",
             "| " + " | ".join("---" for _ in table.columns) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)



def variants_display(table: pd.DataFrame, pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """`variant_comparison` for people, ties split: the first player's win share (a shared victory
    split between its winners) with its 95% t interval; with `pairs` (seats.variant_difference)
    the gray rows also show the paired difference of that share.

    The whole-win rate (``first_player_win_rate`` with its Wilson interval) stays in the table
    and its CSV, not here.

    Parameters
    ----------
    table : DataFrame
        `seats.variant_comparison`'s rows.
    pairs : DataFrame, optional
        `seats.variant_difference`'s rows for the same runs.

    Returns
    -------
    DataFrame
        One row per row of `table`, one column of text each.

    Examples
    --------
    >>> from azul_fast import simulate
    >>> from azul_fast.studies.seats import variant_comparison
    >>> runs = [simulate(100, players=2, policies="greedy", seed=5, workers=1, variant=v) for v in ("colored", "gray")]
    >>> variants_display(variant_comparison(runs)).columns.tolist()[:4]
    ['players', 'wall', 'games', "first player's win share"]
    """
    shown = pd.DataFrame({
        "players": table.players,
        "wall": table.variant,
        "games": table.games.map("{:,}".format),
        "first player's win share": [f"{percent(s)} {interval_text(100 * lo, 100 * hi)}".strip()
                                     for s, lo, hi in zip(table.first_player_share, table.share_low, table.share_high)],
        "mean score": table.mean_score.map("{:.1f}".format),
        "rounds": table.mean_rounds.map("{:.2f}".format),
        "complete colours": table.mean_colors.map("{:.2f}".format),
        "truncated": table.truncated.map(percent),
    })
    if pairs is not None and not pairs.empty:
        by_players = pairs.set_index("players")
        shown["gray - colored, ties split (paired)"] = [
            "" if wall != "gray" else
            f"{by_players.diff_pp[p]:+.1f} pp [{by_players.diff_pp_low[p]:+.1f}, {by_players.diff_pp_high[p]:+.1f}]"
            for p, wall in zip(table.players, table.variant)
        ]
    return shown


def strength_display(table: pd.DataFrame) -> pd.DataFrame:
    """`strength.first_player_by_strength` output as strings for people: one row per level."""
    shown = pd.DataFrame({
        "players": table.players,
        "policy": table.policy,
        "Elo": [f"{e:+.0f} {interval_text(a, b, '{:+.0f}')}"
                for e, a, b in zip(table.elo, table.elo_low, table.elo_high)],
        "games": table.games.map("{:,}".format),
        "first player": [f"{percent(s)} {interval_text(100 * a, 100 * b)}"
                         for s, a, b in zip(table.first_player_share, table.ci_low, table.ci_high)],
        "fair share": table.fair_share.map(percent),
    })
    if "mean_score" in table.columns:  # how a level plays: learned's games score about 30 a seat, greedy's 50
        shown["mean score"] = table.mean_score.map("{:.1f}".format)
    for seat in range(1, 4):
        if f"share_{seat}" in table.columns and table[f"share_{seat}"].notna().any():
            shown[f"seat {seat}"] = [percent(v) if pd.notna(v) else "" for v in table[f"share_{seat}"]]
    return shown


def published_display(table: pd.DataFrame, players: Sequence[int], variant: str) -> pd.DataFrame:
    """The shipped converged table (`azul_fast.studies.published`) at `players` players on one wall, for
    people: one row per level, weakest first at each player count, with its verdict against the level below."""
    rows = table[table.players.isin(players) & (table.variant == variant)].sort_values(["players", "elo"])
    return pd.DataFrame({
        "players": rows.players,
        "policy": rows.policy,
        "Elo (the project's ladder)": rows.elo.map("{:+.0f}".format),
        "games": rows.games.map("{:,}".format),
        "first player": [f"{percent(s)} {interval_text(100 * a, 100 * b)}"
                         for s, a, b in zip(rows.first_player_share, rows.ci_low, rows.ci_high)],
        "against the level below": [
            "" if not isinstance(v, str) else f"{v}, {signed_text(100 * d, 100 * a, 100 * b)} points"
            for v, d, a, b in zip(rows.verdict, rows.difference, rows.difference_low, rows.difference_high)],
    })


def opening_types_display(types: pd.DataFrame) -> pd.DataFrame:
    """`opening_types.opening_types` (its type table) as strings for people."""
    return pd.DataFrame({
        "rank": types["rank"],
        "opening type": types.type,
        "deals": [f"{d}{'' if common else ' (rare)'}" for d, common in zip(types.deals, types.common)],
        "moves": types.moves.map("{:,}".format),
        "win share": types.win_share.map(percent),
        "edge (pp)": [signed_text(100 * e, 100 * a, 100 * b)
                      for e, a, b in zip(types.edge, types.edge_low, types.edge_high)],
        "p vs best (adjusted)": types.p_adjusted.map(p_text),
        "worse than best": types.worse_than_best.map({True: "yes", False: ""}),
    })
