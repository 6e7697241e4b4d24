"""Kinds of opening across many deals: every first move of each deal rolled out, grouped by what
it does (tiles, line, tiles to the floor, the marker), and each kind tested against the best.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

from azul_fast.core.rules.checks import check_bool, check_int
from azul_fast.core.rules.moves import CENTER, FLOOR, Move
from azul_fast.core.rules.seeds import spawn_seed
from azul_fast.core.state import State
from azul_fast.runs.where import run_where
from azul_fast.studies.intervals import ALPHA, mean_interval
from azul_fast.studies.openings import informative_features, move_features, opening_rollouts

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["FIRST_DEALS", "MIN_TYPE_DEALS", "OPENING_TYPE_FEATURES", "deal_opening_moves", "opening_type_table",
           "opening_types"]


# -- opening types across deals ------------------------------------------------------------


#: What kind of opening a first move is: tiles taken, pattern line (F: the floor), whether tiles
#: fall to the floor, whether it takes the first-player marker. `opening_types` drops those that
#: carry no information in its deals (constant, or the same partition as an earlier one).
OPENING_TYPE_FEATURES = ("tiles", "line", "to_floor", "marker")
#: Deals a type must be seen in before it is tested against the best.
MIN_TYPE_DEALS = 3
#: Deals of the first stage when `opening_types` stops early (``adaptive=True``); each stage doubles.
FIRST_DEALS = 4


def _type_features(state: State, move: Move) -> dict[str, Any]:
    features = move_features(state, move)
    features["to_floor"] = bool(features["overflow"] > 0 or move.line == FLOOR)
    # Taking from the centre while the marker lies there takes the marker too.
    features["marker"] = bool(move.source == CENTER and state.center_has_marker)
    return features


def opening_types(
    deals: int | Sequence[int] = 20,
    players: int = 2,
    policy: str = "greedy",
    rollouts: int = 20,
    seed: int = 0,
    workers: int = 1,
    alpha: float = ALPHA,
    correction: str = "holm",
    log: Callable[[str], Any] | None = None,
    variant: str = "colored",
    adaptive: bool = False,
    *,
    scheduler: str | None = None,
    client: Client | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Which kind of opening is best: every first move of many deals rolled out, grouped by type.

    Each deal (`deals` game seeds, or that many seeds spawned from `seed`) is ranked by `opening_rollouts`
    (`rollouts` paired rollouts per legal first move, `policy` in every seat). A move's *type*
    is its `OPENING_TYPE_FEATURES` after dropping those that carry no information here (on the
    first move nothing can be taken from the centre, so ``marker`` is always dropped). In each deal
    a type scores the mean win share of its moves minus the mean of all the deal's moves (its
    *edge*; subtracting the deal's mean takes out how good the deal is for the first player). A
    move's win share splits ties: a rollout where the mover shares first place among k winners
    counts 1/k (``win_share`` of `opening_rollouts`), as the drill-down (`opening_analysis`) and
    the headline (`azul_fast.studies.seats.split_wins`) count, so equal moves would each get
    their fair part and no tie counts twice.
    Types are ranked by their mean edge over the deals they occur in, with a t interval: first the
    ``common`` types (seen in at least half the deals), then the rare ones. Each is compared with
    the top type by a paired t test over the deals where both occur (at least `MIN_TYPE_DEALS`),
    corrected for the number of types (`correction`). ``worse_than_best`` marks the rejections.

    With ``adaptive=True`` the deals are a budget: they are rolled out in stages of `FIRST_DEALS`,
    then twice as many in all at each stage, and the study stops after the stage where the top type
    is separated from every other type tested (``attrs["stopped"] == "separated"``), or when the
    deals are spent (``"budget"``). The test is repeated at each stage, so `alpha` is spent
    equally over the planned stages (each stage's tests at ``alpha / stages``, as
    `azul_fast.studies.analyse.analyse` spends it over its looks); ``attrs["level"]`` says it.

    Parameters
    ----------
    deals : int or sequence of int
        Game seeds of the deals, or how many to spawn from `seed` (at least 2 either way).
    players : int
        2, 3 or 4.
    policy : str
        Built-in policy in every seat of the rollouts.
    rollouts : int
        Paired rollouts per legal first move of each deal.
    seed : int
        Root seed of the spawned deals and of the rollouts' continuations.
    workers : int
        Threads for the rollouts.
    alpha : float
        1 - confidence level of the intervals.
    correction : str
        ``"holm"`` or ``"fdr_bh"``.
    log : callable or None
        Called with a line of progress text every few deals.
    variant : str
        ``"colored"`` or ``"gray"``.
    adaptive : bool
        Stop early once the top type is separated (see above); the deals played are a prefix of
        `deals`, so an early stop gives the same table as asking for that many deals.
    scheduler, client : str or distributed.Client, optional
        Play the rollouts on a Dask cluster instead of `workers` threads
        (`azul_fast.runs.where.run_where`); the same tables.

    Returns
    -------
    (types, moves) : tuple of DataFrame
        ``types``: ``rank, type``, the kept features, ``deals, moves, win_share`` (the tie-split
        share, mean over deals), ``edge, edge_low, edge_high``, ``common``, ``common_deals, p_vs_best, p_adjusted,
        worse_than_best``; ``attrs`` holds the settings and ``features`` (kept) and ``dropped``.
        ``moves``: the per-deal rankings (the drill-down), one row per move with its ``deal`` seed.

    Raises
    ------
    TypeError
        For an argument of the wrong type.
    ValueError
        For fewer than two different deals, or a bad value `opening_rollouts` refuses.

    Examples
    --------
    >>> types, moves = opening_types(deals=3, rollouts=2, seed=1)
    >>> types.attrs["dropped"], int(types["rank"].iloc[0]), moves.deal.nunique(), types.attrs["stopped"]
    (['marker'], 1, 3, 'all deals')
    >>> types, moves = opening_types(deals=6, rollouts=2, seed=1, adaptive=True)
    >>> types.attrs["stopped"], types.attrs["deals"] in (4, 6)
    ('budget', True)
    """
    seeds = _deal_seeds(deals, seed)
    adaptive = check_bool(adaptive, "adaptive")
    say = log or (lambda line: None)
    started = time.perf_counter()
    tables: list[pd.DataFrame] = []
    stages = _stages(len(seeds)) if adaptive else [len(seeds)]
    stopped = "all deals" if not adaptive else "budget"
    with run_where(workers, scheduler, client) as where:
        for stage in stages:
            for k in range(len(tables), stage):
                if k % 5 == 0:
                    say(f"opening types: deal {k + 1} of at most {len(seeds)}")
                tables.append(deal_opening_moves(seeds[k], players, policy, rollouts, where.workers, alpha,
                                                  correction, variant, where.client))
            moves = pd.concat(tables, ignore_index=True)
            kept = informative_features(moves, OPENING_TYPE_FEATURES)
            # the tests' level: alpha spent equally over the stages (the looks), so that the chance of
            # any stage separating a type that is not worse stays below alpha (one look: all of it)
            types = _rank_types(moves, kept, alpha, correction, level=alpha / len(stages))
            tested = types.p_vs_best.notna()
            if adaptive and tested.any() and types.worse_than_best[tested].all():
                stopped = "separated"
                break
    types["policy"] = policy
    types["stopped"] = stopped   # in every row, so that the CSV says it
    types.attrs.update(deals=len(tables), players=players, policy=policy, rollouts=int(rollouts), seed=int(seed),
                       correction=correction, variant=variant, features=kept,
                       dropped=[f for f in OPENING_TYPE_FEATURES if f not in kept], stopped=stopped,
                       max_deals=len(seeds), level=alpha / len(stages),
                       seconds=round(time.perf_counter() - started, 2))
    return types, moves


