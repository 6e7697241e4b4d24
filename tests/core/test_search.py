"""The search policies (heuristic, mcts; learned too for the bag order): legal, reproducible, blind to
the bag order, strong."""

import functools
import hashlib
import os
import signal
import subprocess
import sys
import time

import pytest
from children import interruptible
from matches import win_share

from azul_fast import NotationError, State, UnknownPolicyError, available_policies, play_game, simulate
from azul_fast.core.bots import policies
from azul_fast.core.bots._search import FULL_ROLLOUTS_FROM, set_early_stop
from azul_fast.core.bots.policies import (
    DEFAULT_BUDGET,
    PolicySpec,
    native_policy_id,
    parse_policy,
    policy_budget,
    stop_searches,
)
from azul_fast.core.bots.solve import final_round, forced_win

SMALL = "mcts:40"  # a cheap budget for the tests that only need a search to run


# -- names -----------------------------------------------------------------------------------


def test_search_policies_are_listed_by_base_name():
    assert {"heuristic", "mcts"} <= set(available_policies())


@pytest.mark.parametrize("name, budget", [("mcts", DEFAULT_BUDGET), ("mcts:1", 1), ("mcts:250", 250), ("greedy", 0)])
def test_a_budget_follows_the_colon(name, budget):
    assert policy_budget(name) == budget
    assert native_policy_id(name) >> 8 == budget


@pytest.mark.parametrize("bad", ["mcts:", "mcts:0", "mcts:-5", "mcts:1e3", "mcts:x", "greedy:10", "MCTS",
                                 "mcts:2000000"])
def test_bad_names_and_budgets_list_the_valid_forms(bad):
    with pytest.raises(ValueError, match=r"valid policies: random, greedy, heuristic, mcts, mcts:N"):
        native_policy_id(bad)
    with pytest.raises(ValueError, match="mcts:N"):
        simulate(2, policies=bad)
    with pytest.raises(ValueError, match="mcts:N"):
        State.new(2, seed=1).choose(bad)


@pytest.mark.parametrize("bad, canonical", [("mcts:05", "mcts:5"), ("mcts:\u0663", "mcts:3"),
                                            ("learned:0075", "learned:75"), ("mcts:\uff11\uff10", "mcts:10")])
def test_a_budget_has_one_spelling_and_the_refusal_names_it(bad, canonical):
    """mcts:05 and mcts:<arabic-indic 3> used to be accepted as policies distinct from mcts:5 and mcts:3."""
    with pytest.raises(ValueError, match=f"write it {canonical} "):
        native_policy_id(bad)
    with pytest.raises(ValueError, match=f"write it {canonical} "):
        simulate(2, policies=bad)


def test_a_superscript_digit_is_an_unknown_policy_not_a_crash():
    with pytest.raises(ValueError, match="unknown policy 'mcts:\u00b2'"):  # isdigit, but int() refuses it
        native_policy_id("mcts:\u00b2")


@pytest.mark.parametrize("bad, meant", [("lerned:300", "'learned:300'"), ("MCTS", "'mcts'"), ("gredy", "'greedy'")])
def test_an_unknown_policy_is_a_typed_value_error_with_the_names_meant(bad, meant):
    for call in (lambda: simulate(2, policies=bad), lambda: State.new(2, seed=1).choose(bad),
                 lambda: play_game(2, [bad, "random"], seed=1)):
        with pytest.raises(UnknownPolicyError, match=f"unknown policy '{bad}'; did you mean {meant}[^?]*\\? \\(valid "):
            call()
    assert issubclass(UnknownPolicyError, ValueError)


def test_a_training_search_has_no_policy_name():
    with pytest.raises(UnknownPolicyError, match="unknown policy 'training:30'"):
        simulate(2, policies="training:30")
    assert parse_policy("training:30", training=True) == PolicySpec("training:30", "training", 30)


def test_a_policy_spec_is_its_name_frozen_and_pickled_whole():
    """A parsed policy goes wherever its name did (equal, hashed and written as the name) and keeps what
    the name means through a pickle (a Dask task, a worker process); it is never parsed again."""
    import pickle

    spec = parse_policy("learned:300")
    assert spec == "learned:300" and {"learned:300": 1}[spec] == 1 and f"{spec}" == "learned:300"
    assert type(spec.name) is str and parse_policy(spec) is spec
    again = pickle.loads(pickle.dumps(spec))
    assert (again, again.family, again.budget, again.code) == (spec, "learned", 300, spec.code)
    with pytest.raises(AttributeError, match="frozen"):
        spec.budget = 5


