"""Seeds: what a seed may be, the one source of fresh entropy, and the one way to spawn a seed.

A run's games, a study's levels and a report's runs all take their seeds from a root seed by
spawning (numpy's `SeedSequence` with a spawn key), never by adding: ``root + k`` would make the
runs of neighbouring roots overlap.

>>> resolve_seed(42), resolve_seed(np.random.SeedSequence(42)) == spawn_seed(42)
(42, True)
>>> spawn_seed(2024, 3) == spawn_seed(2024, 3) != spawn_seed(2024, 4)
True
"""

from __future__ import annotations

import os
from typing import Any, Union

import numpy as np

__all__ = ["MAX_SEED", "SeedLike", "check_seed", "fresh_seed", "resolve_seed", "spawn_seed", "spawn_words"]

#: The largest seed: seeds are unsigned 64-bit ints.
MAX_SEED = 2**64 - 1
#: What a seed may be: None (fresh entropy), an int in 0..2**64-1, or a numpy SeedSequence.
SeedLike = Union[int, np.integer[Any], np.random.SeedSequence, None]


def fresh_seed() -> int:
    """A seed from the operating system's entropy: what every ``seed=None`` draws."""
    return int.from_bytes(os.urandom(8), "little")


def check_seed(seed: Any, name: str = "seed") -> int:
    """A seed as an int in 0..2**64-1; None draws one (`fresh_seed`).

    >>> check_seed(7), check_seed(np.uint64(2**64 - 1)) == 2**64 - 1
    (7, True)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be in 0..2**64-1, got -1
    """
    if seed is None:
        return fresh_seed()
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be a non-negative int or None, got {type(seed).__name__}")
    value = int(seed)
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"{name} must be in 0..2**64-1, got {value}")
    return value


def resolve_seed(seed: SeedLike) -> int:
    """A root seed as an int in 0..2**64-1: None draws fresh entropy; a SeedSequence is hashed.

    >>> resolve_seed(42)
    42
    >>> resolve_seed("42")
    Traceback (most recent call last):
    ...
    TypeError: seed: seed must be a non-negative int or None, got str; valid: ...
    """
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0])
    try:
        return check_seed(seed)
    except (TypeError, ValueError) as error:  # the same kind of error, with the valid forms
        valid = "valid: None, an int in 0..2**64-1, or a numpy SeedSequence"
        raise type(error)(f"seed: {error}; {valid}") from None


def spawn_words(root: int, *key: int, n: int = 1) -> np.ndarray:
    """`n` 64-bit words spawned from `root` and the spawn `key` (numpy's SeedSequence)."""
    return np.random.SeedSequence(root, spawn_key=key).generate_state(n, np.uint64)


def spawn_seed(root: int, *key: int) -> int:
    """One seed spawned from `root` and the spawn `key`: child `key` of the root's SeedSequence.

    >>> spawn_seed(7, 0) == resolve_seed(np.random.SeedSequence(7).spawn(1)[0])
    True
    """
    return int(spawn_words(root, *key)[0])
