# The rules of Azul (colored wall, and the gray wall variant) over the packed Game struct;
# docs/engine-spec.md is the contract, and reference.py is the same rules written plainly in Python.
#
# Both variants keep color_cells (the cells of each colour), so "wall row r holds colour c" is
# one mask test either way; the gray wall only differs when a full line is tiled (its player picks
# the column, so the tiling may pause for a decision: g.placing and the tiling cursor).
from libc.string cimport memset

from azul_fast.core.rules._rng cimport BAG_SALT, POLICY_SALT, below, mix64

from azul_fast.core.rules._bits cimport ctz, init_popcount, nth_bit, popcount10, popcount25

init_popcount()

#: The floor penalty table for Python (azul_fast.core.rules.moves.FLOOR_PENALTIES): the cumulative penalty by
#: occupied floor slots (0..7). Read from the C table of _board.pxd (as scikit-learn sets TREE_LEAF),
#: never retyped.
FLOOR_PENALTIES = tuple(FLOOR_PENALTY_TABLE[i] for i in range(FLOOR_SLOTS + 1))


cdef inline bint row_has(const Board *b, int row, int color) noexcept nogil:
    return (b.color_cells[color] >> (row * 5)) & FULL_ROW != 0


def printed_column(int row, int color):
    """The printed column of `color` in `row` of the colored wall (azul_fast.core.rules.moves.wall_column)."""
    return wall_column(row, color)


def printed_color(int row, int column):
    """The colour printed in `row`, `column` of the colored wall (azul_fast.core.rules.moves.printed_color): the
    inverse of wall_column, so wall_column(row, printed_color(row, column)) == column."""
    return (column - row + N_COLORS) % N_COLORS


cdef int complete_rows(uint32_t wall) noexcept nogil:
    cdef int r, n = 0
    for r in range(5):
        if (wall >> (r * 5)) & FULL_ROW == FULL_ROW:
            n += 1
    return n


cdef int complete_columns(uint32_t wall) noexcept nogil:
    cdef int c, n = 0
    for c in range(5):
        if wall & (COLUMN_MASK << c) == (COLUMN_MASK << c):
            n += 1
    return n


cdef int complete_colors(uint32_t wall) noexcept nogil:
    cdef int color, r, n = 0
    cdef bint complete
    for color in range(N_COLORS):
        complete = True
        for r in range(5):
            if not (wall >> (r * 5 + wall_column(r, color))) & 1:
                complete = False
                break
        n += complete
    return n


cdef int end_bonus(uint32_t wall) noexcept nogil:
    return ROW_BONUS * complete_rows(wall) + COLUMN_BONUS * complete_columns(wall) + COLOR_BONUS * complete_colors(wall)


cdef int board_complete_colors(const Board *b) noexcept nogil:
    """Colours with all 5 tiles on the wall, wherever they sit (either variant)."""
    cdef int c, n = 0
    for c in range(N_COLORS):
        n += popcount25(b.color_cells[c]) == 5
    return n


cdef int board_end_bonus(const Board *b) noexcept nogil:
    return (ROW_BONUS * complete_rows(b.wall) + COLUMN_BONUS * complete_columns(b.wall)
            + COLOR_BONUS * board_complete_colors(b))


cdef int free_columns(const Board *b, int row, int color) noexcept nogil:
    """Gray wall: the columns (bit c) where a tile of `color` may go in `row`.

    Empty cells of the row whose column does not hold the colour yet.
    """
    return ~(b.wall >> (row * 5)) & ~columns_of(b.color_cells[color]) & FULL_ROW


cdef int placement_columns(const Board *b, int row) noexcept nogil:
    """Gray wall: the legal columns (bit c) for the tile of full line `row`."""
    return free_columns(b, row, b.line_color[row])


cdef unsigned int top_scoring_columns(uint32_t wall, int row, unsigned int cols) noexcept nogil:
    """The columns among `cols` (bit c) where a tile in `row` of `wall` would score most now."""
    cdef unsigned int top = 0
    cdef int col, points, best_points = -1
    while cols:
        col = ctz(cols)
        cols &= cols - 1
        points = score_tile(wall, row, col)
        if points > best_points:
            best_points = points
            top = 0
        if points == best_points:
            top |= 1 << col
    return top


cdef int gray_greedy_column(const Board *b, int row, int color) noexcept nogil:
    """greedy_column on the gray wall: the first free column scoring most, or -1 if none."""
    cdef unsigned int cols = free_columns(b, row, color)
    return ctz(top_scoring_columns(b.wall, row, cols)) if cols else -1


