"""Intervals and tests the studies share: Wilson intervals for win rates, t intervals for means
(plain or over per-deal means, for games clustered by deal), Wilcoxon and McNemar tests.

Every interval is at level 1 - `ALPHA` (95 %), from scipy or statsmodels.

>>> low, high = win_interval(55, 100)
>>> round(float(low), 3), round(float(high), 3)
(0.452, 0.644)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

__all__ = ["ALPHA", "clustered_mean_interval", "clustered_rate", "clustered_win_interval", "deal_numbers",
           "mcnemar_pvalue", "mean_interval", "share_interval", "wilcoxon_pvalue", "win_interval"]


#: Significance level of every interval (95 %) and test.
ALPHA = 0.05


def win_interval(wins: Any, games: Any, alpha: float = ALPHA) -> tuple[Any, Any]:
    """Wilson score interval of a win rate (statsmodels), elementwise for arrays.

    Parameters
    ----------
    wins : int or array-like
        Games won; or tie-split wins (a k-way shared victory counts 1/k), for which the interval
        stays valid and errs on the wide side: a share in [0, 1] with mean p varies by at most
        p(1 - p), the whole-win variance the score interval assumes. Unlike a t interval it is
        neither blank when every game ends alike nor outside [0, 1], which matters for the few
        dozen rollouts a move gets (`azul_fast.studies.analyse.analyse`).
    games : int or array-like
        Games played (the same shape as `wins`).
    alpha : float
        1 - confidence level (0.05: a 95 % interval).

    Returns
    -------
    (low, high) : tuple
        The bounds as fractions, floats or arrays like the input.

    Raises
    ------
    ValueError
        From statsmodels, for shapes that do not broadcast.

    Examples
    --------
    >>> low, high = win_interval(50, 100)
    >>> round(float(low), 4), round(float(high), 4)
    (0.4038, 0.5962)
    """
    low, high = proportion_confint(wins, games, alpha=alpha, method="wilson")
    return low, high


def mean_interval(values: Any, alpha: float = ALPHA) -> tuple[float, float, float]:
    """Mean of `values` and its t interval (scipy), every value an independent sample.

    Parameters
    ----------
    values : array-like of float
        The samples.
    alpha : float
        1 - confidence level.

    Returns
    -------
    (mean, low, high) : tuple of float
        The mean and the interval's bounds: all NaN for no values, NaN bounds for one value, and
        the mean as both bounds when the values do not vary.

    Raises
    ------
    ValueError
        If `values` cannot be read as numbers.

    Examples
    --------
    >>> mean, low, high = mean_interval([3, 5, -2, 0, 4, 6])
    >>> round(mean, 3), round(low, 3), round(high, 3)
    (2.667, -0.562, 5.896)
    """
    values = np.asarray(values, dtype=float)
    if len(values) == 0:
        return np.nan, np.nan, np.nan
    mean = float(values.mean())
    if len(values) < 2:
        return mean, np.nan, np.nan
    if np.ptp(values) == 0:
        return mean, mean, mean
    ci = stats.ttest_1samp(values, 0.0).confidence_interval(1 - alpha)
    return mean, float(ci.low), float(ci.high)


def deal_numbers(part: pd.DataFrame) -> np.ndarray:
    """The deal of every row of a run, numbered from 0 in order of first appearance.

    In a seat-rotated run the rotations of one deal share it (they are one sample, not several);
    otherwise every game is its own deal.

    Parameters
    ----------
    part : DataFrame
        Rows of a run (`simulate`); its ``deal`` and ``seed`` columns, when there is a ``deal``
        column, say which rows are one deal.

    Returns
    -------
    ndarray of int
        One deal number per row.

    Raises
    ------
    KeyError
        If `part` has a ``deal`` column but no ``seed`` column.

    Examples
    --------
    >>> deal_numbers(pd.DataFrame({"deal": [0, 0, 1, 1], "seed": [5, 5, 5, 5]})).tolist()
    [0, 0, 1, 1]
    >>> deal_numbers(pd.DataFrame({"score_0": [40, 52, 38]})).tolist()
    [0, 1, 2]
    """
    if "deal" not in part.columns:
        return np.arange(len(part))
    return part.groupby(["deal", "seed"], sort=False).ngroup().to_numpy()


def _check_rows(values: np.ndarray, deal: np.ndarray, name: str) -> None:
    """One deal per row of `values`: a shorter or longer `deal` would silently regroup the rows."""
    if len(values) != len(deal):
        raise ValueError(f"{name} and deal must have one value per game, got {len(values)} and {len(deal)}")


def clustered_rate(values: Any, deal: Any) -> tuple[np.ndarray, np.ndarray]:
    """Mean of each column of `values` (a 0/1 rate, or any value such as a tie-split share) and its
    design effect over the deals.

    The design effect is the variance of the mean with the deals as independent units (ratio
    estimator) over the variance if every row were independent; it lies between 1 (rows
    independent) and the rows per deal (the rotations of a deal identical).

    Parameters
    ----------
    values : array-like of float
        One row per game, one column per quantity (a single column may be given as a vector).
    deal : array-like of int
        The deal of each row (any labels: they are renumbered).

    Returns
    -------
    (rate, effect) : tuple of ndarray
        Per column: the mean and the design effect.

    Raises
    ------
    ValueError
        If `values` and `deal` differ in length.

    Examples
    --------
    >>> rate, effect = clustered_rate([1, 1, 0, 0, 1, 0], deal=[0, 0, 1, 1, 2, 2])
    >>> rate.tolist(), effect.round(3).tolist()
    ([0.5], [1.333])
    """
    values, deal = np.asarray(values, dtype=float), np.asarray(deal)
    _check_rows(values, deal, "values")
    deal = np.unique(deal, return_inverse=True)[1]
    values = values.reshape(len(deal), -1)
    rows = len(deal)
    counts = np.bincount(deal).astype(float)
    sums = np.stack([np.bincount(deal, weights=column) for column in values.T], axis=1)
    rate = sums.sum(axis=0) / rows
    clustered = ((sums - rate * counts[:, None]) ** 2).sum(axis=0) / rows**2
    # the rows' own (population) variance: rate * (1 - rate) for 0/1 values
    naive = ((values - rate) ** 2).mean(axis=0) / rows
    with np.errstate(invalid="ignore", divide="ignore"):
        effect = np.where(naive > 0, clustered / naive, counts.max())
    return rate, np.clip(effect, 1.0, counts.max())


def clustered_win_interval(
    values: Any, deal: Any, alpha: float = ALPHA
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wilson intervals of 0/1 rates over rows grouped in deals, on the effective sample size.

    With one row per deal this is `win_interval`; with the rotations of every deal identical it
    is `win_interval` of one row per deal.

    Parameters
    ----------
    values : array-like
        One row per game (each 0 or 1), one column per rate (a single column may be given as a vector).
    deal : array-like of int
        The deal of each row (any labels: they are renumbered).
    alpha : float
        1 - confidence level.

    Returns
    -------
    (low, high, effect) : tuple of ndarray
        Per column: the interval's bounds and the design effect (`clustered_rate`).

    Raises
    ------
    ValueError
        If `values` and `deal` differ in length.

    Examples
    --------
    >>> low, high, effect = clustered_win_interval([1, 1, 0, 0, 1, 0, 1, 1], deal=[0, 0, 1, 1, 2, 2, 3, 3])
    >>> low.round(3).tolist(), high.round(3).tolist(), effect.round(3).tolist()
    ([0.258], [0.889], [1.467])
    """
    rate, effect = clustered_rate(values, deal)
    effective = len(np.asarray(deal)) / effect
    low, high = win_interval(rate * effective, effective, alpha)
    return np.atleast_1d(low), np.atleast_1d(high), effect


