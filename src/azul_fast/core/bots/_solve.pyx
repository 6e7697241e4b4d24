# The rest of the current round solved exactly: alpha-beta over the packed Game, with a
# transposition table and move ordering, in nogil C (azul_fast.core.bots.solve is the Python face).
#
# Within a round every tile still to be taken lies open on the table: the rest of the round is a
# game of perfect information, and no draw is needed to play it. The search plays on a copy
# whose round end skips the refill (Game.lookahead, as the round search of _search.pyx does) and
# whose bag stream is zeroed, so the hidden bag order is never read.
#
# Values are paranoid: the seat to move at the root (`root`) maximises v = its score minus the
# best opponent's score, and every opponent minimises that same v. At 2 players v is the margin
# and the game is zero-sum, so this is exactly "each player maximises its own margin"; at 3 and 4
# players it is the root's guaranteed margin over its strongest rival whatever the others do (a
# lower bound on what it can expect: real opponents do not all play against it). One number per
# position makes alpha-beta sound at every player count.
#
# Leaves are the round's end. When the game is over there, v uses the final scores (end bonuses
# included); otherwise each seat's score is its learned evaluation (_learned.learned_value), an
# estimate. solve reports the value exact only when the game ends this round on every line of
# play (game_ends_this_round), so no leaf can be an estimate.
#
# forced_win asks a narrower question of a round that ends the game: can the seat to move win
# outright (alone, by the rulebook's tie-break) whatever the others play? Each leaf is then 1, 0
# (a shared victory) or -1, and a search with the window (0, 1) only has to prove or refute the
# win: many more cutoffs than the margin needs, so it settles positions the margin cannot afford.
# The learned searches play its winning move (_search.choose_search, Params.win_tiles).
#
# The table keys a position by a 64-bit hash of what the rest of the round depends on. Factories
# are interchangeable, so they are hashed as a sorted multiset: taking the same colour from two
# factories of the same contents transposes. Scores are part of the key (the floor clamps a score
# at zero, so a subtree's value is not a shift of another's).
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

from azul_fast.core.rules._board cimport (
    CENTER, FLOOR, GRAY, MAX_LEGAL_MOVES, MAX_PLAYERS, N_COLORS, N_LINES, PLACE_CODE,
    Board, Game, complete_rows, legal_moves, placement_columns, play_move, score_tile, winners_mask,
)
from azul_fast.core.rules._bits cimport init_popcount, popcount10
from azul_fast.core.bots._learned cimport learned_value, weights_loaded
from azul_fast.core.rules._rng cimport mix64
from azul_fast.core._state cimport State

init_popcount()

cdef enum Bound:
    EMPTY = 0
    EXACT = 1
    LOWER = 2               # the value is at least the stored one (a cutoff above beta)
    UPPER = 3               # the value is at most the stored one (every move failed low)

cdef enum:
    NO_MOVE = 0xFFFF
    MAX_TABLE_BITS = 21     # 2**21 entries of 24 bytes: 48 MB at most, on a machine shared by many

ctypedef struct Entry:
    uint64_t key
    double value
    uint16_t move           # the best move found here, tried first when the position comes back
    uint8_t bound

ctypedef struct Context:
    Entry *table
    uint64_t mask           # table size - 1 (a power of two)
    int64_t nodes           # positions visited so far
    int64_t max_nodes
    int root                # the seat whose v every node maximises or minimises
    uint16_t round_number
    int64_t estimated_leaves   # round ends valued by the learned evaluation
    bint aborted            # the budget ran out: every caller unwinds at once
    bint for_win            # leaves valued 1 (the root wins alone), 0 (shares the victory) or -1: forced_win

cdef double INF = 1e300


