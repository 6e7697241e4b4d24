# The packed game: one flat struct per game, so copying a position is a memcpy, and the rule
# kernels over it (docs/engine-spec.md). Pure C: no Python object is touched on these paths.
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core.rules._bits cimport clz, ctz, popcount10

# cpdef: each of these is also a Python int of the compiled _board module, so azul_fast.core.rules.moves
# takes CENTER, FLOOR, PLACE_CODE, ... from here (the value is written once, in this file).
cpdef enum:
    N_COLORS = 5
    N_LINES = 5
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    MAX_FACTORIES = 9
    CENTER = 9              # source index of the centre
    N_SOURCES = 10
    FLOOR = 5               # destination index of the floor line
    FLOOR_SLOTS = 7
    MARKER_CODE = 5         # the first-player marker in a floor slot
    NO_PLAYER = 255
    MOVE_CODES = 300        # dense take ids: (source * 5 + color) * 6 + destination
    PLACE_CODE = 300        # gray wall: PLACE_CODE + column places the tile of the line being tiled
    ROW_BONUS = 2           # end of game: points per complete wall row,
    COLUMN_BONUS = 7        # per complete column,
    COLOR_BONUS = 10        # and per colour with all five tiles on the wall
    MAX_LEGAL_MOVES = 300   # an upper bound on legal moves in any position, for move buffers
    FULL_ROW = 0x1F
    COLUMN_MASK = 0x108421  # bits of column 0: rows 0..4

# Which side of the player boards is played.
cdef enum Variant:
    COLORED = 0             # printed colours: colour c sits in row r at column wall_column(r, c)
    GRAY = 1                # free placement: the player picks the column when a line is tiled

# Why play_move would refuse a move (0 = legal); _state.pyx turns these into messages.
cdef enum MoveError:
    MOVE_OK = 0
    ERR_GAME_OVER
    ERR_BAD_SOURCE
    ERR_NO_TILES
    ERR_LINE_FULL
    ERR_LINE_OTHER_COLOR
    ERR_WALL_HAS_COLOR
    ERR_PLACEMENT_PENDING   # a take while a wall placement is awaited
    ERR_NO_PLACEMENT        # a wall placement while none is awaited
    ERR_CELL_TAKEN          # the chosen column of the row being tiled holds a tile
    ERR_COLUMN_HAS_COLOR    # the chosen column already holds the line's colour

# Invariant violations reported by invariant_violations() as bits (cpdef: the Python class
# _board.Invariant; their texts are _state.INVARIANT_TEXT).
cpdef enum Invariant:
    BAD_TILE_COUNT = 1          # some colour is not accounted for exactly 20 times
    NEGATIVE_SCORE = 2
    FLOOR_OVERFULL = 4
    BAD_PATTERN_LINE = 8        # a line over capacity, or holding a colour its wall row has
    STALE_DERIVED = 16          # source masks or accept masks disagree with the position
    UNMARKED_TRUNCATION = 32    # a finished game without a complete row not marked truncated
    BAD_WALL_COLORS = 64        # colour cells overlap, disagree with the wall, repeat a colour in a
                                # row or column, or (colored side) leave the printed cell
    BAD_TILING = 128            # a paused tiling that does not await a real choice

ctypedef struct Board:
    uint32_t wall                   # placed tiles, bit row * 5 + column (the OR of color_cells)
    uint32_t color_cells[N_COLORS]  # the cells holding each colour (both variants)
    int32_t score
    uint8_t line_color[N_LINES]     # colour of pattern line r (meaningful when line_count[r] > 0)
    uint8_t line_count[N_LINES]     # tiles on pattern line r, 0..r+1
    uint8_t floor[FLOOR_SLOTS]      # floor slots left to right: a colour or MARKER_CODE
    uint8_t floor_count             # occupied floor slots, 0..7
    uint8_t accepts[N_COLORS]       # derived: bit r set when pattern line r accepts the colour

ctypedef struct Game:
    uint64_t bag_rng                # splitmix64 state of the tile-bag stream
    uint64_t policy_rng             # splitmix64 state of the policy stream
    Board boards[MAX_PLAYERS]
    uint8_t sources[N_SOURCES][N_COLORS]   # tiles by colour: factories 0..8, the centre at 9
    uint16_t source_mask[N_COLORS]  # derived: bit s set when source s holds the colour
    uint8_t bag[N_COLORS]
    uint8_t lid[N_COLORS]
    uint8_t players
    uint8_t n_factories
    uint8_t current_player
    uint8_t start_player            # who started this round
    uint8_t marker_holder           # who took the marker this round, or NO_PLAYER
    uint8_t center_has_marker
    uint8_t game_over
    uint8_t truncated
    uint16_t round                  # 1 in the first round
    uint16_t max_rounds
    uint8_t variant                 # a Variant
    uint8_t placing                 # gray wall: the tiling waits for tile_player to pick a column
    uint8_t tile_player             # while placing: the seat and the pattern line being tiled
    uint8_t tile_line
    uint8_t lookahead               # a search's private copy: the end of a round skips the refill
                                    # (the search stops there and reads nothing it would draw)

cdef extern from *:
    """
    static const int azul_floor_penalties[8] = {0, 1, 2, 4, 6, 8, 11, 14};
    """
    const int *FLOOR_PENALTY_TABLE "azul_floor_penalties"   # by occupied floor slots, 0..7

