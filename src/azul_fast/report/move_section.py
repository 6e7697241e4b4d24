"""The report's move-level section: the first-player marker, end bonuses, scores and floors by round.

`azul_fast.report.build` picks the policy and the number of games with `move_study_plan` (the
strongest bot of its ladder that the setting can afford, `StudySize.move_seconds` of one core by
the cost model), calls `play_move_studies` once, then draws `move_charts`, writes
`MoveStudy.tables` as CSV and shows `move_sections` and `move_summary` beside its own. The games
are recorded move by move with `simulate_moves` at the smallest player count; the marker's worth
with the deal held fixed comes from `marker_rollouts` on `StudySize.marker_games` other games,
each candidate finished `StudySize.marker_rollouts` times by the report's policy (the candidates
are picked by a one-move policy, see `in_game.marker_rollouts`). Every table carries a
``policy`` column: the policy that played it.

>>> import pandas as pd
>>> from azul_fast.report.settings import SETTINGS
>>> ladder = pd.DataFrame({"policy": ["greedy", "learned", "heuristic"], "rating": [0.0, 900.0, 60.0]})
>>> policy, games = move_study_plan(ladder, SETTINGS["default"], players=2)
>>> policy.name, games
('learned', 2164)
>>> study = play_move_studies("greedy", players=2, seed=1, games=300, marker_games=2, rollouts=2, workers=1)
>>> sorted(study.tables)
['end_bonuses', 'floor_by_round', 'marker_by_cost', 'marker_by_round', 'marker_rollouts', 'score_curve']
>>> study.tables["end_bonuses"].policy.unique().tolist(), study.rollout_policy
(['greedy'], 'greedy')
>>> [title for title, *_ in move_sections(study, lambda policy: f"{policy} (+0 Elo)")][0]
'Every move: the first-player marker'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.report.formatting import interval_text, percent
from azul_fast.report.settings import StudySize
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.simulate_moves import simulate_moves
from azul_fast.studies.in_game import (
    end_bonuses,
    floor_by_round,
    marker_rollout_summary,
    marker_rollouts,
    marker_value,
    score_curve,
)

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["MIN_ROWS", "MoveStudy", "move_charts", "move_sections", "move_study_plan",
           "move_summary", "play_move_studies"]

#: Rows of a study's table (rounds, costs) resting on fewer takers or games are left out of the
#: report's tables and charts (they stay in the CSV files): their intervals say nothing.
MIN_ROWS = 30


@dataclass
class MoveStudy:
    """The move-level tables of one report (`tables`: name -> table, as `move_studies` returns them)."""

    policy: str            # the policy in every seat of the recorded games
    seed: int              # their root seed
    rollout_policy: str    # the policy of the marker rollouts and of the games that reach their positions
    players: int
    variant: str           # the wall they were played on
    games: int             # games recorded move by move
    moves: int             # moves recorded
    marker_games: int      # games whose rounds gave the rollout positions
    rollouts: int          # finishes per candidate move
    tables: dict[str, pd.DataFrame]
    candidates: str = ""   # the one-move policy that picks the marker rollouts' two candidate moves


def move_study_plan(ladder: pd.DataFrame, size: StudySize, players: int) -> tuple[PolicySpec, int]:
    """The policy and number of games of the move-level studies: the best-rated policy of `ladder`
    (a table of ``policy`` and ``rating``), parsed here once, and as many games as `size.move_seconds`
    of one core pay for at `players` players by the cost model (`plan.estimated_seconds_per_game`), at
    least `size.min_games` and at most `size.move_games`."""
    policy = parse_policy(str(ladder.policy.iloc[int(ladder.rating.to_numpy().argmax())]))
    affordable = int(size.move_seconds / estimated_seconds_per_game([policy] * players, players))
    return policy, max(size.min_games, min(size.move_games, affordable))


def play_move_studies(
    policy: str | PolicySpec, players: int, seed: int, games: int, marker_games: int, rollouts: int, workers: int,
    variant: str = "colored", rollout_seed: int = 0, rollout_policy: str | PolicySpec | None = None,
    client: Client | None = None,
) -> MoveStudy:
    """Record `games` games (root seed `seed`) and run every move-level study on them.

    The marker rollouts (colored wall only: `marker_rollouts` plays the printed wall) use
    `marker_games` games spawned from `rollout_seed`, played and finished by `rollout_policy`
    (None: `policy`); with a gray `variant` they are left out. With `client` the games and the
    marker rollouts run on its Dask cluster (the same tables).
    """
    records = simulate_moves(games, players, policy, seed=seed, workers=workers, progress=False, variant=variant,
                             client=client)
    rollout_policy = policy if rollout_policy is None else rollout_policy
    tables = {
        "marker_by_round": marker_value(records, by="round"),
        "marker_by_cost": marker_value(records, by="cost"),
        "end_bonuses": end_bonuses(records.games),
        "score_curve": score_curve(records, min_games=min(100, games)),
        "floor_by_round": floor_by_round(records, min_games=min(100, games)),
    }
    candidates = ""
    if variant == "colored":
        comparisons = marker_rollouts(marker_games, players, rollout_policy, rollouts, seed=rollout_seed, client=client)
        candidates = str(comparisons.candidates.iloc[0]) if len(comparisons) else ""
        tables["marker_rollouts"] = marker_rollout_summary(comparisons).assign(policy=rollout_policy)
    tables = {name: table if "policy" in table else table.assign(policy=policy) for name, table in tables.items()}
    return MoveStudy(policy, seed, rollout_policy, players, variant, games, len(records.moves), marker_games,
                     rollouts, tables, candidates)


def _enough(table: pd.DataFrame) -> pd.DataFrame:
    return table[table.n >= MIN_ROWS].reset_index(drop=True)


def _points(diff: float, low: float, high: float) -> str:
    """A difference of shares in percentage points, signed, with its interval: ``+3.1 [-1.2, +7.4]``."""
    return f"{100 * diff:+.1f} {interval_text(100 * low, 100 * high, '{:+.1f}')}".strip()


def _rolled_out(study: MoveStudy) -> bool:
    """Whether the marker rollouts ran and some position qualified (else nothing to show or chart)."""
    return "marker_rollouts" in study.tables and not study.tables["marker_rollouts"].empty


def _marker_display(study: MoveStudy) -> pd.DataFrame:
    """The taker's outcome by round, with the paired rollout difference of that round beside it."""
    rows = []
    paired: dict[Any, dict[Any, Any]] = {}
    if _rolled_out(study):
        paired = {pair["round"]: pair for pair in study.tables["marker_rollouts"].to_dict("records")}
    for row in _enough(study.tables["marker_by_round"]).to_dict("records"):
        shown = {"round": row["round"], "takers": f"{row['n']:,}",
                 "taker's win share": f"{percent(row['win_share'])} "
                                      f"{interval_text(100 * row['share_low'], 100 * row['share_high'])}",
                 "taker's margin": f"{row['margin']:+.1f} "
                                   f"{interval_text(row['margin_low'], row['margin_high'], '{:+.1f}')}"}
        if paired:  # rounds past the rollouts' last stay blank
            pair = paired.get(row["round"])
            shown["same position: win share, centre - factory (pp)"] = "" if pair is None else (
                f"{_points(pair['share_diff'], pair['share_low'], pair['share_high'])} ({int(pair['n'])} positions)")
        rows.append(shown)
    return pd.DataFrame(rows)


