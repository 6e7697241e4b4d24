"""Training the learned evaluation (azul_fast.core.bots.learned) from games the core plays.

The recipe, reproducible from one seed (``azul-fast train --seed 0 --out weights.json``):

1. Play `games` games for every wall side and player count with the search (``mcts:N`` in the
   first iteration, the training search with the weights just fitted in the next ones: the
   learned evaluation with full rollouts, `TRAINING_SEARCH`), recording at every round boundary
   each board's features and the points it went on to gain.
2. Fit, for every wall side, player count and phase (rounds left), the weights by ridge
   regression on the features of TD(lambda) targets (`lambda_returns`): a board's points in its
   round plus, half and half, the estimated gain of the seat's board at the next round boundary
   and that board's own target (so the points it went on to gain count half, the estimate a round
   later a quarter, ...), refitted until the weights settle; a phase with too few boards takes its
   neighbour's.
3. Repeat with the new weights for `iterations` iterations (policy iteration: each fit learns the
   values of the play of the previous one).
4. The leftover model: play `leftover_games` games of `LEFTOVER_POLICY` (its leftover weights at zero,
   so it ends its rollouts' rounds with the table's tiles unplayed and valued at nothing),
   recording before every take each seat's leftover features and what ending the round there
   misses (its learned value at the round's real end minus that with the round ended at once);
   fit a network of `LEFTOVER_UNITS` rectified units to them (azul_fast.training.small_network) for
   every wall side at `LEFTOVER_PLAYER_COUNTS`; then play `leftover_games` more with that network
   installed and fit the network again to those (`LEFTOVER_ITERATIONS` fits in all). Then write
   the weights file.

>>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
>>> np.round(ridge_fit(X, np.array([1.0, 3.0, 5.0, 7.0]), ridge=0.0), 6).tolist()
[1.0, 2.0]
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from azul_fast.core.bots.learned import (
    DECIMALS,
    LEFTOVER_HIDDEN_SHAPE,
    LEFTOVER_OUTPUT_SHAPE,
    LEFTOVER_UNITS,
    WEIGHT_SHAPE,
    Weights,
    install,
    installed_weights,
    weights_document,
)
from azul_fast.core.bots.policies import PolicySpec, parse_policy
from azul_fast.core.output import OVERWRITE_HINT, write_new
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.moves import PLAYER_COUNTS, VARIANTS
from azul_fast.core.rules.seeds import resolve_seed, spawn_seed
from azul_fast.core.rules.table import check_variant
from azul_fast.training._training import collect, collect_leftovers
from azul_fast.training.small_network import fit_network, network_values

__all__ = ["DEFAULT_BUDGET", "DEFAULT_GAMES", "DEFAULT_ITERATIONS", "DEFAULT_LEFTOVER_GAMES", "LEFTOVER_ITERATIONS",
           "LEFTOVER_PLAYER_COUNTS", "LEFTOVER_POLICY", "LEFTOVER_SEARCH", "TD_LAMBDA", "TD_SWEEPS", "TRAINING_SEARCH",
           "board_values", "collect_boards", "collect_leftover_turns", "fit_weights", "fit_weights_td",
           "lambda_returns", "ridge_fit", "train"]

#: Games per wall side and player count in each iteration.
DEFAULT_GAMES = 2000
#: Policy iterations (the first plays mcts, the later ones the learned search).
DEFAULT_ITERATIONS = 3
#: Search iterations per move of the games that make the training data.
DEFAULT_BUDGET = 100
#: Games of `LEFTOVER_POLICY` per wall side and player count that each fit of the leftover model learns from.
DEFAULT_LEFTOVER_GAMES = 4000
#: Player counts the leftover model is fitted for; at the others its weights stay zero (the table's
#: leftovers worth nothing): fitted at 3 and 4 players it played worse than none (docs/history.md).
LEFTOVER_PLAYER_COUNTS = (2,)
#: Fits of the leftover model: the first to games whose search has none (the table's leftovers worth
#: nothing), each later one to games whose search uses the network fitted before. Two, because the
#: second fit, to games of a search that values the leftovers, plays stronger than the first and a third
#: plays worse.
LEFTOVER_ITERATIONS = 2
#: What the training records call the search the leftover model's games are played with: rollouts cut short,
#: 16 moves kept at the root, 4 below, exploration 0.4 (no policy name of its own), a search apart from
#: ``learned``'s so that retuning ``learned`` leaves the shipped weights reproducible.
LEFTOVER_SEARCH = "leftover-training"  # a name of policies.TRAINING_SEARCHES
#: The policy whose games the leftover model is fitted to: that search at 110 iterations.
LEFTOVER_POLICY = f"{LEFTOVER_SEARCH}:110"
#: Ridge penalty (in squared points) that keeps rarely seen features near zero.
RIDGE = 10.0
#: Boards a phase needs before it gets weights of its own.
MIN_BOARDS = 200
#: Lambda of the TD(lambda) targets (`lambda_returns`): 1 fits the points each board went on to gain, 0 its
#: round's points plus the estimate a round later; half and half played stronger than either (the matches:
#: docs/history.md).
TD_LAMBDA = 0.5
#: Refits of the weights to the targets their previous fit gives (the weights settle in fewer).
TD_SWEEPS = 20
#: Games per task of the thread pool (fixed, so results do not depend on the number of workers).
CHUNK = 50
#: What the training records call the search of the later iterations: the learned evaluation with the
#: rollouts played to the round's end in mcts's tree (no policy name of its own). Weights fitted to games of
#: ``learned`` (short rollouts) play it worse.
TRAINING_SEARCH = "training"  # a name of policies.TRAINING_SEARCHES


def ridge_fit(X: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Least-squares weights of ``y ~ X`` with a ridge penalty on every weight but the first (the bias)."""
    penalty = np.full(X.shape[1], ridge)
    penalty[0] = 0.0
    return np.linalg.solve(X.T @ X + np.diag(penalty), X.T @ y)


