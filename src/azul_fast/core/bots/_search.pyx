# Policies stronger than greedy, all in nogil C over the packed Game. The module is one compiled
# unit; its parts are included by idea:
#
#   _search_params.pxi       the evaluation's constants, and Params: what each named search sets
#   _search_named.pxi        the named searches' parameters (mcts, learned, fast, the training searches)
#   _search_value.pxi        the static evaluation of a board, and the gray wall's placement by it
#   _search_moves.pxi        the one-ply move heuristic, denial, the heuristic policy, the rollout move
#   _search_tree.pxi         the UCT tree: nodes, the leaf memo, expansion and selection
#   _search_leaf_values.pxi  the values at a rollout's end, and the tables that remember them
#   _search_stop.pxi         when a search stops: its move decided, a test's limits, an interrupted run
#   this file                choose_search, in steps
#
# - A static evaluation of a board between rounds (board_value): the score, plus what partly
#   filled pattern lines will likely bring, plus progress towards the end bonuses (rows, columns,
#   colours), counted in full only where enough rounds remain to finish (the fullest wall row of
#   the table is the clock).
# - A one-ply heuristic (take_value): what a move adds to that value, with completed lines
#   scored exactly and the extra floor penalty subtracted. `heuristic` plays its best move.
# - `mcts`: UCT over the moves left in the current round. Within a round Azul is a game of
#   perfect information (every tile still to be taken lies open on the table; hidden are only
#   the next rounds' draws), so the tree and the rollouts stop where the round ends and the
#   boards after the wall tiling are scored by the static evaluation: no bag sampling is needed
#   and a search costs tens of microseconds per iteration. Each node keeps only its best moves
#   by the heuristic (which prunes dumping to the floor while a line accepts, and the like);
#   rollouts play the heuristic with a little noise. A seat's value is its evaluation minus
#   half the strongest opponent's; the most visited root move is played. The search stops as
#   soon as no other root move can overtake that one in the iterations left (decided_after): the
#   move is then known, and since the search draws from its own stream (below) and never from
#   the game's after its seed, stopping early changes no game.
# - The learned searches value the boards after the tiling by the learned evaluation (_learned).
#   Plain `learned` (below FULL_ROLLOUTS_FROM) stops sooner, once no rival could catch up with half
#   the iterations left (Params.stop_share): a guess, which pays for more iterations, and so does
#   the full-rollout search at 2 players, which there also explores less (Params.uct_c); but while
#   plain `learned`'s most visited move is not also the one of highest mean value it goes on, past
#   its budget if need be (Params.extend). `learned` and `fast` cut their rollouts short
#   (Params.rollout_replies): once every opponent has answered (one move at 2 players, three at 4)
#   the round is ended where it stands, its table's leftovers unplayed, which buys them more
#   iterations for the time; what those leftovers would have been worth to each seat is added from
#   the learned leftover model (_learned.leftover_values). At 2 players the learned searches'
#   heuristic also credits a take with the opponent's lines it leaves the table unable to complete
#   this round (denial: Params.deny_w); the full-rollout search blends each leaf's rollout with the
#   leaf's own cut value (Params.rollout_w); and in a round that ends the game `learned` first asks
#   the exact round search for a move that wins outright whatever the opponent replies, and plays it
#   if one is proved within a small budget (_solve.forced_win: Params.win_tiles).
#
# Honest information: the search plays on a copy whose bag stream is reseeded from the policy
# stream and which skips the refill at the end of a round (Game.lookahead: the search stops there,
# and the draw would cost a tenth of its time), so it never sees the real draws. Every random
# number comes from the game's policy stream: one draw per decision seeds the whole search.
#
# Gray wall: a cell whose column already holds every colour its row lacks can never be filled
# (a dead cell), so its row and column bonuses are out of reach: the evaluation gives them no
# potential. A placement goes to the legal column whose board evaluates best (best_placement;
# ties: one draw, spec section 10). Inside the search the tiling never waits: settle() puts every
# tile on greedy's column at once (cheap), so the tree holds takes only; a partly filled line is
# valued as if its tile went to greedy's column (-1: nowhere, so the floor).
from cpython.exc cimport PyErr_CheckSignals
from libc.limits cimport INT_MAX
from libc.math cimport ceil, log, sqrt
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from azul_fast.core.rules._board cimport (
    CENTER, COLUMN_MASK, FLOOR, GRAY, MAX_LEGAL_MOVES, MAX_PLAYERS, MIN_PLAYERS, N_COLORS, N_LINES, PLACE_CODE,
    Board, Game, close_round, dead_cells, floor_penalty, greedy_column, legal_moves, placement_columns, play_move,
    rounds_left, score_tile, settle_board,
)
from azul_fast.core.bots._learned cimport learned_value, learned_value_at, leftover_values, net_used, net_value_at
from azul_fast.core.rules._bits cimport ctz, init_popcount, nth_bit, popcount10, popcount25
from azul_fast.core.rules._rng cimport below, next64
from azul_fast.core.bots._solve cimport forced_win, game_ends_this_round

