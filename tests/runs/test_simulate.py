"""simulate(), play_game(), and results on disk."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import azul_fast
from azul_fast import State, available_policies, load, play_game, save, simulate

PER_SEAT = {"policy": "category", "score": "int16", "win": "bool", "rows": "uint8", "cols": "uint8",
            "colors": "uint8", "wall": "uint32"}
PER_GAME = {"game": "uint32", "seed": "uint64", "players": "uint8", "first_player": "uint8", "rounds": "uint8",
            "turns": "uint16", "truncated": "bool", "opening": "category"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_columns_and_dtypes(players):
    df = simulate(200, players=players, seed=1, workers=1)
    expected = dict(PER_GAME)
    for seat in range(players):
        expected.update({f"{stem}_{seat}": dtype for stem, dtype in PER_SEAT.items()})
    assert {c: str(t) for c, t in df.dtypes.items()} == expected
    assert df.game.tolist() == list(range(200))
    assert (df.players == players).all()
    assert df.attrs["root_seed"] == "1" and df.attrs["rules_version"] == azul_fast.RULES_VERSION
    assert df.attrs["azul_fast_version"] == azul_fast.__version__


def _bytes_per_row(df):
    """Bytes a row costs (categoricals cost their codes; categories are a fixed cost per column)."""
    return sum(df[c].cat.codes.dtype.itemsize if df[c].dtype == "category" else df[c].dtype.itemsize
               for c in df.columns)


@pytest.mark.parametrize(("players", "limit"), [(2, 42), (3, 53), (4, 64)])
def test_rows_are_compact(players, limit):
    df = simulate(2000, players=players, seed=2, workers=2)
    assert _bytes_per_row(df) <= limit
    fixed = df.memory_usage(index=False).sum() - _bytes_per_row(df) * len(df)
    assert fixed < 40_000  # category labels only


def test_same_seed_same_frame_whatever_workers_and_chunks():
    base = simulate(3000, players=3, policies=["greedy", "random", "random"], seed=7, workers=1)
    assert base.equals(simulate(3000, players=3, policies=["greedy", "random", "random"], seed=7, workers=2,
                                chunk_size=333))
    assert base.equals(simulate(3000, players=3, policies=["greedy", "random", "random"], seed=7, workers=2,
                                chunk_size=1000))


def test_a_parsed_policy_plays_as_its_name():
    """simulate takes a `parse_policy` spec wherever it takes a name, seat by seat, with the same games."""
    from azul_fast.core.bots.policies import parse_policy

    by_name = simulate(20, 2, ["greedy", "mcts:5"], seed=3, workers=1)
    by_spec = simulate(20, 2, [parse_policy("greedy"), parse_policy("mcts:5")], seed=3, workers=1)
    pd.testing.assert_frame_equal(by_name, by_spec)
    assert by_spec.policy_1.unique().tolist() == ["mcts:5"]
    one = simulate(20, 3, parse_policy("heuristic"), seed=3, workers=1)
    pd.testing.assert_frame_equal(one, simulate(20, 3, "heuristic", seed=3, workers=1))


def test_different_seeds_give_different_games():
    a, b = simulate(500, seed=1, workers=1), simulate(500, seed=2, workers=1)
    assert not np.array_equal(a.seed, b.seed)
    assert not np.array_equal(a.score_0, b.score_0)
    assert len(set(a.seed)) == 500


def test_seed_accepts_seed_sequence_and_none():
    ss = np.random.SeedSequence(123)
    assert simulate(50, seed=ss, workers=1).equals(simulate(50, seed=np.random.SeedSequence(123), workers=1))
    df = simulate(50, seed=None, workers=1)
    assert int(df.attrs["root_seed"]) >= 0


def test_a_row_replays_exactly_with_play_game():
    df = simulate(300, players=2, policies=["greedy", "random"], seed=5, workers=1)
    for row in df.sample(20, random_state=0).itertuples():
        record = play_game(players=2, policies=["greedy", "random"], seed=int(row.seed))
        assert record.opening == row.opening
        assert record.scores == (row.score_0, row.score_1)
        assert record.turns == row.turns and record.rounds == row.rounds
        assert record.winners == tuple(s for s in range(2) if getattr(row, f"win_{s}"))
        assert record.state.wall_mask(0) == row.wall_0


def test_win_columns_follow_the_tie_break():
    df = simulate(5000, players=3, seed=3, workers=2)
    scores = df[["score_0", "score_1", "score_2"]].to_numpy()
    rows = df[["rows_0", "rows_1", "rows_2"]].to_numpy()
    wins = df[["win_0", "win_1", "win_2"]].to_numpy()
    key = scores.astype(int) * 10 + rows
    assert np.array_equal(wins, key == key.max(axis=1, keepdims=True))
    assert (wins.sum(axis=1) >= 1).all()
    assert (wins.sum(axis=1) > 1).any()  # shared victories happen and are all marked


def test_truncated_games_are_flagged():
    df = simulate(200, seed=4, max_rounds=2, workers=1)
    assert df.truncated.all() and (df.rounds <= 2).all()
    full = simulate(2000, seed=4, workers=1)
    finished = ~full.truncated
    assert ((full.rows_0 + full.rows_1)[finished] > 0).all()


def test_greedy_beats_random_in_95_percent_of_games():
    df = simulate(1000, players=2, policies=["greedy", "random"], seed=2026, workers=2, seat_rotation=True)
    greedy_seat = np.where(df.policy_0 == "greedy", 0, 1)
    greedy_won = np.where(greedy_seat == 0, df.win_0 & ~df.win_1, df.win_1 & ~df.win_0)
    assert greedy_won.mean() >= 0.95


def test_seat_rotation_replays_each_deal_in_every_seat():
    df = simulate(50, players=3, policies=["greedy", "random", "random"], seed=8, workers=1, seat_rotation=True)
    assert len(df) == 150
    assert (df.groupby("deal").seed.nunique() == 1).all()
    assert (df.groupby("deal").rotation.apply(sorted).apply(list) == [[0, 1, 2]] * 50).all()
    for k in range(3):
        assert (df[df.rotation == k][f"policy_{k}"] == "greedy").all()
    first = df[df.rotation == 0].reset_index(drop=True)
    assert first.seed.equals(simulate(50, players=3, policies=["greedy", "random", "random"], seed=8, workers=1).seed)


def test_python_policy_runs_on_the_slow_path_with_the_same_columns():
    def always_floor(state):
        return next(m for m in state.legal_moves if m.line == azul_fast.FLOOR)

    df = simulate(20, policies=[always_floor, "greedy"], seed=6, workers=2)
    native = simulate(20, policies="greedy", seed=6, workers=1)
    assert list(df.columns) == list(native.columns)
    assert (df.policy_0 == "always_floor").all()
    assert (df.score_1 >= df.score_0).all()
    assert df.seed.equals(native.seed)


def test_python_policy_returning_an_illegal_move_is_named():
    def bad(state):
        return "CBF"

    with pytest.raises(azul_fast.IllegalMoveError, match="bad"):
        simulate(2, policies=bad, seed=1)


def test_native_policy_names_through_play_game_equal_python_callables_using_choose():
    def greedy_in_python(state):
        return state.choose("greedy")

    # A copy of the state is handed to the callable, whose policy stream is the game's own.
    a = play_game(2, [greedy_in_python, "random"], seed=10)
    b = play_game(2, ["greedy", "random"], seed=10)
    assert a.moves[0] == b.moves[0]


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n_games": 0}, "n_games"),
        ({"n_games": 10, "policies": "nope"}, "policy"),
        ({"n_games": 10, "policies": ["random"] * 3}, "policies"),
        ({"n_games": 10, "players": 5}, "players"),
        ({"n_games": 10, "workers": 0}, "workers"),
        ({"n_games": 10, "seed": -5}, "seed"),
        ({"n_games": 10, "first_player": 3}, "first_player"),
        ({"n_games": 10, "max_rounds": 0}, "max_rounds"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        simulate(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"seed": "abc"}, "seed"), ({"n_games": 2.5}, "n_games"), ({"players": True}, "players"),
     ({"workers": 1.0}, "workers"), ({"seat_rotation": 1}, "seat_rotation"),
     ({"check_invariants": "yes"}, "check_invariants")],
)
def test_a_wrong_type_is_a_type_error_as_in_state_new(kwargs, name):
    """One rule everywhere: TypeError for an argument of the wrong type, ValueError for a bad value."""
    with pytest.raises(TypeError, match=name):
        simulate(**{"n_games": 10, **kwargs})
    if name in ("seed", "players"):
        with pytest.raises(TypeError, match=name):
            State.new(**{"players": 2, **kwargs})


def test_unknown_policy_lists_the_valid_ones():
    with pytest.raises(ValueError) as info:
        simulate(10, policies="mcts-9000")
    for valid in available_policies():
        assert valid in str(info.value)


def test_save_and_load_keep_dtypes_and_metadata(tmp_path):
    df = simulate(500, players=3, seed=12, workers=1)
    path = tmp_path / "games.parquet"
    save(df, path)
    back = load(path)
    pd.testing.assert_frame_equal(back, df)
    assert back.attrs == df.attrs
    assert [p.name for p in tmp_path.iterdir()] == ["games.parquet"]  # no temporary file left
    again = pd.read_parquet(path)  # plain pandas reads it too
    assert len(again) == 500


def test_load_reports_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        load(tmp_path / "nothing.parquet")


def test_the_native_runner_refuses_arrays_without_room_for_every_game():
    from azul_fast.runs._simulate import run_batch
    from azul_fast.runs.frames import allocate, runner_views

    arrays = allocate(10, 3)
    codes = np.zeros(3, np.uint32)
    transposed = {k: (v.T.copy() if v.ndim == 2 else v) for k, v in arrays.items()}
    with pytest.raises(ValueError, match="score"):
        run_batch(1, 0, 3, codes, 0, 100, 1, runner_views(transposed, 0, 10))
    short = dict(runner_views(arrays, 0, 10), turns=np.zeros(4, np.uint16))
    with pytest.raises(ValueError, match="turns"):
        run_batch(1, 0, 3, codes, 0, 100, 1, short)
    with pytest.raises(ValueError, match="players"):
        run_batch(1, 0, 5, np.zeros(5, np.uint32), 0, 100, 1, runner_views(arrays, 0, 10))