def _stages(deals: int) -> list[int]:
    """Deals played after each stage: `FIRST_DEALS`, then doubling, the last stage all `deals`."""
    stages = [min(FIRST_DEALS, deals)]
    while stages[-1] < deals:
        stages.append(min(2 * stages[-1], deals))
    return stages


def deal_opening_moves(deal_seed: int, players: int = 2, policy: str = "greedy", rollouts: int = 20, workers: int = 1,
                       alpha: float = ALPHA, correction: str = "holm", variant: str = "colored",
                       client: Client | None = None) -> pd.DataFrame:
    """One deal's first moves ranked by `opening_rollouts`, with their type features, the deal's
    seed and the policy: the rows `opening_types` gathers per deal (its ``moves``), so that a
    study can be played a deal at a time and ranked at the end by `opening_type_table`.

    Parameters
    ----------
    deal_seed : int
        The deal (`State.new`'s seed).
    players, policy, rollouts, alpha, correction, variant
        As for `azul_fast.studies.openings.opening_rollouts`.
    workers : int
        Threads for the rollouts; the rows do not depend on it.
    client : distributed.Client, optional
        Play the rollouts on this Dask cluster instead (the same rows).

    Returns
    -------
    pandas.DataFrame
        `opening_rollouts`'s ranking with ``to_floor``, ``marker``, ``deal`` and ``policy`` added.

    Raises
    ------
    ValueError
        As `opening_rollouts` does, for a bad argument.

    Examples
    --------
    >>> moves = deal_opening_moves(7, rollouts=2)
    >>> len(moves), moves.deal.iloc[0] == 7, moves.columns[-4:].tolist()
    (96, np.True_, ['to_floor', 'marker', 'deal', 'policy'])
    """
    ranking = opening_rollouts(deal_seed, players=players, policy=policy, rollouts=rollouts, workers=workers,
                               alpha=alpha, correction=correction, variant=variant, client=client)
    start = State.new(players, seed=deal_seed, variant=variant)
    extra = pd.DataFrame([_type_features(start, Move.from_notation(m)) for m in ranking.move])
    ranking = ranking.assign(to_floor=extra.to_floor.to_numpy(), marker=extra.marker.to_numpy())
    return ranking.assign(deal=np.full(len(ranking), deal_seed, dtype=np.uint64), policy=policy)


