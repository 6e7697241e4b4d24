# The one-ply move heuristic, denial, the heuristic policy and the rollout move (included by _search.pyx).

ctypedef struct PlacementCache:
    # One board's placement values, computed on first use. A board's wall, hence every placement
    # value, is fixed until the round ends: a search keeps one cache a seat for all its iterations
    # (inside the round), the one-ply heuristic one for its position.
    uint32_t known          # bit row * 5 + color: value[bit] holds placement_value for that line and colour
    int variant
    double value[25]


cdef inline void clear_placements(PlacementCache *cache, int variant) noexcept nogil:
    cache.known = 0
    cache.variant = variant


cdef inline double cached_placement(const Board *b, int row, int color, int left, PlacementCache *cache) noexcept nogil:
    """placement_value of `b` (the board `cache` belongs to), computed once per line and colour."""
    cdef int k = row * 5 + color
    if not (cache.known >> k) & 1:
        cache.value[k] = placement_value(b, row, color, left, cache.variant)
        cache.known |= <uint32_t>1 << k
    return cache.value[k]


cdef inline double take_value(const Board *b, int taken, int color, int dest, bint marker,
                              int left, PlacementCache *cache) noexcept nogil:
    """What taking `taken` tiles of `color` to `dest` (a pattern line, or FLOOR; `marker`: with the
    first-player marker) adds to the mover's board `b`: a completed line exactly, a partial one in
    part, minus the extra floor penalty. `cache` holds `b`'s placement values (PlacementCache)."""
    cdef int overflow, put, n, cap, slots
    cdef double v = 0, place
    if dest == FLOOR:
        overflow = taken
    else:
        cap = dest + 1
        n = b.line_count[dest]
        put = cap - n
        if taken < put:
            put = taken
        overflow = taken - put
        place = cached_placement(b, dest, color, left, cache)
        if n + put == cap:
            v = place * (1 - PARTIAL_WEIGHT * n / cap)
        else:
            v = place * PARTIAL_WEIGHT * put / cap
    slots = b.floor_count
    if marker:
        v += MARKER_VALUE
        overflow += 1
    return v - (floor_penalty(slots + overflow) - floor_penalty(slots))


# Denial (Params.deny_w), at 2 players: a take that leaves the table too few tiles of its colour to
# complete the opponent's partly filled pattern line this round spoils that line (it waits a round
# at least, and the tiles on it wait with it). The one-move heuristic values only what a take gives
# its mover; the learned searches' move order (which moves a node keeps) and their rollouts also
# credit it with what it spoils: deny_w times the line's length plus the points its tile would
# score on the opponent's wall.
ctypedef struct Denial:
    int n[N_COLORS]             # the opponent's partly filled lines of each colour
    int need[N_COLORS][4]       # tiles each still needs (lines 2 to 5 can be partly filled)
    int row[N_COLORS][4]        # and its row


cdef inline int count_denial(const Game *g, Denial *out) noexcept nogil:
    """The opponent's partly filled lines by colour (a 2-player game); return how many."""
    cdef int c, r, k, lines = 0
    cdef const Board *o = &g.boards[1 - g.current_player]
    for c in range(N_COLORS):
        out.n[c] = 0
    for r in range(1, N_LINES):
        if 0 < o.line_count[r] <= r:
            c = o.line_color[r]
            k = out.n[c]
            out.need[c][k] = r + 1 - o.line_count[r]
            out.row[c][k] = r
            out.n[c] = k + 1
            lines += 1
    return lines


cdef inline double denied(const Params *P, const Game *g, const Denial *d, int color, int left,
                          int taken) noexcept nogil:
    """What taking `taken` of the `left` tiles of `color` on the table spoils (count_denial): the
    lines the table could complete before the take and cannot after it, each worth its length plus
    what its tile would score, times deny_w (valued here: few takes spoil anything)."""
    cdef int k, r, col
    cdef double v = 0
    cdef const Board *o = &g.boards[1 - g.current_player]
    for k in range(d.n[color]):
        if left >= d.need[color][k] > left - taken:
            r = d.row[color][k]
            col = greedy_column(o, r, color, g.variant)   # -1: nowhere to go (the gray wall)
            v += P.deny_w * (r + 1 + (score_tile(o.wall, r, col) if col >= 0 else 0))
    return v


cdef inline int table_tiles_of(const Game *g, int color) noexcept nogil:
    """The tiles of `color` on the table (factories and centre)."""
    cdef int n = 0
    cdef unsigned int sources = g.source_mask[color]
    while sources:
        n += g.sources[ctz(sources)][color]
        sources &= sources - 1
    return n


