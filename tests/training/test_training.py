"""Training the learned evaluation: reproducible, from the searches it names, with TD targets that
bootstrap within a game and seat, and a weights file that says how it was trained."""

import hashlib
import json

import numpy as np
import pytest

from azul_fast import UnknownPolicyError, cli
from azul_fast.core.bots import learned
from azul_fast.training import pipeline as training
from azul_fast.training.small_network import network_values

SMALL = "learned:30"


# -- training ------------------------------------------------------------------------------


def test_training_is_reproducible_and_writes_a_valid_file(tmp_path):
    shipped = learned.installed_weights()
    first, record = training.train(games=6, seed=3, iterations=2, budget=5, workers=2, log=lambda line: None,
                                   leftover_games=4)
    again, _ = training.train(games=6, seed=3, iterations=2, budget=5, workers=1, log=lambda line: None,
                              leftover_games=4)
    assert all(map(np.array_equal, first, again))
    assert not any(np.array_equal(a, b) for a, b in zip(first, shipped))
    assert all(map(np.array_equal, learned.installed_weights(), shipped))
    # the leftover model: one fit a wall side and player count it is fitted for, zeros elsewhere
    leftover_fits = training.LEFTOVER_ITERATIONS * 2 * len(training.LEFTOVER_PLAYER_COUNTS)
    assert record["seed"] == "3" and len(record["fits"]) == 2 * 2 * 3 + leftover_fits
    unfitted = [players - 2 for players in (2, 3, 4) if players not in training.LEFTOVER_PLAYER_COUNTS]
    for layer in (first.leftover_hidden, first.leftover_output):
        assert not layer[:, unfitted].any() and all(layer[v, 0].any() for v in range(2))
    training.write_weights(first, record, tmp_path / "w.json")
    assert all(np.array_equal(a, np.round(b, 6)) for a, b in zip(learned.load_weights(tmp_path / "w.json"), first))
    assert [p.name for p in tmp_path.iterdir()] == ["w.json"]


def test_the_training_search_is_played_by_its_code_and_checks_its_budget():
    """Training games of the later iterations are the training search's (no policy name of its own)."""
    X, phase, gain, game = training.collect_boards("training:5", players=2, variant="colored", games=2, seed=1)
    assert len(gain) == len(phase) == len(X) == len(game) > 0 and set(game) == {0, 1}
    assert not np.array_equal(X, training.collect_boards("learned:5", players=2, variant="colored", games=2,
                                                         seed=1)[0])
    for bad in ("training:0", "training:x", "training:"):
        with pytest.raises(UnknownPolicyError, match="the training search takes a budget of 1 to"):
            training.collect_boards(bad, players=2, variant="colored", games=1, seed=1)
    with pytest.raises(UnknownPolicyError, match="write it training:5 "):  # one spelling, as for the named searches
        training.collect_boards("training:\uff15", players=2, variant="colored", games=1, seed=1)


def test_td_targets_bootstrap_from_the_next_round_boundary_of_the_same_game_and_seat():
    """lambda_returns: a board's target is its round's points plus the next boundary's value (lambda 0),
    that boundary's own target (lambda 1: the points gained to the end), or a mix; a game's last
    boundary keeps what it gained, and one game's values never reach another's boards."""
    X, phase, gain, game = training.collect_boards("greedy", players=3, variant="colored", games=6, seed=2)
    values = np.random.default_rng(0).normal(0, 10, len(gain))
    assert np.allclose(training.lambda_returns(gain, game, 3, values, 1.0), gain)
    td0 = training.lambda_returns(gain, game, 3, values, 0.0)
    last = np.r_[game[3:] != game[:-3], [True] * 3]
    assert last.sum() == 6 * 3 and np.array_equal(td0[last], gain[last])
    inner = np.flatnonzero(~last)
    assert np.allclose(td0[inner], gain[inner] - gain[inner + 3] + values[inner + 3])
    half = training.lambda_returns(gain, game, 3, values, 0.5)
    assert np.allclose(half[inner], gain[inner] - gain[inner + 3] + 0.5 * values[inner + 3] + 0.5 * half[inner + 3])
    # fitted to their own targets, the weights settle: one more sweep barely moves them
    X, phase, gain, game = training.collect_boards("greedy", players=2, variant="colored", games=300, seed=2)
    w = training.fit_weights_td(X, phase, gain, game, 2)
    again = training.fit_weights(X, phase, training.lambda_returns(
        gain, game, 2, training.board_values(X, phase, w), training.TD_LAMBDA))
    assert np.abs(again - w).max() < 1e-6 < np.abs(w - training.fit_weights(X, phase, gain)).max()


