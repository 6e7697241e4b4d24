"""Pure-Python reference engine: the executable form of ``docs/engine-spec.md`` (rules ``azul-rules/1``).

This module is written to be read next to the rulebook and the spec, not to be fast. The native
core implements the same contract independently; the two are compared move by move through
`ReferenceState.to_dict`, so every random draw, every loop order and every field of the position
format below follows the spec literally. "(spec N)" in a section heading points to section N of
``docs/engine-spec.md``.

>>> state = ReferenceState.new(players=2, seed=7)
>>> move = state.legal_moves()[0]
>>> state.play(move)
>>> result = play_game(players=2, policies=("greedy", "random"), seed=1)
>>> result["state"].game_over, len(result["moves"]) == result["turns"]
(True, True)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from azul_fast.core.rules.moves import (
    COLOR_LETTERS,
    MARKER,
    VARIANTS,
    AnyMove,
    Color,
    IllegalMoveError,
    Move,
    Placement,
    factory_count,
    parse_move,
)

__all__ = [
    "POLICIES",
    "POSITION_FORMAT",
    "PlayerBoard",
    "ReferenceState",
    "SplitMix64",
    "choose_greedy",
    "choose_random",
    "greedy_placement_columns",
    "complete_colors",
    "complete_columns",
    "complete_rows",
    "end_bonus",
    "floor_penalty",
    "game_seed",
    "greedy_value",
    "mix",
    "play_game",
    "score_tile",
]

# --------------------------------------------------------------------------------------------
# Random numbers (spec 2): splitmix64, one multiply per bounded draw.
# --------------------------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
# Keys that separate the streams derived from one seed (digits of pi, as in the spec).
BAG_STREAM_KEY = 0x243F6A8885A308D3
POLICY_STREAM_KEY = 0x13198A2E03707344
RUN_ROOT_KEY = 0xA4093822299F31D0
RUN_INDEX_KEY = 0x082EFA98EC4E6C89


def _check_u64(name: str, value: int) -> int:
    """Reject anything that is not an integer in 0..2**64-1 (seeds and generator states)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not 0 <= value <= MASK64:
        raise ValueError(f"{name} must be in 0..2**64-1, got {value}")
    return value