cdef uint64_t position_key(const Game *g) noexcept nogil:
    """A hash of everything the rest of the round depends on (factories as a sorted multiset)."""
    cdef uint32_t factories[9]
    cdef uint32_t code, x
    cdef int f, c, i, j, p, r
    cdef uint64_t h = 0x2545F4914F6CDD1DULL
    cdef const Board *b
    for f in range(g.n_factories):
        code = 0
        for c in range(N_COLORS):
            code = code * 8 + g.sources[f][c]
        i = f
        while i > 0 and factories[i - 1] > code:   # insertion sort: at most 9 factories
            factories[i] = factories[i - 1]
            i -= 1
        factories[i] = code
    for f in range(g.n_factories):
        h = mix64(h ^ factories[f])
    code = 0
    for c in range(N_COLORS):
        h = mix64(h ^ (<uint64_t>g.sources[CENTER][c] << 8 | g.lid[c]) ^ (<uint64_t>c << 40))
    h = mix64(h ^ (<uint64_t>g.current_player | <uint64_t>g.marker_holder << 8 | <uint64_t>g.center_has_marker << 16
                   | <uint64_t>g.placing << 24 | <uint64_t>g.tile_player << 32 | <uint64_t>g.tile_line << 40
                   | <uint64_t>g.start_player << 48))
    for p in range(g.players):
        b = &g.boards[p]
        for c in range(N_COLORS):
            h = mix64(h ^ b.color_cells[c] ^ (<uint64_t>(p * 8 + c) << 32))
        h = mix64(h ^ <uint32_t>b.score ^ (<uint64_t>b.floor_count << 32))
        x = 0
        for r in range(N_LINES):
            x = x * 64 + b.line_count[r] * 8 + b.line_color[r]
        h = mix64(h ^ x)
        x = 0
        for j in range(b.floor_count):
            x = x * 8 + b.floor[j]
        h = mix64(h ^ x ^ (<uint64_t>p << 40))
    return h


cdef bint line_may_hold(const Board *b, int q, int color) noexcept nogil:
    """Whether pattern line q may hold `color` at the tiling (it does, or it is empty and accepts it)."""
    if b.line_count[q]:
        return b.line_color[q] == color
    return (b.color_cells[color] >> (q * 5)) & 0x1F == 0


cdef bint game_ends_this_round(const Game *g) noexcept nogil:
    """True when some wall row will be complete at this round's tiling whatever is played.

    A full pattern line whose wall row has four tiles completes that row: on the colored wall its
    tile has its printed cell, which is the row's empty one; on the gray wall it needs the empty
    cell's column to lack its colour, now and after the player's earlier lines are tiled (none of
    them may hold that colour). A row already complete (a gray tiling under way) ends it too.
    """
    cdef int p, r, q, color
    cdef bint safe
    cdef const Board *b
    for p in range(g.players):
        b = &g.boards[p]
        if complete_rows(b.wall):
            return True
        for r in range(N_LINES):
            if b.line_count[r] != r + 1 or popcount10((b.wall >> (r * 5)) & 0x1F) != 4:
                continue
            if g.variant != GRAY:
                return True
            color = b.line_color[r]
            if placement_columns(b, r) == 0:
                continue
            safe = True
            for q in range(r):
                if line_may_hold(b, q, color):
                    safe = False
            if safe:
                return True
    return False


cdef double leaf_value(Context *ctx, const Game *g) noexcept nogil:
    """v of a round's end for the root seat: final scores if the game is over, else estimates;
    for forced_win, whether the root seat wins there alone (1), shares the victory (0) or loses
    (-1; also a game not over, so that no win is ever claimed on an estimate)."""
    cdef double s[MAX_PLAYERS]
    cdef double other = -INF
    cdef int p, winners
    if ctx.for_win:
        winners = winners_mask(g)   # 0 while the game is not over
        return 1 if winners == 1 << ctx.root else 0 if winners & (1 << ctx.root) else -1
    for p in range(g.players):
        s[p] = g.boards[p].score if g.game_over else learned_value(g, p)
    if not g.game_over:
        ctx.estimated_leaves += 1
    for p in range(g.players):
        if p != ctx.root and s[p] > other:
            other = s[p]
    return s[ctx.root] - other