cdef inline int table_tiles(const Game *g) noexcept nogil:
    cdef int c, n = 0
    for c in range(N_COLORS):
        n += table_tiles_of(g, c)
    return n


cdef inline double uniform(uint64_t *rng) noexcept nogil:
    return (next64(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int walk_takes(const Params *P, const Game *g, int left, PlacementCache *cache, uint16_t *moves,
                           double *values, uint64_t *rng, int *count) noexcept nogil:
    """Walk the legal takes of the player to move (a position in a round, no tiling waiting) in
    legal_moves' canonical order (colour, source, line, floor last), valuing each by take_value
    (`cache`: the mover's). With `moves`: write them to `moves` and `values` and their number to
    `count` (valued_moves). With `rng`: return the best with a noise draw added to every value in
    that order (rollout_move); without, return how many. Both: a rollout's first move that records
    what it valued for the leaf's expansion (LeafMemo). Walking the sources and lines here costs
    less than listing the codes (legal_moves) and decoding each again; inline, so each caller gets
    its own."""
    cdef const Board *b = &g.boards[g.current_player]
    cdef int c, s, d, taken, code, n = 0, best = 0
    cdef unsigned int sources, lines
    cdef bint marker
    cdef double v, deny = 0, best_value = -1e9
    cdef int table_left     # the tiles of colour c on the table, counted for denial only
    cdef Denial denial
    cdef bint denies = P.deny_w != 0 and g.players == 2 and count_denial(g, &denial) > 0
    for c in range(N_COLORS):
        sources = g.source_mask[c]
        deny = 0
        if denies and denial.n[c]:
            table_left = table_tiles_of(g, c)
        while sources:
            s = ctz(sources)
            sources &= sources - 1
            taken = g.sources[s][c]
            marker = s == CENTER and g.center_has_marker
            code = (s * 5 + c) * 6
            lines = b.accepts[c]
            if denies and denial.n[c]:
                deny = denied(P, g, &denial, c, table_left, taken)
            while True:   # the accepting lines, then the floor
                if lines:
                    d = ctz(lines)
                    lines &= lines - 1
                else:
                    d = FLOOR
                v = take_value(b, taken, c, d, marker, left, cache) + deny
                if moves != NULL:
                    moves[n] = code + d
                    values[n] = v
                    n += 1
                if rng != NULL:
                    v += ROLLOUT_NOISE * uniform(rng)
                    if v > best_value:
                        best_value = v
                        best = code + d
                if d == FLOOR:
                    break
    if moves != NULL:
        count[0] = n
    return best if rng != NULL else n


cdef int valued_moves(const Params *P, const Game *g, int left, PlacementCache *cache, uint16_t *moves,
                      double *values) noexcept nogil:
    """The legal takes of the player to move and their take_value (walk_takes); return how many."""
    cdef int n
    return walk_takes(P, g, left, cache, moves, values, NULL, &n)


cdef int choose_heuristic(Game *g) noexcept nogil:
    """The move of highest heuristic value; ties broken by one draw from the policy stream."""
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef uint16_t best[MAX_LEGAL_MOVES]
    cdef double values[MAX_LEGAL_MOVES]
    cdef int n, n_best = 0, i, left = rounds_left(g)
    cdef double v, best_value = -1e9
    cdef const Params *P = &MCTS   # its move heuristic: no denial
    cdef PlacementCache cache
    clear_placements(&cache, g.variant)
    if g.placing:
        return best_placement(g, &g.policy_rng)
    n = valued_moves(P, g, left, &cache, moves, values)
    for i in range(n):
        v = values[i]
        if v > best_value + 1e-9:
            best_value = v
            n_best = 0
        if v >= best_value - 1e-9:
            best[n_best] = moves[i]
            n_best += 1
    return best[below(&g.policy_rng, n_best)]


cdef void settle(Game *g) noexcept nogil:
    """Finish a paused gray tiling without asking: every tile to greedy's (first best) column,
    which is cheap; best_placement for every tile of every rollout would cost 3x the search."""
    cdef const Board *b
    while g.placing:
        b = &g.boards[g.tile_player]
        play_move(g, PLACE_CODE + greedy_column(b, g.tile_line, b.line_color[g.tile_line], g.variant))


cdef int rollout_move(const Params *P, const Game *g, uint64_t *rng, int left,
                      PlacementCache *cache) noexcept nogil:
    """The heuristic's move with a little noise, so that rollouts differ (`cache`: the mover's):
    every move gets its noise draw in legal_moves' order (walk_takes)."""
    return walk_takes(P, g, left, cache, NULL, NULL, rng, NULL)