def _bonus_display(study: MoveStudy) -> pd.DataFrame:
    table = study.tables["end_bonuses"]
    return pd.DataFrame({
        "bonus": table.bonus.map({"rows": "rows (2 points)", "cols": "columns (7)", "colors": "colours (10)"}),
        "seats": table.group,
        "completed per seat": [f"{m:.2f} {interval_text(lo, hi, '{:.2f}')}"
                               for m, lo, hi in zip(table.mean_count, table.count_low, table.count_high)],
        "at least one": [percent(x) for x in table.any_share],
        "points per seat": [f"{m:.1f} {interval_text(lo, hi)}"
                            for m, lo, hi in zip(table.mean_points, table.points_low, table.points_high)],
    })


def _rounds_display(study: MoveStudy) -> pd.DataFrame:
    curve, floor = study.tables["score_curve"], study.tables["floor_by_round"]
    both = curve.merge(floor[["round", "seat", "mean_penalty", "penalty_low", "penalty_high", "any_share"]],
                       on=["round", "seat"])
    return pd.DataFrame({
        "round": both["round"], "seat": both.seat, "games": both.n.map("{:,}".format),
        "median score": [f"{m:g} {interval_text(lo, hi, '{:g}')}"
                         for m, lo, hi in zip(both["median"], both.median_low, both.median_high)],
        "quartiles": [f"{q1:g}-{q3:g}" for q1, q3 in zip(both.q1, both.q3)],
        "floor points lost": [f"{m:.2f} {interval_text(lo, hi, '{:.2f}')}"
                              for m, lo, hi in zip(both.mean_penalty, both.penalty_low, both.penalty_high)],
        "rounds with a floor penalty": [percent(x) for x in both.any_share],
    })


def _chasing(study: MoveStudy) -> str:
    """The bonus whose points differ most between winners and losers, in words."""
    table = study.tables["end_bonuses"].set_index(["bonus", "group"]).mean_points
    gaps = {bonus: table[(bonus, "winners")] - table[(bonus, "losers")] for bonus in ("rows", "cols", "colors")}
    best = max(gaps, key=lambda bonus: gaps[bonus])
    words = {"rows": "complete rows", "cols": "complete columns", "colors": "complete colours"}
    return (f"{words[best]} separate winners from losers the most ({gaps[best]:+.1f} points a seat; "
            + ", ".join(f"{words[b]} {gaps[b]:+.1f}" for b in gaps if b != best) + ")")


