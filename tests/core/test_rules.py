"""The rulebook's worked examples and corner cases, played on the native core."""

from __future__ import annotations

import numpy as np
import pytest
from positions import make_position, wall_rows

from azul_fast import CENTER, FLOOR, MARKER, Color, IllegalMoveError, Move, State, end_bonus, floor_penalty, score_tile

B, Y, R, K, W = Color


def mask(*cells):
    out = 0
    for r, c in cells:
        out |= 1 << (r * 5 + c)
    return out


# -- scoring a wall tile (rulebook section 5) ------------------------------------------------

def test_a_lone_tile_scores_one():
    assert score_tile(0, 2, 2) == 1
    assert score_tile(mask((0, 0), (4, 4)), 2, 2) == 1


def test_a_tile_completing_a_horizontal_run_of_three_scores_three():
    assert score_tile(mask((1, 0), (1, 1)), 1, 2) == 3
    assert score_tile(mask((1, 0), (1, 2)), 1, 1) == 3


def test_a_tile_joining_a_vertical_run_of_three_scores_three():
    assert score_tile(mask((0, 3), (1, 3)), 2, 3) == 3


def test_horizontal_four_plus_vertical_three_scores_seven():
    wall = mask((2, 0), (2, 1), (2, 3), (0, 2), (1, 2))
    assert score_tile(wall, 2, 2) == 7


def test_score_tile_accepts_a_bool_array():
    wall = np.zeros((5, 5), dtype=bool)
    wall[1, 0] = wall[1, 1] = True
    assert score_tile(wall, 1, 2) == 3


@pytest.mark.parametrize(
    ("wall", "row", "col", "error"),
    [(mask((1, 1)), 1, 1, ValueError), (0, 5, 0, ValueError), (0, 0, -1, ValueError), (0, 1.0, 0, TypeError),
     (1 << 25, 0, 0, ValueError), (np.zeros((4, 5)), 0, 0, ValueError), ("x", 0, 0, ValueError)],
)
def test_score_tile_rejects_bad_input(wall, row, col, error):
    with pytest.raises(error):
        score_tile(wall, row, col)


# -- floor (section 6) -----------------------------------------------------------------------

def test_floor_penalty_table():
    assert [floor_penalty(n) for n in range(1, 8)] == [1, 2, 4, 6, 8, 11, 14]
    assert floor_penalty(0) == 0 and floor_penalty(12) == 14
    with pytest.raises(ValueError):
        floor_penalty(-1)
    with pytest.raises(TypeError):
        floor_penalty(2.0)


def test_four_tiles_and_the_marker_cost_eight():
    # Seat 0 takes 4 red from the centre (first to do so) to the floor: marker + 4 tiles = 5 slots.
    d = make_position(factories=[], center=[0, 0, 4, 0, 1], boards={0: {"score": 20}})
    state = State.from_dict(d, reachable=False)
    state.play("CRF")
    assert state.floor(0) == [MARKER, R, R, R, R]
    state.play("CWF")  # seat 1 ends the round
    assert state.scores[0] == 20 - 8
    assert state.scores[1] == 0  # one tile: 1 point, but a score never drops below 0
    assert state.current_player == 0  # the marker holder starts the next round


# -- bonuses (section 8) ---------------------------------------------------------------------

def test_end_bonus_one_row_two_columns_one_colour_is_26():
    row0 = mask(*[(0, c) for c in range(5)])
    columns = mask(*[(r, 2) for r in range(5)], *[(r, 3) for r in range(5)])
    blue = mask(*[(r, r) for r in range(5)])  # blue sits at column r of row r
    assert end_bonus(row0 | columns | blue) == 2 + 14 + 10


def test_end_bonus_counts_each_goal():
    assert end_bonus(0) == 0
    assert end_bonus((1 << 25) - 1) == 5 * 2 + 5 * 7 + 5 * 10
    assert end_bonus(mask(*[(r, 0) for r in range(5)])) == 7


# -- pattern lines (the seeds' second file) ---------------------------------------------------

def test_three_blue_into_the_two_tile_line_leave_one_on_the_floor():
    state = State.from_dict(make_position(factories=[[3, 1, 0, 0, 0]]), reachable=False)
    state.play(Move(0, B, 1))
    assert state.pattern_line(0, 1) == (B, 2)
    assert state.floor(0) == [B]
    assert state.center.tolist() == [0, 1, 0, 0, 0]


