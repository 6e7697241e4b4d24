# The static evaluation of a board, and the gray wall's placement by it (included by _search.pyx).

cdef inline double potential(const double *table, int tiles, int left) noexcept nogil:
    """table[tiles] (a *_POTENTIAL), or LATE_SHARE of it where fewer than the 5 - tiles rounds it needs are left."""
    return table[tiles] if 5 - tiles <= left else LATE_SHARE * table[tiles]


cdef double wall_potential(const Board *b, int left, uint32_t dead) noexcept nogil:
    """Worth of progress towards the end bonuses (rows, columns, colours) of a wall.

    Rows and columns with a dead cell (`dead`, gray wall) can never be completed: no potential.
    """
    cdef int i
    cdef uint32_t wall = b.wall
    cdef double v = 0
    for i in range(5):
        if not (dead >> (i * 5)) & 0x1F:
            v += potential(ROW_POTENTIAL, popcount10((wall >> (i * 5)) & 0x1F), left)
        if not dead & (COLUMN_MASK << i):
            v += potential(COLUMN_POTENTIAL, popcount25(wall & (COLUMN_MASK << i)), left)
        v += potential(COLOR_POTENTIAL, popcount25(b.color_cells[i]), left)
    return v


cdef inline double placement_value(const Board *b, int row, int color, int left, int variant) noexcept nogil:
    """Points for a tile of `color` placed in `row` now, plus the bonus potential it adds."""
    cdef int col = greedy_column(b, row, color, variant)
    cdef uint32_t wall = b.wall
    if col < 0:
        return -(row + 1)   # gray wall, no column left: the line will go to the floor
    cdef int tr = popcount10((wall >> (row * 5)) & 0x1F)
    cdef int tc = popcount25(wall & (COLUMN_MASK << col))
    cdef int tk = popcount25(b.color_cells[color])
    return (score_tile(wall, row, col)
            + potential(ROW_POTENTIAL, tr + 1, left) - potential(ROW_POTENTIAL, tr, left)
            + potential(COLUMN_POTENTIAL, tc + 1, left) - potential(COLUMN_POTENTIAL, tc, left)
            + potential(COLOR_POTENTIAL, tk + 1, left) - potential(COLOR_POTENTIAL, tk, left))


cdef double board_value(const Game *g, int player) noexcept nogil:
    """Static value of a board between rounds: score, partly filled lines, bonus potential."""
    if g.game_over:
        return g.boards[player].score
    return board_value_of(g, &g.boards[player], rounds_left(g))


cdef double board_value_of(const Game *g, const Board *b, int left) noexcept nogil:
    cdef int r, n
    cdef double v = b.score
    v += wall_potential(b, left, dead_cells(b) if g.variant == GRAY else 0)
    for r in range(N_LINES):
        n = b.line_count[r]
        if n:
            v += LINE_WEIGHT * n / (r + 1) * placement_value(b, r, b.line_color[r], left, g.variant)
    return v


cdef int best_placement(const Game *g, uint64_t *rng) noexcept nogil:
    """Gray wall: the legal column for the tile being tiled whose board evaluates best.

    Ties: one draw from `rng` among the best columns, or the first of them when `rng` is NULL.
    """
    cdef const Board *b = &g.boards[g.tile_player]
    cdef int row = g.tile_line, color = b.line_color[row], col, left = rounds_left(g)
    cdef unsigned int cols = placement_columns(b, row), top = 0
    cdef uint32_t bit
    cdef double v, best = -1e300
    cdef Board after
    while cols:
        col = ctz(cols)
        cols &= cols - 1
        after = b[0]
        bit = 1 << (row * 5 + col)
        after.score += score_tile(after.wall, row, col)
        after.wall |= bit
        after.color_cells[color] |= bit
        after.line_count[row] = 0
        v = board_value_of(g, &after, left)
        if v > best + 1e-9:
            best = v
            top = 0
        if v >= best - 1e-9:
            top |= 1 << col
    return PLACE_CODE + nth_bit(top, below(rng, popcount10(top)) if rng != NULL else 0)
