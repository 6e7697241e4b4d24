"""The learned evaluation and the "learned" policy: legal, reproducible, blind to the bag order,
loaded only from valid weights files, trained reproducibly, and stronger than heuristic."""

import json

import numpy as np
import pytest
from matches import win_share

from azul_fast import State, available_policies, play_game, simulate
from azul_fast.core.bots import learned
from azul_fast.core.bots._policies import PolicyId
from azul_fast.core.bots.policies import FAST_BUDGET, LEARNED_BUDGET, native_policy_id, policy_budget
from azul_fast.runs.folders import run_to_folder
from azul_fast.runs.plan import plan_run
from azul_fast.training._training import collect, collect_leftovers

SMALL = "learned:30"
#: The shipped weights' fingerprint: every game of learned depends on it, so nothing here may change it.
SHIPPED_FINGERPRINT = "learned/18 weights sha256:a26fc7a9f392014b"


# -- names -----------------------------------------------------------------------------------


def test_learned_is_listed_and_takes_a_budget():
    assert "learned" in available_policies()
    assert policy_budget("learned") == LEARNED_BUDGET
    assert native_policy_id("learned:7") == 4 | 7 << 8
    with pytest.raises(ValueError, match="learned:N"):
        native_policy_id("learned:0")


def test_fast_is_listed_takes_a_budget_and_plays_the_learned_weights():
    assert "fast" in available_policies()
    assert policy_budget("fast") == FAST_BUDGET
    assert native_policy_id("fast:7") == PolicyId.POLICY_FAST | 7 << 8
    with pytest.raises(ValueError, match="fast:N"):
        native_policy_id("fast:0")
    assert plan_run(2, 2, ["fast", "greedy"], seed=1).learned == learned.fingerprint()
    # its own tree: the same budget of the learned search plays other games
    fast = simulate(4, 2, "fast:30", seed=8, workers=1)
    assert not fast.equals(simulate(4, 2, "learned:30", seed=8, workers=1).assign(policy_0="fast:30",
                                                                                  policy_1="fast:30"))


@pytest.mark.parametrize("variant", ["colored", "gray"])
def test_fast_is_the_same_whatever_the_workers(variant):
    df = simulate(6, 3, ["fast", "mcts:20", "fast"], seed=3, workers=2, variant=variant, seat_rotation=True)
    assert simulate(6, 3, ["fast", "mcts:20", "fast"], seed=3, workers=1, variant=variant,
                    seat_rotation=True).equals(df)
    row = df.iloc[4]
    seats = [row[f"policy_{p}"] for p in range(3)]
    record = play_game(3, seats, seed=int(row.seed), variant=variant)
    assert record.scores == tuple(row[f"score_{p}"] for p in range(3))


# -- rules, reproducibility, honesty ----------------------------------------------------------


@pytest.mark.parametrize("players, variant", [(2, "colored"), (3, "colored"), (4, "colored"), (2, "gray"), (3, "gray")])
def test_every_chosen_move_is_legal(players, variant):
    state = State.new(players, seed=40 + players, variant=variant)
    while not state.is_game_over():
        move = state.choose(SMALL)
        assert move in state.legal_moves
        state.play(move)
    state.check_invariants()
    assert state.winners


def test_same_seed_same_games_whatever_the_workers():
    df = simulate(6, 2, [SMALL, "heuristic"], seed=5, workers=2, seat_rotation=True)
    assert simulate(6, 2, [SMALL, "heuristic"], seed=5, workers=1, seat_rotation=True).equals(df)
    row = df.iloc[3]
    assert play_game(2, [row.policy_0, row.policy_1], seed=int(row.seed)).scores == (row.score_0, row.score_1)
    gray = simulate(4, 3, SMALL, seed=2, workers=2, variant="gray")
    assert simulate(4, 3, SMALL, seed=2, workers=1, variant="gray").equals(gray)


# The bag blindness of "learned" is tested beside mcts's (test_search.py).


# -- the features --------------------------------------------------------------------------