def test_a_line_cannot_take_a_colour_its_wall_row_already_has():
    d = make_position(factories=[[2, 2, 0, 0, 0]], boards={0: {"wall": wall_rows((1, 1))}})  # blue at row 1
    state = State.from_dict(d, reachable=False)
    before = state.to_dict()
    assert Move(0, B, 1) not in state.legal_moves
    with pytest.raises(IllegalMoveError, match="wall row 2 already has blue"):
        state.play(Move(0, B, 1))
    assert state.to_dict() == before
    state.play(Move(0, B, 2))  # another line is fine


def test_a_line_holding_another_colour_or_full_is_refused():
    lines = [["Y", 1], ["R", 1], [None, 0], [None, 0], [None, 0]]
    d = make_position(factories=[[2, 2, 0, 0, 0]], boards={0: {"lines": lines}})
    state = State.from_dict(d, reachable=False)
    with pytest.raises(IllegalMoveError, match="line 1 is full"):
        state.play("1Y1")
    with pytest.raises(IllegalMoveError, match="line 2 already holds another colour"):
        state.play("1B2")


def test_incomplete_lines_stay_and_complete_lines_tile():
    d = make_position(
        factories=[[1, 0, 0, 0, 0]],
        center=[0, 1, 0, 0, 0],
        boards={0: {"lines": [[None, 0], [None, 0], ["R", 2], [None, 0], ["K", 4]]}},
        center_has_marker=False, marker_holder=1,
    )
    state = State.from_dict(d, reachable=False)
    state.play("1B1")      # completes line 1 with blue
    state.play("CY2")      # seat 1 takes the last tile: the round ends
    assert state.wall(0)[0, 0]                       # blue sits at row 0, column 0
    assert state.pattern_line(0, 0) == (None, 0)
    assert state.pattern_line(0, 2) == (R, 2)        # incomplete lines stay
    assert state.pattern_line(0, 4) == (K, 4)
    assert state.scores[0] == 1
    assert state.round == 2
    assert state.current_player == 1                 # seat 1 held the marker


def test_nobody_taking_from_the_centre_keeps_the_starting_player():
    d = make_position(factories=[[4, 0, 0, 0, 0], [0, 4, 0, 0, 0]], current_player=1, start_player=1)
    state = State.from_dict(d, reachable=False)
    state.play("1BF")
    state.play("2Y4")
    assert state.round == 2 and state.current_player == 1 and state.center_has_marker


def test_the_marker_takes_the_leftmost_slot_before_overflow_tiles():
    state = State.from_dict(make_position(factories=[[1, 0, 0, 0, 0]], center=[0, 0, 3, 0, 0]), reachable=False)
    state.play(Move(CENTER, R, 0))  # 1 red fits, 2 overflow
    assert state.floor(0) == [MARKER, R, R]
    assert state.marker_holder == 0 and not state.center_has_marker


def test_on_a_full_floor_the_marker_takes_no_slot_and_costs_nothing_but_still_starts():
    full = "BBBYYYY"
    d = make_position(factories=[[0, 0, 0, 0, 1]], center=[0, 0, 2, 0, 0],
                      boards={0: {"floor": full, "score": 30}}, current_player=0)
    state = State.from_dict(d, reachable=False)
    state.play(Move(CENTER, R, FLOOR))
    assert state.floor(0) == list(map(Color, [0, 0, 0, 1, 1, 1, 1]))
    assert state.lid.tolist()[R] == 2              # both reds fell past a full floor
    state.play("1WF")
    assert state.scores[0] == 30 - 14
    assert state.current_player == 0


def test_tiles_past_a_full_floor_go_to_the_lid_and_floor_tiles_go_to_the_lid_after_scoring():
    d = make_position(factories=[[0, 0, 0, 4, 0]], center=[1, 0, 0, 0, 0], boards={0: {"floor": "YYYYY"}})
    state = State.from_dict(d, reachable=False)
    state.play("1KF")
    assert len(state.floor(0)) == 7 and state.lid[K] == 2
    state.play("CB1")
    assert state.floor(0) == [] and state.lid[Y] == 5 and state.lid[K] == 4


