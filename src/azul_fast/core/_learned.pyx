# The learned evaluation in nogil C (the model and its training are described in learned.py).
#
# A board between rounds (after the wall tiling, before the next take) is described by counts:
# wall rows, columns and colours by how many tiles they hold, partly filled pattern lines by line
# and fill, what those lines will score when completed, adjacent wall pairs (future tiles score
# more next to them), whether the seat starts the next round, and (gray wall) rows and columns
# that can never be completed. The value of a board is its score plus a dot product of those
# counts with the weights of its wall side, player count and phase (rounds left): an estimate of
# the final score. The weights live in one C array, installed once from Python (install_weights)
# before any game may use them; the search only reads them, so threads share them safely.
from libc.stdint cimport uint32_t
from libc.string cimport memcpy, memset

from azul_fast.core._bits cimport init_popcount, popcount10, popcount25
from azul_fast.core._board cimport (
    COLUMN_MASK, FULL_ROW, GRAY, N_LINES, Board, Game, dead_cells, greedy_column, rounds_left,
    score_tile,
)

init_popcount()

import numpy as np

cdef double WEIGHTS[N_VARIANTS][N_PLAYER_COUNTS][N_PHASES][N_FEATURES]
cdef bint LOADED = False

#: Shape of the weight array: wall side, player count (2..4), phase (rounds left 1..5), feature.
WEIGHT_SHAPE = (N_VARIANTS, N_PLAYER_COUNTS, N_PHASES, N_FEATURES)

# Feature layout (learned.FEATURES names them in this order).
cdef enum:
    F_BIAS = 0
    F_ROWS = 1              # + t - 1: live wall rows holding t = 1..4 tiles
    F_COLS = 5              # + t - 1: live wall columns holding t = 1..5 tiles
    F_COLORS = 10           # + t - 1: colours with t = 1..5 tiles on the wall
    F_LINES = 15            # + r(r-1)/2 + n - 1: pattern line r = 1..4 holding n = 1..r tiles
    F_LINE_POINTS = 25      # what the partly filled lines score when completed, by fill fraction
    F_ADJACENT = 26         # pairs of horizontally or vertically adjacent wall tiles
    F_STARTS = 27           # this seat starts the next round (took the first-player marker)
    F_DEAD_ROWS = 28        # gray wall: rows that can never be completed
    F_DEAD_COLS = 29        # gray wall: columns that can never be completed


cdef void board_features(const Game *g, int seat, double *x) noexcept nogil:
    """The features of seat `seat`'s board into x[0 .. N_FEATURES - 1]."""
    cdef const Board *b = &g.boards[seat]
    cdef uint32_t wall = b.wall, dead = dead_cells(b) if g.variant == GRAY else 0
    cdef int i, t, r, n, col
    memset(x, 0, N_FEATURES * sizeof(double))
    x[F_BIAS] = 1
    for i in range(5):
        if (dead >> (i * 5)) & FULL_ROW:
            x[F_DEAD_ROWS] += 1
        else:
            t = popcount10((wall >> (i * 5)) & FULL_ROW)
            if 1 <= t <= 4:
                x[F_ROWS + t - 1] += 1
        if dead & (COLUMN_MASK << i):
            x[F_DEAD_COLS] += 1
        else:
            t = popcount25(wall & (COLUMN_MASK << i))
            if t:
                x[F_COLS + t - 1] += 1
        t = popcount25(b.color_cells[i])
        if t:
            x[F_COLORS + t - 1] += 1
    for r in range(1, N_LINES):
        n = b.line_count[r]
        if 0 < n <= r:
            x[F_LINES + r * (r - 1) // 2 + n - 1] = 1
            col = greedy_column(b, r, b.line_color[r], g.variant)
            if col >= 0:
                x[F_LINE_POINTS] += score_tile(wall, r, col) * n / (r + 1.0)
    # Horizontal pairs never straddle two rows: column 4 has no right neighbour.
    x[F_ADJACENT] = popcount25(wall & (wall >> 1) & ~(COLUMN_MASK << 4)) + popcount25(wall & (wall >> 5))
    x[F_STARTS] = g.current_player == seat
    return


cdef double learned_value(const Game *g, int seat) noexcept nogil:
    """The estimated final score of `seat`: exact when the game is over."""
    cdef double x[N_FEATURES]
    cdef double v
    cdef int i
    if g.game_over:
        return g.boards[seat].score
    board_features(g, seat, x)
    cdef const double *w = WEIGHTS[g.variant][g.players - 2][rounds_left(g) - 1]
    v = g.boards[seat].score
    for i in range(N_FEATURES):
        v += w[i] * x[i]
    return v


cdef bint weights_loaded() noexcept nogil:
    return LOADED


def install_weights(weights):
    """Install `weights` (float64, WEIGHT_SHAPE; validated by learned.py) for every later game.

    Called once at import with the shipped weights; training calls it for each new candidate
    (never while games run: the search reads the array without a lock).
    """
    global LOADED
    array = np.ascontiguousarray(weights, dtype=np.float64)
    if array.shape != WEIGHT_SHAPE:
        raise ValueError(f"weights have shape {array.shape}, expected {WEIGHT_SHAPE}")
    if not np.isfinite(array).all():
        raise ValueError("weights must be finite")
    cdef double[:, :, :, ::1] w = array
    memcpy(&WEIGHTS[0][0][0][0], &w[0, 0, 0, 0], sizeof(WEIGHTS))
    LOADED = True


def installed_weights():
    """A copy of the weights in use (None before any are installed)."""
    if not LOADED:
        return None
    out = np.empty(WEIGHT_SHAPE, dtype=np.float64)
    cdef double[:, :, :, ::1] view = out
    memcpy(&view[0, 0, 0, 0], &WEIGHTS[0][0][0][0], sizeof(WEIGHTS))
    return out
