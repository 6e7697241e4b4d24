# The learned evaluation in nogil C (the model and its training are described in learned.py).
#
# A board between rounds (after the wall tiling, before the next take) is described by counts:
# wall rows, columns and colours by how many tiles they hold, partly filled pattern lines by line
# and fill, what those lines will score when completed, adjacent wall pairs (future tiles score
# more next to them), whether the seat starts the next round, and (gray wall) rows and columns
# that can never be completed. The value of a board is its score plus a dot product of those
# counts with the weights of its wall side, player count and phase (rounds left): an estimate of
# the final score.
#
# A search that ends a round early (its rollouts stop once every opponent has answered) tiles the
# walls with the tiles still on the table unplayed: a line they would have completed stays open, a
# seat they would have forced onto its floor loses nothing. leftover_values corrects that with a
# small network (LEFTOVER_UNITS hidden units, rectified) over counts of the table seen from the seat
# (tiles and sources left, tiles in the centre, whose turn it is, the lines those tiles can still
# complete and their points, the tiles that would overflow to the floor completing them, empty
# lines the table could fill, the tiles no line of the seat can take), one network per wall side
# and player count, fitted to what the seats of the search's own games went on to gain by the
# round's real end (azul_fast.training.pipeline). A network, not a linear model of the same counts,
# because the counts matter in combination (the figures: docs/history.md).
#
# The weights live in C arrays, installed once from Python (install_weights) before any game may
# use them; the search only reads them, so threads share them safely.
from libc.stdint cimport uint32_t
from libc.string cimport memcpy, memset

from azul_fast.core.rules._bits cimport ctz, init_popcount, popcount10, popcount25
from azul_fast.core.rules._board cimport (
    CENTER, COLUMN_MASK, FULL_ROW, GRAY, N_COLORS, N_LINES, Board, Game, dead_cells, greedy_column,
    rounds_left, score_tile,
)

init_popcount()

import numpy as np

cdef double WEIGHTS[N_VARIANTS][N_PLAYER_COUNTS][N_PHASES][N_FEATURES]
# The leftover network's hidden layer feature by feature (the units innermost: a feature that is not
# zero updates one contiguous row), and its output layer: the units' weights, then the bias.
cdef double LEFTOVER_HIDDEN[N_VARIANTS][N_PLAYER_COUNTS][N_LEFTOVER_FEATURES][LEFTOVER_UNITS]
cdef double LEFTOVER_OUTPUT[N_VARIANTS][N_PLAYER_COUNTS][LEFTOVER_UNITS + 1]
cdef bint LEFTOVER_USED[N_VARIANTS][N_PLAYER_COUNTS]   # any of a setting's leftover weights is not zero
cdef bint LOADED = False

#: Shape of the weight array: wall side, player count (2..4), phase (rounds left 1..5), feature.
WEIGHT_SHAPE = (N_VARIANTS, N_PLAYER_COUNTS, N_PHASES, N_FEATURES)
#: Shape of the leftover network's hidden layer: wall side, player count (2..4), leftover feature, unit.
LEFTOVER_HIDDEN_SHAPE = (N_VARIANTS, N_PLAYER_COUNTS, N_LEFTOVER_FEATURES, LEFTOVER_UNITS)
#: Shape of its output layer: wall side, player count, the units' weights and then the bias.
LEFTOVER_OUTPUT_SHAPE = (N_VARIANTS, N_PLAYER_COUNTS, LEFTOVER_UNITS + 1)

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
    F_LINE_BONUS = 30       # end bonuses the partly filled lines would complete, by fill fraction

