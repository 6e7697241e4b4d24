"""The State and Move API: views, copies, errors that leave the state untouched, positions as data."""

from __future__ import annotations

import collections.abc
import copy
import json
import pickle

import numpy as np
import pytest
from positions import make_position

from azul_fast import CENTER, FLOOR, MARKER, Color, IllegalMoveError, Move, Placement, State


def test_new_game_setup():
    for players, factories in ((2, 5), (3, 7), (4, 9)):
        state = State.new(players, seed=11)
        assert state.players == players and state.n_factories == factories
        assert state.factories.shape == (factories, 5)
        assert (state.factories.sum(axis=1) == 4).all()
        assert state.bag.sum() == 100 - 4 * factories
        assert state.lid.sum() == 0 and state.center.sum() == 0 and state.center_has_marker
        assert state.round == 1 and state.current_player == 0 and state.scores == (0,) * players
        assert state.winners == () and not state.is_game_over() and not state.truncated
        assert all(state.floor(p) == [] for p in range(players))
        assert not state.wall(0).any() and state.wall(0).dtype == bool


def test_same_seed_same_deal_and_first_player():
    assert State.new(3, seed=5).to_dict() == State.new(3, seed=5).to_dict()
    assert State.new(3, seed=5).to_dict() != State.new(3, seed=6).to_dict()
    assert State.new(3, seed=5, first_player=2).current_player == 2


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"players": 1}, ValueError, "players"),
        ({"players": 5}, ValueError, "players"),
        ({"players": "2"}, TypeError, "players"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"seed": 1.5}, TypeError, "seed"),
        ({"first_player": 2}, ValueError, "first_player"),
        ({"max_rounds": 0}, ValueError, "max_rounds"),
        ({"max_rounds": 256}, ValueError, "max_rounds"),
    ],
)
def test_new_rejects_bad_arguments(kwargs, error, text):
    with pytest.raises(error, match=text):
        State.new(**kwargs)


def test_legal_moves_view_is_sized_iterable_and_supports_in():
    state = State.new(2, seed=1)
    moves = list(state.legal_moves)
    assert len(state.legal_moves) == len(moves) == len(set(moves)) > 0
    assert all(m in state.legal_moves for m in moves)
    assert Move(CENTER, Color.BLUE, FLOOR) not in state.legal_moves  # the centre is empty
    assert "1B1" not in state.legal_moves  # only Move objects are moves
    view = state.legal_moves
    state.play(moves[0])
    assert list(view) == list(state.legal_moves)  # the view is live


def test_identical_factories_give_distinct_moves():
    state = State.from_dict(make_position(factories=[[4, 0, 0, 0, 0], [4, 0, 0, 0, 0]]))
    assert [str(m) for m in state.legal_moves] == [f"{s}B{d}" for s in "12" for d in "12345F"]


@pytest.mark.parametrize(
    ("move", "why"),
    [("4BF", "factory 4 holds no blue"), ("9BF", "factory 9 does not exist"), ("CBF", "the centre holds no blue"),
     ("1R1", "holds no red")],
)
def test_illegal_moves_raise_and_leave_the_state_untouched(move, why):
    state = State.from_dict(make_position(factories=[[2, 2, 0, 0, 0]]))
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match=why):
        state.play(move)
    assert state.to_dict() == before
    assert issubclass(IllegalMoveError, ValueError)


def test_no_move_after_the_game_is_over():
    state = State.new(2, seed=2, max_rounds=1)
    while not state.is_game_over():
        state.play(state.choose("random"))
    assert len(state.legal_moves) == 0 and not state.legal_moves
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play("1BF")
    with pytest.raises(IllegalMoveError):
        state.choose("greedy")


@pytest.mark.parametrize("bad", [None, 3, ("1", "B", "1"), b"1B1"])
def test_play_rejects_wrong_types(bad):
    state = State.new(2, seed=1)
    with pytest.raises(TypeError):
        state.play(bad)


def test_copy_is_independent():
    state = State.new(2, seed=4)
    other = state.copy()
    assert other == state and other is not state
    other.play(other.choose("random"))
    assert other != state
    assert copy.deepcopy(state) == state
    assert pickle.loads(pickle.dumps(state)) == state


def test_read_access_types():
    state = State.from_dict(make_position(boards={0: {"lines": [["Y", 1], [None, 0], ["R", 2], [None, 0], [None, 0]],
                                                    "floor": "MB"}}, center_has_marker=False, marker_holder=0))
    assert state.pattern_line(0, 0) == (Color.YELLOW, 1)
    assert state.pattern_line(0, 1) == (None, 0)
    assert state.floor(0) == [MARKER, Color.BLUE]
    with pytest.raises(ValueError):
        state.pattern_line(0, 5)
    with pytest.raises(ValueError):
        state.wall(2)


# -- Move and notation ------------------------------------------------------------------------

