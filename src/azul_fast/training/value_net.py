"""Training the value network (azul_fast.core.bots.value_net) by expert iteration, resumably.

The recipe, reproducible from one seed (``azul-fast train --net --seed 0 --out value_net.json``):

1. Play `games` games of ``learned:BUDGET`` (the strongest search before any network) in every seat, for
   every setting (wall side and player count) of `settings`, recording at every round boundary each
   board's network inputs and the points it went on to gain (`pipeline.collect_boards` with ``net=True``).
2. Fit, for every setting, a network of `NET_UNITS` rectified units to those gains
   (azul_fast.training.small_network, Adam from a seed spawned from the root).
3. Install it and play `games` more of ``strong:BUDGET`` (the search with that network), fit again to
   the boards of every game played so far, and so on for `iterations` iterations: each network learns
   from the play of the ones before (expert iteration). The last one is written. Fitting to all the
   games rather than to the last iteration's alone pays: more boards, a stronger network.

Games are played and kept in parts of `PART_GAMES` in a work folder (``--work``): a stopped training
run started again with the same arguments takes the parts it finds and plays only the others. Its cost
is printed before it starts (the games' estimate of azul_fast.runs.plan), and a progress bar with the
time left runs while it plays.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from azul_fast.core.bots.value_net import (
    NET_HIDDEN_SHAPE,
    NET_OUTPUT_SHAPE,
    NET_UNITS,
    Net,
    fingerprint,
    install_net,
    installed_net,
    net_document,
)
from azul_fast.core.output import OVERWRITE_HINT, write_new
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.moves import VARIANTS
from azul_fast.core.rules.seeds import resolve_seed, spawn_seed
from azul_fast.core.rules.table import check_variant
from azul_fast.runs.plan import estimated_seconds_per_game
from azul_fast.runs.progress import progress_bar
from azul_fast.training.pipeline import collect_boards
from azul_fast.training.small_network import fit_network, network_values

__all__ = ["DEFAULT_BUDGET", "DEFAULT_GAMES", "DEFAULT_ITERATIONS", "DEFAULT_SETTINGS", "EPOCHS", "PART_GAMES",
           "estimated_seconds", "train_net", "write_net"]

#: Games per setting in each iteration.
DEFAULT_GAMES = 16000
#: Expert iterations: the first plays ``learned``, each later one ``strong`` with the network just fitted.
DEFAULT_ITERATIONS = 2
#: Search iterations per move of the training games.
DEFAULT_BUDGET = 900
#: The settings trained by default: 2 players on the colored wall. On the gray wall a network of these inputs
#: played no stronger than the linear model (docs/history.md: its wall cells say where tiles lie, not which
#: colour lies there, which the gray wall leaves free), so there, and at 3 and 4 players, ``strong`` plays
#: ``learned``'s games.
DEFAULT_SETTINGS: tuple[tuple[str, int], ...] = (("colored", 2),)
#: Passes of the fit over its boards.
EPOCHS = 20
#: Games a part of the work folder holds: a stopped run loses at most the parts it was playing.
PART_GAMES = 2000


def estimated_seconds(games: int, iterations: int, budget: int, settings: Sequence[tuple[str, int]],
                      workers: int) -> float:
    """Seconds the training's games should take on `workers` cores (the fits add about a minute)."""
    total = 0.0
    for _, players in settings:
        first = estimated_seconds_per_game([f"learned:{budget}"] * players, players)
        later = estimated_seconds_per_game([f"strong:{budget}"] * players, players)
        total += games * (first + (iterations - 1) * later)
    return total / workers


