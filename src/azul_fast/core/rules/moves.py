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

On the gray wall (the rulebook's variant) the column of a tiled line is a decision too: a
`Placement` is written ``@<line>.<column>`` (both 1-based), the tile of pattern line 2 to
column 3 being ``@2.3``. `parse_move` reads either kind.

>>> parse_move("@2.3")
Placement.from_notation('@2.3')
>>> parse_move("CWF") == Move(CENTER, Color.WHITE, FLOOR)
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, Union

from azul_fast.core.errors import AzulFastError
from azul_fast.core.rules import _board  # the core's constants, each written once in _board.pxd
from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.table import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS, VARIANTS

__all__ = [
    "CENTER",
    "COLOR_LETTERS",
    "END_BONUS_POINTS",
    "FLOOR",
    "FLOOR_PENALTIES",
    "MARKER",
    "MAX_FACTORIES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PLACE_CODE",
    "PLAYER_COUNTS",
    "VARIANTS",
    "WALL_CELLS",
    "AnyMove",
    "Color",
    "IllegalMoveError",
    "InvariantError",
    "NotationError",
    "Move",
    "Placement",
    "factory_count",
    "move_from_code",
    "parse_move",
    "printed_color",
    "wall_bit",
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
#: Factories at 4 players, the most a table has.
MAX_FACTORIES: Final = _board.MAX_FACTORIES
#: Source index of the centre of the table (factories are 0..n_factories-1).
CENTER: Final = _board.CENTER
#: Destination index of the floor line (pattern lines are 0..4).
FLOOR: Final = _board.FLOOR
#: Cumulative floor penalty by number of occupied floor slots (0..7).
FLOOR_PENALTIES: Final = _board.FLOOR_PENALTIES
#: Dense id of the first wall placement: ``PLACE_CODE + column`` (takes are 0..299).
PLACE_CODE: Final = _board.PLACE_CODE
#: End-of-game points per complete row, column and colour, by the name of their result column.
END_BONUS_POINTS: Final = {"rows": _board.ROW_BONUS, "cols": _board.COLUMN_BONUS, "colors": _board.COLOR_BONUS}
#: Cells of a wall; a wall is a 25-bit int, cell (row, column) at bit `wall_bit(row, column)`.
WALL_CELLS: Final = 25


def wall_bit(row: int, column: int) -> int:
    """The bit of wall cell (`row`, `column`) in a 25-bit wall (row-major: row * 5 + column).

    >>> wall_bit(0, 0), wall_bit(1, 3), 1 << wall_bit(4, 4) == 1 << 24
    (0, 8, True)
    """
    return row * 5 + column


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


class IllegalMoveError(AzulFastError, ValueError):
    """A move that the rules do not allow in the current position."""


# Users catch it as azul_fast.IllegalMoveError, and tracebacks should name it so (as numpy names its
# public classes by where users import them, not by the file that defines them).
IllegalMoveError.__module__ = "azul_fast"


class NotationError(AzulFastError, ValueError):
    """Text that is not a move's, a placement's or a position's notation; the message shows the form expected."""


NotationError.__module__ = "azul_fast"   # as IllegalMoveError: named where users import it


class InvariantError(AzulFastError, RuntimeError):
    """A position that breaks the rules' invariants: a bug of the engine, never of the caller."""


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
    return _board.printed_column(row, color)


def printed_color(row: int, column: int) -> Color:
    """The colour printed on the colored wall in `row`, `column` (the inverse of `wall_column`).

    >>> "".join(printed_color(1, column).letter for column in range(5))
    'WBYRK'
    """
    return Color(_board.printed_color(row, column))


#: Move's fields and their largest values: the sources are the factories 0..MAX_FACTORIES-1 and the
#: centre right after them (CENTER).
_MOVE_FIELDS: Final = (("source", CENTER), ("color", len(Color) - 1), ("line", FLOOR))


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
    azul_fast.NotationError: bad move notation '0B1': source must be 1-9 or C
    """

    source: int
    color: Color
    line: int

    def __post_init__(self) -> None:
        for name, high in _MOVE_FIELDS:
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= high:  # the test alone: legal_moves makes many
                object.__setattr__(self, name, check_int(value, f"Move.{name}", 0, high))
        object.__setattr__(self, "color", Color(self.color))

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Parse the three-character notation, e.g. ``"1B3"`` or ``"CWF"`` (any case).

        Parameters
        ----------
        text : str
            Source (``1``-``9``, ``C``), colour (``B Y R K W``) and pattern line (``1``-``5``, ``F``).

        Returns
        -------
        Move

        Raises
        ------
        TypeError
            If `text` is not a str.
        NotationError
            (a ValueError) If it is not a take's notation (a placement ``@2.3`` is named as such).

        Examples
        --------
        >>> Move.from_notation("cwf"), Move.from_notation("1B3").line
        (Move.from_notation('CWF'), 2)
        """
        if not isinstance(text, str):
            raise TypeError(f"move notation must be a str, got {type(text).__name__}")
        code = text.strip().upper()
        if code.startswith("@"):
            raise NotationError(f"{text!r} is a wall placement, not a take: use parse_move or Placement.from_notation")
        if len(code) != 3:
            raise NotationError(f"bad move notation {text!r}: expected 3 characters like '1B3' or 'CWF'")
        source_ch, color_ch, line_ch = code[0], code[1], code[2]
        if source_ch == "C":
            source = CENTER
        elif source_ch in "123456789":
            source = int(source_ch) - 1
        else:
            raise NotationError(f"bad move notation {text!r}: source must be 1-9 or C")
        if color_ch not in COLOR_LETTERS:
            raise NotationError(f"bad move notation {text!r}: colour must be one of {COLOR_LETTERS}")
        if line_ch == "F":
            line = FLOOR
        elif line_ch in "12345":
            line = int(line_ch) - 1
        else:
            raise NotationError(f"bad move notation {text!r}: destination must be 1-5 or F")
        return cls(source, Color(COLOR_LETTERS.index(color_ch)), line)

    @property
    def code(self) -> int:
        """Dense action id in 0..299: ``(source * 5 + color) * 6 + line``."""
        return (self.source * 5 + self.color) * 6 + self.line

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move with dense action id `code` (the inverse of `Move.code`).

        Parameters
        ----------
        code : int
            ``source * 30 + colour * 6 + line``, 0..299.

        Returns
        -------
        Move

        Raises
        ------
        ValueError
            If `code` is out of range.

        Examples
        --------
        >>> Move.from_code(73), Move.from_code(73).code
        (Move.from_notation('3R2'), 73)
        """
        if not 0 <= code < (MAX_FACTORIES + 1) * 30:
            raise ValueError(f"move code must be 0..{(MAX_FACTORIES + 1) * 30 - 1}, got {code}")
        return cls(code // 30, Color(code // 6 % 5), code % 6)

    def __str__(self) -> str:
        source = "C" if self.source == CENTER else str(self.source + 1)
        line = "F" if self.line == FLOOR else str(self.line + 1)
        return f"{source}{COLOR_LETTERS[self.color]}{line}"

    def __repr__(self) -> str:
        return f"Move.from_notation('{self}')"


@dataclass(frozen=True, slots=True)
class Placement:
    """Gray wall: put the tile of the full pattern `line` being tiled at `column` of its wall row.

    Only legal while the tiling waits for its player's choice; `line` must be the line being
    tiled (the code carries only the column, ``PLACE_CODE + column``).

    >>> placement = Placement(line=1, column=2)
    >>> placement, str(placement), placement.code
    (Placement.from_notation('@2.3'), '@2.3', 302)
    >>> Placement.from_notation("@6.1")
    Traceback (most recent call last):
    ...
    azul_fast.NotationError: bad placement notation '@6.1': expected '@<line 1-5>.<column 1-5>' like '@2.3'
    """

    line: int
    column: int

    def __post_init__(self) -> None:
        for name in ("line", "column"):
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= 4:
                object.__setattr__(self, name, check_int(value, f"Placement.{name}", 0, 4))

    @classmethod
    def from_notation(cls, text: str) -> Placement:
        """Parse ``@<line>.<column>`` (1-based), e.g. ``"@2.3"``: a gray-wall placement.

        Parameters
        ----------
        text : str
            ``@``, the pattern line being tiled (1-5), ``.``, the wall column (1-5).

        Returns
        -------
        Placement

        Raises
        ------
        TypeError
            If `text` is not a str.
        NotationError
            (a ValueError) If it is not a placement's notation.

        Examples
        --------
        >>> Placement.from_notation("@2.3"), Placement.from_notation("@2.3").column
        (Placement.from_notation('@2.3'), 2)
        """
        if not isinstance(text, str):
            raise TypeError(f"move notation must be a str, got {type(text).__name__}")
        code = text.strip()
        if len(code) != 4 or code[0] != "@" or code[2] != "." or code[1] not in "12345" or code[3] not in "12345":
            raise NotationError(f"bad placement notation {text!r}: expected '@<line 1-5>.<column 1-5>' like '@2.3'")
        return cls(int(code[1]) - 1, int(code[3]) - 1)

    @property
    def code(self) -> int:
        """Dense action id ``PLACE_CODE + column`` (300..304)."""
        return PLACE_CODE + self.column

    def __str__(self) -> str:
        return f"@{self.line + 1}.{self.column + 1}"

    def __repr__(self) -> str:
        return f"Placement.from_notation('{self}')"


#: Either kind of move: a take from the table, or (gray wall) a wall placement.
AnyMove = Union[Move, Placement]


def parse_move(text: str) -> AnyMove:
    """A take (``"1B3"``) or a wall placement (``"@2.3"``) from its notation.

    Parameters
    ----------
    text : str
        A take: source (factory ``1``-``9`` or ``C`` for the centre), colour letter (``B Y R K W``)
        and pattern line (``1``-``5`` or ``F`` for the floor), in any case; or a gray-wall
        placement ``@<line>.<column>``. Spaces around it are ignored.

    Returns
    -------
    Move or Placement
        The move; whether it is legal is the position's question (`State.play`).

    Raises
    ------
    TypeError
        If `text` is not a str.
    NotationError
        (a ValueError) If it is not a move's notation (the message shows the expected form).

    Examples
    --------
    >>> parse_move("1b3"), parse_move(" @5.1 ")
    (Move.from_notation('1B3'), Placement.from_notation('@5.1'))
    """
    if isinstance(text, str) and text.strip().startswith("@"):
        return Placement.from_notation(text)
    return Move.from_notation(text)


def move_from_code(code: int, line: int = 0) -> AnyMove:
    """The move with dense id `code`; a placement code needs the `line` being tiled.

    >>> move_from_code(73), move_from_code(302, line=1)
    (Move.from_notation('3R2'), Placement.from_notation('@2.3'))
    """
    if PLACE_CODE <= code < PLACE_CODE + 5:
        return Placement(line, code - PLACE_CODE)
    return Move.from_code(code)