def test_move_notation_round_trip_and_repr():
    for code in range(300):
        move = Move.from_code(code)
        assert Move.from_notation(str(move)) == move
        assert eval(repr(move)) == move
        assert move.code == code
    assert hash(Move.from_notation("1b2")) == hash(Move(0, Color.BLUE, 1))


@pytest.mark.parametrize("text", ["", "1B", "0B1", "AB1", "1X1", "1B6", "1B0", "1B1x"])
def test_bad_notation_is_a_value_error(text):
    with pytest.raises(ValueError, match="notation"):
        Move.from_notation(text)


@pytest.mark.parametrize(("args", "error"), [((10, 0, 0), ValueError), ((0, 5, 0), ValueError), ((0, 0, 6), ValueError),
                                            ((0.0, 0, 0), TypeError), ((True, 0, 0), TypeError)])
def test_bad_move_fields(args, error):
    with pytest.raises(error, match=r"Move\.(source|color|line) must be"):
        Move(*args)


@pytest.mark.parametrize(("args", "error", "name"), [((0, 0, 6), ValueError, "Move.line"),
                                                    ((0, 1.0, 0), TypeError, "Move.color")])
def test_a_bad_move_field_is_named(args, error, name):
    with pytest.raises(error, match=name):
        Move(*args)


@pytest.mark.parametrize(("args", "error", "name"), [((5, 0), ValueError, "Placement.line"),
                                                    ((0, True), TypeError, "Placement.column")])
def test_a_bad_placement_field_is_named(args, error, name):
    with pytest.raises(error, match=name):
        Placement(*args)


def test_numpy_ints_make_the_same_move_of_python_ints():
    move = Move(np.int64(9), np.uint8(2), np.int32(5))
    assert move == Move.from_notation("CRF") and all(type(v) is int for v in (move.source, move.line))


def test_move_is_immutable():
    move = Move(0, Color.RED, 2)
    with pytest.raises(AttributeError):
        move.line = 3


# -- positions as data ------------------------------------------------------------------------

def test_to_dict_is_json_and_round_trips_mid_game():
    state = State.new(3, seed=9)
    for _ in range(40):
        if state.is_game_over():
            break
        state.play(state.choose("random"))
        d = json.loads(json.dumps(state.to_dict()))
        again = State.from_dict(d)
        assert again == state
        # The random streams are part of the position: both continue identically.
        assert again.choose("random") == state.copy().choose("random")