def clustered_mean_interval(values: Any, deal: Any, alpha: float = ALPHA) -> tuple[float, float, float]:
    """Mean of `values` and its t interval over the per-deal means (`mean_interval` of them), for
    games grouped in deals of equally many rows.

    Parameters
    ----------
    values : array-like of float
        One value per game.
    deal : array-like of int
        The deal of each game (any labels: they are renumbered); every deal has as many games.
    alpha : float
        1 - confidence level.

    Returns
    -------
    (mean, low, high) : tuple of float
        As `mean_interval` gives them for the per-deal means.

    Raises
    ------
    ValueError
        If `values` and `deal` differ in length.

    Examples
    --------
    >>> mean, low, high = clustered_mean_interval([3, 5, -2, 0, 4, 6], deal=[0, 0, 1, 1, 2, 2])
    >>> round(mean, 3), round(low, 3), round(high, 3)
    (2.667, -5.319, 10.652)
    """
    values = np.asarray(values, dtype=float)
    _check_rows(values, np.asarray(deal), "values")
    deal = np.unique(deal, return_inverse=True)[1]
    return mean_interval(np.bincount(deal, weights=values) / np.bincount(deal), alpha)


def share_interval(shares: Any, deal: Any, alpha: float = ALPHA) -> tuple[float, float, float]:
    """Mean of per-game win shares (1 alone, 1/k of a k-way shared victory) and its t interval.

    The interval is taken over the per-deal means (the rotations of a deal are one sample) and cut
    to [0, 1], where every share lies (so it covers as often as uncut). A Wilson interval is for
    0/1 outcomes; this is the mean's. When the shares do not vary (a few games all lost) the
    bounds are NaN: a t interval of width 0 would claim a certainty the games do not give.

    Parameters
    ----------
    shares : array-like of float
        One share per game, each in [0, 1].
    deal : array-like of int
        The deal of each game (`shares`' length); the games of one deal are one sample.
    alpha : float
        1 - confidence level.

    Returns
    -------
    (share, low, high) : tuple of float
        The mean share and the interval's bounds.

    Raises
    ------
    ValueError
        If a share lies outside [0, 1] or the lengths differ.

    Examples
    --------
    >>> share, low, high = share_interval([1, 0.5, 0, 1, 0, 0.5], deal=range(6))
    >>> round(share, 3), round(low, 3), round(high, 3)
    (0.5, 0.031, 0.969)
    >>> share_interval([0, 0], deal=[0, 1])
    (0.0, nan, nan)
    """
    shares, deal = np.asarray(shares, dtype=float), np.asarray(deal)
    _check_rows(shares, deal, "shares")
    if np.any((shares < 0) | (shares > 1)):
        raise ValueError("shares must lie in [0, 1] (a win share is 1, 0 or 1/k of a shared victory)")
    share, low, high = clustered_mean_interval(shares, deal, alpha)
    if len(shares) and np.ptp(shares) == 0:
        return share, np.nan, np.nan
    return share, max(low, 0.0), min(high, 1.0)