def test_refill_pours_the_lid_only_when_a_draw_finds_the_bag_empty():
    # The bag holds exactly 20 tiles = one full refill for 2 players: the lid must stay put.
    d = make_position(factories=[[0, 0, 0, 0, 1]])
    d["lid"] = [n - 4 for n in d["bag"]]
    d["bag"] = [4, 4, 4, 4, 4]
    state = State.from_dict(d, reachable=False)
    lid = state.lid.tolist()
    state.play("1WF")
    assert state.round == 2
    assert state.bag.sum() == 0
    lid[W] += 1  # the floor tile
    assert state.lid.tolist() == lid
    assert state.factories.sum(axis=0).tolist() == [4, 4, 4, 4, 4]


def test_refill_pours_the_lid_and_continues_when_the_bag_runs_out():
    d = make_position(factories=[[0, 0, 0, 0, 1]])
    bag = d["bag"]
    d["bag"] = [2, 0, 0, 0, 0]
    d["lid"] = [bag[0] - 2, bag[1], bag[2], bag[3], bag[4]]
    state = State.from_dict(d, reachable=False)
    state.play("1WF")
    assert state.factories.sum() == 20 and state.factories[0, 0] >= 0
    state.check_invariants()


def test_a_refill_with_no_tile_left_ends_the_game_truncated():
    # Four players hold every remaining tile in pattern lines; nothing is left to draw.
    boards = {seat: {"lines": [[None, 0], ["B", 1], ["Y", 2], ["R", 3], ["K", 4]]} for seat in range(4)}
    d = make_position(4, factories=[[0, 0, 0, 0, 1]], boards=boards)
    d["lid"], d["bag"] = [0] * 5, [0] * 5
    # Account for exactly 20 of each colour: move surplus onto walls of seats 1-3.
    state = _position_with_everything_placed(d)
    state.play("1W1")  # the white tile goes to a line (then the wall), not to the lid
    assert state.is_game_over() and state.truncated


def _position_with_everything_placed(d):
    """Fill walls until every colour totals 20 (a position where bag and lid are empty).

    Rows get at most 4 tiles (no row completes), seat 0's first row at most 3 (its white
    tile lands there).
    """
    from positions import _totals

    letters = "BYRKW"
    need = [20 - t for t in _totals(d)]
    walls = [[list(row) for row in board["wall"]] for board in d["boards"]]
    for color in sorted(range(5), key=lambda c: -need[c]):
        for seat, rows in enumerate(walls):
            for r in range(5):
                room = 3 if (seat, r) == (0, 0) else 4
                c = (r + color) % 5
                line = d["boards"][seat]["lines"][r]
                if need[color] and rows[r][c] == "." and line[0] != letters[color] and sum(
                        ch != "." for ch in rows[r]) < room and (seat, r, color) != (0, 0, W):
                    rows[r][c] = letters[color]
                    need[color] -= 1
    for board, rows in zip(d["boards"], walls):
        board["wall"] = ["".join(row) for row in rows]
    assert need == [0] * 5, need
    return State.from_dict(d, reachable=False)


def test_the_round_cap_truncates_without_bonuses():
    state = State.new(2, seed=3, max_rounds=1)
    while not state.is_game_over():
        state.play(state.choose("random"))
    assert state.truncated and state.round == 1
    assert state.winners  # winners still follow the tie-break on the scores as they stand


def test_ties_go_to_most_complete_rows_then_are_shared():
    row = wall_rows(*[(0, c) for c in range(5)])
    two_rows = wall_rows(*[(0, c) for c in range(5)], *[(1, c) for c in range(5)])
    d = make_position(3, factories=[[0, 0, 0, 0, 1]],
                      boards={0: {"score": 40, "wall": row}, 1: {"score": 40, "wall": two_rows}, 2: {"score": 10}})
    state = State.from_dict(d, reachable=False)
    state.play("1WF")
    # Seat 0: 40 + 2 (row); seat 1: 40 + 4 (two rows) ... floor costs seat 0 one point.
    assert state.is_game_over() and not state.truncated
    s = state.scores
    assert s[1] > s[0] and state.winners == (1,)


def test_equal_score_and_rows_share_the_victory():
    row = wall_rows(*[(0, c) for c in range(5)])
    d = make_position(2, factories=[[0, 0, 0, 0, 1]], center=[0, 0, 0, 0, 1],
                      boards={0: {"score": 40, "wall": row}, 1: {"score": 41, "wall": row}})
    state = State.from_dict(d, reachable=False)
    state.play("1WF")  # costs seat 0 one point
    state.play("CWF")  # costs seat 1 two (the marker and the tile)
    assert state.scores[0] == state.scores[1]
    assert state.winners == (0, 1)
