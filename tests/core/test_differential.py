"""The native core against the pure-Python reference engine: same seeds, same moves, same states.

The default run compares 10,000 games across 2, 3 and 4 players (random and greedy policies):
the whole move list and the final position of every game, and the full position after every
single move for the first games of each kind. `-m slow` runs a larger sample.
"""

from __future__ import annotations

import pytest

import azul_fast
from azul_fast.core.rules import reference as ref
from azul_fast.runs.simulate import derive_game_seed


def _compare_game(players: int, policy: str, seed: int, every_move: bool) -> None:
    core = azul_fast.State.new(players, seed=seed)
    mirror = ref.ReferenceState.new(players=players, seed=seed)
    choose = ref.POLICIES[policy]
    turn = 0
    while not core.is_game_over():
        move = core.choose(policy)
        assert move == choose(mirror), f"seed {seed}: policies diverge at turn {turn}"
        if every_move:
            assert [m.code for m in core.legal_moves] == [m.code for m in mirror.legal_moves()]
        core.play(move)
        mirror.play(move)
        if every_move:
            assert core.to_dict() == mirror.to_dict(), f"seed {seed}: positions diverge at turn {turn}"
        turn += 1
    assert mirror.game_over
    assert core.to_dict() == mirror.to_dict()
    assert core.winners == mirror.winners and core.scores == mirror.scores


def _games(n: int):
    for i in range(n):
        players = 2 + i % 3
        policy = ("random", "greedy")[i // 3 % 2]
        yield players, policy, derive_game_seed(2026, i)


@pytest.mark.parametrize("block", range(10))
def test_core_matches_reference_on_10000_games(block):
    for i, (players, policy, seed) in enumerate(_games(10_000)):
        if i % 10 == block:
            _compare_game(players, policy, seed, every_move=i < 600)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(50))  # 50 tests of 1,000 games (about a minute each), under the timeout
def test_core_matches_reference_move_by_move_on_50000_games(block):
    for i, (players, policy, seed) in enumerate(_games(50_000)):
        if i % 50 == block:
            _compare_game(players, policy, seed, every_move=True)


def test_simulate_rows_equal_reference_games():
    df = azul_fast.simulate(60, players=3, policies=["greedy", "random", "greedy"], seed=99, workers=1)
    for row in df.itertuples():
        game = ref.play_game(players=3, policies=["greedy", "random", "greedy"], seed=int(row.seed))
        assert game["moves"][0] == row.opening
        assert list(game["scores"]) == [row.score_0, row.score_1, row.score_2]
        assert [s in game["winners"] for s in range(3)] == [row.win_0, row.win_1, row.win_2]
        assert game["turns"] == row.turns and game["rounds"] == row.rounds