def _numpy_ints(value):
    """`value` with every int (not bool) made a numpy integer, as arrays and pandas hand them out."""
    if isinstance(value, dict):
        return {key: _numpy_ints(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_numpy_ints(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return np.uint64(value) if value > 2**62 else np.int64(value)
    return value


def test_from_dict_takes_numpy_integers_as_state_new_does():
    state = State.new(3, seed=np.uint64(2**63 + 5), max_rounds=np.int64(9))
    for _ in range(7):
        state.play(state.choose("random"))
    d = _numpy_ints(state.to_dict())
    assert isinstance(d["players"], np.int64) and isinstance(d["rng"]["bag"], (np.int64, np.uint64))
    again = State.from_dict(d)
    assert again == state and type(again.to_dict()["players"]) is int
    with pytest.raises(ValueError, match="players"):
        State.from_dict({**d, "players": np.int64(5)})


def _corrupt(path, value):
    d = State.new(2, seed=1).to_dict()
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "text"),
    [
        (("players",), 5, "players"),
        (("players",), True, "players"),
        (("players",), 2.0, "players"),
        (("format",), "x", "format"),
        (("factories",), [[4, 0, 0, 0, 0]], "factories"),
        (("center",), [0, 0, 0, -1, 0], r"center\[3\]"),
        (("bag",), [20, 20, 20, 20, 21], "bag"),
        (("boards", 0, "score"), -3, "score"),
        (("boards", 0, "wall"), ["Y....", ".....", ".....", ".....", "....."], "wall"),
        (("boards", 0, "lines"), [["B", 2], [None, 0], [None, 0], [None, 0], [None, 0]], "lines"),
        (("boards", 0, "floor"), "BBBBBBBB", "floor"),
        (("boards", 0, "floor"), "Q", "floor"),
        (("current_player",), 2, "current_player"),
        (("rng",), {"bag": -1, "policy": 0}, "rng"),
        (("center_has_marker",), False, "marker"),
    ],
)
def test_from_dict_rejects_bad_fields_by_name(path, value, text):
    with pytest.raises(ValueError, match=text):
        State.from_dict(_corrupt(path, value))


def test_from_dict_checks_every_colour_is_accounted_for():
    d = State.new(2, seed=1).to_dict()
    d["bag"][0] -= 1
    with pytest.raises(ValueError, match="20"):
        State.from_dict(d)
    with pytest.raises(ValueError):
        State.from_dict("not a dict")
    with pytest.raises(ValueError, match="missing"):
        State.from_dict({"format": "azul_fast/position/1"})


def test_line_holding_a_colour_its_wall_row_has_is_rejected():
    d = make_position(boards={0: {"wall": ["B....", ".....", ".....", ".....", "....."]}})
    d["boards"][0]["lines"][0] = ["B", 1]
    d["bag"][0] -= 1
    with pytest.raises(ValueError, match="already holds B"):
        State.from_dict(d)


def test_text_board_shows_the_position():
    state = State.new(2, seed=7)
    text = str(state)
    assert "Round 1" in text and "Factories" in text and "Player 1" in text
    assert text.count("floor") == 2
    assert "State 2 players" in repr(state)
    np.testing.assert_array_equal(state.wall(0), np.zeros((5, 5), bool))


def test_legal_moves_is_a_read_only_sequence():
    state = State.new(players=3, seed=11)
    moves = state.legal_moves
    listed = list(moves)
    assert isinstance(moves, collections.abc.Sequence)
    assert [moves[i] for i in range(len(moves))] == listed
    assert moves[-1] == listed[-1] and moves[1:4] == listed[1:4]
    assert moves.index(listed[5]) == 5 and moves.count(listed[5]) == 1
    message = f"legal move index {len(listed)} is out of range: there are {len(listed)} legal moves"
    with pytest.raises(IndexError, match=message):
        moves[len(listed)]
    state.play(moves[0])
    assert list(moves) != listed and list(moves) == list(state.legal_moves)  # a live view of the state


def _finished(**edits):
    """The final position of a real game, with `edits` applied (a game over, every check passed)."""
    state = State.new(2, seed=5)
    while not state.is_game_over():
        state.play(state.choose("greedy"))
    d = state.to_dict()
    d.update(edits)
    return d


@pytest.mark.parametrize("where", ["factory", "center", "floor"])
def test_a_game_over_with_tiles_on_the_table_or_a_floor_is_refused(where):
    """A game ends only at the end of a round: the table and the floors are empty then."""
    d = _finished()
    color = next(c for c in range(5) if d["bag"][c] or d["lid"][c])
    pile = "bag" if d["bag"][color] else "lid"
    d[pile][color] -= 1  # the tile moves, so every colour stays accounted for
    if where == "factory":
        d["factories"][0][color] += 1
    elif where == "center":
        d["center"][color] += 1
    else:
        d["boards"][1]["floor"] = "BYRKW"[color]
    message = "floor of seat\\(s\\) \\[1\\] is not empty" if where == "floor" else "tiles lie on the factories"
    with pytest.raises(ValueError, match=message):
        State.from_dict(d)


def test_a_game_over_with_a_marker_holder_is_refused():
    d = _finished(marker_holder=0, center_has_marker=False)  # the floors stay empty: that check passes
    with pytest.raises(ValueError, match="'marker_holder' is 0; the end of the round returns the marker"):
        State.from_dict(d)


def test_every_position_of_real_games_is_accepted():
    """The checks refuse only what no game reaches: every position of these games loads and round-trips."""
    loaded = 0
    for variant in ("colored", "gray"):
        for players, max_rounds, policy in ((2, 100, "random"), (3, 1, "greedy"), (4, 2, "random"), (2, 100, "greedy")):
            state = State.new(players, seed=players * max_rounds, max_rounds=max_rounds, variant=variant)
            while True:
                d = state.to_dict()
                assert State.from_dict(d).to_dict() == d
                loaded += 1
                if state.is_game_over():
                    break
                state.play(state.choose(policy))
    assert loaded > 300


@pytest.mark.parametrize("edit", ["wall in round 1", "complete row in play", "holder without the marker"])
def test_the_documented_unreachable_positions_are_accepted_as_set_ups(edit):
    """docs/engine-spec.md section 9: walls no game reaches are refused, naming the field, unless the
    position is set up to try one rule (reachable=False); a holder without the marker is accepted."""
    if edit == "wall in round 1":
        d = make_position(boards={0: {"wall": ["B....", ".....", ".....", ".....", "....."], "score": 1}})
        refusal = r"'boards\[0\]\.wall': row 0 holds 1 tiles in round 1"
    elif edit == "complete row in play":
        d = make_position(round=6, boards={0: {"wall": ["BYRKW", ".....", ".....", ".....", "....."], "score": 5}})
        refusal = r"'boards\[0\]\.wall': row 0 is complete but the game goes on"
    else:
        d = make_position(marker_holder=1, center_has_marker=False)
        refusal = None
    if refusal is not None:
        with pytest.raises(ValueError, match=refusal):
            State.from_dict(d)
        with pytest.raises(ValueError, match=refusal):
            State.from_text(State.from_dict(d, reachable=False).to_text())
    state = State.from_dict(d, reachable=False)
    assert state.to_dict() == d and len(state.legal_moves) > 0