cdef int order_score(const Game *g, int code) noexcept nogil:
    """How promising a move looks to its player: tiles onto a line, a completed line, little floor."""
    cdef int source = code // 30, color = code // 6 % 5, dest = code % 6
    cdef const Board *b = &g.boards[g.current_player]
    cdef int taken, put, s
    if code >= PLACE_CODE:
        return score_tile(g.boards[g.tile_player].wall, g.tile_line, code - PLACE_CODE)
    taken = g.sources[source][color]
    if dest == FLOOR:
        return -8 * taken - 20
    put = dest + 1 - b.line_count[dest]
    if taken < put:
        put = taken
    s = 4 * put - 8 * (taken - put)
    if b.line_count[dest] + put == dest + 1:
        s += 10
    if source == CENTER and g.center_has_marker:
        s -= 3
    return s


cdef void order_moves(const Game *g, uint16_t *moves, int n, uint16_t first) noexcept nogil:
    """Best-looking moves first (the table's move before all), ties in the canonical order."""
    cdef int scores[MAX_LEGAL_MOVES]
    cdef int i, j, s
    cdef uint16_t m
    for i in range(n):
        scores[i] = 1 << 20 if moves[i] == first else order_score(g, moves[i])
    for i in range(1, n):   # insertion sort, stable
        m = moves[i]
        s = scores[i]
        j = i
        while j > 0 and scores[j - 1] < s:
            moves[j] = moves[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        moves[j] = m
        scores[j] = s


cdef double search(Context *ctx, const Game *g, double alpha, double beta) noexcept nogil:
    """v of position `g` (fail-soft alpha-beta); 0 once the budget has run out (ctx.aborted)."""
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef uint16_t best_move = NO_MOVE, first = NO_MOVE
    cdef double v, best, alpha0 = alpha, beta0 = beta
    cdef bint maximise
    cdef int n, i
    cdef uint64_t key
    cdef Entry *e
    cdef Game child
    ctx.nodes += 1
    if ctx.nodes > ctx.max_nodes:
        ctx.aborted = True
        return 0
    if g.game_over or g.round != ctx.round_number:
        return leaf_value(ctx, g)
    key = position_key(g)
    e = &ctx.table[key & ctx.mask]
    if e.bound != EMPTY and e.key == key:
        if e.bound == EXACT or (e.bound == LOWER and e.value >= beta) or (e.bound == UPPER and e.value <= alpha):
            return e.value
        first = e.move
    n = legal_moves(g, moves)
    order_moves(g, moves, n, first)
    maximise = g.current_player == ctx.root
    best = -INF if maximise else INF
    for i in range(n):
        child = g[0]
        play_move(&child, moves[i])
        v = search(ctx, &child, alpha, beta)
        if ctx.aborted:
            return 0
        if maximise:
            if v > best:
                best = v
                best_move = moves[i]
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                best_move = moves[i]
                if best < beta:
                    beta = best
        if alpha >= beta:
            break
    e.key = key
    e.value = best
    e.move = best_move
    e.bound = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
    return best


cdef int move_values(Context *ctx, const Game *g, uint16_t *moves, double *values) noexcept nogil:
    """Every legal move of `g` with its exact v (a full window each); how many, or -1 if aborted."""
    cdef int n = legal_moves(g, moves), i
    cdef Game child
    for i in range(n):
        child = g[0]
        play_move(&child, moves[i])
        values[i] = search(ctx, &child, -INF, INF)
        if ctx.aborted:
            return -1
    return n


cdef int best_index(const Game *g, const Context *ctx, const double *values, int n) noexcept nogil:
    """The best of n valued moves for the seat to move (max for the root, min for the others);
    ties go to the first in the canonical order, so the line is the same on every run."""
    cdef int i, best = 0
    cdef bint maximise = g.current_player == ctx.root
    for i in range(1, n):
        if (values[i] > values[best]) if maximise else (values[i] < values[best]):
            best = i
    return best


cdef inline int table_bits(long long max_nodes) noexcept nogil:
    """log2 of the transposition table's entries for a search of at most `max_nodes` positions."""
    cdef int bits = 10
    while bits < MAX_TABLE_BITS and (<int64_t>1 << bits) < max_nodes:
        bits += 1
    return bits


cdef inline size_t table_bytes(long long max_nodes) noexcept nogil:
    return (<size_t>1 << table_bits(max_nodes)) * sizeof(Entry)


cdef bint open_search(Context *ctx, Game *root, long long max_nodes, bint for_win) noexcept nogil:
    """Make `root` (a copy) the root of a search of at most `max_nodes` positions: it forgets the bag's
    order and skips the refill; allocate the table (free ctx.table after). False when it cannot be had."""
    root.bag_rng = 0        # the search knows the bag's contents, never its order
    root.lookahead = 1
    ctx.table = <Entry *> calloc(<size_t>1 << table_bits(max_nodes), sizeof(Entry))
    ctx.mask = (<uint64_t>1 << table_bits(max_nodes)) - 1
    ctx.nodes = 0
    ctx.max_nodes = max_nodes
    ctx.root = root.current_player
    ctx.round_number = root.round
    ctx.estimated_leaves = 0
    ctx.aborted = False
    ctx.for_win = for_win
    return ctx.table != NULL


cdef int forced_win(const Game *g, long long max_nodes) noexcept nogil:
    """A move of the seat to move that wins the game outright whatever the others reply, in a round
    that ends the game (game_ends_this_round: the caller checks); the first such in the search's order.
    NO_FORCED_WIN when there is none; UNPROVEN when the proof takes more than `max_nodes` positions
    (or the table cannot be allocated)."""
    cdef Context ctx
    cdef Game root = g[0], child
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef int n, i, found = NO_FORCED_WIN
    if not open_search(&ctx, &root, max_nodes, True):
        return UNPROVEN
    n = legal_moves(&root, moves)
    order_moves(&root, moves, n, NO_MOVE)
    for i in range(n):
        child = root
        play_move(&child, moves[i])
        if search(&ctx, &child, 0, 1) >= 1 and not ctx.aborted:   # the window asks only: a win whatever they do?
            found = moves[i]
            break
        if ctx.aborted:
            found = UNPROVEN
            break
    free(ctx.table)
    return found


def ends_this_round(State state):
    """Whether the game ends at this round's tiling on every line of play (game_ends_this_round)."""
    return not state.g.game_over and game_ends_this_round(&state.g)


def solve_round(State state, long long max_nodes):
    """The solved round of `state` (not over): (codes, values, line as (code, tiled line) pairs, nodes,
    estimated leaves, exact),
    or None when it needs more than `max_nodes` positions. Validated by azul_fast.core.bots.solve."""
    cdef Context ctx
    cdef Game root = state.g
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef double values[MAX_LEGAL_MOVES]
    cdef uint16_t line_moves[256]
    cdef uint8_t line_tiles[256]    # the pattern line a placement of the line tiles
    cdef int n, n_line = 0, k
    cdef bint exact
    if not open_search(&ctx, &root, max_nodes, False):
        raise MemoryError(f"solve could not allocate its transposition table ({table_bytes(max_nodes)} bytes)")
    exact = game_ends_this_round(&root)
    if not exact and not weights_loaded():
        free(ctx.table)
        raise RuntimeError("solve values a round that does not end the game by the learned evaluation, "
                           "and no learned weights are installed")
    with nogil:
        n = move_values(&ctx, &root, moves, values)
    if n < 0:
        free(ctx.table)
        return None
    codes = [moves[i] for i in range(n)]
    root_values = [values[i] for i in range(n)]
    # the principal line: from the root, the best move of each position until the round ends
    cdef Game g = root
    with nogil:
        while not g.game_over and g.round == ctx.round_number and n_line < 256:
            k = move_values(&ctx, &g, moves, values)
            if k < 0:
                break
            line_moves[n_line] = moves[best_index(&g, &ctx, values, k)]
            line_tiles[n_line] = g.tile_line
            play_move(&g, line_moves[n_line])
            n_line += 1
    free(ctx.table)
    if ctx.aborted:
        return None
    line = [(line_moves[i], line_tiles[i]) for i in range(n_line)]
    return (codes, root_values, line, ctx.nodes, ctx.estimated_leaves, exact)


def forced_win_move(State state, long long max_nodes):
    """forced_win for `state` (its round ends the game): the move's code, NO_FORCED_WIN or UNPROVEN.
    Validated by azul_fast.core.bots.solve.forced_win."""
    cdef int code
    with nogil:
        code = forced_win(&state.g, max_nodes)
    return code
