"""The argument checks every function of the package uses, so the same mistake meets the same error.

One rule: a TypeError naming the argument when it has the wrong type (a bool is not an int: True
is no count), a ValueError naming it when its value is out of range. The module sits below all
others (it imports none of the package), so the rules' own modules can use it too.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

__all__ = ["MAX_WORKERS", "check_bool", "check_int", "check_seconds", "resolve_workers"]

#: The most threads a run takes.
MAX_WORKERS = 1024

def check_int(value: Any, name: str, low: int, high: int | float) -> int:
    """`value` as an int in `low`..`high` (numpy integers pass; `high` may be ``math.inf``).

    >>> check_int(3, "players", 2, 4)
    3
    >>> check_int(2.5, "n_games", 1, 10)
    Traceback (most recent call last):
    ...
    TypeError: n_games must be an int, got float
    >>> check_int(True, "players", 2, 4)
    Traceback (most recent call last):
    ...
    TypeError: players must be an int, got bool
    >>> check_int(5, "players", 2, 4)
    Traceback (most recent call last):
    ...
    ValueError: players must be in 2..4, got 5
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be {_span(low, high)}, got {value}")
    return int(value)


def check_bool(value: Any, name: str) -> bool:
    """`value` if it is True or False (numpy's bools too); a TypeError otherwise (1 is not a flag).

    >>> check_bool(1, "seat_rotation")
    Traceback (most recent call last):
    ...
    TypeError: seat_rotation must be True or False, got int
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def check_seconds(value: Any, name: str) -> float:
    """A duration in seconds: a finite real number (an int or a float, not a bool) greater than 0.

    >>> check_seconds(2, "timeout")
    2.0
    >>> check_seconds(0.0, "timeout")
    Traceback (most recent call last):
    ...
    ValueError: timeout must be positive (a number of seconds), got 0.0
    >>> check_seconds(float("inf"), "seconds")
    Traceback (most recent call last):
    ...
    ValueError: seconds must be a finite number of seconds, got inf
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}")
    if not value > 0:
        raise ValueError(f"{name} must be positive (a number of seconds), got {value!r}")
    # No budget or interval is endless: a study sized by inf seconds would plan inf games.
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number of seconds, got {value!r}")
    return float(value)


def resolve_workers(workers: int | None) -> int:
    """Threads for a run: None means every core; otherwise an int in 1..`MAX_WORKERS`.

    >>> resolve_workers(2), resolve_workers(None) == (os.cpu_count() or 1)
    (2, True)
    >>> resolve_workers(0)
    Traceback (most recent call last):
    ...
    ValueError: workers must be in 1..1024, got 0
    """
    return (os.cpu_count() or 1) if workers is None else check_int(workers, "workers", 1, MAX_WORKERS)


def _span(low: int, high: int | float) -> str:
    return f">= {low}" if high == float("inf") else f"in {low}..{high}"