init_popcount()

include "_search_params.pxi"
include "_search_named.pxi"
include "_search_value.pxi"
include "_search_moves.pxi"
include "_search_tree.pxi"
include "_search_leaf_values.pxi"
include "_search_stop.pxi"


ctypedef struct Search:
    # What every iteration of one search reads and never changes.
    const Params *P
    Node *nodes             # the tree: the start of the search's one allocated block
    ValueTable *values_seen     # the board values seen (learned searches; after the leaf memo in the block)
    TilingTable *tilings        # the round ends tiled (searches that end rounds where they stand)
    int left                # rounds_left of the root position (the evaluation's clock)
    int k_reply             # moves kept where an opponent moves (Params.k_reply at this player count)
    int rollout_plies       # moves a rollout plays before its round is ended where it stands; INT_MAX: all
    int extend              # Params.extend
    double uct_c            # the exploration constant at this player count
    double stop_share       # the relaxed stop's share at this player count (decided_after)
    uint16_t round_number   # the round searched: a rollout stops where it ends
    uint8_t root_player     # the seat that searches
    bint learned            # the leaves are valued by the learned evaluation (every search but mcts)
    bint blend              # full rollouts blended with the leaf's own value (Params.rollout_w)


cdef inline int proved_win(const Params *P, const Game *g) noexcept nogil:
    """A move that wins outright whatever the opponent replies, at 2 players in a round that ends the
    game with at most Params.win_tiles tiles on the table, if _solve.forced_win proves one within
    Params.win_nodes positions; else a negative number. (A placement of the gray wall's tiling
    qualifies too: the table is empty then.)"""
    if (P.win_tiles and g.players == 2 and table_tiles(g) <= P.win_tiles
            and game_ends_this_round(g)):
        return forced_win(g, P.win_nodes)
    return -1


cdef inline bint stop_before(const Search *s, int it, int budget, int *check_at) noexcept nogil:
    """Whether the search stops before its iteration `it` (the stop rules of _search_stop.pxi):
    past its budget once the move is settled; within it once the move is decided (decided_after,
    checked again at `check_at`) and, for a search that may extend, settled too."""
    if it >= budget:   # past the budget (Params.extend): on only while the move is unsettled
        return not unsettled(s.nodes)
    if it == check_at[0] and early_stop:
        check_at[0] = decided_after(s.nodes, it, budget, s.stop_share)
        if check_at[0] < 0:
            if s.extend == 0 or not unsettled(s.nodes):
                return True
            check_at[0] = it + 1   # decided by the visits, not by the values: look again next time
    return False