def test_the_leftover_model_trains_on_a_search_of_its_own():
    """The leftover model's training games are played by a search of their own (LEFTOVER_SEARCH: cut rollouts,
    16 root moves, 4 below, exploration 0.4), so that retuning learned leaves the shipped weights reproducible:
    its seat turns with the shipped weights are as recorded when they were trained, and not learned's."""
    def digest(policy):
        X, missed = training.collect_leftover_turns(policy, players=2, variant="colored", games=4, seed=1, workers=1)
        return hashlib.sha256(X.tobytes() + missed.tobytes()).hexdigest()[:16]

    assert training.LEFTOVER_POLICY == f"{training.LEFTOVER_SEARCH}:110"
    assert digest(f"{training.LEFTOVER_SEARCH}:30") == "2dbb245d8d23244e"
    assert digest("learned:30") != "2dbb245d8d23244e"
    with pytest.raises(ValueError, match="the leftover-training search takes a budget of 1 to"):
        training.collect_leftover_turns(f"{training.LEFTOVER_SEARCH}:0", players=2, variant="colored", games=1, seed=1)


def test_the_shipped_weights_say_how_they_were_trained():
    doc = json.loads(learned.WEIGHTS_FILE.read_text())
    # `azul-fast train --seed 0` with the defaults is what ships (the docs say so; the weights
    # themselves take five minutes to reproduce, which the suite does not do).
    keys = ("seed", "games_per_setting", "iterations", "budget", "td_lambda", "td_sweeps", "leftover_games_per_setting")
    record = {key: doc["training"][key] for key in keys}
    assert record == {"seed": "0", "games_per_setting": training.DEFAULT_GAMES,
                      "iterations": training.DEFAULT_ITERATIONS, "budget": training.DEFAULT_BUDGET,
                      "td_lambda": training.TD_LAMBDA, "td_sweeps": training.TD_SWEEPS,
                      "leftover_games_per_setting": training.DEFAULT_LEFTOVER_GAMES}
    # More tiles in a column are worth more at the end of the game (a complete one is worth 7).
    w = learned.installed_weights().board[0, 0, 0]
    assert w[learned.FEATURES.index("columns_with_5")] > w[learned.FEATURES.index("columns_with_1")]
    # A line the table can still fill is worth more than one it cannot (2 players, colored wall): on seat
    # turns of real games, the network values each turn more with one of its short lines made fillable.
    X, _ = training.collect_leftover_turns("greedy", players=2, variant="colored", games=20, seed=5, workers=1)
    column = {name: i for i, name in enumerate(learned.LEFTOVER_FEATURES)}
    X = X[X[:, column["short_lines"]] >= 1]
    fillable = X.copy()
    fillable[:, column["short_lines"]] -= 1
    fillable[:, column["fillable_lines"]] += 1
    fillable[:, column["fillable_lines_moves_next"]] += fillable[:, column["moves_next"]]
    hidden, output = (layer[0, 0] for layer in learned.installed_weights()[1:])
    values = [network_values(hidden, output, rows) for rows in (X, fillable)]
    assert len(X) > 50 and values[1].mean() > values[0].mean()


def test_the_train_command_writes_a_weights_file(tmp_path, capsys):
    out = tmp_path / "weights.json"
    args = ["train", "--games", "4", "--iterations", "1", "--budget", "3", "--leftover-games", "2", "--seed", "9",
            "--workers", "1"]
    assert cli.main([*args, "--out", str(out)]) == 0
    assert learned.load_weights(out).board.shape == learned.WEIGHT_SHAPE
    assert "wrote" in capsys.readouterr().out
    assert cli.main([*args, "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


# -- strength ------------------------------------------------------------------------------
