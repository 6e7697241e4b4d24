"""Where the first player's margin is made: round by round, from games recorded move by move.

`margin_by_round` splits the first player's final margin (its score minus the second seat's, 2 players)
into what each round's play added and what the end bonuses added, so the parts add up to the final
margin of every game; beside each round, who took the first-player marker (the first take from the
centre) and what it cost its taker on the floor. Comparing two policies on the same deals
(`simulate_moves` with one root seed) shows where a stronger search gains or loses the first mover's edge.

>>> from azul_fast import simulate_moves
>>> records = simulate_moves(200, players=2, policies="greedy", seed=3, workers=1)
>>> table = margin_by_round(records)
>>> table.part.tolist()[:2], table.part.tolist()[-2:]
(['round 1', 'round 2'], ['end bonuses', 'final margin'])
>>> parts = table[table.part != "final margin"]
>>> bool(abs(parts.margin.sum() - table.margin.iloc[-1]) < 1e-9)   # the parts add up to the margin
True
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from azul_fast.runs.move_records import MoveRecords
from azul_fast.studies.in_game import marker_takers

__all__ = ["MARGIN_COLUMNS", "margin_by_round"]

#: The columns of `margin_by_round`'s table.
MARGIN_COLUMNS = ["part", "games", "first_points", "second_points", "margin", "margin_low", "margin_high",
                  "second_takes_marker", "marker_low", "marker_high", "marker_cost_first", "marker_cost_second"]
_Z = float(stats.norm.ppf(0.975))
#: Rounds shown one a row; the later ones (few games reach them) share a row.
_ROUNDS = 5


def _mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """A mean with its 95 % normal interval, over every game (a game that ended earlier adds 0)."""
    mean = float(values.mean())
    half = _Z * float(values.std(ddof=1)) / np.sqrt(len(values)) if len(values) > 1 else np.nan
    return mean, mean - half, mean + half


def margin_by_round(records: MoveRecords) -> pd.DataFrame:
    """The first player's margin over the second seat, round by round, in 2-player games.

    One row a round (``round 1`` to ``round 5``, and ``round 6+`` for the few games that go on), then
    ``end bonuses`` and ``final margin``: ``first_points`` and ``second_points`` are the mean points a
    game each seat gained in that part (its score change over the round, floor penalties taken off; the
    last round's end bonuses counted in their own row), ``margin`` their difference with its 95 %
    interval, averaged over every game (a game that ended before a round adds 0 to it, so the rows add
    up to the final margin). For a round, ``second_takes_marker`` is the share of the games reaching it
    in which the second seat took the marker, with its interval, and ``marker_cost_first`` /
    ``marker_cost_second`` the mean floor points the marker cost its taker.

    Raises
    ------
    ValueError
        If the games are not 2-player games.
    """
    games, rounds = records.games, records.rounds
    if int(games.players.iloc[0]) != 2:
        raise ValueError("margin_by_round compares the two seats of 2-player games")
    n, last = len(games), int(rounds["round"].max())
    first = games.first_player.to_numpy()
    game_row = games.game.searchsorted(rounds.game.to_numpy())
    is_first = rounds.seat.to_numpy() == first[game_row]
    # each seat's score change a round (the score never falls below 0, so the deltas are exact), bonuses apart
    ordered = rounds.sort_values(["game", "seat", "round"])
    gained = ordered.groupby(["game", "seat"], observed=True).score_after_round.diff().fillna(
        ordered.score_after_round).to_numpy() - ordered.end_bonus.to_numpy()
    ordered = ordered.assign(gained=gained, first=is_first[ordered.index.to_numpy()])
    takers = marker_takers(records)
    taker_row = games.game.searchsorted(takers.game.to_numpy())
    takers = takers.assign(second=takers.seat.to_numpy() != first[taker_row])

    def per_game(part: pd.DataFrame, column: str, seat_first: bool) -> np.ndarray:
        values = np.zeros(n)
        chosen = part[part["first"] == seat_first]
        np.add.at(values, games.game.searchsorted(chosen.game.to_numpy()), chosen[column].to_numpy(dtype=float))
        return values

    rows = []
    # the rare rounds past the fifth in one row: few games reach them
    parts = [(f"round {r}", ordered[ordered["round"] == r], "gained") for r in range(1, min(last, _ROUNDS) + 1)]
    if last > _ROUNDS:
        parts.append((f"round {_ROUNDS + 1}+", ordered[ordered["round"] > _ROUNDS], "gained"))
    parts.append(("end bonuses", ordered, "end_bonus"))
    for name, part, column in parts:
        mine, theirs = per_game(part, column, True), per_game(part, column, False)
        margin, low, high = _mean_interval(mine - theirs)
        row = {"part": name, "games": int(part.game.nunique()), "first_points": float(mine.mean()),
               "second_points": float(theirs.mean()), "margin": margin, "margin_low": low, "margin_high": high}
        if name.startswith("round "):
            number = int(name.split()[1].rstrip("+"))
            taken = takers[(takers["round"] == number) | (name.endswith("+") & (takers["round"] > number))]
            share, share_low, share_high = _mean_interval(taken.second.to_numpy(dtype=float)) if len(taken) else (
                np.nan, np.nan, np.nan)
            row.update(second_takes_marker=share, marker_low=max(share_low, 0.0), marker_high=min(share_high, 1.0),
                       marker_cost_first=float(taken.cost[~taken.second].mean()) if (~taken.second).any() else np.nan,
                       marker_cost_second=float(taken.cost[taken.second].mean()) if taken.second.any() else np.nan)
        rows.append(row)
    scores = games[["score_0", "score_1"]].to_numpy(dtype=float)
    final = np.where(first == 0, scores[:, 0] - scores[:, 1], scores[:, 1] - scores[:, 0])
    margin, low, high = _mean_interval(final)
    rows.append({"part": "final margin", "games": n, "first_points": float(scores[np.arange(n), first].mean()),
                 "second_points": float(scores[np.arange(n), 1 - first].mean()), "margin": margin,
                 "margin_low": low, "margin_high": high})
    return pd.DataFrame(rows).reindex(columns=MARGIN_COLUMNS)
