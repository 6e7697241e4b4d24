"""The value network: the evaluation of the ``"strong"`` searches, fitted to the strongest search's games.

``"strong"`` is ``"learned"``'s search (the same trees, rollouts, stop and proof) with one change: a
board at a round's end is valued by a network rather than by the linear model of counts. The network
(`NET_UNITS` rectified units, one network per wall side and player count) reads the learned
evaluation's counts (`learned.FEATURES`), the phase (one input per rounds left), the wall's 25 cells and
each partly filled pattern line's colour and fill (`INPUTS`), and estimates the points the board will
still gain: a linear model values each count alone, where the worth of a tile depends on where it lies.
`azul_fast.training.value_net` fits it; the package ships it in ``data/value_net.json``, installed into
the core when this module is imported. A wall side and player count whose network is all zeros has
none: ``"strong"`` then plays ``"learned"``'s games there (`trained_settings`).

A network file is checked as a weights file is (`azul_fast.core.bots.weights_file`): its format,
version, inputs and shapes, every value finite and at most `MAX_WEIGHT`, and its ``"checksum"``.

>>> net = load_net(NET_FILE)
>>> net.hidden.shape == NET_HIDDEN_SHAPE, net.output.shape == NET_OUTPUT_SHAPE
(True, True)
>>> fingerprint().startswith(f"value/{NET_VERSION} net sha256:")
True
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from azul_fast.core.bots import _learned
from azul_fast.core.bots._learned import NET_HIDDEN_SHAPE, NET_OUTPUT_SHAPE
from azul_fast.core.bots.learned import FEATURES, WeightsError
from azul_fast.core.bots.weights_file import (
    DECIMALS,
    arrays_checksum,
    check_given,
    read_arrays,
    read_document,
)
from azul_fast.core.rules.moves import COLOR_LETTERS, PLAYER_COUNTS, VARIANTS

__all__ = ["INPUTS", "NET_FILE", "NET_FORMAT", "NET_HIDDEN_SHAPE", "NET_OUTPUT_SHAPE", "NET_UNITS", "NET_VERSION",
           "Net", "fingerprint", "install_net", "installed_net", "load_net", "net_document", "trained_settings"]

#: The network file that ships with the package.
NET_FILE = Path(__file__).with_name("data") / "value_net.json"
#: What a network file says it is, and the version of its layout (inputs and shapes).
NET_FORMAT = "azul_fast value network"
NET_VERSION = 1
#: Hidden units of every network (the core's NET_UNITS).
NET_UNITS = NET_HIDDEN_SHAPE[-1]
#: The network's inputs in the core's order (_learned_net.pxi, net_features).
INPUTS = (
    list(FEATURES)
    + [f"rounds_left_{k}" for k in range(1, 6)]
    + [f"wall_row_{r + 1}_column_{c + 1}" for r in range(5) for c in range(5)]
    + [f"line_{r + 1}_{color}_fill" for r in range(5) for color in COLOR_LETTERS]
)
_ARRAYS = ("hidden", "output")


class Net(NamedTuple):
    """The value network's layers."""

    hidden: np.ndarray
    """`NET_HIDDEN_SHAPE`: each input's weight in each unit (input 0 is the bias, always 1)."""
    output: np.ndarray
    """`NET_OUTPUT_SHAPE`: each unit's weight, then the bias."""


def net_document(net: Net, training: dict[str, Any]) -> dict[str, Any]:
    """The JSON document of a network file: format, version, inputs, shapes, layers (rounded to
    `DECIMALS`) and their checksum, how trained."""
    stored = Net(*(np.round(np.asarray(values, dtype=float), DECIMALS) for values in net))
    return {
        "format": NET_FORMAT,
        "version": NET_VERSION,
        "inputs": INPUTS,
        "hidden_shape": list(NET_HIDDEN_SHAPE),
        "hidden_axes": ["variant (colored, gray)", "players (2, 3, 4)", "input", "unit"],
        "output_shape": list(NET_OUTPUT_SHAPE),
        "output_axes": ["variant (colored, gray)", "players (2, 3, 4)", "unit's weight, then the bias"],
        "training": training,
        "checksum": arrays_checksum(stored),  # of the values as written: JSON gives every float back exactly
        "hidden": stored.hidden.tolist(),
        "output": stored.output.tolist(),
    }


def load_net(path: str | os.PathLike[str]) -> Net:
    """The network of a network file, validated: a `WeightsError` names the file and what is wrong, in one line."""
    path = Path(path)

    def fail(why: str) -> WeightsError:
        return WeightsError(f"{path}: {why}")

    doc = read_document(path, NET_FORMAT, NET_VERSION, fail)
    if doc.get("inputs") != INPUTS:
        raise fail("its inputs differ from this version's (value_net.INPUTS)")
    return Net(*read_arrays(doc, list(zip(_ARRAYS, (NET_HIDDEN_SHAPE, NET_OUTPUT_SHAPE))), fail))


def install_net(net: str | os.PathLike[str] | Net = NET_FILE) -> None:
    """Make every later ``"strong"`` game use `net`: a network file (validated by `load_net`) or a `Net`
    (its values checked against `MAX_WEIGHT`). Not while games run: the search reads it without a lock."""
    if not isinstance(net, (Net, str, os.PathLike)):
        raise TypeError(f"net must be a network file's path or a value_net.Net(hidden, output), "
                        f"not {type(net).__name__}")
    if not isinstance(net, Net):
        net = load_net(net)
    else:
        check_given(_ARRAYS, net, WeightsError)
    try:
        _learned.install_net(*net)  # the core checks shapes and finiteness before it copies
    except ValueError as error:
        raise WeightsError(str(error)) from None


def installed_net() -> Net:
    """Copies of the network in use (zeros before one is installed)."""
    return Net(*_learned.installed_net())


def trained_settings(net: Net | None = None) -> list[tuple[str, int]]:
    """The (wall side, player count) settings that `net` (default: the one in use) has weights for.

    >>> ("colored", 2) in trained_settings()
    True
    """
    net = installed_net() if net is None else net
    return [(variant, players) for v, variant in enumerate(VARIANTS) for p, players in enumerate(PLAYER_COUNTS)
            if net.hidden[v, p].any() or net.output[v, p].any()]


def fingerprint() -> str:
    """What decides how ``"strong"``'s leaves are valued here: the network's version and a digest of it.

    A run in which ``"strong"`` plays records it beside `learned.fingerprint` (the rest of its search).
    """
    digest = hashlib.sha256(b"".join(array.tobytes() for array in installed_net())).hexdigest()[:16]
    return f"value/{NET_VERSION} net sha256:{digest}"


install_net()
