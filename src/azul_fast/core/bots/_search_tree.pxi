# The UCT tree: nodes, the leaf memo, expansion and selection (included by _search.pyx).

ctypedef struct Node:
    double total            # sum of the values backed up through this node, for `player`
    double mean             # total / visits / VALUE_SCALE, kept by the backup: UCB1 reads it at every selection
    uint32_t visits
    int32_t first_child     # index of the first child in the pool once expanded; before: -1, or
                            # -2 - k when LeafMemo slot k holds its valued takes (memo_rollout_move)
    uint16_t move           # the move that leads here
    uint8_t n_children
    uint8_t player          # the seat that played `move`
    uint8_t terminal        # `move` ended the round (or the game)


# A node is expanded on its second visit, at the very position its first visit's rollout started
# from, and that rollout's first move valued every take there (walk_takes) as the expansion would
# (the same take_value, the same placement cache). A LeafMemo keeps those valuations, so that the
# expansion only picks its children from them: the same children in the same order (the same
# arrays, the same partial sort), without valuing the takes twice.
cdef enum:
    MEMO_TAKES_PER_LEAF = 64    # takes set aside per iteration (a leaf records only while MAX_LEGAL_MOVES fit)
    MEMO_MAX_TAKES = 1 << 18    # at most (2.6 MB): larger searches record their first leaves only

ctypedef struct LeafMemo:
    uint16_t *moves         # the takes of every slot, one after the other
    double *values          # their take_value
    int32_t *start          # slot k's takes: moves[start[k] .. start[k] + count[k] - 1]
    int32_t *count
    int used                # takes recorded
    int capacity            # room for takes
    int slots               # slots used
    int max_slots


cdef inline void memo_shape(int budget, size_t *slots, size_t *takes) noexcept nogil:
    """The slots and the room for takes of the LeafMemo of a search of `budget` iterations."""
    slots[0] = budget + 1
    takes[0] = slots[0] * MEMO_TAKES_PER_LEAF
    if takes[0] > MEMO_MAX_TAKES:
        takes[0] = MEMO_MAX_TAKES
    if slots[0] > takes[0]:
        slots[0] = takes[0]
    takes[0] += MAX_LEGAL_MOVES


cdef inline size_t memo_bytes(int budget) noexcept nogil:
    """Bytes of the LeafMemo of a search of `budget` iterations (memo_init), a multiple of 8."""
    cdef size_t slots, takes
    memo_shape(budget, &slots, &takes)
    return (takes * (sizeof(double) + sizeof(uint16_t)) + slots * 2 * sizeof(int32_t) + 7) & ~(<size_t>7)


cdef inline void memo_init(LeafMemo *memo, char *block, int budget) noexcept nogil:
    """Lay out the LeafMemo of a search of `budget` iterations over `block` (memo_bytes, 8-byte aligned)."""
    cdef size_t slots, takes
    memo_shape(budget, &slots, &takes)
    memo.values = <double *> block
    memo.start = <int32_t *> (memo.values + takes)
    memo.count = memo.start + slots
    memo.moves = <uint16_t *> (memo.count + slots)
    memo.capacity = <int>takes
    memo.max_slots = <int>slots
    memo.used = 0
    memo.slots = 0


cdef inline int memo_rollout_move(const Params *P, Node *node, const Game *g, uint64_t *rng, int left,
                                  PlacementCache *cache, LeafMemo *memo) noexcept nogil:
    """rollout_move from the fresh leaf `node` (`g` its position), recording what it valued in a free
    slot of `memo` for the leaf's expansion, while one is left."""
    cdef int n = 0, k = memo.slots
    if k == memo.max_slots or memo.used + MAX_LEGAL_MOVES > memo.capacity:
        return walk_takes(P, g, left, cache, NULL, NULL, rng, NULL)
    cdef int move = walk_takes(P, g, left, cache, memo.moves + memo.used, memo.values + memo.used, rng, &n)
    memo.start[k] = memo.used
    memo.count[k] = n
    memo.used += n
    memo.slots = k + 1
    node.first_child = -2 - k
    return move