cdef void new_game(Game *g, int players, uint64_t seed, int first_player, int max_rounds, int variant) noexcept nogil:
    cdef int c, p
    memset(g, 0, sizeof(Game))
    g.bag_rng = mix64(seed ^ BAG_SALT)
    g.policy_rng = mix64(seed ^ POLICY_SALT)
    g.players = players
    g.n_factories = 2 * players + 1
    g.current_player = first_player
    g.start_player = first_player
    g.marker_holder = NO_PLAYER
    g.center_has_marker = 1
    g.round = 1
    g.max_rounds = max_rounds
    g.variant = variant
    for c in range(N_COLORS):
        g.bag[c] = 20
        for p in range(MAX_PLAYERS):
            g.boards[p].accepts[c] = FULL_ROW
    fill_factories(g)


cdef int fill_factories(Game *g) noexcept nogil:
    """Draw 4 tiles per factory; pour the lid into the bag only when a draw finds it empty.

    Returns the number of tiles drawn (0 means the game cannot go on).
    """
    cdef int f, _k, c, drawn = 0
    cdef int in_bag = 0
    cdef uint32_t r
    for c in range(N_COLORS):
        in_bag += g.bag[c]
    for f in range(g.n_factories):
        for _k in range(4):
            if in_bag == 0:
                for c in range(N_COLORS):
                    g.bag[c] = g.lid[c]
                    in_bag += g.lid[c]
                    g.lid[c] = 0
                if in_bag == 0:
                    return drawn
            r = below(&g.bag_rng, in_bag)
            c = 0
            while r >= g.bag[c]:
                r -= g.bag[c]
                c += 1
            g.bag[c] -= 1
            in_bag -= 1
            g.sources[f][c] += 1
            g.source_mask[c] |= 1 << f
            drawn += 1
    return drawn


cdef void refresh_source_masks(Game *g) noexcept nogil:
    cdef int s, c
    for c in range(N_COLORS):
        g.source_mask[c] = 0
        for s in range(N_SOURCES):
            if g.sources[s][c]:
                g.source_mask[c] |= 1 << s


cdef void refresh_accepts(Board *b) noexcept nogil:
    """Recompute accepts[c] (bit r set when pattern line r accepts colour c) from scratch."""
    cdef int r, c, count
    for c in range(N_COLORS):
        b.accepts[c] = 0
    for r in range(N_LINES):
        count = b.line_count[r]
        if count == 0:
            open_line(b, r)
        elif count <= r:
            b.accepts[b.line_color[r]] |= 1 << r


cdef inline void open_line(Board *b, int r) noexcept nogil:
    """An empty line r accepts every colour its wall row lacks."""
    cdef int c
    for c in range(N_COLORS):
        if not row_has(b, r, c):
            b.accepts[c] |= 1 << r


cdef int legal_moves(const Game *g, uint16_t *out) noexcept nogil:
    """Write the legal move codes in canonical order (spec section 5); return how many.

    _search.walk_takes walks the moves in this same order without listing them (the searches' node
    expansion, the heuristic and the rollouts' noise draws follow it): a change of order here changes
    it there too."""
    cdef const uint8_t *acc = g.boards[g.current_player].accepts
    cdef int n = 0, s, c, d
    cdef unsigned int sources, lines
    if g.game_over:
        return 0
    if g.placing:
        lines = placement_columns(&g.boards[g.tile_player], g.tile_line)
        while lines:
            out[n] = PLACE_CODE + ctz(lines)
            lines &= lines - 1
            n += 1
        return n
    for c in range(N_COLORS):
        sources = g.source_mask[c]
        while sources:
            s = ctz(sources)
            sources &= sources - 1
            lines = acc[c]
            while lines:
                d = ctz(lines)
                lines &= lines - 1
                out[n] = (s * 5 + c) * 6 + d
                n += 1
            out[n] = (s * 5 + c) * 6 + FLOOR
            n += 1
    return n


