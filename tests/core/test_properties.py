"""Property tests (hypothesis): kernels against the reference, positions round-trip."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from azul_fast import Move, State, end_bonus, floor_penalty, score_tile
from azul_fast.core.rules import reference
from azul_fast.core.rules.kernels import wall_to_mask

walls = st.integers(min_value=0, max_value=(1 << 25) - 1)
cells = st.tuples(st.integers(0, 4), st.integers(0, 4))


@given(walls, cells)
def test_score_tile_matches_the_reference(wall, cell):
    row, col = cell
    wall &= ~(1 << (row * 5 + col))
    assert score_tile(wall, row, col) == reference.score_tile(wall, row, col)
    assert 1 <= score_tile(wall, row, col) <= 10


@given(walls)
def test_end_bonus_matches_the_reference_and_wall_formats_agree(wall):
    assert end_bonus(wall) == reference.end_bonus(wall)
    as_array = [[bool(wall >> (r * 5 + c) & 1) for c in range(5)] for r in range(5)]
    assert wall_to_mask(as_array) == wall
    assert end_bonus(as_array) == end_bonus(wall)


@given(st.integers(0, 50))
def test_floor_penalty_is_monotone_and_capped(n):
    assert floor_penalty(n) == reference.floor_penalty(min(n, 7))
    assert floor_penalty(n) <= floor_penalty(n + 1) <= 14


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**64 - 1), st.integers(0, 120), st.sampled_from(["random", "greedy"]))
def test_positions_round_trip_through_json(players, seed, moves, policy):
    state = State.new(players, seed=seed)
    for _ in range(moves):
        if state.is_game_over():
            break
        state.play(state.choose(policy))
    d = state.to_dict()
    again = State.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d
    assert reference.ReferenceState.from_dict(d).to_dict() == d


@given(st.integers(0, 299))
def test_move_codes_and_notation_round_trip(code):
    move = Move.from_code(code)
    assert Move.from_notation(str(move)).code == code


def test_score_tile_matches_the_reference_on_every_neighbourhood():
    """A tile's points depend only on its row and its column: every filling of the other four
    cells of each (2**8 for each of the 25 cells), against the reference engine."""
    for row in range(5):
        for col in range(5):
            others = [r * 5 + col for r in range(5) if r != row] + [row * 5 + c for c in range(5) if c != col]
            for pattern in range(1 << 8):
                wall = sum(1 << bit for i, bit in enumerate(others) if pattern >> i & 1)
                assert score_tile(wall, row, col) == reference.score_tile(wall, row, col), (wall, row, col)
