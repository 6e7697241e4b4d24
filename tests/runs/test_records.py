"""simulate_moves: the games of simulate, with every move and round on record, replayable move by move."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

from azul_fast import State, simulate
from azul_fast.core.rules.moves import CENTER, FLOOR, FLOOR_PENALTIES, Move
from azul_fast.runs import move_records
from azul_fast.runs.simulate_moves import MOVE_NAMES, decode_move, simulate_moves

SEAT_POLICIES = {2: ["greedy", "random"], 3: ["random", "greedy", "heuristic"], 4: "greedy"}


@pytest.fixture(scope="module", params=[(p, v) for p in (2, 3, 4) for v in ("colored", "gray")],
                ids=lambda pv: f"{pv[0]}p-{pv[1]}")
def run(request):
    players, variant = request.param
    kept = simulate_moves(200, players, SEAT_POLICIES[players], seed=11 + players, workers=2, variant=variant)
    return players, variant, kept


def test_games_are_simulates_rows(run):
    players, variant, (games, _, _) = run
    expected = simulate(200, players, SEAT_POLICIES[players], seed=11 + players, workers=1, variant=variant)
    pd.testing.assert_frame_equal(games, expected)
    assert games.attrs == expected.attrs


def _expected_take(state: State, move: Move) -> tuple[int, int, bool]:
    """(tiles taken, tiles not fitting the line, marker taken) read from the position before the move."""
    counts = state.center if move.source == CENTER else state.factories[move.source]
    taken = int(counts[move.color])
    if move.line == FLOOR:
        return taken, taken, bool(move.source == CENTER and state.center_has_marker)
    _, on_line = state.pattern_line(state.current_player, move.line)
    room = move.line + 1 - on_line
    return taken, max(0, taken - room), bool(move.source == CENTER and state.center_has_marker)


def _replay(players: int, variant: str, game: Any, moves: list[Any], rounds: list[Any]) -> None:
    """Play the recorded moves from the game's seed, checking each record against the position."""
    state = State.new(players, seed=int(game.seed), variant=variant)
    by_round = {(r.round, r.seat): r for r in rounds}
    start_scores, start_walls = state.scores, [0] * players
    for row in moves:
        move = decode_move(row.code)
        assert (row.round, row.seat) == (state.round, state.current_player)
        if isinstance(move, Move):
            tiles, to_floor, marker = _expected_take(state, move)
            assert (row.tiles, row.to_floor, row.took_marker) == (tiles, to_floor, marker)
            floors = [len(state.floor(p)) for p in range(players)]
            floors[row.seat] = min(7, floors[row.seat] + marker + to_floor)
        else:
            assert state.tiling and row.column == move.column
        round_no = state.round
        state.play(move)
        if state.round != round_no or state.is_game_over():
            for p in range(players):
                got = by_round[(round_no, p)]
                assert got.score_after_round == state.scores[p]
                assert got.tiles_placed == bin(state.wall_mask(p) & ~start_walls[p]).count("1")
                net = int(got.points_scored) - int(got.floor_penalty) + int(got.end_bonus)
                assert start_scores[p] + net == state.scores[p]
                if variant == "colored" and got.score_after_round - got.end_bonus > 0:
                    # Not clamped at zero: the floor cost exactly its penalty.
                    assert got.floor_penalty == FLOOR_PENALTIES[floors[p]]
            start_scores, start_walls = state.scores, [state.wall_mask(p) for p in range(players)]
    assert state.is_game_over()
    assert state.scores == tuple(getattr(game, f"score_{p}") for p in range(players))
    assert len(moves) == game.turns


def _blocks(frame: pd.DataFrame, sizes: np.ndarray) -> list[list[Any]]:
    """The frame's rows as plain tuples, cut into consecutive blocks of `sizes` rows."""
    rows = list(frame.itertuples(index=False))
    ends = np.cumsum(sizes)
    return [rows[end - size:end] for size, end in zip(sizes, ends)]


