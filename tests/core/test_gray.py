"""The gray wall (the rulebook's variant): free placement, decided by placement moves.

Hand-made positions check the rules (docs/engine-spec.md, section 10) in both engines; random
and greedy games check the native core against the reference engine move by move.
"""

from __future__ import annotations

import pickle

import pandas as pd
import pytest
from positions import make_position

import azul_fast
from azul_fast import IllegalMoveError, Move, Placement, State, parse_move
from azul_fast.core.rules import reference as ref
from azul_fast.runs.simulate import derive_game_seed


def _last_take(wall0, line0, floor0="", score0=20, center=(0, 1, 0, 0, 0), **board0):
    """A gray position where player 0 makes the round's last take from the centre (the marker is gone)."""
    return make_position(
        2,
        variant="gray",
        factories=[],
        center=center,
        center_has_marker=False,
        marker_holder=1,
        boards={0: {"wall": wall0, "lines": line0, "floor": floor0, "score": score0, **board0}, 1: {"floor": "M"}},
    )


EMPTY_LINES = [[None, 0]] * 5


def _both(position):
    return State.from_dict(position, reachable=False), ref.ReferenceState.from_dict(position)


def _play_both(core, mirror, move):
    core.play(move)
    mirror.play(move)
    assert core.to_dict() == mirror.to_dict()
    core.check_invariants()


# -- the rules -----------------------------------------------------------------------------------


def test_no_legal_column_sends_the_whole_line_to_the_floor_and_the_lid():
    # Line 2 holds two blue; its row's empty cells are in columns 4 and 5, which both hold blue.
    wall = ["...B.", "YRK..", "....B", ".....", "....."]
    lines = [[None, 0], ["B", 2], [None, 0], [None, 0], [None, 0]]
    core, mirror = _both(_last_take(wall, lines, floor0="YYYYYY"))
    assert core.legal_moves and "CY5" in [str(m) for m in core.legal_moves]
    _play_both(core, mirror, "CY5")  # the last take: the round ends
    assert core.tiling is None and core.round == 2
    d = core.to_dict()
    assert d["boards"][0]["wall"][1] == "YRK.."          # nothing placed in row 2
    assert d["boards"][0]["lines"][1] == [None, 0]       # the line emptied
    # The floor held 6 tiles: one blue took the last slot, the other went to the lid; then the
    # floor (-14) was emptied into the lid as well.
    assert d["boards"][0]["score"] == 20 - 14
    assert d["lid"][0] == 2 and d["lid"][1] == 6


def test_column_choice_changes_the_score():
    wall = ["R.K..", ".....", ".....", ".....", "....."]
    lines = [["Y", 1]] + EMPTY_LINES[1:]
    core, mirror = _both(_last_take(wall, lines, center=(0, 0, 0, 0, 1), floor0=""))
    _play_both(core, mirror, "CW5")  # the last take; tiling pauses on line 1 (yellow)
    assert core.tiling == (0, 0) and core.current_player == 0 and core.round == 1
    assert [str(m) for m in core.legal_moves] == ["@1.2", "@1.4", "@1.5"]
    assert [str(m) for m in mirror.legal_moves()] == ["@1.2", "@1.4", "@1.5"]
    gained = {}
    for placement in core.legal_moves:
        trial = core.copy()
        trial.play(placement)
        assert trial.tiling is None and trial.round == 2
        gained[placement.column] = trial.scores[0] - 20
    # Between R and K: a run of 3; beside K: 2; alone: 1.
    assert gained == {1: 3, 3: 2, 4: 1}
    assert core.copy().choose("greedy") == Placement(0, 1)


def test_a_single_legal_column_is_taken_without_asking():
    wall = ["RBK.W", ".....", ".....", ".....", "....."]
    lines = [["Y", 1]] + EMPTY_LINES[1:]
    core, mirror = _both(_last_take(wall, lines, center=(0, 0, 0, 0, 1)))
    _play_both(core, mirror, "CW5")
    assert core.tiling is None and core.to_dict()["boards"][0]["wall"][0] == "RBKYW"
    # A full row ends the game: 2 (row) + the run of 5 scored at once.
    assert core.is_game_over() and core.scores[0] == 20 + 5 + 2


def test_tiling_goes_seat_by_seat_top_to_bottom():
    wall = ["R.K..", ".....", ".....", ".....", "....."]
    position = _last_take(wall, [["Y", 1], ["B", 2]] + EMPTY_LINES[2:], center=(0, 0, 0, 0, 1))
    position["boards"][1]["lines"] = [["K", 1]] + EMPTY_LINES[1:]
    position["bag"] = [b - n for b, n in zip(position["bag"], (0, 0, 0, 1, 0))]
    core, mirror = _both(position)
    _play_both(core, mirror, "CW5")
    assert core.tiling == (0, 0)
    _play_both(core, mirror, "@1.4")
    assert core.tiling == (0, 1)          # line 2 of the same seat next
    _play_both(core, mirror, "@2.3")
    assert core.tiling == (1, 0) and core.current_player == 1
    _play_both(core, mirror, "@1.1")
    assert core.tiling is None and core.round == 2 and core.current_player == 1   # the marker holder starts


