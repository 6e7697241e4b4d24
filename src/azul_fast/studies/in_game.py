"""Studies that need every move: the first-player marker, end bonuses, scores and floors by round.

Each function takes `simulate_moves` output (or its ``games`` frame) and returns a table with
95 % intervals; `move_plots` draws each. The numbers describe the policies that played the
games, so a write-up names them (``attrs["policies"]`` of the frames).

- `marker_takers` / `marker_value`: who took the first-player marker, and how the taker fared
  (tie-split win share, score margin), by round or by the floor points the marker cost;
- `marker_rollouts`: the same question with the deal held fixed: from one position, the policy's
  best take from the centre (with the marker) against its best take from a factory, each
  finished many times on common random numbers;
- `end_bonuses`: rows, columns and colours completed by winners and losers, and their points;
- `score_curve`: median and interquartile range of the score after every round, per seat;
- `floor_by_round`: the points the floor cost per round, per seat.

>>> from azul_fast import simulate_moves
>>> records = simulate_moves(300, players=2, policies="greedy", seed=1, workers=1)
>>> table = marker_value(records, by="round")
>>> list(table.columns[:4]), int(table.n.sum()) == len(marker_takers(records))
(['round', 'n', 'win_share', 'share_low'], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats

from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.rules.moves import END_BONUS_POINTS, FLOOR_PENALTIES, Move
from azul_fast.core.state import State
from azul_fast.runs import rollouts as native
from azul_fast.runs.frames import seat_columns
from azul_fast.runs.simulate_moves import MoveRecords
from azul_fast.runs.where import Where

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
"end_bonuses", "floor_by_round", "marker_rollout_summary", "marker_rollouts", "marker_takers",
    "marker_value",
    "score_curve",
]

#: Points of each end bonus (docs/engine-spec.md): a complete row, column, colour.
_Z = stats.norm.ppf(0.975)  # every interval here is 95 %


def _mean_interval(values: Any) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (NaN bounds with fewer than two values)."""
    values = np.asarray(values, dtype=float)
    mean = float(values.mean()) if len(values) else np.nan
    if len(values) < 2:
        return mean, np.nan, np.nan
    half = _Z * float(values.std(ddof=1)) / np.sqrt(len(values))
    return mean, mean - half, mean + half


