"""One source for every constant that the core and Python share: the Python names are the core's,
and the reference engine's own copy (kept apart on purpose: it is the differential check) agrees."""

import pytest

from azul_fast.core._state import INVARIANT_TEXT
from azul_fast.core.bots import _policies, policies
from azul_fast.core.rules import _board, moves, reference


@pytest.mark.parametrize("name", ["MAX_FACTORIES", "CENTER", "FLOOR", "FLOOR_PENALTIES", "PLACE_CODE"])
def test_moves_constants_are_the_cores(name):
    assert getattr(moves, name) == getattr(_board, name)


def test_the_cores_constants_are_what_the_rules_say():
    assert (_board.CENTER, _board.FLOOR, _board.PLACE_CODE) == (9, 5, 300)
    assert _board.FLOOR_PENALTIES == (0, 1, 2, 4, 6, 8, 11, 14)
    assert _board.MOVE_CODES == _board.N_SOURCES * _board.N_COLORS * (_board.FLOOR + 1) == _board.PLACE_CODE


@pytest.mark.parametrize("name", ["CENTER", "FLOOR", "FLOOR_PENALTIES"])
def test_reference_keeps_its_own_equal_copy(name):
    assert getattr(reference, name) == getattr(_board, name)
    assert reference.FLOOR_SLOTS == _board.FLOOR_SLOTS


def test_printed_colours_agree_everywhere():
    for row in range(5):
        for color in range(5):
            column = _board.printed_column(row, color)
            assert moves.wall_column(row, color) == reference.wall_column(row, color) == column
            assert moves.printed_color(row, column) == _board.printed_color(row, column) == color
            assert reference.printed_color(row, column) == color


def test_printed_colour_is_the_inverse_of_the_printed_column():
    for row in range(5):
        assert [moves.wall_column(row, moves.printed_color(row, column)) for column in range(5)] == list(range(5))
        assert sorted(moves.printed_color(row, column) for column in range(5)) == list(moves.Color)


def test_policy_codes_are_built_from_the_cores_ids_and_shift():
    shift, ids = _policies.POLICY_BUDGET_SHIFT, _policies.PolicyId
    assert policies.native_policy_id("greedy") == ids.POLICY_GREEDY
    assert policies.native_policy_id("mcts:7") == ids.POLICY_MCTS | 7 << shift
    assert policies.native_policy_id("learned:3") == ids.POLICY_LEARNED | 3 << shift
    # every id has a name but the training searches' (training.py plays them by their codes)
    named = {policies.native_policy_id(name) & _policies.POLICY_ID_MASK for name in policies.available_policies()}
    assert named == set(range(ids.N_POLICIES)) - {ids.POLICY_TRAINING, ids.POLICY_LEFTOVER_TRAINING}
    assert len(named) == len(policies.available_policies())
    assert (policies.native_policy_id("mcts:255") >> shift) & _policies.POLICY_ID_MASK == 255


def test_every_invariant_bit_has_one_text():
    assert sorted(INVARIANT_TEXT) == sorted(int(bit) for bit in _board.Invariant)
    assert len(set(INVARIANT_TEXT.values())) == len(INVARIANT_TEXT)


def test_end_bonuses_and_player_counts_are_the_cores():
    assert moves.END_BONUS_POINTS == {"rows": _board.ROW_BONUS, "cols": _board.COLUMN_BONUS,
                                      "colors": _board.COLOR_BONUS} == {"rows": 2, "cols": 7, "colors": 10}
    assert (reference.ROW_BONUS, reference.COLUMN_BONUS, reference.COLOR_BONUS) == (2, 7, 10)
    assert moves.PLAYER_COUNTS == (2, 3, 4) and moves.MAX_PLAYERS == _board.MAX_PLAYERS


def test_wall_bits_are_row_major_as_the_kernels_read_them():
    from azul_fast.core.rules.kernels import score_tile

    row = sum(1 << moves.wall_bit(1, c) for c in range(3))  # row 1, columns 0..2
    assert score_tile(row, 1, 3) == 4  # the tile joins the row: a run of four
    assert {moves.wall_bit(r, c) for r in range(5) for c in range(5)} == set(range(moves.WALL_CELLS))


def test_every_policy_id_has_one_family_row_named_after_it():
    from azul_fast.core.bots.families import FAMILIES

    ids = [family.policy_id for family in FAMILIES]
    assert sorted(ids) == list(range(_policies.PolicyId.N_POLICIES))
    for family in FAMILIES:
        assert family.policy_id.name == "POLICY_" + family.name.upper().replace("-", "_")


def test_every_native_search_belongs_to_one_family_and_the_core_dispatches_as_the_table_says():
    from azul_fast.core.bots import _search
    from azul_fast.core.bots.families import FAMILIES

    searches = [search for family in FAMILIES for search in family.searches]
    assert sorted(searches) == list(range(_search.SearchId.N_SEARCHES))
    for family in FAMILIES:
        expected = (family.searches[0], family.searches[-1]) if family.searches else (-1, -1)
        assert _policies.family_searches(family.policy_id) == expected
        assert family.budget == (None if not family.named else policies.parse_policy(family.name).budget)


def test_a_search_plays_the_search_its_row_names_at_every_budget():
    from azul_fast.core.bots.families import FAMILY

    for name in policies.available_policies():
        family = FAMILY[name]
        for budget in (1, policies.FULL_ROLLOUTS_FROM - 1, policies.FULL_ROLLOUTS_FROM, policies.MAX_BUDGET):
            spec = policies.parse_policy(f"{name}:{budget}") if family.searches else policies.parse_policy(name)
            assert spec.search == family.search(budget)
            assert spec.full_rollouts == (spec.search is not None and spec.search == family.full_search)
    assert [policies.parse_policy(f"mcts:{b}").full_rollouts for b in (1, 500)] == [True, True]
    assert [policies.parse_policy(f"fast:{b}").full_rollouts for b in (1, 500)] == [False, False]
    assert [policies.parse_policy(f"learned-own:{b}").full_rollouts for b in (499, 500)] == [False, True]


def test_the_dispatch_installs_only_ids_and_searches_of_the_core():
    from azul_fast.core.bots import _search

    with pytest.raises(ValueError, match="a PolicyId and two SearchId codes expected"):
        _policies.install_family(_policies.PolicyId.N_POLICIES, 0, 0)
    with pytest.raises(ValueError, match="a PolicyId and two SearchId codes expected"):
        _policies.install_family(_policies.PolicyId.POLICY_MCTS, _search.SearchId.N_SEARCHES, 0)
    with pytest.raises(ValueError, match="a SearchId code expected"):
        _search.name_search(-1, "mcts")