cdef inline int descend(const Search *s, Game *sim, int *used, int *path, bint *fresh, PlacementCache *caches,
                        LeafMemo *memo) noexcept nogil:
    """Walk the tree from the root (`sim` its position) by select_child, playing each move on `sim`
    and expanding a node on its second visit, down to a node first visited now (`fresh`) or one
    whose move ended the round; record the path in `path` and return its depth."""
    # The fields read at every step, as locals: registers across the calls, which could write any memory.
    cdef Node *nodes = s.nodes
    cdef const Params *P = s.P
    cdef int k_inner = P.k_inner, k_reply = s.k_reply, left = s.left, root_player = s.root_player
    cdef double uct_c = s.uct_c
    cdef uint16_t round_number = s.round_number
    cdef int index = 0, depth = 0, child
    path[0] = 0
    fresh[0] = False
    while not nodes[index].terminal and not fresh[0]:
        if nodes[index].first_child < 0:
            if nodes[index].visits == 0:
                break
            expand(P, nodes, used, index, sim, k_inner if sim.current_player == root_player else k_reply, left,
                   &caches[sim.current_player], memo)
        child = select_child(uct_c, nodes, index)
        fresh[0] = nodes[child].visits == 0
        play_move(sim, nodes[child].move)
        settle(sim)
        index = child
        depth += 1
        path[depth] = index
        if sim.round != round_number or sim.game_over:
            nodes[index].terminal = 1
    return depth


cdef inline void play_out(const Search *s, Game *sim, Node *leaf, bint fresh, uint64_t *rng,
                          PlacementCache *caches, LeafMemo *memo, double *values) noexcept nogil:
    """The seats' values of the leaf `sim` (node `leaf`): its round played out by rollout moves (to
    its end, or cut short after rollout_plies and valued by cut_values), then valued at the round's
    end (round_end_values); for a blending search mixed with the leaf's own cut value."""
    # The fields read at every move, as locals (as in descend).
    cdef const Params *P = s.P
    cdef int left = s.left, rollout_plies = s.rollout_plies
    cdef uint16_t round_number = s.round_number
    cdef int plies = 0, p
    cdef bint valued = False
    cdef bint blended = s.blend and sim.round == round_number and not sim.game_over
    cdef double own[MAX_PLAYERS]   # the leaf's own values, blended with its rollout's (Params.rollout_w)
    cdef Game leaf_position
    if blended:
        leaf_position = sim[0]
        cut_values(s.values_seen, s.tilings, &leaf_position, own)
    while sim.round == round_number and not sim.game_over:
        if plies == rollout_plies:   # only the learned searches cut their rollouts short
            cut_values(s.values_seen, s.tilings, sim, values)
            valued = True
            break
        if plies == 0 and fresh:   # the leaf's first visit: keep what it values for its expansion
            play_move(sim, memo_rollout_move(P, leaf, sim, rng, left, &caches[sim.current_player], memo))
        else:
            play_move(sim, rollout_move(P, sim, rng, left, &caches[sim.current_player]))
        settle(sim)
        plies += 1
    if not valued:
        round_end_values(s.values_seen if s.learned else NULL, sim, values)
    if blended:
        for p in range(sim.players):
            values[p] = P.rollout_w * values[p] + (1 - P.rollout_w) * own[p]


cdef inline void back_up(const Params *P, Node *nodes, const int *path, int depth, const double *values,
                         int players) noexcept nogil:
    """Count the visit on the root and on every node of `path`, crediting each with its mover's
    value (seat_value)."""
    cdef int i
    cdef Node *node
    nodes[0].visits += 1
    for i in range(1, depth + 1):
        node = &nodes[path[i]]
        node.visits += 1
        node.total += seat_value(P, values, players, node.player)
        node.mean = node.total / node.visits / VALUE_SCALE


cdef inline int most_visited(const Node *nodes) noexcept nogil:
    """The move of the root's most visited child (ties: the higher total, then the first)."""
    cdef int i, best = nodes[0].first_child
    for i in range(nodes[0].first_child, nodes[0].first_child + nodes[0].n_children):
        if nodes[i].visits > nodes[best].visits or (
            nodes[i].visits == nodes[best].visits and nodes[i].total > nodes[best].total
        ):
            best = i
    return nodes[best].move


