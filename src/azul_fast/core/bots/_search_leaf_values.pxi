# The values at a rollout's end: the board value and tiling tables of a search (included by _search.pyx).

# The learned searches value every seat at every leaf, but a seat's board after the tiling depends
# only on its own moves on the path: most leaves repeat boards seen before (seven in ten in 2-player
# games of learned and fast). A small table per search (direct mapped by a hash of the board) keeps
# the values of the boards it has seen; a hit returns the very double learned_value computed, so the
# search plays the same moves, only sooner.
cdef enum:
    VALUE_SLOTS = 512       # a power of two

ctypedef struct ValueSlot:
    Board board
    double value

ctypedef struct ValueTable:
    bint net                    # the search's values are the value network's (Params.net)
    # The keys apart from the slots: a search clears 512 bytes, not a line of memory per slot.
    int8_t key[VALUE_SLOTS]     # rounds left * 2 + whether the seat starts the next round; -1: empty
    ValueSlot slot[VALUE_SLOTS]


cdef inline int board_slot(const Board *b, uint64_t key, int slots) noexcept nogil:
    """The slot of a board (and a small `key`) in a direct-mapped table of `slots` (a power of two):
    a hash of the wall, the pattern lines, the score and the key."""
    cdef uint64_t lines = 0, counts = 0
    memcpy(&lines, b.line_color, 8)
    memcpy(&counts, b.line_count, 8)
    cdef uint64_t h = ((b.wall * <uint64_t>0x9E3779B97F4A7C15) ^ (lines * <uint64_t>0xC2B2AE3D27D4EB4F)
                       ^ ((counts ^ (<uint64_t><uint32_t>b.score << 40) ^ (key << 56)) * <uint64_t>0x165667B19E3779F9))
    return (h >> 40) & (slots - 1)


cdef inline double cached_learned_value(ValueTable *table, const Game *g, int seat, int left) noexcept nogil:
    """learned_value of `seat` (its game not over, `left` its rounds_left; the value network's estimate for a
    search of Params.net), from `table` when that board was valued before in this search. The value reads
    the seat's board, the rounds left and whether the seat starts the next round (and the wall side and
    player count, fixed in a search)."""
    cdef const Board *b = &g.boards[seat]
    cdef int key = left * 2 + (g.current_player == seat)
    cdef int k = board_slot(b, key, VALUE_SLOTS)
    cdef ValueSlot *slot = &table.slot[k]
    if table.key[k] == key and memcmp(&slot.board, b, sizeof(Board)) == 0:
        return slot.value
    table.key[k] = key
    slot.board = b[0]
    slot.value = net_value_at(g, seat, left) if table.net else learned_value_at(g, seat, left)
    return slot.value


# A learned search ends every rollout's round where it stands, to value the tiled boards. Like
# those boards, a seat's board before the tiling depends only on its own moves on the path, so
# most leaves tile boards tiled before. A TilingTable per search (direct mapped by a hash of the
# board before) keeps each seat's round end (settle_board: the board after its tiling and floor, and
# the tiles it discarded): a board seen before takes them again instead of tiling. The same boards
# and the same lid, so the same round end (close_round), values and moves, only sooner.
cdef enum:
    TILING_SLOTS = 512      # a power of two

ctypedef struct TilingSlot:
    Board before
    Board after
    uint8_t discarded[N_COLORS]   # the tiles the tiling and the floor put in the lid, by colour

ctypedef struct TilingTable:
    # The keys apart from the slots, as in ValueTable: a search clears 512 bytes.
    uint8_t used[TILING_SLOTS]  # the slot holds a tiling
    TilingSlot slot[TILING_SLOTS]


cdef inline void end_round_cut(TilingTable *table, Game *g) noexcept nogil:
    """end_round, then settle(), for a search's copy `g` whose rollout was cut short: every seat's
    board from `table` when it was tiled before in this search, else tiled (settle_board) and kept."""
    cdef int p, c, k
    cdef uint8_t lid[N_COLORS]
    cdef Board *b
    cdef TilingSlot *slot
    for p in range(g.players):
        b = &g.boards[p]
        k = board_slot(b, 0, TILING_SLOTS)
        slot = &table.slot[k]
        if table.used[k] and memcmp(&slot.before, b, sizeof(Board)) == 0:
            b[0] = slot.after
            for c in range(N_COLORS):
                g.lid[c] += slot.discarded[c]
            continue
        table.used[k] = 1
        slot.before = b[0]
        memcpy(lid, g.lid, N_COLORS)
        settle_board(g, b)
        slot.after = b[0]
        for c in range(N_COLORS):
            slot.discarded[c] = g.lid[c] - lid[c]
    close_round(g)


cdef inline void round_end_values(ValueTable *values_seen, const Game *g, double *out) noexcept nogil:
    """The seats' values of a search's copy `g` at its round's end: learned_value (from `values_seen`;
    the final scores once the game is over), or mcts's board_value when `values_seen` is NULL."""
    cdef int p, left
    if values_seen == NULL:
        for p in range(g.players):
            out[p] = board_value(g, p)
    elif g.game_over:
        for p in range(g.players):
            out[p] = learned_value(g, p)
    else:
        left = rounds_left(g)
        for p in range(g.players):
            out[p] = cached_learned_value(values_seen, g, p, left)


cdef inline void cut_values(ValueTable *values_seen, TilingTable *tilings, Game *g,
                            double *out) noexcept nogil:
    """The seats' values of a learned search's copy `g` mid-round, its round ended where it stands
    (end_round_cut): round_end_values plus what the tiles left unplayed were worth to each seat (the
    leftover model)."""
    cdef double leftover[MAX_PLAYERS]
    cdef int p
    leftover_values(g, leftover)
    end_round_cut(tilings, g)   # the table's leftovers unplayed (lookahead: no refill drawn)
    round_end_values(values_seen, g, out)
    for p in range(g.players):
        out[p] += leftover[p]
