"""Fuzzing the public API: bad input ends in a clear exception, never a crash or a corrupted state.

Case counts (hypothesis examples per test) are set below; together they run about 2,500 cases.
"""

from __future__ import annotations

import copy
import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azul_fast import IllegalMoveError, Move, Placement, State, floor_penalty, score_tile, simulate

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

anything = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True), st.text(max_size=8),
    st.lists(st.integers(-5, 30), max_size=7), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
variant_names = st.sampled_from(["colored", "gray", "Gray", ""])


# A step is a take's code (mostly illegal), 300 + 5 * line + column for a gray-wall placement, or ("legal", i),
# the i-th legal move, so that sequences also reach deep positions and paused gray tilings.
steps = st.one_of(st.integers(0, 324), st.tuples(st.just("legal"), st.integers(0, 299)))


@SETTINGS
@given(st.integers(2, 4), st.integers(0, 2**64 - 1), st.sampled_from(["colored", "gray"]),
       st.lists(steps, min_size=1, max_size=120))
def test_any_sequence_of_moves_is_played_or_refused_cleanly(players, seed, variant, codes):
    state = State.new(players, seed=seed, variant=variant)
    for step in codes:
        if isinstance(step, tuple):
            legal_moves = state.legal_moves
            if not legal_moves:
                continue
            move = legal_moves[step[1] % len(legal_moves)]
        else:
            move = Move.from_code(step) if step < 300 else Placement(*divmod(step - 300, 5))
        before = state.to_dict()
        legal = move in state.legal_moves
        try:
            state.play(move)
        except IllegalMoveError:
            assert not legal
            assert state.to_dict() == before
        else:
            assert legal
        state.check_invariants()


def _paths(d, prefix=()):
    """Every (path, value) leaf of a nested position dict."""
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, prefix + (i,))
    yield prefix, d


def _base_position(variant: str) -> dict:
    """A mid-game 3-player position; on the gray wall one whose tiling waits for a column."""
    state = State.new(3, seed=42, variant=variant)
    for _ in range(23):
        state.play(state.choose("greedy"))
    while variant == "gray" and state.tiling is None:
        state.play(state.choose("greedy"))
    return state.to_dict()


BASES = [_base_position("colored"), _base_position("gray")]
PATHS = sorted({p for base in BASES for p, _ in _paths(base) if p}, key=repr)


@settings(max_examples=1200, deadline=None)
@given(st.sampled_from(BASES),
       st.lists(st.tuples(st.sampled_from(PATHS), anything | variant_names), min_size=1, max_size=3))
def test_mutated_positions_are_rejected_or_sound(base, mutations):
    d = copy.deepcopy(base)
    for path, value in mutations:
        target = d
        try:
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError, AttributeError):
            continue
    try:
        state = State.from_dict(d)
    except (ValueError, TypeError):
        return
    # Accepted: then it is a sound position that plays on and round-trips.
    state.check_invariants()
    assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    if not state.is_game_over():
        state.play(state.choose("random"))
        state.check_invariants()


@settings(max_examples=300, deadline=None)
@given(anything, anything, anything)
def test_kernels_and_constructors_reject_garbage_with_clear_errors(a, b, c):
    for call in (lambda: score_tile(a, b, c), lambda: floor_penalty(a), lambda: Move(a, b, c),
                 lambda: State.new(a, b), lambda: Move.from_notation(a)):
        try:
            call()
        except (ValueError, TypeError):
            pass


# Valid but huge game counts would only be slow, so n_games stays small or invalid.
n_games = st.one_of(st.integers(-3, 5), st.integers(2**31, 2**70), anything.filter(lambda x: not isinstance(x, int)))


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "n_games": n_games, "players": anything, "policies": anything, "seed": anything,
    "workers": anything, "first_player": anything, "max_rounds": anything, "variant": anything | variant_names}))
def test_simulate_rejects_bad_arguments_with_clear_errors(kwargs):
    """TypeError for an argument of the wrong type, ValueError for a bad value; nothing else."""
    kwargs.setdefault("n_games", 3)
    try:
        df = simulate(**kwargs, progress=False)
    except (ValueError, TypeError) as error:
        assert str(error)
    else:
        assert len(df) == kwargs["n_games"]


def test_two_threads_simulating_at_once_match_sequential_runs():
    args = [dict(n_games=30_000, players=2, policies="greedy", seed=1, workers=2),
            dict(n_games=30_000, players=4, policies=["random", "greedy", "random", "greedy"], seed=2, workers=2)]
    sequential = [simulate(**a) for a in args]
    results: list = [None, None]

    def run(i):
        results[i] = simulate(**args[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, sequential):
        assert got.equals(want)


def test_states_used_from_two_threads_do_not_interfere():
    states = [State.new(2, seed=s) for s in (1, 2)]
    expected = []
    for s in (1, 2):
        state = State.new(2, seed=s)
        while not state.is_game_over():
            state.play(state.choose("greedy"))
        expected.append(state.to_dict())

    def play(state):
        while not state.is_game_over():
            state.play(state.choose("greedy"))

    threads = [threading.Thread(target=play, args=(st_,)) for st_ in states]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [s.to_dict() for s in states] == expected


@pytest.mark.parametrize("n_games", [1, 2, 7])
def test_tiny_runs(n_games):
    assert len(simulate(n_games, seed=1, workers=4)) == n_games