def test_replaying_the_records_reproduces_every_game(run):
    players, variant, (games, moves, rounds) = run
    moves = moves.assign(code=moves.move.cat.codes, move=0)
    if "column" not in moves:
        moves = moves.assign(column=-1)
    game_moves = _blocks(moves, games.turns.to_numpy())
    game_rounds = _blocks(rounds, games.rounds.to_numpy().astype(int) * players)
    for game, its_moves, its_rounds in zip(games.itertuples(index=False), game_moves, game_rounds):
        _replay(players, variant, game, its_moves, its_rounds)


def test_move_rows_name_their_game(run):
    players, variant, (games, moves, rounds) = run
    assert (moves.groupby("game").size().to_numpy() == games.turns.to_numpy()).all()
    assert (moves.seed.to_numpy() == np.repeat(games.seed.to_numpy(), games.turns.to_numpy())).all()
    assert (moves.ply.to_numpy()[moves.groupby("game").head(1).index] == 0).all()
    openings = moves[moves.ply == 0].move.astype(str).to_numpy()
    assert (openings == games.opening.astype(str).to_numpy()).all()
    assert ("column" in moves) == (variant == "gray")
    if variant == "gray":
        placed = moves.move.cat.codes >= move_records.PLACE_CODE
        assert placed.any() and (moves.column[placed] >= 0).all() and (moves.column[~placed] == -1).all()
        assert (moves.source[placed] == -1).all()


def test_columns_are_compact():
    _, moves, rounds = simulate_moves(20, policies="greedy", seed=1, workers=1)
    assert moves.move.cat.codes.dtype == np.int16 and list(moves.move.cat.categories) == MOVE_NAMES
    row_bytes = sum(moves[c].dtype.itemsize for c in moves if c != "move") + 2
    assert row_bytes == 24
    assert sum(rounds[c].dtype.itemsize for c in rounds) == 12


def test_same_records_for_any_workers_chunks_and_growth(monkeypatch):
    args = dict(n_games=60, players=3, policies="random", seed=4)
    one = simulate_moves(**args, workers=1)
    monkeypatch.setattr(move_records, "_MOVES_PER_PLAYER", 1)  # every chunk starts too small and grows
    monkeypatch.setattr(move_records, "_ROUNDS_PER_GAME", 1)
    other = simulate_moves(**args, workers=2, chunk_size=7)
    for a, b in zip(one, other):
        pd.testing.assert_frame_equal(a, b)


def test_seat_rotation_matches_simulate():
    games, moves, _ = simulate_moves(30, 2, ["greedy", "random"], seed=8, workers=1, seat_rotation=True)
    pd.testing.assert_frame_equal(games, simulate(30, 2, ["greedy", "random"], seed=8, workers=1, seat_rotation=True))
    assert len(moves) == games.turns.sum()


def test_invariant_checking_passes_on_sound_games():
    games, _, _ = simulate_moves(20, 2, "greedy", seed=2, workers=1, check_invariants=True)
    assert len(games) == 20


def test_marker_is_taken_once_a_round():
    _, moves, rounds = simulate_moves(100, 2, "random", seed=3, workers=1)
    takers = moves[moves.took_marker].groupby(["game", "round"]).size()
    assert (takers == 1).all()
    assert len(takers) <= len(rounds) // 2  # at most one per round (a round may end with the centre unused)


def test_python_policies_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="built-in policies only"):
        simulate_moves(5, 2, [lambda s: s.legal_moves[0], "greedy"], seed=1)


@pytest.mark.parametrize("kwargs, word", [
    (dict(n_games=0), "n_games"), (dict(n_games=5, players=5), "players"), (dict(n_games=5, workers=0), "workers"),
    (dict(n_games=5, variant="blue"), "variant"), (dict(n_games=5, policies="best"), "best"),
])
def test_bad_arguments_name_themselves(kwargs, word):
    with pytest.raises(ValueError, match=word):
        simulate_moves(**kwargs)


def test_decode_move_rejects_unknown_codes():
    with pytest.raises(ValueError, match="0..324"):
        decode_move(325)
