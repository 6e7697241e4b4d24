"""Colours, constants and the `Move` type: the vocabulary shared by every engine.

Both engines (the native core and the pure-Python reference) speak this vocabulary, so a
move or a position means the same thing to each of them.

Notation
--------
A move is written as three characters, ``<source><colour><destination>``:

- source: ``1``..``9`` for a factory display (1-based), ``C`` for the centre;
- colour: ``B`` blue, ``Y`` yellow, ``R`` red, ``K`` black, ``W`` white;
- destination: ``1``..``5`` for a pattern line (1 = the one-tile line), ``F`` for the floor.

>>> move = Move.from_notation("3R2")
>>> move
Move.from_notation('3R2')
>>> move.source, move.color, move.line
(2, <Color.RED: 2>, 1)
>>> str(Move(CENTER, Color.WHITE, FLOOR))
'CWF'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

__all__ = [
    "CENTER",
    "COLOR_LETTERS",
    "FLOOR",
    "FLOOR_PENALTIES",
    "MARKER",
    "MAX_FACTORIES",
    "Color",
    "IllegalMoveError",
    "Move",
    "factory_count",
    "wall_column",
]


class Color(enum.IntEnum):
    """A tile colour; the value is the colour's index in every per-colour array."""

    BLUE = 0
    YELLOW = 1
    RED = 2
    BLACK = 3
    WHITE = 4

    @property
    def letter(self) -> str:
        """The one-letter code used in move notation and positions (K is black).

        >>> Color.BLACK.letter
        'K'
        """
        return COLOR_LETTERS[self]


COLOR_LETTERS: Final = "BYRKW"
MAX_FACTORIES: Final = 9
#: Source index of the centre of the table (factories are 0..n_factories-1).
CENTER: Final = MAX_FACTORIES
#: Destination index of the floor line (pattern lines are 0..4).
FLOOR: Final = 5
#: Cumulative floor penalty by number of occupied floor slots (0..7).
FLOOR_PENALTIES: Final = (0, 1, 2, 4, 6, 8, 11, 14)


class _Marker:
    """The first-player marker, as it appears in a floor list."""

    _instance: _Marker | None = None

    def __new__(cls) -> _Marker:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MARKER"

    def __reduce__(self) -> str:
        return "MARKER"


MARKER: Final = _Marker()


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in the current position."""


def factory_count(players: int) -> int:
    """Number of factory displays for a player count: 5, 7 or 9.

    >>> factory_count(3)
    7
    """
    return 2 * players + 1


def wall_column(row: int, color: int) -> int:
    """Column of the colored wall where `color` sits in `row`.

    >>> wall_column(0, Color.BLUE), wall_column(1, Color.BLUE), wall_column(4, Color.YELLOW)
    (0, 1, 0)
    """
    return (row + color) % 5


@dataclass(frozen=True, slots=True)
class Move:
    """Take every tile of `color` from `source` and put them on pattern `line` (or the `FLOOR`).

    `source` is a factory index (0-based) or `CENTER`; `line` is 0..4 (0 holds one tile) or `FLOOR`.
    A Move only describes an action; whether it is legal depends on the position.

    >>> move = Move(source=2, color=Color.RED, line=1)
    >>> move, str(move), move.code
    (Move.from_notation('3R2'), '3R2', 73)
    >>> Move.from_code(73) == move == Move.from_notation("3r2")
    True
    >>> Move.from_notation("0B1")
    Traceback (most recent call last):
    ...
    ValueError: bad move notation '0B1': source must be 1-9 or C
    """

    source: int
    color: Color
    line: int

    def __post_init__(self) -> None:
        for name in ("source", "color", "line"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Move.{name} must be an int, got {type(value).__name__}")
        if not (0 <= self.source < MAX_FACTORIES or self.source == CENTER):
            raise ValueError(f"Move.source must be 0..{MAX_FACTORIES - 1} or CENTER ({CENTER}), got {self.source}")
        if not 0 <= self.color < 5:
            raise ValueError(f"Move.color must be 0..4, got {self.color}")
        if not 0 <= self.line <= FLOOR:
            raise ValueError(f"Move.line must be 0..4 or FLOOR ({FLOOR}), got {self.line}")
        object.__setattr__(self, "color", Color(self.color))

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Parse the three-character notation, e.g. ``"1B3"`` or ``"CWF"``."""
        if not isinstance(text, str):
            raise TypeError(f"move notation must be a str, got {type(text).__name__}")
        code = text.strip().upper()
        if len(code) != 3:
            raise ValueError(f"bad move notation {text!r}: expected 3 characters like '1B3' or 'CWF'")
        source_ch, color_ch, line_ch = code[0], code[1], code[2]
        if source_ch == "C":
            source = CENTER
        elif source_ch in "123456789":
            source = int(source_ch) - 1
        else:
            raise ValueError(f"bad move notation {text!r}: source must be 1-9 or C")
        if color_ch not in COLOR_LETTERS:
            raise ValueError(f"bad move notation {text!r}: colour must be one of {COLOR_LETTERS}")
        if line_ch == "F":
            line = FLOOR
        elif line_ch in "12345":
            line = int(line_ch) - 1
        else:
            raise ValueError(f"bad move notation {text!r}: destination must be 1-5 or F")
        return cls(source, Color(COLOR_LETTERS.index(color_ch)), line)

    @property
    def code(self) -> int:
        """Dense action id in 0..299: ``(source * 5 + color) * 6 + line``."""
        return (self.source * 5 + self.color) * 6 + self.line

    @classmethod
    def from_code(cls, code: int) -> Move:
        """Inverse of `code`."""
        if not 0 <= code < (MAX_FACTORIES + 1) * 30:
            raise ValueError(f"move code must be 0..{(MAX_FACTORIES + 1) * 30 - 1}, got {code}")
        return cls(code // 30, Color(code // 6 % 5), code % 6)

    def __str__(self) -> str:
        source = "C" if self.source == CENTER else str(self.source + 1)
        line = "F" if self.line == FLOOR else str(self.line + 1)
        return f"{source}{COLOR_LETTERS[self.color]}{line}"

    def __repr__(self) -> str:
        return f"Move.from_notation('{self}')"
