"""solve(): the rest of a round by alpha-beta, checked against a brute-force minimax in Python."""

import math

import pytest
from solving import final_round_positions, outright, paranoid

from azul_fast import State
from azul_fast.core.bots.solve import SolveBudgetError, final_round, forced_win, solve


@pytest.mark.parametrize("variant", ["colored", "gray"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_solve_agrees_with_brute_force_on_final_rounds(players, variant):
    positions = final_round_positions(players, variant, seeds=range(100 * players, 100 * players + 12))
    assert len(positions) >= 4, "too few small final rounds to compare"
    for state, value in positions:
        before = state.to_dict()
        result = solve(state)
        assert result.value == value, state.to_text()
        for move, move_value in result.move_values.items():
            child = state.copy()
            child.play(move)
            expected = paranoid(child, state.current_player, [10**6])
            assert move_value == expected, (state.to_text(), move)
        assert set(result.best_moves) == {m for m, v in result.move_values.items() if v == value}
        assert state.to_dict() == before   # solving changes nothing
        # the principal line is legal and, played out, ends the game with the solved value
        game = state.copy()
        for move in result.line:
            game.play(move)
        assert game.is_game_over()
        if players == 2:
            assert game.scores[state.current_player] - game.scores[1 - state.current_player] == value


@pytest.mark.parametrize("variant", ["colored", "gray"])
def test_exact_is_claimed_only_where_every_line_ends_the_game(variant):
    claimed = 0
    for state, _value in final_round_positions(2, variant, seeds=range(40, 52)):
        result = solve(state)
        assert result.exact == final_round(state)
        claimed += result.exact
    assert claimed >= 1
    early = State.new(players=2, seed=3, variant=variant)
    while len(early.legal_moves) > 10:
        early.play(early.choose("greedy"))
    result = solve(early)
    assert not result.exact and not final_round(early) and math.isfinite(result.value)
    assert result.value == max(result.move_values.values())
    assert result.line[0] in result.best_moves


@pytest.mark.parametrize("variant", ["colored", "gray"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_forced_win_agrees_with_brute_force_on_final_rounds(players, variant):
    positions = [state for state, _ in final_round_positions(players, variant, range(100 * players, 100 * players + 12))
                 if final_round(state)]
    outcomes = set()
    for state in positions:
        before = state.to_dict()
        move = forced_win(state)
        value = outright(state, state.current_player, [10**6])
        assert (move is not None) == (value == 1), state.to_text()
        if move is not None:
            child = state.copy()
            child.play(move)
            assert outright(child, state.current_player, [10**6]) == 1, (state.to_text(), move)
        assert state.to_dict() == before   # asking changes nothing
        outcomes.add(value)
    assert {1, -1} <= outcomes, "the positions should hold both won and unwon rounds"


def test_forced_win_refuses_what_it_cannot_prove():
    early = State.new(players=2, seed=3)
    with pytest.raises(ValueError, match=r"may not end the game \(final_round\(state\) is False\)"):
        forced_win(early)
    while not final_round(early):
        early.play(early.choose("greedy"))
    with pytest.raises(SolveBudgetError, match="needs more than max_nodes=5 positions"):
        forced_win(early, max_nodes=5)
    with pytest.raises(TypeError, match="takes a State"):
        forced_win(early.to_dict())
    with pytest.raises(TypeError, match="max_nodes"):
        forced_win(early, max_nodes=1.5)
    while not early.is_game_over():
        early.play(early.choose("greedy"))
    with pytest.raises(ValueError, match="the game is over"):
        forced_win(early)


def test_a_round_too_large_for_the_budget_is_one_clear_error():
    with pytest.raises(SolveBudgetError, match="needs more than max_nodes=500 positions"):
        solve(State.new(players=2, seed=1), max_nodes=500)


def test_bad_arguments():
    state = State.new(players=2, seed=1)
    with pytest.raises(TypeError, match="solve\\(\\) takes a State, got str"):
        solve("state")
    with pytest.raises(TypeError, match="max_nodes must be an int, got float"):
        solve(state, max_nodes=1.5)
    with pytest.raises(ValueError, match="max_nodes must be"):
        solve(state, max_nodes=0)
    while not state.is_game_over():
        state.play(state.choose("greedy"))
    with pytest.raises(ValueError, match="the game is over"):
        solve(state)
