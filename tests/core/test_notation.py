"""The one-line text of a position (azul_fast.core.formats.position_text): round trips and malformed lines."""

import pytest

from azul_fast import State
from azul_fast.core.formats.position_text import FIELDS, position_from_text


def _positions_of_games(players, variant, games=6):
    """Every position of a few greedy and random games, the final one included."""
    for seed in range(games):
        state = State.new(players=players, seed=1000 * players + seed, variant=variant)
        policy = "greedy" if seed % 2 else "random"
        while not state.is_game_over():
            yield state.copy()
            state.play(state.choose(policy))
        yield state


@pytest.mark.parametrize("variant", ["colored", "gray"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_simulated_games_round_trips(players, variant):
    seen_status = set()
    for state in _positions_of_games(players, variant):
        text = state.to_text()
        back = State.from_text(text)
        assert back.to_text() == text
        assert State.from_text(state.to_text(rng=True)) == state  # with the streams: the same game exactly
        assert text.count("\n") == 0 and len(text.split()) == len(FIELDS) + players
        seen_status.add(text.split()[3][:4])
    # the games went through every kind of status this wall has
    assert seen_status >= ({"play", "over", "tile"} if variant == "gray" else {"play", "over"})


def test_a_position_without_streams_plays_the_same_moves():
    state = State.new(players=2, seed=3)
    state.play(state.legal_moves[0])
    back = State.from_text(state.to_text())
    assert list(back.legal_moves) == list(state.legal_moves)
    assert back.to_dict()["rng"] == {"bag": 0, "policy": 0}


def test_the_board_text_ends_with_the_line():
    state = State.new(players=3, seed=9)
    assert str(state).splitlines()[-1] == f"Text  {state.to_text()}"


GOOD = State.new(players=2, seed=7).to_text()


def _with_field(index, value):
    fields = GOOD.split()
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize(("text", "message"), [
    ("", "field 'variant'"),
    (_with_field(0, "blue"), "field 'variant' must be one of"),
    (_with_field(1, "5"), "field 'players' must be 2, 3 or 4"),
    (" ".join(GOOD.split()[:-1]), "has 12 fields; 2 players need 13"),
    (_with_field(2, "1-100"), "field 'round'"),
    (_with_field(3, "tile9"), "field 'status'"),
    (_with_field(4, "x"), "field 'to_move'"),
    (_with_field(5, "-1"), "field 'start'"),
    (_with_field(6, "M"), "field 'marker'"),
    (_with_field(7, "BYRR,BBKK"), "field 'factories' must be 5 comma-separated factories"),
    (_with_field(7, "BYRR,BBKK,BYKW,YRWW,BRKX"), r"field 'factories\[4\]'"),
    (_with_field(8, "Q"), "field 'centre'"),
    (_with_field(9, "16,16,16,17"), "field 'bag'"),
    (_with_field(10, "0,0,0,0,x"), "field 'lid'"),
    (_with_field(11, "0:-/-/-/-/-"), "field 'board 0'"),
    (_with_field(11, "0:-/-/-/-:...../...../...../...../.....:-"), "field 'board 0 lines'"),
    (_with_field(11, "0:-/-/BY/-/-:...../...../...../...../.....:-"), "field 'board 0 line 3'"),
    (_with_field(12, "0:-/-/-/-/-:...../...../.....:-"), "field 'board 1 wall'"),
    (_with_field(12, "0:-/-/-/-/-:...../...../...../...../.....:X"), "field 'board 1 floor'"),
    (_with_field(12, "x:-/-/-/-/-:...../...../...../...../.....:-"), "field 'board 1 score'"),
    (GOOD + " rng=1", "field 'rng'"),
])
def test_a_malformed_line_is_one_value_error_naming_the_field(text, message):
    with pytest.raises(ValueError, match=message):
        State.from_text(text)


def test_a_well_formed_line_of_an_impossible_position_names_the_position_field():
    # 16 blues in the bag instead of 15: the line parses, the position's tile count does not add up
    with pytest.raises(ValueError, match="accounts for 21 B tiles"):
        State.from_text(_with_field(9, "16,17,16,16,16"))
    with pytest.raises(ValueError, match=r"lines\[0\] count"):
        State.from_text(_with_field(11, "0:BB/-/-/-/-:...../...../...../...../.....:-"))


def test_a_line_that_is_not_a_string_is_a_type_error():
    with pytest.raises(TypeError, match="position text must be a str, got dict"):
        position_from_text({})