def tile_points(wall, r, col):
    """What a tile placed at (r, col) of the boolean `wall` scores (rulebook: runs through it)."""
    placed = wall.copy()
    placed[r, col] = True
    h = v = 1
    for dc in (-1, 1):
        c = col + dc
        while 0 <= c < 5 and placed[r, c]:
            h, c = h + 1, c + dc
    for dr in (-1, 1):
        rr = r + dr
        while 0 <= rr < 5 and placed[rr, col]:
            v, rr = v + 1, rr + dr
    return (h if h > 1 else 0) + (v if v > 1 else 0) or 1


def reference_features(state, seat):
    """The features of learned.FEATURES computed from the public State API (colored wall)."""
    wall = np.array(state.wall(seat), dtype=bool)
    x = dict.fromkeys(learned.FEATURES, 0.0)
    x["bias"] = 1
    for t in wall.sum(axis=1):
        if 1 <= t <= 4:
            x[f"rows_with_{t}"] += 1
    for t in wall.sum(axis=0):
        if t:
            x[f"columns_with_{t}"] += 1
    colors = [sum(wall[r, (r + c) % 5] for r in range(5)) for c in range(5)]
    for t in colors:
        if t:
            x[f"colors_with_{t}"] += 1
    for r in range(1, 5):
        color, n = state.pattern_line(seat, r)
        if n:
            x[f"line_{r + 1}_holds_{n}"] = 1
            col = (r + int(color)) % 5
            x["line_points"] += tile_points(wall, r, col) * n / (r + 1)
            # the end bonuses completing the line would bring: row 2, column 7, colour 10
            bonus = 2 * (wall[r].sum() == 4) + 7 * (wall[:, col].sum() == 4) + 10 * (colors[int(color)] == 4)
            x["line_bonus"] += bonus * n / (r + 1)
    x["adjacent_pairs"] = int((wall[:, :-1] & wall[:, 1:]).sum() + (wall[:-1, :] & wall[1:, :]).sum())
    x["starts_next_round"] = float(state.current_player == seat)
    return np.array([x[name] for name in learned.FEATURES])


def reference_leftover_features(state, seat):
    """The features of learned.LEFTOVER_FEATURES computed from the public State API (colored wall)."""
    wall = np.array(state.wall(seat), dtype=bool)
    table = np.vstack([np.asarray(state.factories), np.asarray(state.center)[None, :]])
    left = table.sum(axis=0)
    x = dict.fromkeys(learned.LEFTOVER_FEATURES, 0.0)
    x["bias"] = 1
    x["table_tiles_tens"] = left.sum() / 10
    x["sources_with_tiles_fives"] = (table.sum(axis=1) > 0).sum() / 5
    x["moves_next"] = float(state.current_player == seat)
    x["marker_in_centre"] = float(state.center_has_marker)
    x["turns_to_wait_share"] = (seat - state.current_player) % state.players / state.players
    accepts = [False] * 5
    for r in range(5):
        color, n = state.pattern_line(seat, r)
        if n == 0:
            x["empty_lines"] += 1
            x["fillable_empty_lines"] += any(left[c] >= r + 1 and not wall[r, (r + c) % 5] for c in range(5))
        elif n <= r:
            need = r + 1 - n
            if left[int(color)] >= need:
                x["fillable_line_points"] += tile_points(wall, r, (r + int(color)) % 5)
                x["fillable_lines"] += 1
                x["overflow_fives"] += min(max(k - need, 0) for k in table[:, int(color)] if k > 0) / 5
            else:
                x["short_lines"] += 1
        for c in range(5):
            if n <= r and (n == 0 or int(color) == c) and not wall[r, (r + c) % 5]:
                accepts[c] = True
    x["unplaceable_tiles_fives"] = sum(left[c] for c in range(5) if not accepts[c]) / 5
    x["floor_times_table_tens"] = len(state.floor(seat)) * left.sum() / 10
    x["centre_tiles_tens"] = table[-1].sum() / 10
    x["marker_and_moves_next"] = x["marker_in_centre"] * x["moves_next"]
    x["fillable_lines_moves_next"] = x["fillable_lines"] * x["moves_next"]
    return np.array([x[name] for name in learned.LEFTOVER_FEATURES])


