# What a search weighs: the evaluation's constants, the same in every search, and the parameters
# each named search sets for itself (Params; the searches' values are in _search_named.pxi).
# How every value was chosen, with the matches that chose it: docs/history.md.

# The static evaluation and the move heuristic (_search_value.pxi, _search_moves.pxi). C constants,
# so the compiler folds them into the arithmetic.
cdef extern from *:
    """
    /* A partly filled pattern line at a round's end is worth this share of what its tile will score. */
    static const double LINE_WEIGHT = 0.5;
    /* The same share as the move heuristic credits a take that leaves its line partly filled. */
    static const double PARTIAL_WEIGHT = 0.5;
    /* Taking the first-player marker is worth this (besides its floor slot): the next round's first pick. */
    static const double MARKER_VALUE = 0.5;
    /* What a wall row, column or colour holding t tiles (0..5) is worth towards its end bonus. */
    static const double ROW_POTENTIAL[6] = {0, 0, 0.2, 0.5, 1.0, 2.0};
    static const double COLUMN_POTENTIAL[6] = {0, 0, 0.5, 1.5, 3.5, 7.0};
    static const double COLOR_POTENTIAL[6] = {0, 0, 0.7, 2.0, 5.0, 10.0};
    /* The share of that worth kept where too few rounds remain to complete it. */
    static const double LATE_SHARE = 0.25;
    /* Points a search's values are divided by before UCB1 compares them with its exploration term. */
    static const double VALUE_SCALE = 10.0;
    /* Uniform noise (points) added to every move's value in a rollout, so that rollouts differ. */
    static const double ROLLOUT_NOISE = 1.0;
    """
    const double LINE_WEIGHT
    const double PARTIAL_WEIGHT
    const double MARKER_VALUE
    const double ROW_POTENTIAL[6]
    const double COLUMN_POTENTIAL[6]
    const double COLOR_POTENTIAL[6]
    const double LATE_SHARE
    const double VALUE_SCALE
    const double ROLLOUT_NOISE

# The player counts a per-player-count table holds (index: players - MIN_PLAYERS).
cdef enum:
    PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1

ctypedef struct Params:
    double opp_w            # weight of the strongest opponent's value in a seat's value
    double uct_c[PLAYER_COUNTS]     # UCB1's exploration constant (values in units of VALUE_SCALE points), by players
    int k_root              # moves kept at the root, ranked by the move heuristic
    int k_inner             # moves kept below the root where the root's seat moves
    int k_reply[PLAYER_COUNTS]      # moves kept where an opponent moves, by players
    int rollout_replies     # a rollout plays this many moves per opponent (one each: every opponent answers
                            # once), then the round is ended where it stands; INT_MAX: the round played out
    double stop_share[PLAYER_COUNTS]    # the search stops once no rival of the most visited root move could catch
                                        # it with this share of the iterations left (decided_after), by players;
                                        # 1: the exact stop, which changes no move
    int extend              # iterations a search may add past its budget while its move is unsettled: the most
                            # visited root move is not the one of highest mean value (unsettled); 0: none
    double deny_w           # move heuristic, at 2 players: the weight of what a take spoils, the opponent's partly
                            # filled pattern lines it leaves the table too few tiles to complete this round, each
                            # worth its length plus what its tile would score (denial: count_denial); 0: none
    int win_tiles           # at 2 players, in a round that ends the game with at most this many tiles left on the
                            # table: play a move that wins outright whatever the opponent replies, if the exact
    int win_nodes           # round search proves one within win_nodes positions (_solve.forced_win); 0: never
    bint net                # the boards at a round's end valued by the value network (_learned.net_value_at),
                            # not the learned linear model
    double rollout_w        # full rollouts at 2 players: a leaf is valued rollout_w times its rollout's value plus
                            # 1 - rollout_w times its own, the round ended at the leaf with the leftover model
                            # (cut_values); 1: the rollout's alone