cdef int choose_search(Game *g, int budget, int search) except -1 nogil:
    """UCT over the moves of the current round (`budget` iterations) with the parameters of the
    SEARCH_ code `search`, see the module comment: the boards at the round's end valued by the
    static evaluation (SEARCH_MCTS) or the learned one (the others); it stops early once the move is
    decided (decided_after). MemoryError when the tree cannot be allocated."""
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef const Params *P = SEARCH_PARAMS[search]
    cdef int n = proved_win(P, g)
    if n >= 0:
        return n
    if g.placing:
        return best_placement(g, &g.policy_rng)
    cdef uint64_t rng = next64(&g.policy_rng)
    n = legal_moves(g, moves)
    if n == 1:
        return moves[0]
    cdef Search s
    s.P = P
    s.learned = search != SEARCH_MCTS
    s.left = rounds_left(g)
    s.extend = P.extend
    s.k_reply = P.k_reply[g.players - MIN_PLAYERS]
    s.stop_share = P.stop_share[g.players - MIN_PLAYERS]
    s.uct_c = P.uct_c[g.players - MIN_PLAYERS]
    s.rollout_plies = INT_MAX if P.rollout_replies == INT_MAX else P.rollout_replies * (g.players - 1)
    s.blend = s.learned and P.rollout_w < 1 and g.players == 2   # where the leftover model has weights
    s.round_number = g.round
    s.root_player = g.current_player
    cdef bint cut = s.rollout_plies != INT_MAX
    # One block: the tree, the leaf memo, then the tables of board values (learned searches) and of
    # tilings (the searches that end rounds where they stand).
    cdef int limit = budget + P.extend   # the most iterations the search may run (Params.extend)
    cdef int capacity = 1 + (limit + 1) * max(P.k_root, P.k_inner, s.k_reply)
    cdef size_t tree_bytes = capacity * sizeof(Node), memo_size = memo_bytes(limit)
    cdef size_t size = (tree_bytes + memo_size + (sizeof(ValueTable) if s.learned else 0)
                        + (sizeof(TilingTable) if cut or s.blend else 0))
    s.nodes = <Node *> malloc(size) if capacity <= tree_limit else NULL
    if s.nodes == NULL:
        with gil:
            raise MemoryError(f"the {SEARCH_NAMES[search]} search with budget {budget} could not "
                              f"allocate its tree ({capacity} nodes, {size} bytes)")
    cdef LeafMemo memo
    memo_init(&memo, <char *> s.nodes + tree_bytes, limit)
    s.values_seen = <ValueTable *> (<char *> s.nodes + tree_bytes + memo_size)
    s.tilings = <TilingTable *> (<char *> s.values_seen + (sizeof(ValueTable) if s.learned else 0))
    cdef PlacementCache caches[MAX_PLAYERS]   # a seat's, for every iteration (PlacementCache)
    cdef int p
    for p in range(g.players):
        clear_placements(&caches[p], g.variant)
    if s.learned:
        memset(s.values_seen.key, -1, VALUE_SLOTS)
        s.values_seen.net = P.net and net_used(g)   # without a network for the setting: learned's values
    if cut or s.blend:
        memset(s.tilings.used, 0, TILING_SLOTS)
    cdef Game root = g[0], sim
    root.bag_rng = next64(&rng)   # the search knows the bag's contents, never its order
    root.lookahead = 1
    s.nodes[0].total = 0
    s.nodes[0].mean = 0
    s.nodes[0].visits = 0
    s.nodes[0].first_child = -1
    s.nodes[0].terminal = 0
    cdef int used = 1, it, depth, check_at = 0
    cdef int path[64]
    cdef bint fresh
    cdef double values[MAX_PLAYERS]
    expand(P, s.nodes, &used, 0, &root, P.k_root, s.left, &caches[root.current_player], &memo)
    for it in range(limit):
        if not it & (STOP_CHECK - 1) and stop_requested:
            free(s.nodes)
            with gil:
                raise KeyboardInterrupt("search stopped: the run was interrupted")
        if not it & (STOP_CHECK - 1) and PyThread_get_thread_ident() == main_thread:
            with gil:
                if PyErr_CheckSignals() < 0:   # a handler raised (KeyboardInterrupt): it propagates
                    free(s.nodes)
                    return -1
        if stop_before(&s, it, budget, &check_at):
            break
        sim = root
        depth = descend(&s, &sim, &used, path, &fresh, caches, &memo)
        play_out(&s, &sim, &s.nodes[path[depth]], fresh, &rng, caches, &memo, values)
        back_up(P, s.nodes, path, depth, values, sim.players)
    n = most_visited(s.nodes)
    free(s.nodes)
    return n