def move_summary(study: MoveStudy, named: Callable[[str], str]) -> str:
    """One summary sentence group; `named` turns a policy into its name with its Elo."""
    first = study.tables["marker_by_round"].iloc[0]
    text = (f"**The first-player marker** ({study.players} players, {named(study.policy)}, {study.games:,} games): "
            f"its round-1 taker wins {percent(first.win_share)} "
            f"{interval_text(100 * first.share_low, 100 * first.share_high)} (fair {percent(first.fair_share)})")
    paired = study.tables.get("marker_rollouts")
    if paired is not None and not paired.empty:
        row = paired.iloc[0]
        text += (f"; on the same deal, taking it instead of the best factory take changes the win share by "
                 f"{_points(row.share_diff, row.share_low, row.share_high)} points ({int(row.n)} positions)")
    return text + f". End bonuses: {_chasing(study)}."


def move_sections(
    study: MoveStudy, named: Callable[[str], str]
) -> list[tuple[str, str, pd.DataFrame, list[str]]]:
    """(title, text, table, charts) of the move-level sections; `named` turns a policy into its name with its Elo."""
    wall = " on the gray wall (no marker rollouts: they play the colored wall)" if study.variant == "gray" else ""
    games = (f"{study.games:,} games at {study.players} players{wall} with {named(study.policy)} in every seat (the "
             f"strongest bot of the ladder below that the setting's budget affords; {study.moves:,} moves), recorded "
             f"move by move with simulate_moves (root seed {study.seed})")
    rollouts = ("" if "marker_rollouts" not in study.tables else
                f" The last column holds the deal fixed: in {study.marker_games} other games played by "
                f"{study.rollout_policy}, at the first position of each round up to 4 where the marker is still in "
                f"the centre, the best take from the centre (bringing the marker) and the best take from a factory, "
                f"as {study.candidates} picks them (a one-move bot: it values a take by the mover's own board), were "
                f"each finished {study.rollouts} times with {named(study.rollout_policy)} in every seat on common "
                "random numbers (in_game.marker_rollouts); the interval is over positions."
                if _rolled_out(study) else
                f" No position qualified for the paired rollouts that hold the deal fixed: in the {study.marker_games} "
                f"other games played by {study.rollout_policy}, no round up to 4 had a position with the marker "
                "still in the centre and a take from both the centre and a factory (in_game.marker_rollouts), so "
                "marker_rollouts.csv has no rows.")
    return [
        ("Every move: the first-player marker",
         f"From {games}. Per round: how many games someone took the marker, and the taker's tie-split share of "
         "the game's victory and final margin over the best other seat (95% normal intervals). These mix the "
         f"choice with the position (a strong position may take it more often).{rollouts} Rounds with fewer "
         f"than {MIN_ROWS} takers are left out; marker_by_round.csv and marker_by_cost.csv (by the floor points "
         "the marker cost) have every row.",
         _marker_display(study), ["marker_value", "marker_cost"]
         + (["marker_rollouts"] if _rolled_out(study) else [])),
        ("End bonuses",
         f"From {games}. Complete rows (2 points each), columns (7) and colours (10) of every winning seat (a "
         "shared victory counts for each winner) and every other seat, per seat with 95% intervals. "
         "end_bonuses.csv has the numbers.",
         _bonus_display(study), ["end_bonuses"]),
        ("Score by round and floor penalties",
         f"From {games}. The score after each round (after the floor and, in the last round, the end bonus): "
         "median with a distribution-free 95% interval, and the quartiles; then the points the floor took that "
         "round (mean, 95% interval) and how often it took any. Only rounds that at least 100 games reached. "
         "score_curve.csv and floor_by_round.csv have the numbers.",
         _rounds_display(study), ["score_curve", "floor_by_round"]),
    ]


def move_charts(study: MoveStudy) -> list[tuple[str, str, Callable[[], Any]]]:
    """(file name, title, draw) of each chart; `draw` returns the Axes it drew (plotting's style applies)."""
    from azul_fast.report import move_charts

    tables = study.tables

    def named(ax: Any, policy: str = study.policy) -> Any:  # every chart says which policy played its games
        ax.set_title(f"{ax.get_title()} ({policy})".lstrip())
        return ax

    charts: list[tuple[str, str, Callable[[], Any]]] = [
        ("marker_value", "The first-player marker's taker: win share by round",
         lambda: named(move_charts.plot_marker_value(_enough(tables["marker_by_round"])))),
        ("marker_cost", "The first-player marker's taker: win share by the floor points it cost",
         lambda: named(move_charts.plot_marker_value(_enough(tables["marker_by_cost"])))),
        ("end_bonuses", "End-bonus points per seat, winners and losers",
         lambda: named(move_charts.plot_end_bonuses(tables["end_bonuses"]))),
        ("score_curve", "Score after each round: median and interquartile band per seat",
         lambda: named(move_charts.plot_score_curve(tables["score_curve"]))),
        ("floor_by_round", "Points lost to the floor per round and seat",
         lambda: named(move_charts.plot_floor_by_round(tables["floor_by_round"]))),
    ]
    if _rolled_out(study):
        charts.append(("marker_rollouts", "Taking the marker with the deal held fixed: paired rollouts by round",
                       lambda: named(move_charts.plot_marker_rollouts(tables["marker_rollouts"]),
                                     study.rollout_policy)))
    return charts