def test_a_line_cannot_take_a_colour_its_row_holds():
    core, mirror = _both(_last_take(["R....", ".....", ".....", ".....", "....."], EMPTY_LINES, center=(0, 0, 2, 0, 1)))
    with pytest.raises(IllegalMoveError, match="wall row 1 already has red"):
        core.play("CR1")
    with pytest.raises(IllegalMoveError, match="wall row 1 already has red"):
        mirror.play("CR1")
    assert Move.from_notation("CR2") in core.legal_moves


def test_illegal_placements_say_why():
    wall = ["R.K..", ".....", "....Y", ".....", "....."]
    lines = [["Y", 1]] + EMPTY_LINES[1:]
    core, mirror = _both(_last_take(wall, lines, center=(0, 0, 0, 0, 1)))
    with pytest.raises(IllegalMoveError, match="no wall placement is awaited"):
        core.play("@1.2")
    with pytest.raises(IllegalMoveError, match="no wall placement is awaited"):
        mirror.play("@1.2")
    _play_both(core, mirror, "CW5")
    assert [str(m) for m in core.legal_moves] == ["@1.2", "@1.4"]
    before = core.to_dict()
    for text, why in (("@1.1", "already has a tile in column 1"), ("@1.5", "column 5 already has yellow"),
                      ("@2.2", "waits for pattern line 1, not line 2")):
        for engine in (core, mirror):
            with pytest.raises(IllegalMoveError, match=why):
                engine.play(text)
        assert parse_move(text) not in core.legal_moves
    with pytest.raises(IllegalMoveError, match="waits for the column of pattern line 1"):
        core.play("1BF")
    assert core.to_dict() == before == mirror.to_dict()


def test_placements_are_refused_on_the_colored_wall():
    state = State.new(2, seed=3)
    with pytest.raises(IllegalMoveError, match="no wall placement"):
        state.play(Placement(0, 0))


# -- policies ------------------------------------------------------------------------------------


def _paused():
    wall = ["R.K..", ".....", ".....", ".....", "....."]
    core = State.from_dict(_last_take(wall, [["Y", 1]] + EMPTY_LINES[1:], center=(0, 0, 0, 0, 1)), reachable=False)
    core.play("CW5")
    return core


def test_random_placement_is_uniform_over_legal_columns():
    state = _paused()
    seen = {}
    d = state.to_dict()
    for k in range(300):
        d["rng"]["policy"] = derive_game_seed(5, k)
        move = State.from_dict(d, reachable=False).choose("random")
        seen[str(move)] = seen.get(str(move), 0) + 1
    assert set(seen) == {"@1.2", "@1.4", "@1.5"} and min(seen.values()) > 60


@pytest.mark.parametrize("policy", ["greedy", "heuristic", "mcts:50"])
def test_scoring_policies_place_where_it_scores_most(policy):
    state = _paused()
    before = state.to_dict()["rng"]["policy"]
    assert state.choose(policy) == Placement(0, 1)
    assert state.to_dict()["rng"]["policy"] != before  # one draw, as every decision


def _dead_cells(state, seat):
    """Empty cells no tile can ever fill: their column holds every colour their row lacks."""
    wall = state.wall_colors(seat)
    dead = 0
    for r in range(5):
        lacks = set(range(5)) - {int(c) for c in wall[r] if c is not None}
        for c in range(5):
            column = {int(wall[q][c]) for q in range(5) if wall[q][c] is not None}
            dead += wall[r][c] is None and lacks <= column
    return dead


def test_heuristic_placements_keep_rows_and_columns_completable():
    """Where heuristic and greedy place differently, heuristic leaves far fewer dead cells."""
    fewer = more = 0
    for seed in range(150):
        state = State.new(2, seed=seed, variant="gray")
        while not state.is_game_over():
            if state.tiling is not None:
                seat = state.tiling[0]
                mine, greedy = state.copy(), state.copy()
                mine.play(mine.copy().choose("heuristic"))
                greedy.play(greedy.copy().choose("greedy"))
                fewer += _dead_cells(mine, seat) < _dead_cells(greedy, seat)
                more += _dead_cells(mine, seat) > _dead_cells(greedy, seat)
            state.play(state.choose("heuristic"))
    assert fewer >= 20 and fewer > 5 * more, (fewer, more)