cdef MoveError check_move(const Game *g, int code) noexcept nogil:
    cdef int source = code // 30, color = code // 6 % 5, dest = code % 6
    cdef const Board *b = &g.boards[g.current_player]
    if g.game_over:
        return ERR_GAME_OVER
    if g.placing:
        if code < PLACE_CODE:
            return ERR_PLACEMENT_PENDING
        if (b.wall >> (g.tile_line * 5 + code - PLACE_CODE)) & 1:
            return ERR_CELL_TAKEN
        if not (placement_columns(b, g.tile_line) >> (code - PLACE_CODE)) & 1:
            return ERR_COLUMN_HAS_COLOR
        return MOVE_OK
    if code >= PLACE_CODE:
        return ERR_NO_PLACEMENT
    if source != CENTER and source >= g.n_factories:
        return ERR_BAD_SOURCE
    if g.sources[source][color] == 0:
        return ERR_NO_TILES
    if dest == FLOOR:
        return MOVE_OK
    if b.line_count[dest] == dest + 1:
        return ERR_LINE_FULL
    if b.line_count[dest] and b.line_color[dest] != color:
        return ERR_LINE_OTHER_COLOR
    if row_has(b, dest, color):
        return ERR_WALL_HAS_COLOR
    return MOVE_OK


cdef inline void drop_to_floor(Game *g, Board *b, int color, int n) noexcept nogil:
    """Tiles fill the leftmost free floor slots; what does not fit goes to the lid."""
    while n and b.floor_count < FLOOR_SLOTS:
        b.floor[b.floor_count] = color
        b.floor_count += 1
        n -= 1
    g.lid[color] += n


cdef void play_move(Game *g, int code) noexcept nogil:
    """Play a legal move (check_move first); ends the round when the table is empty."""
    cdef int source = code // 30, color = code // 6 % 5, dest = code % 6
    cdef int p = g.current_player, x, put, taken, moved, full
    cdef Board *b = &g.boards[p]
    if code >= PLACE_CODE:
        place_tile(g, &g.boards[g.tile_player], g.tile_line, code - PLACE_CODE)
        g.tile_line += 1
        if not gray_tiling(g):
            finish_round(g)
        return
    taken = g.sources[source][color]
    g.sources[source][color] = 0
    g.source_mask[color] &= ~(1 << source)
    if source == CENTER:
        if g.center_has_marker:
            g.center_has_marker = 0
            g.marker_holder = p
            if b.floor_count < FLOOR_SLOTS:
                b.floor[b.floor_count] = MARKER_CODE
                b.floor_count += 1
    else:
        # The rest of the factory to the centre, without a branch a colour (which colours a factory
        # holds is a coin toss for the branch predictor): the factory is emptied, so every colour
        # loses its bit, and the centre gains the bit of each colour that arrives.
        for x in range(N_COLORS):
            moved = g.sources[source][x]
            g.sources[CENTER][x] += moved
            g.sources[source][x] = 0
            g.source_mask[x] = (g.source_mask[x] & ~(1 << source)) | ((moved != 0) << CENTER)
    if dest == FLOOR:
        drop_to_floor(g, b, color, taken)
    else:
        put = dest + 1 - b.line_count[dest]
        if taken < put:
            put = taken
        b.line_color[dest] = color
        b.line_count[dest] += put
        # Line dest now takes only this colour, and nothing once full (no branch a colour).
        full = b.line_count[dest] == dest + 1
        for x in range(N_COLORS):
            b.accepts[x] &= ~(((x != color) | full) << dest)
        if taken > put:
            drop_to_floor(g, b, color, taken - put)
    if (g.source_mask[0] | g.source_mask[1] | g.source_mask[2] | g.source_mask[3] | g.source_mask[4]) == 0:
        end_round(g)
    else:
        g.current_player = p + 1 if p + 1 < g.players else 0


cdef inline void place_tile(Game *g, Board *b, int r, int col) noexcept nogil:
    """The tile of full line r goes to (r, col) and scores at once; the rest of the line to the lid."""
    cdef int color = b.line_color[r]
    cdef uint32_t bit = 1 << (r * 5 + col)
    b.score += score_tile(b.wall, r, col)
    b.wall |= bit
    b.color_cells[color] |= bit
    g.lid[color] += r
    b.line_count[r] = 0
    b.line_color[r] = 0
    open_line(b, r)


cdef inline void drop_line(Game *g, Board *b, int r) noexcept nogil:
    """Gray wall: full line r, whose tile has no legal column, goes to the floor whole (spec section 10)."""
    drop_to_floor(g, b, b.line_color[r], r + 1)
    b.line_count[r] = 0
    b.line_color[r] = 0
    open_line(b, r)


cdef inline void tile_colored(Game *g, Board *b) noexcept nogil:
    """Colored wall tiling of one board (spec section 7, step 1): every full line, top to bottom."""
    cdef int r
    for r in range(N_LINES):
        if b.line_count[r] == r + 1:
            place_tile(g, b, r, wall_column(r, b.line_color[r]))


