"""The learned evaluation: what a board between rounds is worth, fitted to games the core plays.

A board after the wall tiling is described by `FEATURES` (counts: wall rows, columns and colours
by how many tiles they hold, partly filled pattern lines, what those lines will score, adjacent
wall tiles, whether the seat starts the next round, and on the gray wall the rows and columns
that can never be completed). Its value is its score plus the dot product of those counts with
the weights of its wall side, player count and phase (rounds left by the clock of the fullest
wall row): an estimate of the player's final score. The ``"learned"`` policy searches the round
like ``"mcts"``, ends each rollout once every opponent has answered (the round closed where it stands; below
`policies.FULL_ROLLOUTS_FROM` iterations) and values
the boards after that wall tiling with it (the strongest opponent's value subtracted).
Those early ends leave tiles on the table unplayed; a second model, a network of `LEFTOVER_UNITS` rectified
units over counts of the table seen from each seat (`LEFTOVER_FEATURES`, one network per wall side
and player count), adds what they would have been worth to each seat, fitted to what the seats
of the search's own games went on to gain by the round's real end.
`azul_fast.training.pipeline` fits both; the package ships them in ``data/learned_weights.json``,
installed into the core when this module is imported.

A weights file carries the SHA-256 of its weights (``"checksum"``, `weights_checksum`), checked
when it is loaded: a weight changed by hand, or by a damaged copy, is refused rather than played
with. The checksum is of the weights as the file holds them, so it is no part of `fingerprint`
(which names the weights in use, however they were installed).

>>> weights = load_weights(WEIGHTS_FILE)
>>> weights.board.shape == WEIGHT_SHAPE, weights.leftover_hidden.shape == LEFTOVER_HIDDEN_SHAPE
(True, True)
>>> load_weights(WEIGHTS_FILE.with_name("missing.json"))
Traceback (most recent call last):
...
azul_fast.core.bots.learned.WeightsError: .../missing.json: cannot read the weights file (No such file or directory)
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from azul_fast.core.bots import _learned
from azul_fast.core.bots._learned import LEFTOVER_HIDDEN_SHAPE, LEFTOVER_OUTPUT_SHAPE, WEIGHT_SHAPE
from azul_fast.core.bots.weights_file import (
    DECIMALS,
    MAX_WEIGHT,
    arrays_checksum,
    check_given,
    read_arrays,
    read_document,
)
from azul_fast.core.errors import AzulFastError

__all__ = [
    "DECIMALS", "FEATURES", "FORMAT", "FORMAT_VERSION", "LEFTOVER_FEATURES", "LEFTOVER_HIDDEN_SHAPE",
    "LEFTOVER_OUTPUT_SHAPE", "LEFTOVER_UNITS", "MAX_WEIGHT", "SEARCH_VERSION",
    "WEIGHTS_FILE", "WEIGHT_SHAPE", "Weights", "WeightsError", "fingerprint", "install", "installed_weights",
    "load_weights", "weights_checksum", "weights_document",
]

#: The weights file that ships with the package.
WEIGHTS_FILE = Path(__file__).with_name("data") / "learned_weights.json"
#: What a weights file says it is, and the version of its layout (features and shape).
FORMAT = "azul_fast learned evaluation"
FORMAT_VERSION = 4
#: Hidden units of the leftover network (the core's LEFTOVER_UNITS).
LEFTOVER_UNITS = LEFTOVER_HIDDEN_SHAPE[-1]
#: The keys of a weights file's three arrays, in `Weights` order.
_ARRAYS = ("weights", "leftover_hidden", "leftover_output")
#: The learned search's version: bumped whenever it plays differently with the same weights (its
#: parameters in _search_named.pxi), so that a run folder never mixes games of two versions. How each
#: version changed the search: docs/history.md.
SEARCH_VERSION = 18
#: The features in the core's order (_learned.pyx): a weights file must list exactly these.
FEATURES = (
    ["bias"]
    + [f"rows_with_{t}" for t in range(1, 5)]
    + [f"columns_with_{t}" for t in range(1, 6)]
    + [f"colors_with_{t}" for t in range(1, 6)]
    + [f"line_{r + 1}_holds_{n}" for r in range(1, 5) for n in range(1, r + 1)]
    + ["line_points", "adjacent_pairs", "starts_next_round", "dead_rows", "dead_columns", "line_bonus"]
)
#: The leftover model's features in the core's order (_learned.pyx, leftover_features): the table
#: seen from one seat when a search ends the round early.
LEFTOVER_FEATURES = [
    "bias", "table_tiles_tens", "sources_with_tiles_fives", "moves_next", "marker_in_centre",
    "turns_to_wait_share", "fillable_line_points", "fillable_lines", "short_lines", "empty_lines",
    "unplaceable_tiles_fives", "floor_times_table_tens", "centre_tiles_tens", "fillable_empty_lines",
    "overflow_fives", "marker_and_moves_next", "fillable_lines_moves_next",
]


class Weights(NamedTuple):
    """The learned evaluation's weight arrays."""

    board: np.ndarray
    """`WEIGHT_SHAPE`: a board between rounds (its estimated final score)."""
    leftover_hidden: np.ndarray
    """`LEFTOVER_HIDDEN_SHAPE`: the hidden layer of the network that values the tiles left on the
    table when a search ends a round early (each leftover feature's weight in each unit)."""
    leftover_output: np.ndarray
    """`LEFTOVER_OUTPUT_SHAPE`: that network's output layer (each unit's weight, then the bias)."""