cdef int expand(const Params *P, Node *nodes, int *used, int index, const Game *g, int keep, int left,
                PlacementCache *cache, LeafMemo *memo) noexcept nogil:
    """Give node `index` its `keep` best children by the heuristic, best first; return how many
    (`cache`: the mover's placement values; `memo`: where its first rollout recorded them, if it did)."""
    cdef uint16_t own_moves[MAX_LEGAL_MOVES]
    cdef double own_values[MAX_LEGAL_MOVES]
    cdef uint16_t *moves = own_moves
    cdef double *values = own_values
    cdef int n, i, j, pick, first = used[0], k = -2 - nodes[index].first_child
    cdef double top
    cdef uint16_t m
    if k >= 0:
        moves = memo.moves + memo.start[k]
        values = memo.values + memo.start[k]
        n = memo.count[k]
    else:
        n = valued_moves(P, g, left, cache, moves, values)
    if keep > n:
        keep = n
    for j in range(keep):
        pick = j
        top = values[j]
        for i in range(j + 1, n):
            if values[i] > top:
                top = values[i]
                pick = i
        m = moves[pick]; moves[pick] = moves[j]; moves[j] = m
        values[pick] = values[j]; values[j] = top
        nodes[first + j].total = 0
        nodes[first + j].mean = 0
        nodes[first + j].visits = 0
        nodes[first + j].first_child = -1
        nodes[first + j].move = moves[j]
        nodes[first + j].n_children = 0
        nodes[first + j].player = g.current_player
        nodes[first + j].terminal = 0
    nodes[index].first_child = first
    nodes[index].n_children = keep
    used[0] = first + keep
    return keep


# UCB1's sqrt(log(n + 1)) of a parent's visits and sqrt(n) of a child's, looked up for the counts of
# most searches instead of computed at every selection (the library's log alone was 2 % of a learned
# search's instructions): each entry is computed by the very expression it replaces, so the search
# sees the same doubles.
cdef enum:
    VISIT_TABLE = 4096
cdef double SQRT_LOG_VISITS[VISIT_TABLE]
cdef double SQRT_VISITS[VISIT_TABLE]


cdef void fill_visit_tables() noexcept nogil:
    cdef uint32_t n
    for n in range(VISIT_TABLE):
        SQRT_LOG_VISITS[n] = sqrt(log(n + 1.0))
        SQRT_VISITS[n] = sqrt(<double>n)


fill_visit_tables()


cdef inline double sqrt_log_visits(uint32_t n) noexcept nogil:
    return SQRT_LOG_VISITS[n] if n < VISIT_TABLE else sqrt(log(n + 1.0))


cdef inline double sqrt_visits(uint32_t n) noexcept nogil:
    return SQRT_VISITS[n] if n < VISIT_TABLE else sqrt(<double>n)


cdef inline int select_child(double uct_c, const Node *nodes, int index) noexcept nogil:
    """An unvisited child first (best heuristic first), else the highest UCB1 score (exploration `uct_c`)."""
    cdef const Node *parent = &nodes[index]
    cdef int i, c, best = parent.first_child
    cdef double score, best_score = -1e300, explore = uct_c * sqrt_log_visits(parent.visits)
    for i in range(parent.n_children):
        c = parent.first_child + i
        if nodes[c].visits == 0:
            return c
        score = nodes[c].mean + explore / sqrt_visits(nodes[c].visits)
        if score > best_score:
            best_score = score
            best = c
    return best


cdef inline double seat_value(const Params *P, const double *values, int players, int seat) noexcept nogil:
    """A seat's value against its strongest opponent."""
    cdef int q
    cdef double other = -1e300
    for q in range(players):
        if q != seat and values[q] > other:
            other = values[q]
    return values[seat] - P.opp_w * other
