"""The native rollout engine (azul_fast.runs.rollouts) against the State API, and its arguments."""

import numpy as np
import pytest

from azul_fast import IllegalMoveError, State
from azul_fast.runs.rollouts import continuation_seeds, rollouts


def python_rollout(state, move, policy, bag, choice):
    """One continuation through the State API: the move with the position's streams, then seed k's."""
    after = state.copy()
    if move is not None:
        after.play(move)
    position = after.to_dict()
    position["rng"] = {"bag": int(bag), "policy": int(choice)}
    game = State.from_dict(position)
    while not game.is_game_over():
        game.play(game.choose(policy))
    return game.scores, game.winners


@pytest.mark.parametrize(("players", "variant", "policy"), [(2, "colored", "greedy"), (3, "gray", "random"),
                                                           (4, "colored", "heuristic"), (2, "gray", "mcts:20")])
def test_native_rollouts_are_the_state_api_games(players, variant, policy):
    state = State.new(players=players, seed=5, variant=variant)
    state.play(state.choose("greedy"))
    moves = list(state.legal_moves)[:3] + [None]
    seeds = continuation_seeds(9, 5)
    result = rollouts(state, moves, policy, seeds)
    for i, move in enumerate(moves):
        for k, (bag, choice) in enumerate(seeds):
            scores, winners = python_rollout(state, move, policy, bag, choice)
            assert tuple(result.scores[i, k]) == scores
            assert {p for p in range(players) if result.winners[i, k] >> p & 1} == set(winners)
    mover = state.current_player
    assert (result.margins == result.scores[:, :, mover] - np.delete(result.scores, mover, 2).max(2)).all()
    assert ((result.shares > 0) == result.wins).all() and (result.shares <= 1).all()


def test_results_do_not_depend_on_workers():
    state = State.new(players=2, seed=3)
    moves = list(state.legal_moves)[:20]
    seeds = continuation_seeds(1, 10)
    one = rollouts(state, moves, "greedy", seeds, workers=1)
    three = rollouts(state, moves, "greedy", seeds, workers=3)
    assert (one.scores == three.scores).all() and (one.winners == three.winners).all()


def test_bad_arguments_are_clear_errors():
    state = State.new(players=2, seed=3)
    seeds = continuation_seeds(1, 2)
    with pytest.raises(IllegalMoveError, match="rollouts: 1B1 is not a legal move here"):
        rollouts(state, ["1B1"], "greedy", seeds)
    with pytest.raises(TypeError, match="rollouts\\(\\) takes a State"):
        rollouts(state.to_dict(), [None], "greedy", seeds)
    with pytest.raises(TypeError, match="a move must be a Move, a Placement or its notation, got int"):
        rollouts(state, [3], "greedy", seeds)
    with pytest.raises(ValueError, match="seeds must have shape"):
        rollouts(state, [None], "greedy", np.zeros((2, 3)))
    with pytest.raises(ValueError, match="moves is empty"):
        rollouts(state, [], "greedy", seeds)
    with pytest.raises(ValueError, match="unknown policy|policy"):
        rollouts(state, [None], "best", seeds)