def test_search_policies_play_whole_gray_games():
    for policy in ("heuristic", "mcts:30"):
        record = azul_fast.play_game(2, [policy, "greedy"], seed=11, variant="gray", check_invariants=True)
        assert record.state.is_game_over() and record.variant == "gray"


# -- positions -----------------------------------------------------------------------------------


def test_gray_positions_round_trip_and_pickle():
    state = _paused()
    d = state.to_dict()
    assert d["variant"] == "gray" and d["tiling"] == {"player": 0, "line": 0}
    again = State.from_dict(d, reachable=False)
    assert again.to_dict() == d and pickle.loads(pickle.dumps(state)) == state
    assert ref.ReferenceState.from_dict(d).to_dict() == d
    assert again.wall_colors(0)[0][:3] == [azul_fast.Color.RED, None, azul_fast.Color.BLACK]


def test_positions_without_variant_load_as_colored():
    d = State.new(2, seed=4).to_dict()
    del d["variant"], d["tiling"]
    state = State.from_dict(d, reachable=False)
    assert state.variant == "colored" and state.tiling is None
    assert ref.ReferenceState.from_dict(d).variant == "colored"


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d["boards"][0].update(wall=["BB...", ".....", ".....", ".....", "....."]), "once a row"),
        (lambda d: d["boards"][0].update(wall=["B....", "B....", ".....", ".....", "....."]), "once a column"),
        (lambda d: d.update(variant="grey"), "variant"),
        (lambda d: d.update(tiling={"player": 0, "line": 3}), "tiling"),
        (lambda d: d.update(variant="colored"), "colored wall has"),
    ],
)
def test_bad_gray_positions_are_refused(edit, message):
    d = make_position(2, variant="gray", boards={0: {"wall": ["Y....", ".....", ".....", ".....", "....."]}})
    State.from_dict(d, reachable=False)
    edit(d)
    with pytest.raises(ValueError, match=message):
        State.from_dict(d, reachable=False)


def test_tiling_on_the_colored_wall_is_refused():
    d = State.new(2, seed=4).to_dict()
    d["tiling"] = {"player": 0, "line": 0}
    with pytest.raises(ValueError, match="tiling"):
        State.from_dict(d, reachable=False)


def test_notation_round_trips():
    for line in range(5):
        for column in range(5):
            placement = Placement(line, column)
            assert parse_move(str(placement)) == placement == eval(repr(placement))
            assert placement.code == 300 + column
    with pytest.raises(ValueError, match="wall placement"):
        Move.from_notation("@1.2")
    with pytest.raises(ValueError):
        Placement.from_notation("@0.1")


# -- the core against the reference, many games ---------------------------------------------------


def _compare_game(players, policy, seed, every_move):
    core = State.new(players, seed=seed, variant="gray")
    mirror = ref.ReferenceState.new(players=players, seed=seed, variant="gray")
    choose = ref.POLICIES[policy]
    placements = turn = 0
    while not core.is_game_over():
        move = core.choose(policy)
        assert move == choose(mirror), f"seed {seed}: policies diverge at turn {turn}"
        placements += isinstance(move, Placement)
        if every_move:
            assert [m.code for m in core.legal_moves] == [m.code for m in mirror.legal_moves()]
        core.play(move)
        mirror.play(move)
        if every_move:
            core.check_invariants()
            d = core.to_dict()
            assert d == mirror.to_dict(), f"seed {seed}: positions diverge at turn {turn}"
            assert State.from_dict(d, reachable=False).to_dict() == d
        turn += 1
    assert core.to_dict() == mirror.to_dict()
    assert core.winners == mirror.winners and core.scores == mirror.scores
    return placements


