# Built-in policies (docs/engine-spec.md, section 8). Each decision draws exactly one number
# from the policy stream, so the reference engine can replay every choice.
from azul_fast.core.rules._board cimport (
    CENTER, FLOOR, FLOOR_SLOTS, MAX_LEGAL_MOVES, N_COLORS, Board, Game,
    choose_placement, floor_penalty, greedy_column, invariant_violations, legal_moves, play_move,
    score_tile,
)
from azul_fast.core.rules._rng cimport below
from azul_fast.core.bots._search cimport (
    FULL_ROLLOUTS_FROM, N_SEARCHES, choose_heuristic, choose_search,
)

from azul_fast.core.rules._bits cimport init_popcount, nth_bit, popcount10

init_popcount()

# Each search family's native searches by PolicyId: [0] below FULL_ROLLOUTS_FROM iterations, [1] from there
# on (the same search twice for a family with one). Installed from the table of families
# (azul_fast.core.bots.families, on its import); -1 until then, and for the families that do not search.
cdef int FAMILY_SEARCH[N_POLICIES][2]
cdef int _policy
for _policy in range(N_POLICIES):
    FAMILY_SEARCH[_policy][0] = FAMILY_SEARCH[_policy][1] = -1


def install_family(int policy, int cut, int full):
    """Make the search family with id `policy` play search `cut` below FULL_ROLLOUTS_FROM iterations and
    `full` from there on (both SearchId codes)."""
    if not 0 <= policy < N_POLICIES or not 0 <= cut < N_SEARCHES or not 0 <= full < N_SEARCHES:
        raise ValueError(f"install_family({policy}, {cut}, {full}): a PolicyId and two SearchId codes expected")
    FAMILY_SEARCH[policy][0] = cut
    FAMILY_SEARCH[policy][1] = full


def family_searches(int policy):
    """The searches installed for the family with id `policy`: (below FULL_ROLLOUTS_FROM, from it), -1 for none."""
    if not 0 <= policy < N_POLICIES:
        raise ValueError(f"family_searches({policy}): a PolicyId expected")
    return FAMILY_SEARCH[policy][0], FAMILY_SEARCH[policy][1]


cdef int choose_random(Game *g) noexcept nogil:
    """The i-th legal move in canonical order, found by counting instead of listing.

    Every source holding colour c offers c the same destinations (the lines accepting c, then
    the floor), so colour c has popcount(sources) * destinations moves, and within it the i-th
    move is source i // destinations, destination i % destinations.
    """
    cdef const uint8_t *acc = g.boards[g.current_player].accepts
    cdef int per_color[N_COLORS]
    cdef int c, total = 0, i, dests, d, source
    if g.placing:
        return choose_placement(g, False)
    for c in range(N_COLORS):
        per_color[c] = popcount10(g.source_mask[c]) * (popcount10(acc[c]) + 1)
        total += per_color[c]
    i = below(&g.policy_rng, total)
    c = 0
    while i >= per_color[c]:
        i -= per_color[c]
        c += 1
    dests = popcount10(acc[c]) + 1
    source = nth_bit(g.source_mask[c], i // dests)
    d = i % dests
    return (source * 5 + c) * 6 + (FLOOR if d == dests - 1 else nth_bit(acc[c], d))


cdef int choose_greedy(Game *g) noexcept nogil:
    """Best immediate value: points if the line completes now minus the extra floor penalty."""
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef uint16_t best[MAX_LEGAL_MOVES]
    cdef int n = legal_moves(g, moves), n_best = 0, i, code, source, color, dest
    cdef int taken, put, overflow, gain, value, best_value = -1000, slots, new_slots, col
    cdef const Board *b = &g.boards[g.current_player]
    if g.placing:
        return choose_placement(g, True)
    slots = b.floor_count
    # The marker (if still in the centre) costs a floor slot to whoever takes from the centre.
    cdef int marker_cost = g.center_has_marker
    for i in range(n):
        code = moves[i]
        source = code // 30
        color = code // 6 % 5
        dest = code % 6
        taken = g.sources[source][color]
        gain = 0
        if dest == FLOOR:
            overflow = taken
        else:
            put = dest + 1 - b.line_count[dest]
            if taken < put:
                put = taken
            overflow = taken - put
            if b.line_count[dest] + put == dest + 1:
                col = greedy_column(b, dest, color, g.variant)
                gain = score_tile(b.wall, dest, col) if col >= 0 else 0
        new_slots = slots + overflow
        if source == CENTER:
            new_slots += marker_cost
        if new_slots > FLOOR_SLOTS:
            new_slots = FLOOR_SLOTS
        value = gain - (floor_penalty(new_slots) - floor_penalty(slots))
        if value > best_value:
            best_value = value
            n_best = 0
        if value == best_value:
            best[n_best] = code
            n_best += 1
    return best[below(&g.policy_rng, n_best)]


cdef int choose_move(Game *g, int policy) except -1 nogil:
    """The move of the policy with code `policy` (a PolicyId, and a budget for the search)."""
    cdef int kind = policy & POLICY_ID_MASK, budget = policy >> POLICY_BUDGET_SHIFT, search
    if kind == POLICY_RANDOM:
        return choose_random(g)
    if kind == POLICY_GREEDY:
        return choose_greedy(g)
    if kind == POLICY_HEURISTIC:
        return choose_heuristic(g)
    search = FAMILY_SEARCH[kind][budget >= FULL_ROLLOUTS_FROM] if kind < N_POLICIES else -1
    if search < 0:
        with gil:
            raise ValueError(f"policy code {policy}: no search installed for policy id {kind} "
                             "(azul_fast.core.bots.families installs them)")
    return choose_search(g, budget, search)


cdef int play_to_end(Game *g, const uint32_t *seat_policy, int *first_move, bint check,
                     int *violations) except -1 nogil:
    """Play the game out with one policy per seat; return the number of moves played.

    With `check`, the invariants are verified after every move and their violations OR-ed
    into `violations` (bits of _board.Invariant).
    """
    cdef int turns = 0, code
    while not g.game_over:
        code = choose_move(g, seat_policy[g.current_player])
        if turns == 0:
            first_move[0] = code
        play_move(g, code)
        turns += 1
        if check:
            violations[0] |= invariant_violations(g)
    return turns