def _deal_seeds(deals: int | Sequence[int], seed: int) -> list[int]:
    if isinstance(deals, (int, np.integer)) and not isinstance(deals, bool):
        return [spawn_seed(int(seed), k) for k in range(check_int(deals, "deals", 2, math.inf))]
    seeds = [int(s) for s in cast("Sequence[int]", deals)]
    if len(seeds) < 2 or len(set(seeds)) != len(seeds):
        raise ValueError(f"deals: give at least two different game seeds, got {seeds}")
    return seeds


def opening_type_table(moves: pd.DataFrame, alpha: float = ALPHA, correction: str = "holm") -> pd.DataFrame:
    """The opening types of `deal_opening_moves` rows of several deals, ranked as `opening_types` ranks them.

    Parameters
    ----------
    moves : DataFrame
        Rows of `deal_opening_moves` (or `opening_types`' ``moves``) of at least two deals.
    alpha, correction
        As `opening_types` takes them.

    Returns
    -------
    DataFrame
        `opening_types`' type table; ``attrs`` holds ``features`` (kept), ``dropped`` and ``deals``.

    Raises
    ------
    ValueError
        For rows of fewer than two deals, or without the columns of `deal_opening_moves`.

    Examples
    --------
    >>> import pandas as pd
    >>> moves = pd.concat([deal_opening_moves(seed, rollouts=2) for seed in (7, 8)])
    >>> types = opening_type_table(moves)
    >>> types.equals(opening_types([7, 8], rollouts=2)[0].drop(columns=["policy", "stopped"]))
    True
    """
    missing = sorted({"deal", "win_share", *OPENING_TYPE_FEATURES} - set(moves.columns))
    if missing:
        raise ValueError(f"expected the rows of deal_opening_moves; missing columns {missing}")
    if moves.deal.nunique() < 2:
        raise ValueError(f"opening types need the moves of at least two deals, got {moves.deal.nunique()}")
    kept = informative_features(moves, OPENING_TYPE_FEATURES)
    types = _rank_types(moves, kept, alpha, correction)
    types.attrs.update(features=kept, dropped=[f for f in OPENING_TYPE_FEATURES if f not in kept],
                       deals=int(moves.deal.nunique()))
    return types


def _type_name(features: Sequence[str], values: Sequence[Any]) -> str:
    """A type in words: ``2 tile(s), line 2, none to the floor``."""
    parts = []
    named = dict(zip(features, values))
    for feature, value in named.items():
        if feature == "to_floor" and named.get("line") == "F":
            continue  # the floor line says it already
        parts.append({"tiles": f"{value} tile(s)", "line": "to the floor line" if value == "F" else f"line {value}",
                      "to_floor": "some to the floor" if value else "none to the floor",
                      "marker": "takes the marker" if value else ""}[feature])
    return ", ".join(p for p in parts if p)


def _rank_types(moves: pd.DataFrame, features: list[str], alpha: float, correction: str,
                level: float | None = None) -> pd.DataFrame:
    deal_mean = moves.groupby("deal").win_share.transform("mean")
    moves = moves.assign(edge=moves.win_share - deal_mean, type=[_type_name(features, v) for v in
                                                                  moves[features].itertuples(index=False)])
    per_deal = moves.groupby(["type", "deal"]).agg(edge=("edge", "mean"), win_share=("win_share", "mean"))
    edges = per_deal.edge.unstack("deal")  # type x deal, NaN where the deal has no move of the type
    rows = []
    for name, values in edges.iterrows():
        name = str(name)
        present = values.dropna().to_numpy()
        mean, low, high = mean_interval(present, alpha)
        first = moves[moves.type == name].iloc[0]
        rows.append({"type": name, **{f: first[f] for f in features}, "deals": len(present),
                     "moves": int((moves.type == name).sum()),
                     "win_share": float(per_deal.xs(name, level="type").win_share.mean()), "edge": mean,
                     "edge_low": low, "edge_high": high})
    table = pd.DataFrame(rows)
    # A type that few deals allow (4 tiles of a colour in one factory) has a wide interval and would
    # often top the table by luck; ranking the common types first keeps the reference type
    # comparable with the others over many deals.
    table["common"] = table.deals >= edges.shape[1] / 2
    table = table.sort_values(["common", "edge"], ascending=[False, False], kind="stable").reset_index(drop=True)
    best = edges.loc[table.type.iloc[0]]
    common, pvalues = [], []
    for name in table.type:
        both = edges.loc[name].notna() & best.notna()
        common.append(int(both.sum()))
        diff = (best - edges.loc[name])[both].to_numpy()
        testable = name != table.type.iloc[0] and both.sum() >= MIN_TYPE_DEALS and np.any(diff)
        pvalues.append(float(stats.ttest_1samp(diff, 0.0).pvalue) if testable else np.nan)
    table["common_deals"] = common
    table["p_vs_best"] = pvalues
    tested = table.p_vs_best.notna().to_numpy()
    table["p_adjusted"] = np.nan
    table["worse_than_best"] = False
    if tested.any():
        reject, adjusted, _, _ = multipletests(table.p_vs_best[tested], alpha=level or alpha, method=correction)
        table.loc[tested, "p_adjusted"] = adjusted
        table.loc[tested, "worse_than_best"] = reject
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table
