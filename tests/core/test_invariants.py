"""Invariants over many random games (OpenSpiel's RandomSimTest, for Azul)."""

from __future__ import annotations

import importlib

import pytest

from azul_fast import State
from azul_fast.runs.simulate import derive_game_seed


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_invariants_hold_after_every_move(players, policy):
    for i in range(500):
        state = State.new(players, seed=derive_game_seed(77, i), first_player=i % players)
        previous_round = 1
        while not state.is_game_over():
            state.play(state.choose(policy))
            state.check_invariants()  # 100 tiles, scores >= 0, floors <= 7, lines vs walls
            assert all(len(state.floor(p)) <= 7 for p in range(players))
            assert min(state.scores) >= 0
            assert state.round in (previous_round, previous_round + 1)
            previous_round = state.round
        rows = [sum(state.wall(p).all(axis=1)) for p in range(players)]
        assert state.truncated or max(rows) > 0
        best = max((state.scores[p], rows[p]) for p in range(players))
        assert state.winners == tuple(p for p in range(players) if (state.scores[p], rows[p]) == best)


def test_check_invariants_catches_a_broken_position():
    d = State.new(2, seed=1).to_dict()
    state = State.from_dict(d)
    state.check_invariants()
    # A position can only be broken from outside the API; from_dict refuses it first.
    d["lid"][0] += 1
    with pytest.raises(ValueError):
        State.from_dict(d)


def test_invariant_failures_raise_a_named_error_that_is_not_an_assertion():
    """`python -O` strips assertions, not these checks: InvariantError is a RuntimeError, with one home."""
    from azul_fast.core import game
    from azul_fast.core.rules import moves

    simulate_module = importlib.import_module("azul_fast.runs.simulate")  # azul_fast.simulate is the function
    assert issubclass(moves.InvariantError, RuntimeError)
    assert not issubclass(moves.InvariantError, AssertionError)
    assert simulate_module.InvariantError is game.InvariantError is moves.InvariantError
    assert "InvariantError" in (State.check_invariants.__doc__ or "")