def train_net(games: int = DEFAULT_GAMES, seed: Any = 0, iterations: int = DEFAULT_ITERATIONS,
              budget: int = DEFAULT_BUDGET, settings: Sequence[tuple[str, int]] = DEFAULT_SETTINGS,
              workers: int | None = None, work: str | os.PathLike[str] | None = None,
              log: Callable[[str], None] = print, progress: bool | None = None) -> tuple[Net, dict[str, Any]]:
    """Fit the value network (see the module docstring); return it and a record of how it was trained.
    The network installed before is installed again at the end. `work`: the folder of the parts (None:
    nothing kept, nothing resumed)."""
    root = resolve_seed(seed)
    workers = resolve_workers(workers)
    settings = [(VARIANTS[check_variant(variant)], players) for variant, players in settings]
    folder = None if work is None else Path(work)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    previous = installed_net()
    hidden, output = np.zeros(NET_HIDDEN_SHAPE), np.zeros(NET_OUTPUT_SHAPE)
    history: list[dict[str, Any]] = []
    boards: dict[tuple[str, int], list[tuple[np.ndarray, np.ndarray]]] = {setting: [] for setting in settings}
    started = time.perf_counter()
    bar = progress_bar(games * iterations * len(settings), progress)
    say = log if bar is None else (lambda line: bar.write(line))  # type: ignore[attr-defined]
    try:
        for it in range(iterations):
            policy = f"learned:{budget}" if it == 0 else f"strong:{budget}"
            for variant, players in settings:
                v, p = VARIANTS.index(variant), players - 2
                key = spawn_seed(root, it, v, players)
                for first in range(0, games, PART_GAMES):
                    n = min(PART_GAMES, games - first)
                    boards[variant, players].append(_part(folder, policy, players, variant, n, key, first, workers,
                                                          bar))
                X, gain = (np.concatenate([part[k] for part in boards[variant, players]]) for k in range(2))
                hidden[v, p], output[v, p] = fit_network(X, gain, NET_UNITS, seed=spawn_seed(root, it, v, players, 1),
                                                         epochs=EPOCHS)
                rmse = float(np.sqrt(np.mean((gain - network_values(hidden[v, p], output[v, p], X)) ** 2)))
                history.append({"iteration": f"{it + 1}/{iterations}", "policy": policy, "variant": variant,
                                "players": players, "games": games * (it + 1), "boards": len(gain),
                                "rmse_points": round(rmse, 3)})
                say(f"iteration {it + 1}/{iterations}: {variant} wall, {players} players, {policy}: {len(gain):,} "
                    f"boards, rmse {rmse:.2f} points ({time.perf_counter() - started:.0f} s)")
            # The next iteration plays the network as the file will hold it.
            hidden, output = np.round(hidden, 6), np.round(output, 6)
            install_net(Net(hidden, output))
    finally:
        if bar is not None:
            bar.close()
        install_net(previous)
    training = {"seed": str(root), "games_per_setting": games, "iterations": iterations, "budget": budget,
                "settings": [f"{variant} {players}p" for variant, players in settings], "epochs": EPOCHS,
                "seconds": round(time.perf_counter() - started, 1), "fits": history}
    return Net(hidden, output), training


def _part(folder: Path | None, policy: str, players: int, variant: str, games: int, seed: int, first: int,
          workers: int, bar: Any) -> tuple[np.ndarray, np.ndarray]:
    """(inputs, gains) of games `first` .. `first` + `games` - 1 of `policy`: from the work folder's part
    when it holds this very part (same policy, network, setting, seed and games), else played (and kept)."""
    net = fingerprint() if policy.startswith("strong") else ""
    name = json.dumps([policy, net, variant, players, str(seed), first, games])
    path = None if folder is None else folder / f"part-{hashlib.sha256(name.encode()).hexdigest()[:20]}.npz"
    if path is not None and path.exists():
        with np.load(path) as stored:
            if str(stored["name"]) == name:
                if bar is not None:
                    bar.update(games)
                return stored["X"], stored["gain"]
    X, _, gain, _ = collect_boards(policy, players, variant, games, seed, workers, net=True, first=first,
                                   played=None if bar is None else bar.update)
    if path is not None:
        buffer = io.BytesIO()
        np.savez(buffer, X=X, gain=gain, name=np.array(name))
        write_new(path, lambda tmp: tmp.write_bytes(buffer.getvalue()), overwrite=True)
    return X, gain


def write_net(net: Net, training: dict[str, Any], path: str | os.PathLike[str], *, overwrite: bool = False,
              hint: str = OVERWRITE_HINT) -> None:
    """Write a new network file atomically (as `pipeline.write_weights` writes a weights file)."""
    text = json.dumps(net_document(net, training), indent=1) + "\n"
    write_new(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), overwrite=overwrite, hint=hint)