def mix(z: int) -> int:
    """The splitmix64 output function: a bijective scramble of a 64-bit integer."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """A splitmix64 stream. `state` is the whole generator: copy it and you copy the future.

    >>> SplitMix64(1234567).next()
    6457827717110365317
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = _check_u64("generator state", state)

    def next(self) -> int:
        """Advance by the golden gamma and return the mixed 64-bit output."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return mix(self.state)

    def below(self, n: int) -> int:
        """An integer in 0..n-1 from the top 32 bits of one output (multiply-shift, no rejection).

        Always consumes exactly one output, even for n == 1, so that the number of draws never
        depends on the position.
        """
        if not 1 <= n < 1 << 31:
            raise ValueError(f"below(n) needs 1 <= n < 2**31, got {n}")
        return ((self.next() >> 32) * n) >> 32

    def __repr__(self) -> str:
        return f"SplitMix64({self.state})"


def game_seed(root: int, index: int) -> int:
    """Seed of game `index` in a run with root seed `root` (how `simulate` numbers its games)."""
    _check_u64("root seed", root)
    _check_u64("game index", index)
    return mix((mix(root ^ RUN_ROOT_KEY) + mix(index ^ RUN_INDEX_KEY)) & MASK64)


# --------------------------------------------------------------------------------------------
# The wall and its scoring (spec 1 and 7). A wall is a 25-bit mask, bit row*5 + col.
# --------------------------------------------------------------------------------------------

# The reference engine keeps its own copy of every number of the rules, written from the spec and
# not taken from the core (azul_fast.core.rules.moves takes them from _board.pxd): it is the differential
# check of the core, so it must not share the core's mistakes. tests/core/test_constants.py checks
# that the two copies agree.
WALL_SIZE = 5
TILES_PER_COLOR = 20
#: Source index of the centre (after the 9 factories of a 4-player table), as in Move.source.
CENTER = 9
#: Destination index of the floor line (after the 5 pattern lines), as in Move.line.
FLOOR = 5
#: Cumulative floor penalty by number of occupied floor slots (0..7).
FLOOR_PENALTIES = (0, 1, 2, 4, 6, 8, 11, 14)
FLOOR_SLOTS = len(FLOOR_PENALTIES) - 1  # 7
ROW_BONUS, COLUMN_BONUS, COLOR_BONUS = 2, 7, 10


def wall_column(row: int, color: int) -> int:
    """Column of the colored wall where `color` is printed in `row` (spec 1).

    >>> wall_column(0, Color.BLUE), wall_column(1, Color.BLUE), wall_column(4, Color.YELLOW)
    (0, 1, 0)
    """
    return (row + color) % WALL_SIZE


def printed_color(row: int, col: int) -> Color:
    """The colour printed in (`row`, `col`) of the colored wall: the inverse of `wall_column`.

    >>> printed_color(1, 1).name
    'BLUE'
    """
    return Color((col - row) % WALL_SIZE)


def _bit(row: int, col: int) -> int:
    return 1 << (row * WALL_SIZE + col)


def _occupied(wall: int, row: int, col: int) -> bool:
    """True for an on-board cell that holds a tile; cells off the board count as empty."""
    return 0 <= row < WALL_SIZE and 0 <= col < WALL_SIZE and bool(wall & _bit(row, col))


def _run_length(wall: int, row: int, col: int, d_row: int, d_col: int) -> int:
    """Length of the contiguous run through (row, col) along one axis, counting that cell."""
    length = 1
    for sign in (-1, 1):
        r, c = row + sign * d_row, col + sign * d_col
        while _occupied(wall, r, c):
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def score_tile(wall: int, row: int, col: int) -> int:
    """Points for placing a tile at the empty cell (row, col) of `wall` (the tile is not placed).

    A lone tile scores 1; otherwise the horizontal run (if longer than 1) plus the vertical run
    (if longer than 1), each counting the new tile.
    """
    if _occupied(wall, row, col):
        raise ValueError(f"wall cell ({row}, {col}) is already occupied")
    wall |= _bit(row, col)
    h = _run_length(wall, row, col, 0, 1)
    v = _run_length(wall, row, col, 1, 0)
    if h == 1 and v == 1:
        return 1
    return (h if h > 1 else 0) + (v if v > 1 else 0)


def floor_penalty(n_slots: int) -> int:
    """Total points lost for `n_slots` occupied floor slots (0..7)."""
    if not 0 <= n_slots <= FLOOR_SLOTS:
        raise ValueError(f"a floor has 0..{FLOOR_SLOTS} occupied slots, got {n_slots}")
    return FLOOR_PENALTIES[n_slots]


def complete_rows(wall: int) -> int:
    """Number of full horizontal rows (a full row ends the game; rows also break ties)."""
    return sum(all(_occupied(wall, r, c) for c in range(WALL_SIZE)) for r in range(WALL_SIZE))


def complete_columns(wall: int) -> int:
    """Number of full vertical columns."""
    return sum(all(_occupied(wall, r, c) for r in range(WALL_SIZE)) for c in range(WALL_SIZE))


def complete_colors(wall: int) -> int:
    """Number of colours with all five tiles on the wall (one per row, at column (row + colour) % 5)."""
    return sum(
        all(_occupied(wall, r, wall_column(r, color)) for r in range(WALL_SIZE)) for color in Color
    )


def end_bonus(wall: int) -> int:
    """End-of-game bonus: 2 per complete row, 7 per complete column, 10 per complete colour."""
    return (
        ROW_BONUS * complete_rows(wall)
        + COLUMN_BONUS * complete_columns(wall)
        + COLOR_BONUS * complete_colors(wall)
    )


# --------------------------------------------------------------------------------------------
# A player's board: score, wall, five pattern lines and the floor line.
# --------------------------------------------------------------------------------------------


def _empty_lines() -> list[list[Any]]:
    return [[None, 0] for _ in range(WALL_SIZE)]


def _empty_grid() -> list[list[Any]]:
    return [[None] * WALL_SIZE for _ in range(WALL_SIZE)]


@dataclass
class PlayerBoard:
    """One player's board.

    `lines[r]` is ``[colour or None, count]``; line r holds up to r + 1 tiles and `None` means empty.
    `floor` lists what occupies the floor slots left to right: `Color` values and possibly `MARKER`.
    `wall` is the mask of occupied cells (what scoring looks at). On the colored wall a tile's
    colour is the one printed on its cell and `colors` is None; on the gray wall `colors[r][c]`
    records the colour of the tile at (r, c), or None.
    """

    score: int = 0
    wall: int = 0
    lines: list[list[Any]] = field(default_factory=_empty_lines)
    floor: list[Any] = field(default_factory=list)
    colors: list[list[Any]] | None = None

    def color_at(self, row: int, col: int) -> Color | None:
        """The colour of the tile at (row, col), or None for an empty cell."""
        if not _occupied(self.wall, row, col):
            return None
        if self.colors is None:
            return printed_color(row, col)
        return Color(self.colors[row][col])

    @property
    def grid(self) -> list[list[Color | None]]:
        """The wall as 5 rows of 5 cells: colours, or None."""
        return [[self.color_at(r, c) for c in range(WALL_SIZE)] for r in range(WALL_SIZE)]

    def wall_has(self, row: int, color: int) -> bool:
        """Whether wall row `row` already holds `color`."""
        return any(self.color_at(row, col) == color for col in range(WALL_SIZE))

    def place(self, row: int, col: int, color: int) -> None:
        if self.colors is not None:
            self.colors[row][col] = Color(color)
        self.wall |= _bit(row, col)

    def free_columns(self, row: int, color: int) -> list[int]:
        """Gray wall: the empty columns of `row` whose column does not hold `color` yet (spec 10)."""
        return [
            col for col in range(WALL_SIZE)
            if self.color_at(row, col) is None and all(self.color_at(r, col) != color for r in range(WALL_SIZE))
        ]

    def complete_colors(self) -> int:
        """Colours with all five tiles on the wall, wherever they sit."""
        return sum(sum(row.count(color) for row in self.grid) == WALL_SIZE for color in Color)

    def end_bonus(self) -> int:
        """End-of-game bonus of this wall: rows, columns and colours (either variant)."""
        return ROW_BONUS * complete_rows(self.wall) + COLUMN_BONUS * complete_columns(self.wall) + (
            COLOR_BONUS * self.complete_colors()
        )

    def line_refusal(self, row: int, color: int) -> str | None:
        """Why pattern line `row` cannot take `color` now, or None when it can (spec 5)."""
        held, count = self.lines[row]
        if held is not None and held != color:
            return f"pattern line {row + 1} already holds {Color(held).name.lower()}"
        if count >= row + 1:
            return f"pattern line {row + 1} is full"
        if held is None and self.wall_has(row, color):
            return f"wall row {row + 1} already has {Color(color).name.lower()}"
        return None


# --------------------------------------------------------------------------------------------
# The game state.
# --------------------------------------------------------------------------------------------

POSITION_FORMAT = "azul_fast/position/1"


class ReferenceState:
    """A position of a game of Azul plus the two random streams that drive its future.

    Attributes (all plain, mutable Python values):

    - ``players``, ``max_rounds``, ``round`` (1-based), ``current_player``,
      ``start_player`` (who started this round), ``marker_holder`` (seat that took the marker
      from the centre this round, or None), ``game_over``, ``truncated``;
    - ``factories`` (``n_factories`` lists of 5 colour counts), ``center`` (5 counts),
      ``center_has_marker``, ``bag`` and ``lid`` (5 counts each);
    - ``boards``: one `PlayerBoard` per seat;
    - ``bag_rng`` and ``policy_rng``: `SplitMix64` streams (bag draws, policy decisions).
    """

    # -- construction (spec 3) ---------------------------------------------------------------

    def __init__(
        self, players: int = 2, seed: int = 0, first_player: int = 0, max_rounds: int = 100, variant: str = "colored"
    ):
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        _check_u64("seed", seed)
        if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
            raise ValueError(f"first_player must be a seat in 0..{players - 1}, got {first_player!r}")
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise ValueError(f"max_rounds must be a positive int, got {max_rounds!r}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {list(VARIANTS)}, got {variant!r}")
        self.variant = variant
        self.tiling: tuple[int, int] | None = None  # gray wall: (seat, line) awaiting a column
        self.players = players
        self.max_rounds = max_rounds
        self.round = 1
        self.current_player = first_player
        self.start_player = first_player
        self.marker_holder: int | None = None
        self.game_over = False
        self.truncated = False
        self.factories = [[0] * 5 for _ in range(factory_count(players))]
        self.center = [0] * 5
        self.center_has_marker = True
        self.bag = [TILES_PER_COLOR] * 5
        self.lid = [0] * 5
        self.boards = [PlayerBoard(colors=_empty_grid() if variant == "gray" else None) for _ in range(players)]
        self.bag_rng = SplitMix64(mix(seed ^ BAG_STREAM_KEY))
        self.policy_rng = SplitMix64(mix(seed ^ POLICY_STREAM_KEY))
        self._fill_factories()

    @classmethod
    def new(
        cls, players: int = 2, seed: int = 0, first_player: int = 0, max_rounds: int = 100, variant: str = "colored"
    ) -> ReferenceState:
        """A new game: full bag, empty boards, marker in the centre, factories filled."""
        return cls(players=players, seed=seed, first_player=first_player, max_rounds=max_rounds, variant=variant)

    @property
    def n_factories(self) -> int:
        return len(self.factories)

    # -- filling the factories (spec 4) ------------------------------------------------------

    def _fill_factories(self) -> int:
        """Put four tiles from the bag on every factory; return how many tiles were drawn.

        The lid is poured back only when a draw finds the bag empty; if the lid is empty too,
        filling stops and the remaining factories stay (partly) empty.
        """
        drawn = 0
        for factory in self.factories:
            for _ in range(4):
                if sum(self.bag) == 0:
                    self.bag, self.lid = [b + lid for b, lid in zip(self.bag, self.lid)], [0] * 5
                    if sum(self.bag) == 0:
                        return drawn
                r = self.bag_rng.below(sum(self.bag))
                color = 0
                while r >= self.bag[color]:  # walk the colours in order 0..4
                    r -= self.bag[color]
                    color += 1
                self.bag[color] -= 1
                factory[color] += 1
                drawn += 1
        return drawn

    # -- legal moves (spec 5) ----------------------------------------------------------------

    def _sources(self) -> list[tuple[int, list[int]]]:
        """(index, colour counts) of every source in canonical order: factories, then the centre."""
        return [*enumerate(self.factories), (CENTER, self.center)]

    def placement_columns(self) -> list[int]:
        """While the gray tiling waits: the legal columns of the line being tiled, left to right."""
        if self.tiling is None:
            return []
        player, row = self.tiling
        board = self.boards[player]
        return board.free_columns(row, board.lines[row][0])

    def legal_moves(self) -> list[AnyMove]:
        """Every legal move in canonical order: colour, then source, then destination (floor last).

        While a gray wall tiling waits for a column, the placements of the legal columns instead.
        """
        if self.game_over:
            return []
        if self.tiling is not None:
            return [Placement(self.tiling[1], col) for col in self.placement_columns()]
        board = self.boards[self.current_player]
        moves: list[AnyMove] = []
        for color in Color:
            for source, counts in self._sources():
                if counts[color] == 0:
                    continue
                for line in range(WALL_SIZE):
                    if board.line_refusal(line, color) is None:
                        moves.append(Move(source, color, line))
                moves.append(Move(source, color, FLOOR))
        return moves

    def _check_move(self, move: AnyMove) -> None:
        """Raise IllegalMoveError saying why `move` cannot be played now; return if it can."""
        if self.game_over:
            raise IllegalMoveError(f"{move}: the game is over")
        if isinstance(move, Placement) or self.tiling is not None:
            self._check_placement(move)
            return
        if move.source != CENTER and move.source >= self.n_factories:
            raise IllegalMoveError(
                f"{move}: there is no factory {move.source + 1} with {self.players} players "
                f"(factories are 1..{self.n_factories} and C)"
            )
        counts = self.center if move.source == CENTER else self.factories[move.source]
        where = "the centre" if move.source == CENTER else f"factory {move.source + 1}"
        if sum(counts) == 0:
            raise IllegalMoveError(f"{move}: {where} is empty")
        if counts[move.color] == 0:
            raise IllegalMoveError(f"{move}: {where} holds no {move.color.name.lower()}")
        if move.line != FLOOR:
            refusal = self.boards[self.current_player].line_refusal(move.line, move.color)
            if refusal is not None:
                raise IllegalMoveError(f"{move}: {refusal}")

    def _check_placement(self, move: AnyMove) -> None:
        if self.tiling is None:
            raise IllegalMoveError(f"{move}: no wall placement is awaited")
        player, row = self.tiling
        if not isinstance(move, Placement):
            raise IllegalMoveError(f"{move}: the wall tiling waits for the column of pattern line {row + 1}")
        if move.line != row:
            raise IllegalMoveError(f"{move}: the wall tiling waits for pattern line {row + 1}, "
                                   f"not line {move.line + 1}")
        board = self.boards[player]
        if board.color_at(row, move.column) is not None:
            raise IllegalMoveError(f"{move}: wall row {row + 1} already has a tile in column {move.column + 1}")
        if move.column not in self.placement_columns():
            color = Color(board.lines[row][0]).name.lower()
            raise IllegalMoveError(f"{move}: wall column {move.column + 1} already has {color}")

    # -- playing a move (spec 6) -------------------------------------------------------------

    def play(self, move: AnyMove | str) -> None:
        """Play `move` (a `Move`, a `Placement` or its notation) for the current player.

        Raises IllegalMoveError, leaving the state untouched, if the move is not legal. The last
        take of a round also runs the end of the round (tiling, penalties, end check, refill).
        """
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, (Move, Placement)):
            raise TypeError(f"play() needs a Move, a Placement or its notation, got {type(move).__name__}")
        self._check_move(move)  # everything below may assume the move is legal
        if isinstance(move, Placement):
            assert self.tiling is not None  # _check_move refuses a placement otherwise
            player, row = self.tiling
            self._place(self.boards[player], row, move.column)
            self._continue_tiling(player, row + 1)
            return

        player = self.current_player
        board = self.boards[player]
        color = move.color

        # 1. Take every tile of the colour; the rest of a factory slides to the centre.
        if move.source == CENTER:
            taken = self.center[color]
            self.center[color] = 0
        else:
            factory = self.factories[move.source]
            taken = factory[color]
            factory[color] = 0
            self.center = [c + f for c, f in zip(self.center, factory)]
            self.factories[move.source] = [0] * 5

        # 2. First into the centre takes the marker; it needs a free floor slot to cost anything.
        if move.source == CENTER and self.center_has_marker:
            self.center_has_marker = False
            self.marker_holder = player
            if len(board.floor) < FLOOR_SLOTS:
                board.floor.append(MARKER)

        # 3. Fill the chosen pattern line as far as it goes.
        if move.line == FLOOR:
            overflow = taken
        else:
            line = board.lines[move.line]
            put = min(taken, move.line + 1 - line[1])
            line[0] = color
            line[1] += put
            overflow = taken - put

        # 4. What does not fit falls to the floor, then (floor full) into the lid.
        self._drop_to_floor(board, color, overflow)

        # 5. The round ends when the table is bare; otherwise play passes on.
        if sum(self.center) == 0 and all(sum(f) == 0 for f in self.factories):
            self._end_round()
        else:
            self.current_player = (player + 1) % self.players

    # -- end of the round (spec 7) -----------------------------------------------------------

    def _place(self, board: PlayerBoard, row: int, col: int) -> None:
        """The tile of full line `row` goes to (row, col), scoring at once; the rest to the lid."""
        color = board.lines[row][0]
        board.score += score_tile(board.wall, row, col)
        board.place(row, col, color)
        self.lid[color] += row  # the other tiles of the line are discarded
        board.lines[row] = [None, 0]

    def _tile_walls(self) -> bool:
        """Move one tile of every full pattern line to the wall, scoring it immediately.

        Seats in order, lines top to bottom, so a tile placed earlier in this tiling already
        counts as a neighbour of a later one. Returns False when a gray tiling pauses.
        """
        if self.variant == "gray":
            return self._continue_tiling(0, 0, finish=False)
        for board in self.boards:
            for row, line in enumerate(board.lines):
                color, count = line
                if count == row + 1:  # incomplete lines stay for the next round
                    self._place(board, row, wall_column(row, color))
        return True

    def _continue_tiling(self, player: int, row: int, finish: bool = True) -> bool:
        """Gray wall tiling from seat `player`, line `row` on (spec 10).

        A full line with no legal column goes to the floor whole (the lid takes what the floor
        cannot); one legal column is used without asking; with two or more, the tiling waits
        for that seat's Placement (returns False). When every line is tiled and `finish`, the
        round goes on (floors, end check, refill).
        """
        for seat in range(player, self.players):
            board = self.boards[seat]
            for line in range(row if seat == player else 0, WALL_SIZE):
                color, count = board.lines[line]
                if count < line + 1:
                    continue
                columns = board.free_columns(line, color)
                if not columns:
                    board.lines[line] = [None, 0]
                    self._drop_to_floor(board, color, line + 1)
                elif len(columns) == 1:
                    self._place(board, line, columns[0])
                else:
                    self.tiling = (seat, line)
                    self.current_player = seat
                    return False
        self.tiling = None
        if finish:
            self._finish_round()
        return True

    def _drop_to_floor(self, board: PlayerBoard, color: int, n: int) -> None:
        """Tiles take the leftmost free floor slots; once the floor is full they go to the lid."""
        for _ in range(n):
            if len(board.floor) < FLOOR_SLOTS:
                board.floor.append(color)
            else:
                self.lid[color] += 1

    def _apply_floors(self) -> None:
        """Charge the floor penalties (never below 0), discard floor tiles, return the marker."""
        for board in self.boards:
            board.score = max(0, board.score - FLOOR_PENALTIES[len(board.floor)])
            for item in board.floor:
                if item is not MARKER:
                    self.lid[item] += 1
            board.floor = []
        self.center_has_marker = True

    def _end_round(self) -> None:
        if self._tile_walls():
            self._finish_round()

    def _finish_round(self) -> None:
        """The end of the round after the wall tiling (spec 7, steps 2-6)."""
        self._apply_floors()

        # Whoever took the marker starts next; if nobody did, the same seat starts again.
        if self.marker_holder is not None:
            self.start_player = self.marker_holder
        self.current_player = self.start_player
        self.marker_holder = None

        if any(complete_rows(board.wall) > 0 for board in self.boards):
            self.game_over = True
            for board in self.boards:
                board.score += board.end_bonus()
        elif self.round == self.max_rounds:
            self.game_over = self.truncated = True
        elif self._fill_factories() == 0:
            # Bag and lid are both empty: no round can be played, so stop (no bonuses).
            self.game_over = self.truncated = True
        else:
            self.round += 1

    # -- results -----------------------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(board.score for board in self.boards)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that win: best score, then most complete rows; ties share. Empty until game over."""
        if not self.game_over:
            return ()
        best = max(self.scores)
        leaders = [p for p, board in enumerate(self.boards) if board.score == best]
        most_rows = max(complete_rows(self.boards[p].wall) for p in leaders)
        return tuple(p for p in leaders if complete_rows(self.boards[p].wall) == most_rows)

    def tile_totals(self) -> list[int]:
        """How many tiles of each colour exist anywhere (bag, lid, table, lines, floors, walls).

        The rules never create or destroy tiles, so this is ``[20] * 5`` in every valid position.
        """
        totals = [b + lid + c for b, lid, c in zip(self.bag, self.lid, self.center)]
        for factory in self.factories:
            for color in Color:
                totals[color] += factory[color]
        for board in self.boards:
            for color, count in board.lines:
                if color is not None:
                    totals[color] += count
            for item in board.floor:
                if item is not MARKER:
                    totals[item] += 1
            for cells in board.grid:
                for cell in cells:
                    if cell is not None:
                        totals[cell] += 1
        return totals

    # -- copying and the position format (spec 9) --------------------------------------------

    def copy(self) -> ReferenceState:
        """An independent copy, random streams included."""
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReferenceState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # Mutable, so unhashable. mypy wants object.__hash__ to stay callable; None is how Python says this.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        status = "over" if self.game_over else f"player {self.current_player} to move"
        return f"<ReferenceState players={self.players} round={self.round} scores={self.scores} {status}>"

    def to_dict(self) -> dict[str, Any]:
        """The position in the JSON-compatible format ``azul_fast/position/1``."""
        return {
            "format": POSITION_FORMAT,
            "variant": self.variant,
            "players": self.players,
            "round": self.round,
            "max_rounds": self.max_rounds,
            "current_player": self.current_player,
            "start_player": self.start_player,
            "marker_holder": self.marker_holder,
            "game_over": self.game_over,
            "truncated": self.truncated,
            "tiling": None if self.tiling is None else {"player": self.tiling[0], "line": self.tiling[1]},
            "factories": [list(f) for f in self.factories],
            "center": list(self.center),
            "center_has_marker": self.center_has_marker,
            "bag": list(self.bag),
            "lid": list(self.lid),
            "boards": [
                {
                    "score": board.score,
                    "wall": ["".join("." if c is None else COLOR_LETTERS[c] for c in row) for row in board.grid],
                    "lines": [
                        [None if color is None else COLOR_LETTERS[color], count] for color, count in board.lines
                    ],
                    "floor": "".join("M" if item is MARKER else COLOR_LETTERS[item] for item in board.floor),
                }
                for board in self.boards
            ],
            "rng": {"bag": self.bag_rng.state, "policy": self.policy_rng.state},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ReferenceState:
        """Rebuild a state from `to_dict` output.

        Checks the format tag, the shapes, that wall letters sit in their colour's cell, that
        the marker flag agrees with `marker_holder`, and that every colour totals 20; the native
        core validates more strictly.
        """
        if d.get("format") != POSITION_FORMAT:
            raise ValueError(f"unknown position format {d.get('format')!r}, expected {POSITION_FORMAT!r}")
        state = cls.__new__(cls)
        state.variant = d.get("variant", "colored")
        if state.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {list(VARIANTS)}, got {state.variant!r}")
        tiling = d.get("tiling")
        state.tiling = None if tiling is None else (int(tiling["player"]), int(tiling["line"]))
        state.players = int(d["players"])
        if not 2 <= state.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {state.players}")
        state.max_rounds = int(d["max_rounds"])
        state.round = int(d["round"])
        state.current_player = int(d["current_player"])
        state.start_player = int(d["start_player"])
        state.marker_holder = None if d["marker_holder"] is None else int(d["marker_holder"])
        state.game_over = bool(d["game_over"])
        state.truncated = bool(d["truncated"])
        state.factories = [[int(n) for n in f] for f in d["factories"]]
        state.center = [int(n) for n in d["center"]]
        state.center_has_marker = bool(d["center_has_marker"])
        state.bag = [int(n) for n in d["bag"]]
        state.lid = [int(n) for n in d["lid"]]
        state.boards = [_board_from_dict(b, state.variant) for b in d["boards"]]
        state.bag_rng = SplitMix64(d["rng"]["bag"])
        state.policy_rng = SplitMix64(d["rng"]["policy"])

        if len(state.factories) != factory_count(state.players):
            raise ValueError(f"{state.players} players need {factory_count(state.players)} factories")
        if len(state.boards) != state.players:
            raise ValueError(f"{state.players} players need {state.players} boards")
        if any(len(counts) != 5 for counts in [*state.factories, state.center, state.bag, state.lid]):
            raise ValueError("every tile count list must have 5 entries")
        if state.center_has_marker != (state.marker_holder is None):
            raise ValueError("center_has_marker must be true exactly when marker_holder is null")
        if state.tile_totals() != [TILES_PER_COLOR] * 5:
            raise ValueError(f"each colour must appear 20 times, counted {state.tile_totals()}")
        return state


def _board_from_dict(d: dict[str, Any], variant: str = "colored") -> PlayerBoard:
    board = PlayerBoard(colors=_empty_grid() if variant == "gray" else None)
    if len(d["wall"]) != WALL_SIZE:
        raise ValueError("a wall has 5 rows")
    for row, text in enumerate(d["wall"]):
        if len(text) != WALL_SIZE:
            raise ValueError(f"wall row {text!r} must have 5 cells")
        for col, letter in enumerate(text):
            if letter == ".":
                continue
            if variant == "colored" and letter != COLOR_LETTERS[printed_color(row, col)]:
                raise ValueError(f"wall row {row + 1} column {col + 1} cannot hold {letter!r}")
            color = Color(COLOR_LETTERS.index(letter))
            if board.wall_has(row, color) or any(board.color_at(r, col) == color for r in range(WALL_SIZE)):
                raise ValueError(f"wall row {row + 1} column {col + 1}: {letter!r} repeats in its row or column")
            board.place(row, col, color)
    lines = []
    for row, (letter, count) in enumerate(d["lines"]):
        if (letter is None) != (count == 0) or not 0 <= count <= row + 1:
            raise ValueError(f"bad pattern line {row + 1}: {[letter, count]}")
        lines.append([None if letter is None else Color(COLOR_LETTERS.index(letter)), count])
    if len(lines) != WALL_SIZE:
        raise ValueError("a board has 5 pattern lines")
    if len(d["floor"]) > FLOOR_SLOTS:
        raise ValueError(f"a floor has at most {FLOOR_SLOTS} slots")
    board.floor = [MARKER if ch == "M" else Color(COLOR_LETTERS.index(ch)) for ch in d["floor"]]
    board.score, board.lines = int(d["score"]), lines
    return board


# --------------------------------------------------------------------------------------------
# Built-in policies (spec 8). Each decision draws exactly one number from the policy stream.
# --------------------------------------------------------------------------------------------


def _legal_or_raise(state: ReferenceState) -> list[AnyMove]:
    moves = state.legal_moves()
    if not moves:
        raise IllegalMoveError("the game is over: there is no move to choose")
    return moves


def choose_random(state: ReferenceState) -> AnyMove:
    """A uniformly random legal move (during a gray tiling: a random legal column)."""
    moves = _legal_or_raise(state)
    return moves[state.policy_rng.below(len(moves))]


def greedy_placement_columns(board: PlayerBoard, row: int, color: int) -> list[int]:
    """Gray wall: the columns for a tile of `color` in `row` scoring most now, left to right."""
    columns = board.free_columns(row, color)
    if not columns:
        return []
    points = [score_tile(board.wall, row, col) for col in columns]
    return [col for col, p in zip(columns, points) if p == max(points)]


def _greedy_gain(state: ReferenceState, board: PlayerBoard, row: int, color: int) -> int:
    """Points of the tile of a line of `color` completed in `row`: its printed cell on the colored
    wall; on the gray wall the best legal column, or 0 when there is none (spec 10)."""
    if state.variant == "colored":
        return score_tile(board.wall, row, wall_column(row, color))
    best = greedy_placement_columns(board, row, color)
    return score_tile(board.wall, row, best[0]) if best else 0


def greedy_value(state: ReferenceState, move: Move) -> int:
    """Immediate points of a legal move: the wall score of a line it completes, minus extra floor penalty."""
    board = state.boards[state.current_player]
    source = state.center if move.source == CENTER else state.factories[move.source]
    taken = source[move.color]
    marker = 1 if move.source == CENTER and state.center_has_marker else 0
    if move.line == FLOOR:
        overflow, gain = taken, 0
    else:
        row = move.line
        count = board.lines[row][1]
        put = min(taken, row + 1 - count)
        overflow = taken - put
        completes = count + put == row + 1
        gain = _greedy_gain(state, board, row, move.color) if completes else 0
    slots = len(board.floor)
    after = min(FLOOR_SLOTS, slots + marker + overflow)
    return gain - (FLOOR_PENALTIES[after] - FLOOR_PENALTIES[slots])


def choose_greedy(state: ReferenceState) -> AnyMove:
    """A random one among the legal moves of highest `greedy_value` (ties kept in canonical order).

    During a gray tiling: a random one among the columns scoring most now.
    """
    moves = _legal_or_raise(state)
    if state.tiling is not None:
        player, row = state.tiling
        board = state.boards[player]
        top = greedy_placement_columns(board, row, board.lines[row][0])
        return Placement(row, top[state.policy_rng.below(len(top))])
    takes = [move for move in moves if isinstance(move, Move)]
    values = [greedy_value(state, move) for move in takes]
    best = max(values)
    chosen = [move for move, value in zip(takes, values) if value == best]
    return chosen[state.policy_rng.below(len(chosen))]


Policy = Callable[[ReferenceState], AnyMove]
POLICIES: dict[str, Policy] = {"random": choose_random, "greedy": choose_greedy}


# --------------------------------------------------------------------------------------------
# Playing whole games.
# --------------------------------------------------------------------------------------------


def _resolve_policies(policies: str | Policy | Sequence[str | Policy], players: int) -> list[Policy]:
    """One policy per seat from a single name/callable or a sequence of them."""
    if isinstance(policies, str) or callable(policies):
        policies = [policies] * players
    if len(policies) != players:
        raise ValueError(f"need one policy per seat ({players}), got {len(policies)}")
    resolved = []
    for policy in policies:
        if callable(policy):
            resolved.append(policy)
        elif policy in POLICIES:
            resolved.append(POLICIES[policy])
        else:
            raise ValueError(f"unknown policy {policy!r}; built-in policies are {sorted(POLICIES)}")
    return resolved


def play_game(
    players: int = 2,
    policies: str | Policy | Sequence[str | Policy] = "random",
    seed: int = 0,
    first_player: int = 0,
    max_rounds: int = 100,
    variant: str = "colored",
) -> dict[str, Any]:
    """Play one game to the end, each seat choosing with its policy.

    `policies` is a policy name (``"random"``, ``"greedy"``) or callable for every seat, or a
    sequence with one per seat.
    Returns ``moves`` (notation strings), ``state`` (the final ReferenceState), ``scores``,
    ``winners``, ``rounds``, ``turns`` and ``truncated``.
    """
    chooser = _resolve_policies(policies, players)
    state = ReferenceState.new(
        players=players, seed=seed, first_player=first_player, max_rounds=max_rounds, variant=variant
    )
    moves = []
    while not state.game_over:
        move = chooser[state.current_player](state)
        state.play(move)
        moves.append(str(move))
    return {
        "moves": moves,
        "state": state,
        "scores": state.scores,
        "winners": state.winners,
        "rounds": state.round,
        "turns": len(moves),
        "truncated": state.truncated,
    }