# Leftover feature layout (learned.LEFTOVER_FEATURES names them in this order).
cdef enum:
    L_BIAS = 0
    L_TILES = 1             # tiles left on the table, in tens
    L_SOURCES = 2           # factories and centre still holding tiles, in fives
    L_TO_MOVE = 3           # the seat moves next
    L_MARKER = 4            # the first-player marker is still in the centre
    L_WAIT = 5              # turns until the seat moves, as a fraction of the seats
    L_COMPLETABLE_POINTS = 6    # what the seat's partly filled lines that the table can still fill will score
    L_COMPLETABLE = 7       # those lines
    L_SHORT = 8             # partly filled lines the table no longer holds enough tiles to fill
    L_EMPTY = 9             # empty pattern lines
    L_UNPLACEABLE = 10      # tiles on the table of colours no line of the seat accepts, in fives
    L_FLOOR_TILES = 11      # floor slots taken times tiles left (in tens): more floor, more risk
    L_CENTER_TILES = 12     # tiles in the centre, in tens
    L_FILLABLE_EMPTY = 13   # empty pattern lines that the tiles left of one colour they accept could fill
    L_OVERFLOW = 14         # the seat's lines the table can still fill: the fewest tiles that taking their
                            # colour from one source would drop on the floor, summed, in fives
    L_MARKER_TO_MOVE = 15   # the marker is still in the centre and the seat moves next
    L_COMPLETABLE_TO_MOVE = 16  # the lines the table can still fill (L_COMPLETABLE) when the seat moves next