@pytest.mark.parametrize("players", [2, 4])
def test_leftover_features_before_every_take_match_the_public_state(players):
    root = 50 + players
    X, missed, game = collect_leftovers(root, 0, 2, players, np.full(players, native_policy_id("greedy"), np.uint32),
                                        0, 100)
    from azul_fast.runs._simulate import derive_game_seed

    for g in range(2):
        seed = derive_game_seed(root, g)
        rows = np.flatnonzero(game == g)
        state = State.new(players, seed=seed)
        for turn, move in enumerate(play_game(players, "greedy", seed=seed).moves):
            for seat in range(players):
                assert np.allclose(X[rows[turn * players + seat]], reference_leftover_features(state, seat)), (g, turn)
            state.play(move)
        assert len(rows) == (turn + 1) * players
    # A round ended early loses what the table's tiles would have brought: on average the real end is worth more.
    assert missed.mean() > 0


def test_installing_a_bare_array_is_a_clear_error():
    """Before the leftover model, install() took the board array alone: now it names what it takes."""
    with pytest.raises(TypeError, match=r"a learned.Weights\(board, leftover_hidden, leftover_output\), not ndarray"):
        learned.install(np.zeros(learned.WEIGHT_SHAPE))
    assert learned.fingerprint().startswith(f"learned/{learned.SEARCH_VERSION} ")


def test_the_leftover_model_changes_how_learned_plays():
    shipped = learned.installed_weights()
    before = play_game(2, SMALL, seed=4).moves
    try:
        learned.install(shipped._replace(leftover_hidden=np.zeros(learned.LEFTOVER_HIDDEN_SHAPE),
                                         leftover_output=np.zeros(learned.LEFTOVER_OUTPUT_SHAPE)))
        assert play_game(2, SMALL, seed=4).moves != before
    finally:
        learned.install()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_at_every_round_boundary_match_the_public_state(players):
    seeds = [123 + players, 999]
    policy = native_policy_id("greedy")
    X, phase, gain, game = collect(seeds[0], 0, 3, players, np.full(players, policy, np.uint32), 0, 100)
    assert len(X) > 0 and set(np.unique(game)) == {0, 1, 2}
    from azul_fast.runs._simulate import derive_game_seed

    checked = 0
    for g in range(3):
        seed = derive_game_seed(seeds[0], g)
        record = play_game(players, "greedy", seed=seed)
        rows = np.flatnonzero(game == g)
        state = State.new(players, seed=seed)
        boundary = 0
        for move in record.moves:
            before = state.round
            state.play(move)
            if state.round != before and not state.is_game_over():
                for seat in range(players):
                    row = rows[boundary * players + seat]
                    assert np.allclose(X[row], reference_features(state, seat)), (g, boundary, seat)
                    assert gain[row] == record.scores[seat] - state.scores[seat]
                    checked += 1
                boundary += 1
        assert boundary * players == len(rows)
    assert checked >= 3 * players * 4


# -- weights files -------------------------------------------------------------------------


def write_doc(path, **changes):
    """The shipped file with `changes`, its checksum that of the changed weights (unless changed itself,
    or the weights are not numbers)."""
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    doc.update(changes)
    if "checksum" not in changes:
        try:
            doc["checksum"] = learned.weights_checksum(
                learned.Weights(*(np.array(doc[key], dtype=float) for key in ARRAYS)))
        except (TypeError, ValueError):
            pass
    path.write_text(json.dumps(doc))
    return path


ARRAYS = ("weights", "leftover_hidden", "leftover_output")