cdef bint gray_tiling(Game *g) noexcept nogil:
    """Gray wall tiling from the cursor on (spec section 10); True when it pauses for a choice.

    A full line with no legal column goes to the floor whole, one legal column is taken without
    asking, and two or more make the tiling wait for its player's placement move.
    """
    cdef int p = g.tile_player, r = g.tile_line, cols
    cdef Board *b
    while p < g.players:
        b = &g.boards[p]
        while r < N_LINES:
            if b.line_count[r] == r + 1:
                cols = placement_columns(b, r)
                if cols == 0:
                    drop_line(g, b, r)
                elif cols & (cols - 1) == 0:
                    place_tile(g, b, r, ctz(cols))
                else:
                    g.placing = 1
                    g.tile_player = p
                    g.tile_line = r
                    g.current_player = p
                    return True
            r += 1
        p += 1
        r = 0
    g.placing = 0
    g.tile_player = 0
    g.tile_line = 0
    return False


cdef inline void apply_floor(Game *g, Board *b) noexcept nogil:
    """Floor penalty of one board (spec section 7, step 2); floor tiles to the lid."""
    cdef int i
    b.score -= floor_penalty(b.floor_count)
    if b.score < 0:
        b.score = 0
    for i in range(b.floor_count):
        if b.floor[i] != MARKER_CODE:
            g.lid[b.floor[i]] += 1
        b.floor[i] = 0
    b.floor_count = 0


cdef void end_round(Game *g) noexcept nogil:
    cdef int p
    if g.variant == GRAY:
        g.tile_player = 0
        g.tile_line = 0
        if gray_tiling(g):
            return
    else:
        for p in range(g.players):
            tile_colored(g, &g.boards[p])
    finish_round(g)


cdef inline bint out_of_tiles(const Game *g) noexcept nogil:
    """Bag and lid both empty: exactly when fill_factories would draw nothing."""
    cdef int c
    for c in range(N_COLORS):
        if g.bag[c] or g.lid[c]:
            return False
    return True


cdef void finish_round(Game *g) noexcept nogil:
    """End of round after the wall tiling: floors, then close_round."""
    cdef int p
    for p in range(g.players):
        apply_floor(g, &g.boards[p])
    close_round(g)


cdef void close_round(Game *g) noexcept nogil:
    """End of round after the wall tiling and the floors: next starting player, end of game or refill."""
    cdef int p
    cdef bint row_done = False
    for p in range(g.players):
        row_done = row_done or complete_rows(g.boards[p].wall) > 0
    if g.marker_holder != NO_PLAYER:
        g.start_player = g.marker_holder
    g.current_player = g.start_player
    g.marker_holder = NO_PLAYER
    g.center_has_marker = 1
    if row_done:
        g.game_over = 1
        for p in range(g.players):
            g.boards[p].score += board_end_bonus(&g.boards[p])
    elif g.round >= g.max_rounds or (out_of_tiles(g) if g.lookahead else fill_factories(g) == 0):
        g.game_over = 1
        g.truncated = 1
    else:
        g.round += 1


cdef void settle_board(Game *g, Board *b) noexcept nogil:
    """One board's part of the end of a round as a search plays it (end_round, every gray-wall choice
    greedy's column as _search.settle makes it, then its floor): what it does to the board depends on
    the board alone; its discards go to g's lid. close_round then ends the round."""
    cdef int r, cols
    if g.variant != GRAY:
        tile_colored(g, b)
    else:
        for r in range(N_LINES):   # gray_tiling's order and rules, its pauses answered by greedy_column
            if b.line_count[r] == r + 1:
                cols = placement_columns(b, r)
                if cols == 0:
                    drop_line(g, b, r)
                else:
                    place_tile(g, b, r, ctz(top_scoring_columns(b.wall, r, cols)))
    apply_floor(g, b)


cdef int choose_placement(Game *g, bint best) noexcept nogil:
    """The built-in policies' wall placement (gray wall, spec section 10).

    One draw from the policy stream among the legal columns in column order: all of them
    (random), or (`best`: greedy) those scoring most now.
    """
    cdef const Board *b = &g.boards[g.tile_player]
    cdef unsigned int cols = placement_columns(b, g.tile_line)
    if best:
        cols = top_scoring_columns(b.wall, g.tile_line, cols)
    return PLACE_CODE + nth_bit(cols, below(&g.policy_rng, popcount10(cols)))


