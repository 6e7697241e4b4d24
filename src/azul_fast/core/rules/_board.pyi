# Stubs for the Python-visible names of _board.pyx: thin entry points to the scoring kernels
# (kernels.py validates their inputs; use its functions instead) and the core's constants.
import enum

def _score_tile(wall: int, row: int, col: int) -> int: ...
def _end_bonus(wall: int) -> int: ...
def _complete_counts(wall: int) -> tuple[int, int, int]: ...
def printed_column(row: int, color: int) -> int: ...
def printed_color(row: int, column: int) -> int: ...

# The core's constants (the cpdef enums of _board.pxd and the floor penalty table).
N_COLORS: int
N_LINES: int
MIN_PLAYERS: int
MAX_PLAYERS: int
MAX_FACTORIES: int
CENTER: int
N_SOURCES: int
FLOOR: int
FLOOR_SLOTS: int
MARKER_CODE: int
NO_PLAYER: int
MOVE_CODES: int
PLACE_CODE: int
ROW_BONUS: int
COLUMN_BONUS: int
COLOR_BONUS: int
MAX_LEGAL_MOVES: int
FULL_ROW: int
COLUMN_MASK: int
FLOOR_PENALTIES: tuple[int, ...]

class Invariant(enum.IntEnum):
    BAD_TILE_COUNT = 1
    NEGATIVE_SCORE = 2
    FLOOR_OVERFULL = 4
    BAD_PATTERN_LINE = 8
    STALE_DERIVED = 16
    UNMARKED_TRUNCATION = 32
    BAD_WALL_COLORS = 64
    BAD_TILING = 128