@pytest.mark.parametrize("changes, message", [
    ({"format": "something else"}, "not a weights file"),
    ({"version": 99}, "weights file format 99"),
    ({"features": ["bias"]}, "features differ"),
    ({"weights": [[1, 2], [3, 4]]}, r"shape \(2, 2\), expected \(2, 3, 5, 31\)"),
    ({"leftover_features": ["bias"]}, "leftover features differ"),
    ({"leftover_hidden": [[1, 2]]}, r"'leftover_hidden' have shape \(1, 2\), expected \(2, 3, 17, 4\)"),
    ({"leftover_output": [[[0.5, "2"]]]}, "'leftover_output' is not an array of numbers \\(it holds '2'\\)"),
    ({"leftover_output": [[1, 2]]}, r"'leftover_output' have shape \(1, 2\), expected \(2, 3, 5\)"),
    ({"weights": "zeros"}, "not an array of numbers|shape"),
    # numpy reads these as numbers, and Python's == took true and 1.0 for the integer 1
    ({"version": True}, "weights file format True"),
    ({"version": 4.0}, "weights file format 4.0"),
    ({"version": "4"}, "weights file format '4'"),
    ({"version": 1}, r"weights file format 1 .*; this azul_fast reads format 4"),  # no leftover model
    ({"version": 2}, r"weights file format 2 .*; this azul_fast reads format 4"),  # no line_bonus, 12 leftover features
    ({"version": 3}, r"weights file format 3 .*; this azul_fast reads format 4"),  # a linear leftover model
    ({"weights": [[[["1"]]]]}, "not an array of numbers \\(it holds '1'\\)"),
    ({"weights": [[[[0.5, True]]]]}, "not an array of numbers \\(it holds True\\)"),
    ({"weights": [[[[0.5, None]]]]}, "not an array of numbers \\(it holds None\\)"),
])
def test_a_bad_weights_file_is_a_clear_error(tmp_path, changes, message):
    path = write_doc(tmp_path / "w.json", **changes)
    with pytest.raises(learned.WeightsError, match=message) as error:
        learned.load_weights(path)
    assert str(path) in str(error.value)