@pytest.mark.parametrize("block", range(4))
def test_core_matches_reference_on_2000_gray_games(block):
    placements = 0
    for i in range(block, 2000, 4):
        players = 2 + i % 3
        policy = ("random", "greedy")[i // 3 % 2]
        placements += _compare_game(players, policy, derive_game_seed(8008, i), every_move=i < 200)
    assert placements > 1000  # the decisions are really exercised


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))  # 10 tests of 1,000 games, each well under the timeout
def test_core_matches_reference_move_by_move_on_10000_gray_games(block):
    for i in range(block, 10_000, 10):
        _compare_game(2 + i % 3, ("random", "greedy")[i // 3 % 2], derive_game_seed(8009, i), every_move=True)


def test_simulate_gray_rows_equal_reference_games():
    df = azul_fast.simulate(40, players=3, policies=["greedy", "random", "greedy"], seed=5, workers=1,
                            variant="gray", check_invariants=True)
    assert df.attrs["variant"] == "gray"
    for row in df.itertuples():
        game = ref.play_game(players=3, policies=["greedy", "random", "greedy"], seed=int(row.seed), variant="gray")
        assert game["moves"][0] == row.opening and game["turns"] == row.turns
        assert list(game["scores"]) == [row.score_0, row.score_1, row.score_2]
        final = game["state"]
        assert [b.complete_colors() for b in final.boards] == [row.colors_0, row.colors_1, row.colors_2]


def test_invariants_hold_in_many_core_gray_games():
    for players in (2, 3, 4):
        for policy in ("random", "greedy"):
            df = azul_fast.simulate(3000, players, policy, seed=players, workers=1, variant="gray",
                                    check_invariants=True)
            assert not df.truncated.all()


def test_gray_differs_from_colored_on_the_same_deals():
    colored = azul_fast.simulate(500, 2, "greedy", seed=1, workers=1)
    gray = azul_fast.simulate(500, 2, "greedy", seed=1, workers=1, variant="gray")
    assert colored.attrs["variant"] == "colored"
    assert (colored.seed == gray.seed).all() and (colored.opening == gray.opening).all()  # same first deal
    assert (colored.turns != gray.turns).any()


# -- the command line and the report --------------------------------------------------------------


def test_cli_simulate_and_replay_the_gray_wall(tmp_path, capsys):
    from azul_fast import cli, load

    out = tmp_path / "gray.parquet"
    assert cli.main(["simulate", "--games", "200", "--policy", "greedy", "--seed", "3", "--variant", "gray",
                     "--workers", "1", "--out", str(out)]) == 0
    games = load(out)
    assert games.attrs["variant"] == "gray"
    seed = int(games.seed.iloc[0])
    capsys.readouterr()
    assert cli.main(["replay", "--seed", str(seed), "--policy", "greedy", "--variant", "gray"]) == 0
    text = capsys.readouterr().out
    assert "gray wall" in text and "plays @" in text and "wall tiling: the column of pattern line" in text
    assert f"scores ({games.score_0.iloc[0]}, {games.score_1.iloc[0]})" in text
    assert cli.main(["replay", "--seed", "1", "--variant", "grey"]) == 2


def test_report_compares_both_walls(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from azul_fast.report.build import build_report
    from azul_fast.report.settings import SETTINGS

    folder = build_report(tmp_path / "r", games=300, players=[2], rollouts=2, workers=1, variant="both",
                          setting="quick")
    table = pd.read_csv(folder / "variants.csv")
    # the 2-player games of the report's policy: --games, or more where the headline's precision needs them
    games = SETTINGS["quick"].top_games(2, 300)
    assert table.variant.tolist() == ["colored", "gray"] and (table.games == games).all()
    gray = azul_fast.load(folder / "games-2p-gray.parquet")
    assert table.first_player_win_rate.iloc[1] == gray.win_0.mean()
    pairs = pd.read_csv(folder / "variant_difference.csv")
    assert pairs.players.tolist() == [2] and (pairs.games == games).all()
    assert pairs.diff_pp_low.iloc[0] <= pairs.diff_pp.iloc[0] <= pairs.diff_pp_high.iloc[0]
    page = (folder / "index.html").read_text()
    assert "Colored and gray wall" in page and "--variant both" in page
    assert f"{pairs.diff_pp.iloc[0]:+.1f} pp" in page and (folder / "variant_difference.svg").exists()


# -- perft: every sequence of moves to the end of a round, placements included -------------------


def _round_end_perft(state, is_over, moves, round_of):
    """(leaves, placements) of the tree of all move sequences until the round (or game) ends."""
    leaves = placements = 0
    for move in moves(state):
        child = state.copy()
        child.play(move)
        placements += isinstance(move, Placement)
        if round_of(child) != round_of(state) or is_over(child):
            leaves += 1
        else:
            more, placed = _round_end_perft(child, is_over, moves, round_of)
            leaves, placements = leaves + more, placements + placed
    return leaves, placements


@pytest.mark.parametrize("game, leaves", [(0, 1080)])
def test_round_end_perft_counts_agree(game, leaves):
    state = State.new(2 + game % 3, seed=derive_game_seed(5, game), variant="gray")
    while not (state.round >= 2 and state.tiling is None and state.center.sum() + state.factories.sum() <= 5):
        state.play(state.choose("greedy"))
    core = _round_end_perft(state, State.is_game_over, lambda s: list(s.legal_moves), lambda s: s.round)
    mirror = _round_end_perft(ref.ReferenceState.from_dict(state.to_dict()), lambda s: s.game_over,
                              ref.ReferenceState.legal_moves, lambda s: s.round)
    assert core == mirror and core[0] == leaves and core[1] > 0