def test_a_policy_string_given_to_simulate_is_parsed_once(policy_parses):
    """The run plan parses a policy name once and carries the PolicySpec: to the seats' codes, the
    names in the results, whether learned plays, and the cost model that sizes the chunks."""
    calls = policy_parses
    df = simulate(4, players=3, policies="learned:3", seed=1, workers=2)
    assert calls == ["learned:3"]
    assert list(df.policy_0.unique()) == ["learned:3"] and "learned" in df.attrs
    calls.clear()
    simulate(2, players=2, policies=["learned:3", "greedy"], seed=1, workers=1)
    assert sorted(calls) == ["greedy", "learned:3"]


@pytest.mark.parametrize("text", ["0B1", "1B", "@6.1", "1X3"])
def test_bad_move_notation_is_a_typed_value_error(text):
    from azul_fast import parse_move

    with pytest.raises(NotationError, match="notation"):
        parse_move(text)
    with pytest.raises(NotationError):
        State.new(2, seed=1).play(text)
    assert issubclass(NotationError, ValueError)


def test_bad_position_text_is_a_typed_value_error():
    text = State.new(2, seed=1).to_text()
    with pytest.raises(NotationError, match="position text"):
        State.from_text(text.replace(" 1/100 ", " 1/x ", 1))


# -- rules and reproducibility ---------------------------------------------------------------


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_every_chosen_move_is_legal(players, seed):
    state = State.new(players, seed=seed)
    names = ["mcts:30", "heuristic", SMALL, "greedy"][:players]
    while not state.is_game_over():
        move = state.choose(names[state.current_player])
        assert move in state.legal_moves
        state.play(move)
        state.check_invariants()
    assert len(state.winners) >= 1


def test_same_seed_same_game_and_simulate_replays_play_game():
    first = play_game(2, [SMALL, "heuristic"], seed=99)
    assert play_game(2, [SMALL, "heuristic"], seed=99).moves == first.moves
    df = simulate(4, 2, [SMALL, "heuristic"], seed=5, workers=2, seat_rotation=True)
    assert simulate(4, 2, [SMALL, "heuristic"], seed=5, workers=1, seat_rotation=True).equals(df)
    row = df.iloc[2]
    again = play_game(2, [row.policy_0, row.policy_1], seed=int(row.seed))
    assert again.scores == (row.score_0, row.score_1)
    assert list(df.policy_0.unique()) == [SMALL, "heuristic"]


def test_the_choice_draws_from_the_policy_stream():
    state = State.new(2, seed=8)
    before = state.to_dict()["rng"]["policy"]
    state.choose(SMALL)
    assert state.to_dict()["rng"]["policy"] != before


def _positions(count):
    """Positions from real games: round starts and mid-round, 2 to 4 players."""
    found = []
    for seed in range(count):
        state = State.new(2 + seed % 3, seed=1000 + seed)
        for _ in range(3 + 7 * (seed % 4)):
            if state.is_game_over():
                break
            state.play(state.choose("greedy"))
        if not state.is_game_over():
            found.append(state.to_dict())
    return found


# Every search code of the core: mcts, learned and strong below and from FULL_ROLLOUTS_FROM (a tree of its own),
# fast, and the two searches of the training games.
@pytest.mark.parametrize(
    "policy", [SMALL, "learned:30", f"learned:{FULL_ROLLOUTS_FROM}", "strong:30", f"strong:{FULL_ROLLOUTS_FROM}",
               "fast", "training:30", "leftover-training:30"])
def test_the_hidden_bag_order_is_never_read(policy, monkeypatch):
    """Two positions identical but for the bag stream get the same move for the same policy seed."""
    if "training" in policy:  # the searches of the training games have codes but no names
        monkeypatch.setattr(policies, "parse_policy", functools.partial(parse_policy, training=True))
    differs = 0
    for position in _positions(12):
        moves = []
        for bag_state in (1, 2**63 + 12345, position["rng"]["bag"]):
            position["rng"]["bag"] = bag_state
            moves.append(str(State.from_dict(position).choose(policy)))
        assert len(set(moves)) == 1, moves
        position["rng"]["policy"] ^= 0xDEADBEEF  # the policy seed, by contrast, is read
        differs += str(State.from_dict(position).choose(policy)) != moves[0]
    assert differs > 0


# Player 0 to move can take the last blue tile (to its floor: its lines hold other colours and its
# wall's blue row is done) or finish its red line from the centre. The one-move heuristic sees only
# the red line; player 1's two blue lines each need that one blue tile.
SPOILING_POSITION = ("colored 2 1/100 play 0 0 1 BYYY,-,-,-,- RR 11,16,17,19,19 0,0,0,0,0 "
                     "0:-/Y/R/K/W:B..../...../...../...../.....:- 0:-/-/-/BBB/BBBB:...../...../...../...../.....:M")