def wilcoxon_pvalue(differences: Any) -> float:
    """Wilcoxon signed-rank p-value (scipy) of paired differences centred on zero.

    Parameters
    ----------
    differences : array-like of float
        One paired difference per unit (a deal).

    Returns
    -------
    float
        The two-sided p-value; NaN when every difference is zero (nothing to rank).

    Raises
    ------
    ValueError
        From scipy, for no differences.

    Examples
    --------
    >>> round(wilcoxon_pvalue([3, 1, 4, 1, 5, 9, 2, 6]), 4), wilcoxon_pvalue([0, 0, 0])
    (0.0078, nan)
    """
    differences = np.asarray(differences, dtype=float)
    if not np.any(differences):
        return np.nan
    return float(stats.wilcoxon(differences).pvalue)


def mcnemar_pvalue(best: Any, other: Any) -> float:
    """McNemar's exact test (statsmodels) on paired win/loss outcomes of two moves over the same rollouts.

    Parameters
    ----------
    best, other : array-like of bool
        Whether each move won rollout k (the same continuations for both).

    Returns
    -------
    float
        The two-sided exact p-value of "both moves win equally often".

    Raises
    ------
    ValueError
        If `best` and `other` differ in length.

    Examples
    --------
    >>> mcnemar_pvalue([1, 1, 1, 1, 1, 1, 0, 1], [0, 0, 0, 0, 0, 0, 0, 1])
    0.03125
    """
    best, other = np.asarray(best, dtype=bool), np.asarray(other, dtype=bool)
    if best.shape != other.shape:
        raise ValueError(f"best and other must pair the same rollouts, got {best.shape} and {other.shape}")
    table = [[np.sum(best & other), np.sum(best & ~other)], [np.sum(~best & other), np.sum(~best & ~other)]]
    return float(mcnemar(table, exact=True).pvalue)
