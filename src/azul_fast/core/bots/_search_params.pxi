# The parameters of a search (included by _search.pyx; one compiled module).

ctypedef struct Params:
    double line_w           # weight of a partly filled pattern line at the end of a round
    double partial_w        # the same weight as the move heuristic sees it
    double marker           # value of taking the first-player marker (besides its floor slot)
    double row_pot[6]       # worth of a wall row / column / colour holding t tiles
    double col_pot[6]
    double color_pot[6]
    double late             # potential kept by a row/column/colour too far from complete to finish
    double uct_c            # exploration constant (values in units of `scale` points)
    double uct_c_2p         # uct_c at 2 players (search version 18: LEARNED_FULL explores less there)
    double scale
    double noise            # rollout policy: uniform noise in points added to every move value
    double opp_w            # weight of the strongest opponent's value in a seat's value
    int k_root              # moves kept at the root, ranked by the heuristic
    int k_inner             # moves kept below the root where the root's seat moves
    int k_reply             # moves kept where an opponent moves, at 2 players only (k_inner at 3 and 4, where every
                            # opponent's level would widen): search version 12 below
    int rollout_replies     # a rollout plays this many moves per opponent (one each: every opponent answers
                            # once), then the round is ended where it stands; INT_MAX: the round played out
    double stop_share       # the search stops once no rival of the most visited root move could catch it
                            # with this share of the iterations left (decided_after); 1: the exact stop
    double stop_share_2p    # stop_share at 2 players (search version 17: LEARNED_FULL's relaxed stop pays
                            # there, not at 3 and 4 players)
    int extend              # iterations a search may add past its budget while its move is unsettled: the most
                            # visited root move is not the one of highest mean value (unsettled); 0: none
    double deny_w           # move heuristic, at 2 players: the weight of what a take spoils, the opponent's partly
                            # filled pattern lines it leaves the table too few tiles to complete this round, each
                            # worth its length plus what its tile would score (denial: count_denial); 0: none
    int win_tiles           # at 2 players, in a round that ends the game with at most this many tiles left on the
                            # table: play a move that wins outright whatever the opponent replies, if alpha-beta
    int win_nodes           # proves one within win_nodes positions (_solve.forced_win); 0: never (search version 15)
    double rollout_w        # full rollouts at 2 players: a leaf is valued rollout_w times its rollout's value plus
                            # 1 - rollout_w times its own, the round ended at the leaf with the leftover model
                            # (cut_values); 1: the rollout's alone (search version 16)