def test_the_learned_searches_rank_a_take_that_spoils_an_opponents_lines_first():
    """At 2 players the learned searches' move order credits a take with the opponent's partly filled lines it
    leaves the table unable to complete (Params.deny_w); the heuristic policy's does not."""
    state = State.from_text(SPOILING_POSITION, reachable=False)  # walls set up in round 1
    assert str(state.choose("heuristic")) == "CR3"
    # One iteration plays the first move of the root's order.
    assert str(state.choose("learned:1")) == str(state.choose("fast:1")) == "1BF"


# The game ends with this round (player 1's full yellow line completes its fourth row). Player 1 to move
# wins outright by taking factory 1's red tile to its floor; the one-move heuristic finishes a white line
# from the centre instead (CW3), after which player 0 can always win.
WINNABLE_POSITION = ("colored 2 5/100 play 1 1 0 RKKK,-,-,-,- YYKKW 0,0,0,0,0 14,5,8,10,12 "
                     "1:B/RR/RRR/YYY/KK:.YRKW/WBY../.W.../...../.R...:BMRR "
                     "10:-/-/WW/YYYY/YY:.YRKW/.BYRK/...../...../...WB:B")


def test_the_learned_searches_play_a_proved_win_in_the_last_round():
    """In a round that ends the game, with few tiles left, the learned searches play a move
    that forced_win proves wins outright; the heuristic and fast (which does not ask) play the losing one."""
    state = State.from_text(WINNABLE_POSITION)
    assert final_round(state) and str(forced_win(state)) == "1RF"
    assert str(state.choose("heuristic")) == str(state.choose("fast:1")) == "CW3"
    # One iteration would play the first move of the root's order, as fast:1 does.
    assert str(state.choose("learned:1")) == str(state.choose(f"learned:{FULL_ROLLOUTS_FROM}")) == "1RF"


def _narrow_positions(count, most_moves):
    """Positions of 3 and 4 players late in a round, with at most `most_moves` legal moves."""
    found = []
    for seed in range(count):
        state = State.new(3 + seed % 2, seed=2000 + seed)
        while not state.is_game_over() and len(state.legal_moves) > most_moves:
            state.play(state.choose("greedy"))
        if not state.is_game_over():
            found.append(state)
    return found


def test_learned_plays_full_rollouts_from_its_threshold_in_a_wider_tree_than_the_training_search(monkeypatch):
    """From FULL_ROLLOUTS_FROM iterations on learned:N plays full rollouts as the training search does, keeping
    16 root moves where that keeps 12 and, at 2 players, 12 replies where that keeps 8. So
    at 3 or 4 players in positions of at most 12 legal moves the two trees are one and the moves the same; at
    2 players some differ; and below the threshold learned plays its one-move search (other moves)."""
    narrow = _narrow_positions(12, most_moves=12)
    everywhere = [State.from_dict(p) for p in _positions(30)]
    two_players = [s for s in everywhere if s.players == 2]
    below, at = FULL_ROLLOUTS_FROM - 1, FULL_ROLLOUTS_FROM

    def moves(positions, policy):
        return [str(s.copy().choose(policy)) for s in positions]

    learned = {"narrow": moves(narrow, f"learned:{at}"), "two": moves(two_players, f"learned:{at}"),
               "below": moves(everywhere, f"learned:{below}")}
    monkeypatch.setattr(policies, "parse_policy", functools.partial(parse_policy, training=True))
    assert len(narrow) == 12
    assert moves(narrow, f"training:{at}") == learned["narrow"]
    assert moves(two_players, f"training:{at}") != learned["two"]
    assert moves(everywhere, f"training:{below}") != learned["below"]


# -- stopping -------------------------------------------------------------------------------


def test_a_stop_request_stops_a_search_and_later_searches_play_as_before():
    expected = State.new(2, seed=3).choose("mcts:200")
    games = simulate(6, policies="mcts:20", seed=4, workers=2)
    stop_searches()
    try:
        with pytest.raises(KeyboardInterrupt, match="search stopped"):
            State.new(2, seed=3).choose("mcts:1000000")
        with pytest.raises(KeyboardInterrupt):
            simulate(6, policies="mcts:20", seed=4, workers=2)
        assert State.new(2, seed=3).choose("greedy") is not None  # only searches are stopped
    finally:
        stop_searches(False)
    assert State.new(2, seed=3).choose("mcts:200") == expected
    assert simulate(6, policies="mcts:20", seed=4, workers=2).equals(games)


# The largest budget: one move of it takes about a minute, so only a search that notices the
# interrupt between its iterations can stop within seconds (a run used to wait 62 s for its game).
_HUGE_RUNS = {
    "simulate": "from azul_fast import simulate as run; run(4, policies='mcts:1000000', seed=1, workers=2)",
    "simulate_moves": "from azul_fast import simulate_moves as run; "
                      "run(4, policies='learned:1000000', seed=1, workers=2)",
    "run_to_folder": "from azul_fast.runs.folders import run_to_folder as run; "
                     "run(sys.argv[1], 4, policies='mcts:1000000', seed=1, workers=2)",
}