def collect_boards(policy: str | PolicySpec, players: int, variant: str, games: int, seed: int,
                   workers: int | None = None, net: bool = False, first: int = 0,
                   played: Callable[[int], object] | None = None,
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play games `first` .. `first` + `games` - 1 of `policy` (a policy name, or ``"training:N"``:
    `TRAINING_SEARCH` with N iterations; parsed by `parse_policy` with ``training=True``) in every seat;
    return (features, phase, gain, game) of every board at every round boundary, by game, boundary and seat
    (see _training.collect; with `net`, the value network's inputs). `played(n)` is called as each n games
    end. Identical for any number of `workers`."""
    codes = np.full(players, parse_policy(policy, training=True).code, dtype=np.uint32)
    variant_index = check_variant(variant)
    starts = range(first, first + games, CHUNK)

    def play(start: int) -> tuple[np.ndarray, ...]:
        n = min(CHUNK, first + games - start)
        part = collect(seed, start, n, players, codes, variant_index, 100, net)
        if played is not None:
            played(n)
        return part

    with cf.ThreadPoolExecutor(max_workers=resolve_workers(workers)) as pool:
        parts = list(pool.map(play, starts))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(4))  # type: ignore[return-value]


def collect_leftover_turns(policy: str | PolicySpec, players: int, variant: str, games: int, seed: int,
                           workers: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Play `games` games of `policy` in every seat; return (leftover features, missed points) of
    every seat before every take (see _training.collect_leftovers). Identical for any number of `workers`."""
    codes = np.full(players, parse_policy(policy, training=True).code, dtype=np.uint32)
    variant_index = check_variant(variant)
    starts = range(0, games, CHUNK)
    with cf.ThreadPoolExecutor(max_workers=resolve_workers(workers)) as pool:
        parts = list(pool.map(lambda s: collect_leftovers(seed, s, min(CHUNK, games - s), players, codes,
                                                          variant_index, 100), starts))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def lambda_returns(gain: np.ndarray, game: np.ndarray, players: int, values: np.ndarray, lam: float) -> np.ndarray:
    """The targets of TD(lambda) for boards recorded as `collect_boards` orders them (by game, round
    boundary, seat): each board's points gained in its round plus, weighted ``1 - lam``, the
    estimated gain `values` of the seat's board at the next boundary and, weighted `lam`, that
    board's own target; a game's last boundary keeps the points it went on to gain.

    >>> gain = np.array([10.0, 4.0, 6.0, 1.0])   # one game of 2 seats, two boundaries
    >>> lambda_returns(gain, np.zeros(4, int), 2, np.array([0.0, 0.0, 5.0, 2.0]), 0.5).tolist()
    [9.5, 4.5, 6.0, 1.0]
    """
    _, first, count = np.unique(game, return_index=True, return_counts=True)
    game_number = np.repeat(np.arange(len(first)), count)    # each row's game, numbered in order
    boundary = (np.arange(len(gain)) - first[game_number]) // players
    steps_to_end = count[game_number] // players - 1 - boundary  # boundaries after this one in its game
    targets = gain.astype(np.float64)
    # A board's target needs the next boundary's: fill them from each game's last boundary backwards.
    for depth in range(1, int(steps_to_end.max(initial=0)) + 1):
        rows = np.flatnonzero(steps_to_end == depth)
        after = rows + players
        targets[rows] = gain[rows] - gain[after] + (1 - lam) * values[after] + lam * targets[after]
    return targets


def board_values(features: np.ndarray, phase: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each board's estimated gain to the game's end under `weights` (phases x features): its
    features times the weights of its phase."""
    values: np.ndarray = np.einsum("ij,ij->i", features, weights[phase - 1])
    return values


def fit_weights(features: np.ndarray, phase: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """Weights (phases x features) fitted phase by phase; a phase with fewer than MIN_BOARDS boards
    takes the weights of the nearest phase that has enough (all phases pooled if none has)."""
    n_phases, n_features = WEIGHT_SHAPE[2:]
    fitted: dict[int, np.ndarray] = {}
    for k in range(n_phases):
        rows = phase == k + 1
        if rows.sum() >= MIN_BOARDS:
            fitted[k] = ridge_fit(features[rows], gain[rows])
    if not fitted:
        pooled = ridge_fit(features, gain)
        return np.tile(pooled, (n_phases, 1))
    return np.array([fitted[min(fitted, key=lambda j: (abs(j - k), j))] for k in range(n_phases)])


def fit_weights_td(features: np.ndarray, phase: np.ndarray, gain: np.ndarray, game: np.ndarray, players: int,
                   lam: float = TD_LAMBDA, sweeps: int = TD_SWEEPS) -> np.ndarray:
    """Weights (phases x features) fitted to TD(`lam`) targets (`lambda_returns`): first to the
    points each board went on to gain (`fit_weights`), then `sweeps` times to the targets that the
    weights of the sweep before give."""
    weights = fit_weights(features, phase, gain)
    for _ in range(sweeps):
        values = board_values(features, phase, weights)
        weights = fit_weights(features, phase, lambda_returns(gain, game, players, values, lam))
    return weights


def train(
    games: int = DEFAULT_GAMES, seed: Any = 0, iterations: int = DEFAULT_ITERATIONS, budget: int = DEFAULT_BUDGET,
    workers: int | None = None, log: Callable[[str], None] = print, leftover_games: int = DEFAULT_LEFTOVER_GAMES,
) -> tuple[Weights, dict[str, Any]]:
    """Fit the learned evaluation (see the module docstring); return the weights and a record of
    how they were trained (for the weights file). The weights installed before are installed again
    at the end (the later iterations play with the new ones meanwhile)."""
    root = resolve_seed(seed)
    previous = installed_weights()
    weights = np.zeros(WEIGHT_SHAPE)
    hidden = np.zeros(LEFTOVER_HIDDEN_SHAPE)
    output = np.zeros(LEFTOVER_OUTPUT_SHAPE)
    history = []
    started = time.perf_counter()

    def record(stage: str, policy: str, variant: str, players: int, n_games: int, rows: int, rmse: float) -> None:
        history.append({"iteration": stage, "policy": policy, "variant": variant, "players": players,
                        "games": n_games, "boards": rows, "rmse_points": round(rmse, 3)})
        board = not stage.startswith("leftover")
        log(f"{'iteration ' + stage if board else stage.replace('leftover', 'leftover model')}: {variant} wall, "
            f"{players} players, {policy}: {rows:,} {'boards' if board else 'seat turns'}, rmse {rmse:.2f} "
            f"points ({time.perf_counter() - started:.0f} s)")

    try:
        for it in range(iterations):
            policy = f"mcts:{budget}" if it == 0 else f"{TRAINING_SEARCH}:{budget}"
            for v, variant in enumerate(VARIANTS):
                for players in PLAYER_COUNTS:
                    run_seed = spawn_seed(root, it, v, players)
                    X, phase, gain, game = collect_boards(policy, players, variant, games, run_seed, workers)
                    weights[v, players - 2] = fit_weights_td(X, phase, gain, game, players)
                    residual = gain - board_values(X, phase, weights[v, players - 2])
                    record(f"{it + 1}/{iterations}", policy, variant, players, games, len(gain),
                           float(np.sqrt(np.mean(residual**2))))
            install(Weights(weights, hidden, output))
        # The leftover model learns from games of the board weights as the file will hold them.
        weights = np.round(weights, DECIMALS)
        install(Weights(weights, hidden, output))
        for k in range(LEFTOVER_ITERATIONS):
            for v, variant in enumerate(VARIANTS):
                for players in LEFTOVER_PLAYER_COUNTS:
                    run_seed = spawn_seed(root, iterations + 2 * k, v, players)
                    X, missed = collect_leftover_turns(LEFTOVER_POLICY, players, variant, leftover_games, run_seed,
                                                       workers)
                    hidden[v, players - 2], output[v, players - 2] = fit_network(
                        X, missed, LEFTOVER_UNITS, seed=spawn_seed(root, iterations + 2 * k + 1, v, players))
                    residual = missed - network_values(hidden[v, players - 2], output[v, players - 2], X)
                    record(f"leftover {k + 1}/{LEFTOVER_ITERATIONS}", LEFTOVER_POLICY, variant, players,
                           leftover_games, len(missed), float(np.sqrt(np.mean(residual**2))))
            # The next fit learns from games of this network as the file will hold it.
            hidden, output = np.round(hidden, DECIMALS), np.round(output, DECIMALS)
            install(Weights(weights, hidden, output))
    finally:
        if previous is not None:
            install(previous)
    training = {"seed": str(root), "games_per_setting": games, "iterations": iterations, "budget": budget,
                "td_lambda": TD_LAMBDA, "td_sweeps": TD_SWEEPS,
                "leftover_games_per_setting": leftover_games,
                "seconds": round(time.perf_counter() - started, 1), "fits": history}
    return Weights(weights, hidden, output), training


def write_weights(weights: Weights, training: dict[str, Any], path: str | os.PathLike[str], *,
                  overwrite: bool = False, hint: str = OVERWRITE_HINT) -> None:
    """Write a new weights file atomically (`azul_fast.core.output.write_new`: a temporary file beside
    it, put in place only if nothing is at `path`, unless `overwrite`; FileExistsError naming `hint`)."""
    text = json.dumps(weights_document(weights, training), indent=1) + "\n"
    write_new(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), overwrite=overwrite, hint=hint)