# Kernels over a wall mask (score_tile is inline, at the end: the policies call it for every move).
cdef int complete_rows(uint32_t wall) noexcept nogil
cdef int complete_columns(uint32_t wall) noexcept nogil
cdef int complete_colors(uint32_t wall) noexcept nogil
cdef int board_complete_colors(const Board *b) noexcept nogil   # either variant
cdef int free_columns(const Board *b, int row, int color) noexcept nogil
cdef int placement_columns(const Board *b, int row) noexcept nogil
cdef int gray_greedy_column(const Board *b, int row, int color) noexcept nogil

cdef int choose_placement(Game *g, bint best) noexcept nogil   # the policies' column: random or greedy
cdef int end_bonus(uint32_t wall) noexcept nogil
cdef int board_end_bonus(const Board *b) noexcept nogil

# Game life cycle.
cdef void new_game(Game *g, int players, uint64_t seed, int first_player, int max_rounds, int variant) noexcept nogil
cdef int fill_factories(Game *g) noexcept nogil
cdef void refresh_source_masks(Game *g) noexcept nogil
cdef void refresh_accepts(Board *b) noexcept nogil
cdef int legal_moves(const Game *g, uint16_t *out) noexcept nogil
cdef MoveError check_move(const Game *g, int code) noexcept nogil
cdef void play_move(Game *g, int code) noexcept nogil
cdef void end_round(Game *g) noexcept nogil
cdef void close_round(Game *g) noexcept nogil            # after the tiling and the floors (finish_round)
cdef void settle_board(Game *g, Board *b) noexcept nogil  # a search's round end of one board, floor included
cdef int winners_mask(const Game *g) noexcept nogil
cdef int tiles_of_color(const Game *g, int color) noexcept nogil
cdef int invariant_violations(const Game *g) noexcept nogil


cdef inline int floor_penalty(int slots) noexcept nogil:
    """Points lost for `slots` occupied floor slots (the slots past the seventh cost nothing more)."""
    return FLOOR_PENALTY_TABLE[slots if slots < FLOOR_SLOTS else FLOOR_SLOTS]


cdef inline unsigned int columns_of(uint32_t cells) noexcept nogil:
    """The columns (bit c) that hold a cell of `cells`."""
    return (cells | cells >> 5 | cells >> 10 | cells >> 15 | cells >> 20) & FULL_ROW


cdef inline unsigned int rows_of(uint32_t cells) noexcept nogil:
    """The rows that hold a cell of `cells`, as bit 5 * r (column 0 of each such row)."""
    return (cells | cells >> 1 | cells >> 2 | cells >> 3 | cells >> 4) & COLUMN_MASK


cdef inline int wall_column(int row, int color) noexcept nogil:
    """The colored wall's printed column of `color` in `row` (the one place this formula is written;
    _board.printed_color is its inverse)."""
    return (row + color) % 5


cdef inline int greedy_column(const Board *b, int row, int color, int variant) noexcept nogil:
    """Where a tile of `color` completing `row` would score most now (the first such column),
    or -1 when it has nowhere to go. Inline so the colored wall (one printed cell) costs nothing."""
    if variant == COLORED:
        return wall_column(row, color)
    return gray_greedy_column(b, row, color)


cdef inline int run_through(unsigned int bits, int i) noexcept nogil:
    """Length of the run of set bits of a 5-bit mask through bit i (which is set): the ones from
    bit i up (trailing ones of bits >> i) plus the ones from bit i down (leading ones once bit i
    is shifted to bit 31), bit i counted once. Neither complement is 0, so ctz/clz are defined."""
    return ctz(~(bits >> i)) + clz(~(bits << (31 - i))) - 1


cdef inline int score_tile(uint32_t wall, int row, int col) noexcept nogil:
    """Points for a tile placed at the empty cell (row, col) of `wall`: the horizontal and the
    vertical run through it, each counted when longer than the tile itself; 1 if alone."""
    cdef unsigned int row_bits = (wall >> (row * 5)) & FULL_ROW
    cdef unsigned int col_bits = (((wall >> col) & 1) | ((wall >> (col + 4)) & 2) | ((wall >> (col + 8)) & 4)
                                  | ((wall >> (col + 12)) & 8) | ((wall >> (col + 16)) & 16))
    cdef int h = run_through(row_bits | (<unsigned int>1 << col), col)
    cdef int v = run_through(col_bits | (<unsigned int>1 << row), row)
    cdef int points = (h if h > 1 else 0) + (v if v > 1 else 0)
    return points if points else 1


cdef inline int rounds_left(const Game *g) noexcept nogil:
    """Rounds the game will likely still last: the fullest wall row anyone has is the clock."""
    cdef int p, r, t, most = 0
    for p in range(g.players):
        for r in range(N_LINES):
            t = popcount10((g.boards[p].wall >> (r * 5)) & 0x1F)
            if t > most:
                most = t
    return 5 - most if most < 5 else 1


cdef inline uint32_t dead_cells(const Board *b) noexcept nogil:
    """Gray wall: the empty cells no tile can ever fill (their column holds every colour their row lacks).

    Colour k can still go to the cells of rows without k crossed with columns without k; the
    product of the two masks spreads the columns over those rows (rows are 5 bits apart).
    """
    cdef uint32_t alive = 0
    cdef int k
    for k in range(N_COLORS):
        alive |= (~columns_of(b.color_cells[k]) & FULL_ROW) * (~rows_of(b.color_cells[k]) & COLUMN_MASK)
    return ~b.wall & ~alive & 0x1FFFFFF