class WeightsError(AzulFastError, ValueError):
    """Weights that cannot be used: unreadable, of another format, version or shape, not finite, too
    large, or not matching their checksum."""


def weights_checksum(weights: Weights) -> str:
    """The SHA-256 of the three arrays' values (little-endian float64, in `Weights` order), as
    ``"sha256:<hex>"``: what a weights file records in ``"checksum"``.

    >>> import json
    >>> weights_checksum(load_weights(WEIGHTS_FILE)) == json.loads(WEIGHTS_FILE.read_text())["checksum"]
    True
    """
    return arrays_checksum(weights)


def weights_document(weights: Weights, training: dict[str, Any]) -> dict[str, Any]:
    """The JSON document of a weights file: format, version, features, shapes, weights (rounded to
    `DECIMALS`) and their checksum, how trained."""
    stored = Weights(*(np.round(np.asarray(values, dtype=float), DECIMALS) for values in weights))
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "features": FEATURES,
        "shape": list(WEIGHT_SHAPE),
        "axes": ["variant (colored, gray)", "players (2, 3, 4)", "rounds left (1..5)", "feature"],
        "leftover_features": LEFTOVER_FEATURES,
        "leftover_hidden_shape": list(LEFTOVER_HIDDEN_SHAPE),
        "leftover_hidden_axes": ["variant (colored, gray)", "players (2, 3, 4)", "leftover feature", "unit"],
        "leftover_output_shape": list(LEFTOVER_OUTPUT_SHAPE),
        "leftover_output_axes": ["variant (colored, gray)", "players (2, 3, 4)", "unit's weight, then the bias"],
        "training": training,
        "checksum": weights_checksum(stored),  # of the values as written: JSON gives every float back exactly
        "weights": stored.board.tolist(),
        "leftover_hidden": stored.leftover_hidden.tolist(),
        "leftover_output": stored.leftover_output.tolist(),
    }


def load_weights(path: str | os.PathLike[str]) -> Weights:
    """The weights of a weights file, validated: a `WeightsError` names the file and what is wrong, in one line."""
    path = Path(path)

    def fail(why: str) -> WeightsError:
        return WeightsError(f"{path}: {why}")

    doc = read_document(path, FORMAT, FORMAT_VERSION, fail)
    if doc.get("features") != FEATURES:
        raise fail("its features differ from this version's (FEATURES)")
    if doc.get("leftover_features") != LEFTOVER_FEATURES:
        raise fail("its leftover features differ from this version's (LEFTOVER_FEATURES)")
    return Weights(*read_arrays(doc, list(zip(_ARRAYS, (WEIGHT_SHAPE, LEFTOVER_HIDDEN_SHAPE, LEFTOVER_OUTPUT_SHAPE))),
                                fail))


def install(weights: str | os.PathLike[str] | Weights = WEIGHTS_FILE) -> None:
    """Make every later ``"learned"`` game use `weights`: a weights file (validated by `load_weights`,
    its checksum too) or a `Weights` (its values checked against `MAX_WEIGHT`). Not while games run:
    the search reads the weights without a lock."""
    if not isinstance(weights, (Weights, str, os.PathLike)):
        raise TypeError(f"weights must be a weights file's path or a learned.Weights(board, leftover_hidden, "
                        f"leftover_output), "
                        f"not {type(weights).__name__}")
    if not isinstance(weights, Weights):
        weights = load_weights(weights)
    else:
        check_given(_ARRAYS, weights, WeightsError)
    try:
        _learned.install_weights(*weights)  # the core checks shapes and finiteness before it copies
    except ValueError as error:
        raise WeightsError(str(error)) from None


def installed_weights() -> Weights | None:
    """Copies of the weights in use (None before any are installed)."""
    arrays = _learned.installed_weights()
    return None if arrays is None else Weights(*arrays)


def fingerprint() -> str:
    """What decides how ``"learned"`` plays here: the search's version and a digest of the weights in use.

    Every run in which it plays records this (``df.attrs["learned"]``), a run folder refuses to
    resume with another, and each part of a run checks it in the process that plays it (a Dask
    worker with other weights installed stops with a `WeightsError`).

    >>> fingerprint().startswith(f"learned/{SEARCH_VERSION} weights sha256:")
    True
    """
    weights = installed_weights()
    if weights is None:  # only before this module's own install() below has run
        raise WeightsError("no learned weights are installed yet")
    digest = hashlib.sha256(b"".join(array.tobytes() for array in weights)).hexdigest()[:16]
    return f"learned/{SEARCH_VERSION} weights sha256:{digest}"


install()