@pytest.mark.parametrize("run, sig", [("simulate", signal.SIGINT), ("simulate_moves", signal.SIGINT),
                                      ("run_to_folder", signal.SIGINT), ("run_to_folder", signal.SIGTERM)],
                         ids=lambda v: getattr(v, "name", v))
def test_an_interrupt_stops_the_largest_search_within_seconds(tmp_path, run, sig):
    code = f"import sys; print('started', flush=True); {_HUGE_RUNS[run]}"
    folder = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    assert child.stdout.readline() == "started\n"
    deadline = time.monotonic() + 60  # the imports, then well into the first moves' searches: CPU time, as a
    while time.monotonic() < deadline and child.poll() is None:  # shared machine's wall clock says little
        with open(f"/proc/{child.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= 3:
            break
        time.sleep(0.1)
    assert child.poll() is None, child.stderr.read()
    sent = time.monotonic()
    child.send_signal(sig)
    child.wait(timeout=120)
    assert time.monotonic() - sent < 5, "an interrupt should stop the run within seconds"
    assert "KeyboardInterrupt" in child.stderr.read()
    if run == "run_to_folder":  # no part of a game cut short
        assert not list(folder.glob("part-*"))


@pytest.fixture
def full_budget():
    """Searches run their whole budget instead of stopping once their move is decided."""
    set_early_stop(False)
    try:
        yield
    finally:
        set_early_stop(True)


def _search_games(players, variant):
    # Every search with the exact stop: mcts, fast and, at 3 and 4 players, learned from FULL_ROLLOUTS_FROM on
    # (learned below it, and at 2 players from it too, stops once a rival could not catch up with half the
    # iterations left: Params.stop_share).
    lineup = ["mcts:60", "fast:40", "mcts:25", f"learned:{FULL_ROLLOUTS_FROM}"][:players]
    df = simulate(4, players, lineup, seed=31, workers=1, variant=variant, seat_rotation=True)
    moves = [play_game(players, lineup, seed=seed, variant=variant).moves for seed in (1, 2)]
    return df, moves


@pytest.mark.parametrize("players, variant", [(2, "colored"), (3, "gray"), (4, "colored"), (2, "gray")])
def test_the_early_stop_plays_the_moves_of_the_whole_budget(players, variant, request):
    """A search that stops once no other root move can overtake the leader (the exact stop) plays every move of
    the full budget."""
    early_df, early_moves = _search_games(players, variant)
    request.getfixturevalue("full_budget")
    full_df, full_moves = _search_games(players, variant)
    assert early_df.equals(full_df)
    assert early_moves == full_moves


#: Digests of fixed search runs. mcts must keep them for ever; learned and fast move with the shipped weights and
#: their parameters: a deliberate change records new digests here and says so in its commit and in the changelog
#: (the digests' history: docs/history.md). Speed work changes none of them.
RECORDED_GAMES = {"mcts:40": "6f1bd13f0491e952", "learned:30": "9b745974b3a97dba", "learned:200": "5eb7fa0dd0d22e70",
                  "learned:500": "cb07cd88136ca363", "fast": "1c87050210b678e9"}


def games_digest(policy, player_counts):
    """The first 16 hex digits of a digest of 12 games a player count and wall (turns, scores, walls)."""
    digest = hashlib.sha256()
    for variant in ("colored", "gray"):
        for players in player_counts:
            df = simulate(12, players=players, policies=policy, seed=2027, variant=variant, workers=1, progress=False)
            played = df[[c for c in df if c == "turns" or c.startswith(("score_", "wall_"))]]
            digest.update(played.to_numpy().astype("int64").tobytes())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("policy", sorted(RECORDED_GAMES))
def test_searches_play_the_recorded_games(policy):
    """Speed work changes no game: 12 games a player count and wall play as recorded."""
    assert games_digest(policy, (2, 3, 4)) == RECORDED_GAMES[policy]


def test_the_full_rollout_searchs_two_player_settings_leave_three_and_four_players_alone():
    """The full-rollout search blends a leaf's rollout with the leaf's own value (the leftover model has weights
    at 2 players only), stops with the relaxed stop and explores less at 2 players only: its games at 3 and 4
    players keep the digest recorded before those settings."""
    assert games_digest("learned:500", (3, 4)) == "88024f90658b0753"


# -- strength --------------------------------------------------------------------------------


def test_heuristic_beats_greedy():
    df = simulate(1000, 2, ["heuristic", "greedy"], seed=11, workers=2, seat_rotation=True)
    assert win_share(df, "heuristic") > 0.55


def test_default_search_beats_greedy_clearly():
    df = simulate(50, 2, ["mcts", "greedy"], seed=12, workers=2, seat_rotation=True)
    assert len(df) == 100
    assert win_share(df, "mcts") > 0.6
