"""The table's limits, each written once: how many players a game has and which side of the boards it
uses, with the checks that turn a caller's value into one of them (a TypeError or ValueError naming it).
"""

from __future__ import annotations

from typing import Final

from azul_fast.core.rules import _board
from azul_fast.core.rules.checks import check_int

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "PLAYER_COUNTS", "VARIANTS", "check_player_counts", "check_players",
           "check_variant"]

#: The two sides of the player boards: printed colours, or free placement (the rulebook's variant).
VARIANTS: Final = ("colored", "gray")
#: The fewest and the most players a game has, and every count in between.
MIN_PLAYERS: Final = _board.MIN_PLAYERS
MAX_PLAYERS: Final = _board.MAX_PLAYERS
PLAYER_COUNTS: Final = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


def check_players(players: object, name: str = "players") -> int:
    """A player count as an int in `MIN_PLAYERS`..`MAX_PLAYERS` (a TypeError or ValueError naming it).

    >>> check_players(3)
    3
    >>> check_players(5)
    Traceback (most recent call last):
    ...
    ValueError: players must be in 2..4, got 5
    """
    return check_int(players, name, MIN_PLAYERS, MAX_PLAYERS)


def check_player_counts(counts: object, name: str = "players") -> tuple[int, ...]:
    """Player counts to study, sorted and without repeats: at least one, each in `PLAYER_COUNTS`.

    >>> check_player_counts([4, 2, 2])
    (2, 4)
    >>> check_player_counts([2, 5])
    Traceback (most recent call last):
    ...
    ValueError: players must be among 2, 3, 4, got [2, 5]
    """
    if isinstance(counts, (str, bytes)) or not hasattr(counts, "__iter__"):
        raise TypeError(f"{name} must be a sequence of player counts, got {type(counts).__name__}")
    given = list(counts)
    among = f"{name} must be among {', '.join(map(str, PLAYER_COUNTS))}, got {given}"
    try:
        checked = {check_players(count, name) for count in given}
    except ValueError:
        raise ValueError(among) from None
    if not checked:
        raise ValueError(among)
    return tuple(sorted(checked))


def check_variant(variant: object) -> int:
    """The index of a variant name in `VARIANTS` (0 colored, 1 gray); a ValueError for another value.

    >>> check_variant("gray")
    1
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {variant!r}")
    return VARIANTS.index(variant)