def test_a_file_nested_too_deep_is_a_weights_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(learned.WeightsError, match="nested too deeply to be a weights file") as error:
        learned.install(path)
    assert len(str(error.value).splitlines()) == 1
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    path.write_text(json.dumps(doc)[:-1] + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(learned.WeightsError, match="nested too deeply"):
        learned.install(path)


@pytest.mark.parametrize("key", ARRAYS)
def test_weights_beyond_the_bound_are_refused_even_with_a_matching_checksum(tmp_path, key):
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    scaled = (np.array(doc[key]) * 1e300).tolist()
    with pytest.raises(learned.WeightsError, match=f"{key!r} hold a value of magnitude .*e\\+30., beyond the 1000"):
        learned.install(write_doc(tmp_path / "w.json", **{key: scaled}))
    arrays = [np.array(doc[name]) * (1e300 if name == key else 1) for name in ARRAYS]
    with pytest.raises(learned.WeightsError, match="beyond the 1000"):
        learned.install(learned.Weights(*arrays))
    assert learned.fingerprint() == SHIPPED_FINGERPRINT  # the shipped weights stay in use


def test_a_weight_changed_by_hand_or_a_missing_checksum_is_refused(tmp_path):
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    doc["weights"][0][0][0][1] += 0.5
    (tmp_path / "edited.json").write_text(json.dumps(doc))
    with pytest.raises(learned.WeightsError, match="do not match its 'checksum': the file was changed or damaged"):
        learned.install(tmp_path / "edited.json")
    del doc["checksum"]
    (tmp_path / "bare.json").write_text(json.dumps(doc))
    with pytest.raises(learned.WeightsError, match="has no 'checksum' of its weights"):
        learned.install(tmp_path / "bare.json")
    assert learned.fingerprint() == SHIPPED_FINGERPRINT


def test_the_shipped_file_carries_its_checksum_and_keeps_its_fingerprint():
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    assert doc["checksum"] == learned.weights_checksum(learned.load_weights(learned.WEIGHTS_FILE))
    assert learned.fingerprint() == SHIPPED_FINGERPRINT
    assert json.dumps(learned.weights_document(learned.installed_weights(), doc["training"]), indent=1) + "\n" == \
        learned.WEIGHTS_FILE.read_text()  # what `azul-fast train` writes, byte for byte


def test_an_integer_past_float64_is_a_weights_error(tmp_path):
    path = tmp_path / "big.json"
    text = json.dumps(json.loads(learned.WEIGHTS_FILE.read_text()))
    path.write_text(text.replace('"leftover_output": [[[', '"leftover_output": [[[' + "9" * 400 + ", ", 1))
    with pytest.raises(learned.WeightsError, match="'leftover_output' is not an array of numbers"):
        learned.load_weights(path)


def test_non_finite_unreadable_and_garbage_files_are_refused(tmp_path):
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    doc["weights"][1][2][3][4] = float("nan")
    (tmp_path / "nan.json").write_text(json.dumps(doc))  # json writes NaN, and reads it back
    with pytest.raises(learned.WeightsError, match="not finite"):
        learned.load_weights(tmp_path / "nan.json")
    (tmp_path / "garbage.json").write_bytes(b"\x00\xff{")
    with pytest.raises(learned.WeightsError, match="not a JSON document"):
        learned.load_weights(tmp_path / "garbage.json")
    with pytest.raises(learned.WeightsError, match="cannot read"):
        learned.load_weights(tmp_path)


def test_one_weight_given_as_a_string_is_refused(tmp_path):
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    doc["weights"][1][2][3][4] = str(doc["weights"][1][2][3][4])
    (tmp_path / "w.json").write_text(json.dumps(doc))
    with pytest.raises(learned.WeightsError, match="not an array of numbers"):
        learned.install(tmp_path / "w.json")
    assert learned.load_weights(learned.WEIGHTS_FILE).board.shape == learned.WEIGHT_SHAPE  # the shipped file passes


def test_installing_weights_changes_play_and_a_bad_file_keeps_the_old_ones(tmp_path):
    shipped = learned.installed_weights()
    assert all(map(np.array_equal, shipped, learned.load_weights(learned.WEIGHTS_FILE)))
    before = play_game(2, SMALL, seed=4).moves
    try:
        learned.install(write_doc(tmp_path / "zero.json", weights=np.zeros(learned.WEIGHT_SHAPE).tolist()))
        assert play_game(2, SMALL, seed=4).moves != before
        with pytest.raises(learned.WeightsError):
            learned.install(write_doc(tmp_path / "bad.json", version=0))
        assert np.array_equal(learned.installed_weights().board, np.zeros(learned.WEIGHT_SHAPE))
    finally:
        learned.install()
    assert play_game(2, SMALL, seed=4).moves == before


def test_runs_record_which_learned_plays_and_refuse_to_mix_two(tmp_path):
    """A run with learned records its fingerprint; another set of weights cannot add games to it."""
    assert "learned" not in simulate(2, 2, "greedy", seed=1).attrs
    assert simulate(2, 2, ["greedy", SMALL], seed=1).attrs["learned"] == learned.fingerprint()
    plan = plan_run(4, 2, SMALL, seed=3)
    run_to_folder(tmp_path / "run", 4, 2, SMALL, seed=3, chunk_size=2, workers=1)
    shipped = learned.fingerprint()
    try:
        learned.install(learned.Weights(np.zeros(learned.WEIGHT_SHAPE), np.zeros(learned.LEFTOVER_HIDDEN_SHAPE),
                                        np.zeros(learned.LEFTOVER_OUTPUT_SHAPE)))
        assert learned.fingerprint() != shipped
        with pytest.raises(learned.WeightsError, match="the run was planned with learned/"):
            plan.run(0, 1)  # what a Dask worker with other weights would do
        with pytest.raises(ValueError, match="differs in learned"):
            run_to_folder(tmp_path / "run", 4, 2, SMALL, seed=3, chunk_size=2, workers=1, resume=True)
    finally:
        learned.install()
    assert learned.fingerprint() == shipped
    assert plan.run(0, 1)["seed"].size == 1


@pytest.mark.parametrize("policy", ["learned:50", "fast"])
def test_learned_clearly_beats_heuristic(policy):
    df = simulate(60, 2, [policy, "heuristic"], seed=21, workers=2, seat_rotation=True)
    assert win_share(df, policy) > 0.75


def test_every_built_in_policy_has_a_cost_for_sizing_tasks():
    from azul_fast.core.bots.policies import LEARNED_STYLES
    from azul_fast.runs.plan import GAME_COSTS, estimated_seconds_per_game

    # learned and strong from FULL_ROLLOUTS_FROM iterations on play another search, with a cost of its own; the
    # other styles of the learned search cost what it costs
    assert set(GAME_COSTS) == set(available_policies()) - set(LEARNED_STYLES[1:]) | {"learned-full", "strong-full"}
    for style in LEARNED_STYLES:
        assert estimated_seconds_per_game([style] * 2, 2) == estimated_seconds_per_game(["learned"] * 2, 2)
        assert estimated_seconds_per_game([f"{style}:900"] * 2, 2) == estimated_seconds_per_game(["learned:900"] * 2, 2)