def _outcomes(games: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per game and seat: the tie-split share of the victory and the margin over the best rival."""
    players = int(games.players.iloc[0])
    wins = games[seat_columns("win", players)].to_numpy(dtype=float)
    scores = games[seat_columns("score", players)].to_numpy(dtype=float)
    share = wins / np.maximum(wins.sum(axis=1, keepdims=True), 1)
    margin = np.empty_like(scores)
    for seat in range(players):
        margin[:, seat] = scores[:, seat] - np.delete(scores, seat, axis=1).max(axis=1)
    return share, margin


def marker_takers(records: MoveRecords) -> pd.DataFrame:
    """One row per round in which the first-player marker was taken: who took it and the outcome.

    Columns ``game, round, seat, cost, share, margin``: ``cost`` is the floor points the marker
    added to its taker's penalty that round (0 when the floor was already full), counting the
    slots of the taker's takes in that round; ``share`` and ``margin`` are the taker's tie-split
    share of the game's victory and final score minus the best other seat's.
    """
    games, moves = records.games, records.moves
    takes = moves[["game", "round", "seat", "to_floor", "took_marker"]]
    slots = (takes.groupby(["game", "round", "seat"], observed=True)[["to_floor", "took_marker"]].sum()
             .sum(axis=1).rename("slots"))
    takers = takes.loc[takes.took_marker, ["game", "round", "seat"]].reset_index(drop=True)
    used = slots.loc[list(zip(takers.game, takers["round"], takers.seat))].to_numpy()
    penalty = np.asarray(FLOOR_PENALTIES)
    takers["cost"] = (penalty[np.minimum(used, 7)] - penalty[np.minimum(used - 1, 7)]).astype(np.uint8)
    share, margin = _outcomes(games)
    row = games.game.searchsorted(takers.game.to_numpy())
    takers["share"] = share[row, takers.seat.to_numpy()]
    takers["margin"] = margin[row, takers.seat.to_numpy()]
    return takers


def marker_value(records: MoveRecords, by: str = "round") -> pd.DataFrame:
    """The marker's takers' win share and margin, grouped `by` ``"round"`` or ``"cost"``.

    Columns ``<by>, n, win_share, share_low, share_high, fair_share, margin, margin_low,
    margin_high``. A share above ``fair_share`` (1 / players) means that whoever takes the
    marker goes on to win more than a seat's share; it is not yet the effect of taking it
    (strong positions may take it more often): `marker_rollouts` controls for the position.
    """
    if by not in ("round", "cost"):
        raise ValueError(f"by must be 'round' or 'cost', got {by!r}")
    takers = marker_takers(records)
    fair = 1 / int(records.games.players.iloc[0])
    rows = []
    for key, group in takers.groupby(by):
        share, share_low, share_high = _mean_interval(group.share)
        margin, margin_low, margin_high = _mean_interval(group.margin)
        rows.append({by: key, "n": len(group), "win_share": share, "share_low": share_low,
                     "share_high": share_high, "fair_share": fair, "margin": margin,
                     "margin_low": margin_low, "margin_high": margin_high})
    return pd.DataFrame(rows)


def end_bonuses(games: pd.DataFrame) -> pd.DataFrame:
    """Rows, columns and colours completed by winners and losers, and the points they bring.

    One row per bonus (``rows``, ``cols``, ``colors``) and group (``winners``: every seat sharing
    the victory; ``losers``: the rest), with ``n`` seats, ``mean_count`` and its interval,
    ``any_share`` (seats completing at least one), ``mean_points`` and its interval.
    """
    players = int(games.players.iloc[0])
    wins = games[seat_columns("win", players)].to_numpy().ravel()
    rows = []
    for bonus, points in END_BONUS_POINTS.items():
        counts = games[seat_columns(bonus, players)].to_numpy(dtype=float).ravel()
        for group, mask in (("winners", wins), ("losers", ~wins)):
            mean, low, high = _mean_interval(counts[mask])
            rows.append({"bonus": bonus, "group": group, "n": int(mask.sum()), "mean_count": mean,
                         "count_low": low, "count_high": high, "any_share": float((counts[mask] > 0).mean()),
                         "mean_points": points * mean, "points_low": points * low, "points_high": points * high})
    return pd.DataFrame(rows)


def _median_interval(values: np.ndarray) -> tuple[float, float]:
    """Distribution-free interval of a median: order statistics at n/2 -/+ z sqrt(n)/2."""
    ordered = np.sort(values)
    n = len(ordered)
    half = _Z * np.sqrt(n) / 2
    low, high = int(np.floor(n / 2 - half)), int(np.ceil(n / 2 + half))
    return float(ordered[max(low, 0)]), float(ordered[min(high, n - 1)])


def _rounds_played_by(records: MoveRecords, min_games: int) -> Any:
    """The round rows, by round and seat, of the rounds that at least `min_games` games reached."""
    rounds = records.rounds
    reached = rounds.groupby("round").game.nunique()
    kept = rounds[rounds["round"].isin(reached.index[reached >= min_games])]
    return kept.groupby(["round", "seat"])


def score_curve(records: MoveRecords, min_games: int = 100) -> pd.DataFrame:
    """The score after every round per seat: median (with its interval) and quartiles.

    One row per round and seat, over the games still running in that round (``n``), for the
    rounds at least `min_games` games reached (a late round of a few long games says little).
    """
    rows = []
    for (round_no, seat), group in _rounds_played_by(records, min_games):
        scores = group.score_after_round.to_numpy(dtype=float)
        q1, median, q3 = np.percentile(scores, [25, 50, 75])
        low, high = _median_interval(scores)
        rows.append({"round": round_no, "seat": seat, "n": len(scores), "median": median, "median_low": low,
                     "median_high": high, "q1": q1, "q3": q3})
    return pd.DataFrame(rows)


def floor_by_round(records: MoveRecords, min_games: int = 100) -> pd.DataFrame:
    """Points lost to the floor per round and seat: the mean with its interval, and how often any
    (rounds reached by at least `min_games` games)."""
    rows = []
    for (round_no, seat), group in _rounds_played_by(records, min_games):
        mean, low, high = _mean_interval(group.floor_penalty)
        rows.append({"round": round_no, "seat": seat, "n": len(group), "mean_penalty": mean,
                     "penalty_low": low, "penalty_high": high, "any_share": float((group.floor_penalty > 0).mean())})
    return pd.DataFrame(rows)


# -- the marker with the deal held fixed ---------------------------------------------------


def _best_move(state: State, policy: PolicySpec, from_center: bool) -> Move | None:
    """The policy's move if only the centre (or only the factories) offered tiles, or None.

    Asked on a copy whose other sources are emptied into the lid (so every tile is still
    accounted for); the move it picks is legal in `state` too. Built-in policies value a take
    by the taker's own board and floor, so hiding other sources leaves their values unchanged.
    """
    position = state.to_dict()
    hidden = [position["center"]] if not from_center else position["factories"]
    for counts in hidden:
        for color, n in enumerate(counts):
            position["lid"][color] += n
            counts[color] = 0
    if sum(map(sum, [position["center"]] + position["factories"])) == 0:
        return None
    move = State.from_dict(position).choose(policy)
    return move if isinstance(move, Move) else None


#: Columns of `marker_rollouts` and of `marker_rollout_summary`, also when no position qualified.
_COMPARISON_COLUMNS = ["game", "round", "seat", "center_move", "factory_move", "share_diff", "margin_diff", "policy",
                       "candidates"]
_SUMMARY_COLUMNS = ["round", "n", "share_diff", "share_low", "share_high", "margin_diff", "margin_low",
                    "margin_high"]


def marker_rollouts(
    n_games: int, players: int = 2, policy: str = "greedy", rollouts: int = 20, seed: int = 0,
    max_round: int = 4, candidates: str | None = None, *, client: Client | None = None,
) -> pd.DataFrame:
    """The marker's worth with the position held fixed, by paired rollouts.

    In each of `n_games` games played by `policy` (game seeds spawned from `seed`), at the first
    position of every round up to `max_round` where the marker is still in the centre and both
    the centre and a factory offer tiles, the mover's two candidates are the best take from the
    centre (it brings the marker) and the best take from a factory, as the one-move policy
    `candidates` picks them. Each is played and the game finished `rollouts` times with `policy`
    in every seat; rollout k of both uses the same tile draws and policy choices (common random
    numbers). One row per position: ``game, round, seat, center_move, factory_move`` and the
    paired mean differences (centre minus factory) of the mover's tie-split win share
    ``share_diff`` and margin ``margin_diff``, then ``policy`` and ``candidates``. Summarise with
    `marker_rollout_summary`. No position qualified (``n_games=0``, say): no rows, the same columns.

    The candidates are asked of a one-move policy (``greedy``, ``heuristic``; None: `policy` if it
    is one, else ``heuristic``) on a copy of the position with the other sources emptied into the
    lid: such a policy values a take by the mover's own board, so hiding the other sources leaves
    its values unchanged, where a search would plan on a table that is not the game's. `policy`,
    a search or not, plays the games and the rollouts. Two fixed candidates are compared, not a
    ranking made, so every position gets the same rollouts.

    The games run one after another here, or with `client` one task each on its Dask cluster
    (`azul_fast.runs.where.Where.map`): the same rows.
    """
    spec = parse_policy(policy)  # an UnknownPolicyError listing the valid names
    chooser = parse_policy((spec if spec.budget == 0 else "heuristic") if candidates is None else candidates)
    if chooser.budget > 0:
        raise ValueError(f"candidates must be a one-move policy (greedy, heuristic, random), got {candidates!r}")
    root = np.random.SeedSequence(seed)
    games = [tuple(int(s) for s in child.generate_state(2, np.uint64)) for child in root.spawn(n_games)]
    found = Where(client=client).map(_marker_game, [(players, spec, chooser, rollouts, max_round, *seeds)
                                                    for seeds in games])
    rows = [{"game": game, **row, "policy": spec.name, "candidates": chooser.name}
            for game, game_rows in enumerate(found) for row in game_rows]
    return pd.DataFrame(rows, columns=_COMPARISON_COLUMNS)


def _marker_game(players: int, policy: PolicySpec, candidates: PolicySpec, rollouts: int, max_round: int,
                 game_seed: int, rollout_root: int) -> list[dict[str, Any]]:
    """One game of `marker_rollouts`: a row for every position where the candidates were compared."""
    state = State.new(players, seed=game_seed)
    seeds = np.random.SeedSequence(rollout_root).generate_state(2 * rollouts, np.uint64).reshape(-1, 2)
    rows = []
    asked: set[int] = set()
    while not state.is_game_over() and state.round <= max_round:
        if state.round not in asked and state.center_has_marker and state.center.sum() > 0:
            asked.add(state.round)
            row = _compare_at(state, policy, candidates, seeds)
            if row is not None:
                rows.append(row)
        state.play(state.choose(policy))
    return rows


def _compare_at(state: State, policy: PolicySpec, candidates: PolicySpec, seeds: np.ndarray) -> dict[str, Any] | None:
    center, factory = _best_move(state, candidates, True), _best_move(state, candidates, False)
    if center is None or factory is None:
        return None
    result = native.rollouts(state, [center, factory], policy, seeds)
    (center_share, factory_share), (center_margin, factory_margin) = result.shares, result.margins
    return {"round": state.round, "seat": result.seat, "center_move": str(center), "factory_move": str(factory),
            "share_diff": float((center_share - factory_share).mean()),
            "margin_diff": float((center_margin - factory_margin).mean())}


def marker_rollout_summary(comparisons: pd.DataFrame) -> pd.DataFrame:
    """`marker_rollouts` by round: mean paired differences over positions, with intervals.

    Positions are the independent units (their rollouts share seeds), so the intervals come
    from the spread of the per-position differences.

    Parameters
    ----------
    comparisons : DataFrame
        `marker_rollouts`' rows (its ``round``, ``share_diff`` and ``margin_diff`` columns); with
        no rows (no position qualified) the summary has none either.

    Returns
    -------
    DataFrame
        One row per round: ``round, n`` (positions), ``share_diff, share_low, share_high`` (the
        mover's tie-split win share, centre minus factory, 95% normal interval) and ``margin_diff,
        margin_low, margin_high``.

    Raises
    ------
    ValueError
        If `comparisons` lacks one of those columns (the missing ones are named).

    Examples
    --------
    >>> comparisons = marker_rollouts(2, 2, "greedy", rollouts=2, seed=5, max_round=1)
    >>> summary = marker_rollout_summary(comparisons)
    >>> summary["round"].tolist(), int(summary.n.sum()) == len(comparisons)
    ([1], True)
    >>> marker_rollout_summary(marker_rollouts(0)).columns.tolist()[:3]
    ['round', 'n', 'share_diff']
    """
    missing = sorted({"round", "share_diff", "margin_diff"} - set(comparisons.columns))
    if missing:
        raise ValueError(f"expected marker_rollouts' rows; missing columns {missing}")
    rows = []
    for round_no, group in comparisons.groupby("round"):
        share, share_low, share_high = _mean_interval(group.share_diff)
        margin, margin_low, margin_high = _mean_interval(group.margin_diff)
        rows.append({"round": round_no, "n": len(group), "share_diff": share, "share_low": share_low,
                     "share_high": share_high, "margin_diff": margin, "margin_low": margin_low,
                     "margin_high": margin_high})
    return pd.DataFrame(rows, columns=_SUMMARY_COLUMNS)