cdef int winners_mask(const Game *g) noexcept nogil:
    """Bit p set for every seat sharing the victory: highest score, then most complete rows."""
    cdef int p, best_score = -1, best_rows = -1, rows, mask = 0
    if not g.game_over:
        return 0
    for p in range(g.players):
        rows = complete_rows(g.boards[p].wall)
        if g.boards[p].score > best_score or (g.boards[p].score == best_score and rows > best_rows):
            best_score = g.boards[p].score
            best_rows = rows
            mask = 1 << p
        elif g.boards[p].score == best_score and rows == best_rows:
            mask |= 1 << p
    return mask


cdef int tiles_of_color(const Game *g, int color) noexcept nogil:
    """Every tile of `color` wherever it lies: the conservation invariant counts 20."""
    cdef int n = g.bag[color] + g.lid[color], s, p, r, i
    cdef const Board *b
    for s in range(N_SOURCES):
        n += g.sources[s][color]
    for p in range(g.players):
        b = &g.boards[p]
        for r in range(N_LINES):
            if b.line_count[r] and b.line_color[r] == color:
                n += b.line_count[r]
        n += popcount25(b.color_cells[color])
        for i in range(b.floor_count):
            n += b.floor[i] == color
    return n


cdef int invariant_violations(const Game *g) noexcept nogil:
    """Bits of Invariant for every rule the position breaks (0 for a sound position)."""
    cdef int found = 0, c, p, r, s
    cdef bint any_row = False
    cdef uint16_t mask
    cdef Board copy
    cdef const Board *b
    for c in range(N_COLORS):
        if tiles_of_color(g, c) != 20:
            found |= BAD_TILE_COUNT
        mask = 0
        for s in range(N_SOURCES):
            if g.sources[s][c]:
                mask |= 1 << s
        if mask != g.source_mask[c]:
            found |= STALE_DERIVED
    for p in range(g.players):
        b = &g.boards[p]
        if b.score < 0:
            found |= NEGATIVE_SCORE
        if b.floor_count > FLOOR_SLOTS:
            found |= FLOOR_OVERFULL
        for r in range(N_LINES):
            if b.line_count[r] > r + 1 or (b.line_count[r] and row_has(b, r, b.line_color[r])):
                found |= BAD_PATTERN_LINE
        found |= wall_color_violations(g, b)
        copy = b[0]
        refresh_accepts(&copy)
        for c in range(N_COLORS):
            if copy.accepts[c] != b.accepts[c]:
                found |= STALE_DERIVED
        any_row = any_row or complete_rows(b.wall) > 0
    if g.game_over and not g.truncated and not any_row:
        found |= UNMARKED_TRUNCATION
    if g.placing and (
        g.variant != GRAY or g.game_over or g.tile_player >= g.players or g.tile_line >= N_LINES
        or g.current_player != g.tile_player
        or g.boards[g.tile_player].line_count[g.tile_line] != g.tile_line + 1
        or popcount10(placement_columns(&g.boards[g.tile_player], g.tile_line)) < 2
        or g.source_mask[0] | g.source_mask[1] | g.source_mask[2] | g.source_mask[3] | g.source_mask[4]
    ):
        found |= BAD_TILING
    return found


cdef int wall_color_violations(const Game *g, const Board *b) noexcept nogil:
    """BAD_WALL_COLORS if the colour cells do not describe the wall as the variant requires."""
    cdef uint32_t union = 0, cells
    cdef int c, r, tiles = 0
    for c in range(N_COLORS):
        cells = b.color_cells[c]
        union |= cells
        tiles += popcount25(cells)
        if popcount10(columns_of(cells)) != popcount25(cells):   # a column holds c twice
            return BAD_WALL_COLORS
        for r in range(N_LINES):
            if popcount10((cells >> (r * 5)) & FULL_ROW) > 1:    # a row holds c twice
                return BAD_WALL_COLORS
            if g.variant == COLORED and (cells >> (r * 5)) & FULL_ROW & ~(1 << wall_column(r, c)):
                return BAD_WALL_COLORS
    if union != b.wall or tiles != popcount25(b.wall):
        return BAD_WALL_COLORS
    return 0


# Thin Python entry points to the kernels, for kernels.py and the tests (inputs validated there).
def _score_tile(uint32_t wall, int row, int col):
    return score_tile(wall, row, col)


def _end_bonus(uint32_t wall):
    return end_bonus(wall)


def _complete_counts(uint32_t wall):
    """(complete rows, complete columns, complete colours) of a wall mask."""
    return complete_rows(wall), complete_columns(wall), complete_colors(wall)