cdef void board_features(const Game *g, int seat, double *x) noexcept nogil:
    """The features of seat `seat`'s board into x[0 .. N_FEATURES - 1]."""
    cdef const Board *b = &g.boards[seat]
    cdef uint32_t wall = b.wall, dead = dead_cells(b) if g.variant == GRAY else 0
    cdef int i, r, n, col, bonus
    cdef int row_tiles[5]
    cdef int column_tiles[5]
    cdef int color_tiles[5]   # the tiles on the wall of each row, column and colour (line_bonus reads them too)
    memset(x, 0, N_FEATURES * sizeof(double))
    x[F_BIAS] = 1
    for i in range(5):
        row_tiles[i] = popcount10((wall >> (i * 5)) & FULL_ROW)
        column_tiles[i] = popcount25(wall & (COLUMN_MASK << i))
        color_tiles[i] = popcount25(b.color_cells[i])
        if (dead >> (i * 5)) & FULL_ROW:
            x[F_DEAD_ROWS] += 1
        elif 1 <= row_tiles[i] <= 4:
            x[F_ROWS + row_tiles[i] - 1] += 1
        if dead & (COLUMN_MASK << i):
            x[F_DEAD_COLS] += 1
        elif column_tiles[i]:
            x[F_COLS + column_tiles[i] - 1] += 1
        if color_tiles[i]:
            x[F_COLORS + color_tiles[i] - 1] += 1
    for r in range(1, N_LINES):
        n = b.line_count[r]
        if 0 < n <= r:
            x[F_LINES + r * (r - 1) // 2 + n - 1] = 1
            col = greedy_column(b, r, b.line_color[r], g.variant)
            if col >= 0:
                x[F_LINE_POINTS] += score_tile(wall, r, col) * n / (r + 1.0)
                bonus = 0
                if row_tiles[r] == 4:
                    bonus += 2
                if column_tiles[col] == 4:
                    bonus += 7
                if color_tiles[b.line_color[r]] == 4:
                    bonus += 10
                x[F_LINE_BONUS] += bonus * n / (r + 1.0)
    # Horizontal pairs never straddle two rows: column 4 has no right neighbour.
    x[F_ADJACENT] = popcount25(wall & (wall >> 1) & ~(COLUMN_MASK << 4)) + popcount25(wall & (wall >> 5))
    x[F_STARTS] = g.current_player == seat
    return


cdef double learned_value(const Game *g, int seat) noexcept nogil:
    """The estimated final score of `seat`: exact when the game is over."""
    if g.game_over:
        return g.boards[seat].score
    return learned_value_at(g, seat, rounds_left(g))


cdef double learned_value_at(const Game *g, int seat, int left) noexcept nogil:
    """learned_value of `seat` in a game not over whose rounds_left is `left` (a search values
    every seat of a leaf: it counts the rounds left once)."""
    cdef double x[N_FEATURES]
    cdef double v
    cdef int i
    board_features(g, seat, x)
    cdef const double *w = WEIGHTS[g.variant][g.players - 2][left - 1]
    v = g.boards[seat].score
    for i in range(N_FEATURES):
        v += w[i] * x[i]
    return v


ctypedef struct Table:
    # What is left on the table, the same for every seat.
    int left[N_COLORS]      # tiles of each colour
    int tiles
    int sources             # factories and centre still holding tiles
    double center_tens      # tiles in the centre, in tens (the leftover feature L_CENTER_TILES)


# t / 10.0 for every count t of a colour in the centre: the very doubles the division gives.
cdef double TENTHS[256]
cdef int _t
for _t in range(256):
    TENTHS[_t] = _t / 10.0


cdef void count_table(const Game *g, Table *t) noexcept nogil:
    cdef int c
    cdef unsigned int holders, held = 0
    t.tiles = 0
    t.center_tens = 0
    for c in range(N_COLORS):
        holders = g.source_mask[c]   # the sources holding the colour
        held |= holders
        t.left[c] = 0
        while holders:
            t.left[c] += g.sources[ctz(holders)][c]
            holders &= holders - 1
        t.tiles += t.left[c]
        t.center_tens += TENTHS[g.sources[CENTER][c]]   # colour by colour, as the feature was first summed
    t.sources = popcount10(held)   # factories and centre still holding tiles


cdef void seat_leftover_features(const Game *g, int seat, const Table *t, double *x) noexcept nogil:
    """The leftover features of seat `seat` into x[0 .. N_LEFTOVER_FEATURES - 1] (`t`: the table)."""
    cdef const Board *b = &g.boards[seat]
    cdef int c, r, n, col, color, s, over, fewest
    cdef unsigned int holders
    # Counted in locals and written once: x may alias the board's bytes as far as the compiler
    # knows, so adding into x[] in the loops stores and reloads every count (and clearing x first
    # took a `rep stos`; so every feature must be written below). The sums run in the same order
    # as when they were added into x: the very same doubles.
    cdef int empty = 0, fillable_empty = 0, completable = 0, completable_points = 0, unfillable = 0
    cdef double overflow = 0, unplaceable = 0
    cdef bint to_move = g.current_player == seat
    for r in range(N_LINES):
        n = b.line_count[r]
        if n == 0:
            empty += 1
            for c in range(N_COLORS):
                if (b.accepts[c] >> r) & 1 and t.left[c] >= r + 1:
                    fillable_empty += 1
                    break
        elif n <= r:
            color = b.line_color[r]
            if t.left[color] >= r + 1 - n:
                col = greedy_column(b, r, color, g.variant)
                completable_points += score_tile(b.wall, r, col) if col >= 0 else 0
                completable += 1
                fewest = -1   # the table holds the colour, so some source does: those of source_mask
                holders = g.source_mask[color]
                while holders:
                    s = ctz(holders)
                    holders &= holders - 1
                    over = g.sources[s][color] - (r + 1 - n)
                    over = over if over > 0 else 0
                    if fewest < 0 or over < fewest:
                        fewest = over
                overflow += fewest / 5.0
            else:
                unfillable += 1
    for c in range(N_COLORS):
        if not b.accepts[c]:
            unplaceable += t.left[c] / 5.0
    x[L_BIAS] = 1
    x[L_TILES] = t.tiles / 10.0
    x[L_SOURCES] = t.sources / 5.0
    x[L_TO_MOVE] = to_move
    x[L_MARKER] = g.center_has_marker
    x[L_WAIT] = ((seat - g.current_player + g.players) % g.players) / <double>g.players
    x[L_COMPLETABLE_POINTS] = completable_points
    x[L_COMPLETABLE] = completable
    x[L_SHORT] = unfillable
    x[L_EMPTY] = empty
    x[L_UNPLACEABLE] = unplaceable
    x[L_FLOOR_TILES] = b.floor_count * t.tiles / 10.0
    x[L_CENTER_TILES] = t.center_tens
    x[L_FILLABLE_EMPTY] = fillable_empty
    x[L_OVERFLOW] = overflow
    x[L_MARKER_TO_MOVE] = g.center_has_marker * to_move
    x[L_COMPLETABLE_TO_MOVE] = completable * to_move


cdef void leftover_features(const Game *g, int seat, double *x) noexcept nogil:
    """The leftover features of seat `seat` mid-round into x[0 .. N_LEFTOVER_FEATURES - 1]."""
    cdef Table t
    count_table(g, &t)
    seat_leftover_features(g, seat, &t, x)


cdef void leftover_values(const Game *g, double *out) noexcept nogil:
    """What the tiles still on the table are worth to each seat in a round its search ends early
    (to be added to learned_value of the walls tiled without them): out[0 .. players - 1]. Zero
    where the model has no weights (the table is then not even counted)."""
    cdef double x[N_LEFTOVER_FEATURES]
    cdef double units[LEFTOVER_UNITS]
    cdef int p, i, u
    cdef Table t
    if not LEFTOVER_USED[g.variant][g.players - 2]:
        memset(out, 0, g.players * sizeof(double))
        return
    count_table(g, &t)
    cdef const double *hidden = &LEFTOVER_HIDDEN[g.variant][g.players - 2][0][0]   # [feature][unit]
    cdef const double *output = LEFTOVER_OUTPUT[g.variant][g.players - 2]
    for p in range(g.players):
        seat_leftover_features(g, p, &t, x)
        memset(units, 0, sizeof(units))
        for i in range(N_LEFTOVER_FEATURES):
            if x[i] != 0:   # most counts are zero at any one time
                for u in range(LEFTOVER_UNITS):
                    units[u] += hidden[i * LEFTOVER_UNITS + u] * x[i]
        out[p] = output[LEFTOVER_UNITS]
        for u in range(LEFTOVER_UNITS):
            if units[u] > 0:
                out[p] += output[u] * units[u]


include "_learned_net.pxi"


cdef bint weights_loaded() noexcept nogil:
    return LOADED


def install_weights(weights, hidden, output):
    """Install `weights` (float64, WEIGHT_SHAPE) and the leftover network's `hidden`
    (LEFTOVER_HIDDEN_SHAPE) and `output` (LEFTOVER_OUTPUT_SHAPE) layers, validated by learned.py,
    for every later game.

    Called once at import with the shipped weights; training calls it for each new candidate
    (never while games run: the search reads the arrays without a lock).
    """
    global LOADED
    arrays = []
    for name, a, shape in (("weights", weights, WEIGHT_SHAPE), ("leftover hidden layer", hidden, LEFTOVER_HIDDEN_SHAPE),
                           ("leftover output layer", output, LEFTOVER_OUTPUT_SHAPE)):
        a = np.ascontiguousarray(a, dtype=np.float64)
        if a.shape != shape:
            raise ValueError(f"{name} have shape {a.shape}, expected {shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must be finite")
        arrays.append(a)
    cdef double[:, :, :, ::1] w = arrays[0]
    cdef double[:, :, :, ::1] h = arrays[1]
    cdef double[:, :, ::1] o = arrays[2]
    memcpy(&WEIGHTS[0][0][0][0], &w[0, 0, 0, 0], sizeof(WEIGHTS))
    memcpy(&LEFTOVER_HIDDEN[0][0][0][0], &h[0, 0, 0, 0], sizeof(LEFTOVER_HIDDEN))
    memcpy(&LEFTOVER_OUTPUT[0][0][0], &o[0, 0, 0], sizeof(LEFTOVER_OUTPUT))
    cdef int v, p
    for v in range(N_VARIANTS):
        for p in range(N_PLAYER_COUNTS):
            LEFTOVER_USED[v][p] = bool(arrays[1][v, p].any() or arrays[2][v, p].any())
    LOADED = True


def installed_weights():
    """Copies of the weights in use, (weights, leftover hidden layer, leftover output layer), or None
    before any are installed."""
    if not LOADED:
        return None
    out = np.empty(WEIGHT_SHAPE, dtype=np.float64)
    hidden = np.empty(LEFTOVER_HIDDEN_SHAPE, dtype=np.float64)
    output = np.empty(LEFTOVER_OUTPUT_SHAPE, dtype=np.float64)
    cdef double[:, :, :, ::1] view = out
    cdef double[:, :, :, ::1] hidden_view = hidden
    cdef double[:, :, ::1] output_view = output
    memcpy(&view[0, 0, 0, 0], &WEIGHTS[0][0][0][0], sizeof(WEIGHTS))
    memcpy(&hidden_view[0, 0, 0, 0], &LEFTOVER_HIDDEN[0][0][0][0], sizeof(LEFTOVER_HIDDEN))
    memcpy(&output_view[0, 0, 0], &LEFTOVER_OUTPUT[0][0][0], sizeof(LEFTOVER_OUTPUT))
    return out, hidden, output
