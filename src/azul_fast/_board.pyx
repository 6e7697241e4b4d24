# The rules of Azul (colored wall) over the packed Game struct; docs/engine-spec.md is the
# contract, and reference.py is the same rules written plainly in Python.
from libc.string cimport memset

from azul_fast._rng cimport BAG_SALT, POLICY_SALT, below, mix64

from azul_fast._bits cimport ctz

cdef int[8] PENALTY = [0, 1, 2, 4, 6, 8, 11, 14]
cdef uint32_t COLUMN_MASK = 0x108421   # bits of column 0: rows 0..4


cdef inline int wall_column(int row, int color) noexcept nogil:
    return (row + color) % 5


cdef inline int run_length(uint32_t wall, int row, int col, int step_row, int step_col) noexcept nogil:
    """Filled cells next to (row, col) in one direction, up to the first gap or the edge."""
    cdef int n = 0
    row += step_row
    col += step_col
    while 0 <= row < 5 and 0 <= col < 5 and (wall >> (row * 5 + col)) & 1:
        n += 1
        row += step_row
        col += step_col
    return n


cdef int score_tile(uint32_t wall, int row, int col) noexcept nogil:
    """Points for a tile placed at the empty cell (row, col) of `wall`."""
    cdef int h = 1 + run_length(wall, row, col, 0, -1) + run_length(wall, row, col, 0, 1)
    cdef int v = 1 + run_length(wall, row, col, -1, 0) + run_length(wall, row, col, 1, 0)
    if h == 1 and v == 1:
        return 1
    return (h if h > 1 else 0) + (v if v > 1 else 0)


cdef int floor_penalty(int slots) noexcept nogil:
    return PENALTY[slots if slots < FLOOR_SLOTS else FLOOR_SLOTS]


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
    return 2 * complete_rows(wall) + 7 * complete_columns(wall) + 10 * complete_colors(wall)


cdef void new_game(Game *g, int players, uint64_t seed, int first_player, int max_rounds) noexcept nogil:
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
    for c in range(N_COLORS):
        g.bag[c] = 20
        for p in range(MAX_PLAYERS):
            g.boards[p].accepts[c] = FULL_ROW
    fill_factories(g)


cdef int fill_factories(Game *g) noexcept nogil:
    """Draw 4 tiles per factory; pour the lid into the bag only when a draw finds it empty.

    Returns the number of tiles drawn (0 means the game cannot go on).
    """
    cdef int f, k, c, drawn = 0
    cdef int in_bag = 0
    cdef uint32_t r
    for c in range(N_COLORS):
        in_bag += g.bag[c]
    for f in range(g.n_factories):
        for k in range(4):
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
        if not (b.wall >> (r * 5 + wall_column(r, c))) & 1:
            b.accepts[c] |= 1 << r


cdef int legal_moves(const Game *g, uint16_t *out) noexcept nogil:
    """Write the legal move codes in canonical order (spec section 5); return how many."""
    cdef const uint8_t *acc = g.boards[g.current_player].accepts
    cdef int n = 0, s, c, d
    cdef unsigned int sources, lines
    if g.game_over:
        return 0
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
    if (b.wall >> (dest * 5 + wall_column(dest, color))) & 1:
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
    cdef int p = g.current_player, x, put, taken
    cdef Board *b = &g.boards[p]
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
        for x in range(N_COLORS):
            if g.sources[source][x]:
                g.sources[CENTER][x] += g.sources[source][x]
                g.sources[source][x] = 0
                g.source_mask[x] = (g.source_mask[x] & ~(1 << source)) | (1 << CENTER)
    if dest == FLOOR:
        drop_to_floor(g, b, color, taken)
    else:
        put = dest + 1 - b.line_count[dest]
        if taken < put:
            put = taken
        b.line_color[dest] = color
        b.line_count[dest] += put
        # Line dest now takes only this colour, and nothing once full.
        for x in range(N_COLORS):
            if x != color or b.line_count[dest] == dest + 1:
                b.accepts[x] &= ~(1 << dest)
        if taken > put:
            drop_to_floor(g, b, color, taken - put)
    if (g.source_mask[0] | g.source_mask[1] | g.source_mask[2] | g.source_mask[3] | g.source_mask[4]) == 0:
        end_round(g)
    else:
        g.current_player = p + 1 if p + 1 < g.players else 0


cdef inline void tile_wall(Game *g, Board *b) noexcept nogil:
    """Wall tiling and floor penalty of one board (spec section 7, steps 1-2)."""
    cdef int r, col, color, i
    for r in range(N_LINES):
        if b.line_count[r] == r + 1:
            color = b.line_color[r]
            col = wall_column(r, color)
            b.score += score_tile(b.wall, r, col)
            b.wall |= 1 << (r * 5 + col)
            g.lid[color] += r
            b.line_count[r] = 0
            b.line_color[r] = 0
            open_line(b, r)
    b.score -= PENALTY[b.floor_count]
    if b.score < 0:
        b.score = 0
    for i in range(b.floor_count):
        if b.floor[i] != MARKER_CODE:
            g.lid[b.floor[i]] += 1
        b.floor[i] = 0
    b.floor_count = 0


cdef void end_round(Game *g) noexcept nogil:
    cdef int p
    cdef bint row_done = False
    for p in range(g.players):
        tile_wall(g, &g.boards[p])
        row_done = row_done or complete_rows(g.boards[p].wall) > 0
    if g.marker_holder != NO_PLAYER:
        g.start_player = g.marker_holder
    g.current_player = g.start_player
    g.marker_holder = NO_PLAYER
    g.center_has_marker = 1
    if row_done:
        g.game_over = 1
        for p in range(g.players):
            g.boards[p].score += end_bonus(g.boards[p].wall)
    elif g.round >= g.max_rounds or fill_factories(g) == 0:
        g.game_over = 1
        g.truncated = 1
    else:
        g.round += 1


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
            n += (b.wall >> (r * 5 + wall_column(r, color))) & 1
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
            if b.line_count[r] > r + 1 or (
                b.line_count[r] and (b.wall >> (r * 5 + wall_column(r, b.line_color[r]))) & 1
            ):
                found |= BAD_PATTERN_LINE
        copy = b[0]
        refresh_accepts(&copy)
        for c in range(N_COLORS):
            if copy.accepts[c] != b.accepts[c]:
                found |= STALE_DERIVED
        any_row = any_row or complete_rows(b.wall) > 0
    if g.game_over and not g.truncated and not any_row:
        found |= UNMARKED_TRUNCATION
    return found


# Thin Python entry points to the kernels, for kernels.py and the tests (inputs validated there).
def _score_tile(uint32_t wall, int row, int col):
    return score_tile(wall, row, col)


def _end_bonus(uint32_t wall):
    return end_bonus(wall)


def _complete_counts(uint32_t wall):
    """(complete rows, complete columns, complete colours) of a wall mask."""
    return complete_rows(wall), complete_columns(wall), complete_colors(wall)
