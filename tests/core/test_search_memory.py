"""A search that cannot allocate its tree raises MemoryError at every door to the core (State.choose,
simulate, simulate_moves, the training data), changes nothing and returns nothing half done: it
never quietly plays another policy instead."""

import pytest

from azul_fast import State, simulate
from azul_fast.core.bots._search import set_tree_limit
from azul_fast.runs.simulate_moves import simulate_moves
from azul_fast.training.pipeline import collect_boards

SEARCHES = ["mcts:20", "learned:20"]


@pytest.fixture
def no_memory():
    """Every search tree is too large: its allocation fails as on a machine out of memory."""
    set_tree_limit(1)
    try:
        yield
    finally:
        set_tree_limit(None)


def _message(policy):
    name, budget = policy.split(":")
    return rf"the {name} search with budget {budget} could not allocate its tree \(\d+ nodes, \d+ bytes\)"


@pytest.mark.parametrize("policy", SEARCHES)
def test_choose_raises_and_leaves_the_state_as_it_was(no_memory, policy):
    state = State.new(2, seed=3)
    before = state.to_dict()
    with pytest.raises(MemoryError, match=_message(policy)):
        state.choose(policy)
    assert state.to_dict() == before  # not even a draw of the policy stream was spent
    set_tree_limit(None)
    assert state.choose(policy) == State.new(2, seed=3).choose(policy)


@pytest.mark.parametrize("policy", SEARCHES)
def test_simulate_raises_instead_of_returning_rows(no_memory, policy):
    with pytest.raises(MemoryError, match=_message(policy)):
        simulate(6, players=2, policies=[policy, "greedy"], seed=1, workers=2, chunk_size=2)


def test_simulate_fails_though_the_search_plays_one_seat_of_four(no_memory):
    with pytest.raises(MemoryError, match=_message("mcts:5")):
        simulate(2, players=4, policies=["random", "greedy", "heuristic", "mcts:5"], seed=2, workers=1)


@pytest.mark.parametrize("policy", SEARCHES)
def test_simulate_moves_raises(no_memory, policy):
    with pytest.raises(MemoryError, match=_message(policy)):
        simulate_moves(3, players=2, policies=policy, seed=4, workers=1)


def test_the_training_data_raises(no_memory):
    with pytest.raises(MemoryError, match=_message("mcts:20")):
        collect_boards("mcts:20", players=2, variant="colored", games=2, seed=5)


def test_the_policies_without_a_tree_are_untouched(no_memory):
    limited = simulate(4, players=2, policies=["heuristic", "greedy"], seed=1, workers=1)
    set_tree_limit(None)
    assert limited.equals(simulate(4, players=2, policies=["heuristic", "greedy"], seed=1, workers=1))


def test_a_tree_within_the_limit_is_allocated_and_plays_the_same_game():
    set_tree_limit(100_000)
    try:
        limited = simulate(2, players=2, policies="mcts:20", seed=1, workers=1)
    finally:
        set_tree_limit(None)
    assert limited.equals(simulate(2, players=2, policies="mcts:20", seed=1, workers=1))
