"""Charts of the in-game studies (`azul_fast.studies.in_game`), one per table, with their intervals.

Each function takes the table its study returns and an optional Axes, and returns the Axes;
draw inside `charts.azul_style()` for the shipped style and save with `charts.save_figure`.

>>> import matplotlib.pyplot as plt
>>> from azul_fast import simulate_moves
>>> from azul_fast.studies.in_game import score_curve
>>> ax = plot_score_curve(score_curve(simulate_moves(100, policies="greedy", seed=1, workers=1)))
>>> ax.get_ylabel()
'score after the round'
>>> plt.close(ax.figure)
"""

from __future__ import annotations

from collections.abc import Iterator

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

__all__ = ["plot_end_bonuses", "plot_floor_by_round", "plot_marker_rollouts", "plot_marker_value",
           "plot_score_curve"]


def _axes_for(table: pd.DataFrame, columns: set[str], made_by: str, ax: Axes | None) -> Axes:
    """The Axes to draw on (new if None), once `table` is known to be the study's and not empty."""
    missing = columns - set(table.columns)
    if missing or table.empty:
        raise ValueError(f"expected a non-empty table from azul_fast.studies.in_game.{made_by}; "
                         f"missing columns {sorted(missing)}")
    if ax is None:
        _, ax = plt.subplots()
    return ax


def _seats(table: pd.DataFrame) -> Iterator[tuple[int, pd.DataFrame]]:
    for seat in sorted(table.seat.unique()):
        yield int(seat), table[table.seat == seat]


def _labelled(ax: Axes, xlabel: str, ylabel: str, title: str, legend: bool = True) -> Axes:
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if legend:
        ax.legend()
    return ax


def _errorbar(ax: Axes, x: np.ndarray, y: pd.Series, low: pd.Series, high: pd.Series, label: str | None = None) -> None:
    ax.errorbar(x, y, yerr=[y - low, high - y], fmt="o-", capsize=3, label=label)


def plot_marker_value(table: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Win share of the marker's taker (%) with its interval, by round or by cost, against fair share."""
    key = "round" if "round" in table else "cost"
    ax = _axes_for(table, {key, "win_share", "share_low", "share_high", "fair_share"}, "marker_value", ax)
    _errorbar(ax, table[key].to_numpy(), 100 * table.win_share, 100 * table.share_low, 100 * table.share_high,
              label="taker")
    ax.axhline(100 * float(table.fair_share.iloc[0]), color="0.3", linewidth=0.8, linestyle="--", label="fair share")
    ax.set_xticks(table[key].to_numpy())
    xlabel, title = (("round the marker was taken", "The first-player marker's taker, by round") if key == "round"
                     else ("floor points the marker cost", "The first-player marker's taker, by what it cost"))
    return _labelled(ax, xlabel, "taker's win share (%, ties split)", title)


def plot_marker_rollouts(summary: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Paired rollout difference (centre take with the marker minus factory take) by round."""
    ax = _axes_for(summary, {"round", "share_diff", "share_low", "share_high"}, "marker_rollout_summary", ax)
    _errorbar(ax, summary["round"].to_numpy(), 100 * summary.share_diff, 100 * summary.share_low,
              100 * summary.share_high)
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(summary["round"].to_numpy())
    return _labelled(ax, "round", "win share, centre minus factory (pp)",
                     "Taking the marker, same position (paired rollouts)", legend=False)


def plot_end_bonuses(table: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Mean end-bonus points of winners and losers, per bonus, with intervals."""
    ax = _axes_for(table, {"bonus", "group", "mean_points", "points_low", "points_high"}, "end_bonuses", ax)
    bonuses = list(dict.fromkeys(table.bonus))
    x = np.arange(len(bonuses))
    for offset, group in ((-0.2, "winners"), (0.2, "losers")):
        part = table[table.group == group].set_index("bonus").loc[bonuses]
        error = [part.mean_points - part.points_low, part.points_high - part.mean_points]
        ax.bar(x + offset, part.mean_points, width=0.4, yerr=error, ecolor="0.2", label=group)
    ax.set_xticks(x, [{"rows": "rows (2)", "cols": "columns (7)", "colors": "colours (10)"}[b] for b in bonuses])
    return _labelled(ax, "", "end-bonus points per seat", "End bonuses: winners and losers")


def plot_score_curve(table: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Median score after each round per seat, with the interquartile band."""
    ax = _axes_for(table, {"round", "seat", "median", "q1", "q3"}, "score_curve", ax)
    for seat, part in _seats(table):
        line, = ax.plot(part["round"], part["median"], "o-", label=f"seat {seat} median")
        ax.fill_between(part["round"], part.q1, part.q3, color=line.get_color(), alpha=0.2)
    ax.set_xticks(sorted(table["round"].unique()))
    return _labelled(ax, "round", "score after the round", "Score by round (median, interquartile band)")


def plot_floor_by_round(table: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Mean points lost to the floor per round and seat, with intervals."""
    ax = _axes_for(table, {"round", "seat", "mean_penalty", "penalty_low", "penalty_high"}, "floor_by_round", ax)
    for seat, part in _seats(table):
        _errorbar(ax, part["round"].to_numpy() + 0.08 * (seat - 0.5), part.mean_penalty, part.penalty_low,
                  part.penalty_high, label=f"seat {seat}")
    ax.set_xticks(sorted(table["round"].unique()))
    return _labelled(ax, "round", "points lost to the floor", "Floor penalties per round")
