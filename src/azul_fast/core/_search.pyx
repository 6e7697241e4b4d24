# Policies stronger than greedy, all in nogil C over the packed Game.
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
#   the game's after its seed, stopping early changes no game. Plain `learned` (below
#   FULL_ROLLOUTS_FROM) stops sooner, once no rival could catch up with half the iterations left
#   (Params.stop_share, search version 7): a guess, which pays for more iterations, and so does the full-rollout
#   search at 2 players (Params.stop_share_2p, search version 17), which there also explores less
#   (Params.uct_c_2p, search version 18); but while plain `learned`'s most visited move
#   is not also the one of highest mean value it goes on, past its budget if need be (Params.extend, search
#   version 10). `learned` and `fast` cut their
#   rollouts short (Params.rollout_replies): once every opponent has answered (one move at 2
#   players, three at 4) the round is ended where it stands, its table's leftovers unplayed,
#   which buys them more iterations for the time; what those leftovers would have been worth to
#   each seat is added from the learned leftover model (_learned.leftover_values, search version 4).
#   At 2 players the learned searches' heuristic also credits a take with the opponent's lines it
#   leaves the table unable to complete this round (denial: Params.deny_w, search version 14).
#   And in a round that ends the game, at 2 players, `learned` first asks the exact round search
#   for a move that wins outright whatever the opponent replies, and plays it if one is proved within
#   a small budget (_solve.forced_win: Params.win_tiles, search version 15).
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

from azul_fast.core._board cimport (
    CENTER, COLUMN_MASK, FLOOR, GRAY, MAX_LEGAL_MOVES, MAX_PLAYERS, N_COLORS, N_LINES, PLACE_CODE,
    Board, Game, close_round, dead_cells, floor_penalty, greedy_column, legal_moves, placement_columns, play_move,
    rounds_left, score_tile, settle_board,
)
from azul_fast.core._learned cimport learned_value, learned_value_at, leftover_values
from azul_fast.core._bits cimport ctz, init_popcount, nth_bit, popcount10, popcount25
from azul_fast.core._rng cimport below, next64
from azul_fast.core._solve cimport forced_win, game_ends_this_round

init_popcount()

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

# Tuned by head-to-head matches (benchmarks/bench_strength.py measures the result). opp_w < 1
# trades a little strength against a pure margin maximiser for much higher scores: at 1.0 two
# searchers race to end the game and force penalties on each other (about 30 points each).
cdef Params DEFAULT
DEFAULT.line_w = 0.5
DEFAULT.partial_w = 0.5
DEFAULT.marker = 0.5
DEFAULT.row_pot = [0, 0, 0.2, 0.5, 1.0, 2.0]
DEFAULT.col_pot = [0, 0, 0.5, 1.5, 3.5, 7.0]
DEFAULT.color_pot = [0, 0, 0.7, 2.0, 5.0, 10.0]
DEFAULT.late = 0.25
DEFAULT.uct_c = 0.7
DEFAULT.uct_c_2p = 0.7
DEFAULT.scale = 10.0
DEFAULT.noise = 1.0
DEFAULT.opp_w = 0.5
DEFAULT.k_root = 12
DEFAULT.k_inner = 8
DEFAULT.k_reply = 8
DEFAULT.rollout_replies = INT_MAX
DEFAULT.stop_share = 1.0
DEFAULT.stop_share_2p = 1.0
DEFAULT.extend = 0
DEFAULT.deny_w = 0
DEFAULT.win_tiles = 0
DEFAULT.win_nodes = 0
DEFAULT.rollout_w = 1

# The learned search with full rollouts (learned's search up to version 2): the same tree and
# rollouts as mcts; its leaf values estimate final scores, so a seat plays for its margin over the
# strongest opponent, and it explores less (its values are sharper than the static evaluation's).
# Tuned by matches against mcts (2,000 games each, at 75 iterations): exploration 0.5 against 0.7
# and 1.0, rollout noise 1 point against 0.5, 2 and 3, and 12/8 moves kept per node against 6/5,
# 8/6, 10/6 and 16/10. learned played it from FULL_ROLLOUTS_FROM iterations on up to search version 12
# (LEARNED_FULL below is it in a wider tree), and it plays the games the learned evaluation is
# fitted to (training.py, policy code POLICY_TRAINING): weights fitted to games of the one-move
# search below play that search worse (56.6 % against mcts instead of 64.1 %, 4,000 games,
# 2026-12-01); these keep the shipped weights reproducible from their seed.
cdef Params FULL = DEFAULT
FULL.opp_w = 1.0
FULL.uct_c = 0.5
FULL.uct_c_2p = 0.5

# The learned search below FULL_ROLLOUTS_FROM iterations: the search above with rollouts cut short:
# once every opponent has answered the tree's last move (one move at 2 players, two at 3, three at
# 4) the round is ended where it stands (the tiles still on the table are not played,
# Params.rollout_replies) and the boards valued as usual, so an iteration costs about two thirds as
# much and the tree does the work: it wants a wide root and a narrow inside. Tuned against mcts at 2
# players (2,000 games each, seats swapped, the same deals, 2026-12-01; ms per 2-player game on one
# core, loaded machine): search version 2 (full rollouts, 12/8 moves kept, exploration 0.5) at 75
# iterations 51.8 % for 3.63 ms; one-move rollouts at 100 iterations with 12/8 54.2 % (3.09 ms); at
# 110: 12/4 59.6 %, 12/3 (exploration 0.4) 59.0 %, 12/6 58.9 %, 12/4 at 0.4 62.2 %, 16/4 at 0.4 64.0
# % (3.40 ms), 20/4 62.2 %, 24/4 62.7 %, 16/3 62.1 %, 16/5 61.4 %, 16/4 at 0.3 61.2 %, 20/3 at 0.3
# 61.1 %; 16/4 with rollout noise 0.7 63.1 % and 1.5 61.4 %; 16/4 after 2 moves at 90 iterations
# 62.2 %; 16/4 at 120 iterations 64.4 % (3.52 ms). Plain learned was 16/4 at 110 iterations
# (LEARNED_BUDGET). One seat against mcts at 4 players (960 games, seats rotated): one move 25.9 %
# (3,200 games), three 33.2 %, version 2 27.7 % (fair: 25 %); at 3 players (900 games) one move 41.1
# %, two 43.7 % (fair: 33.3 %). At large budgets the values of rollouts cut short cap the strength
# where full rollouts keep gaining (2 players, idle machine): at 200 iterations one move 72.0 %
# (5.70 ms) and full 70.2 % (8.72 ms), at 300 72.4 % and 78.3 % (11.9 ms), at 1,000 77.9 % (16/4) or
# 82.3 % (16/8, exploration 0.5) against full's 87.4 % (benchmark of 2026-12-01). So from
# FULL_ROLLOUTS_FROM iterations learned plays the search above (200 until search version 8, below).
# Search version 4 (2026-12-01): where a rollout is cut short, the learned leftover model adds
# what the tiles left on the table would have been worth to each seat (_learned.leftover_values,
# fitted at 2 players only: training.LEFTOVER_PLAYER_COUNTS). Against mcts at 2 players (4,000 games
# each, 110 iterations, 16/4, the same deals): without it 64.1 %, with it 69.0 %; fitted again to
# games of the search that uses it 69.2 % (one fit kept); fitted to full heuristic playouts of the
# round instead of the real games' round ends 60.1 %. Tried the same day and dropped: playing for
# the win (a tanh of the margin, weight 5 to 20 points, added to it) 56.5 to 62.2 %; ranking the
# root's moves by their cut value instead of the heuristic 64.1 % (16 kept) for a third more time;
# the strongest opponent weighted 0.8 or 1.2 60.8 % and 61.0 %; weights fitted to 6,000 games a
# setting instead of 2,000 61.4 %. Search version 5 (2026-12-02): the tree retuned at 100 iterations
# with the leftover model, 2 players against mcts: 16/4 at 0.4 (version 4) 66.2 % (4,000 games) and
# 67.2 % (6,000, other deals); 20/4 at 0.3 68.8 % and 68.4 % on the same deals, for the same time
# (kept); 20/4 at 0.4 68.2 %, 16/4 at 0.3 68.1 %, 24/4 at 0.3 68.4 %, 20/5 at 0.3 68.4 %, 20/3 at 0.3
# 65.2 %, 16/5 66.5 %, 16/3 65.5 %, 12/4 64.6 %, 16/4 at 0.5 66.6 %, rollouts of two replies 62.5 %.
# One seat against mcts, seats rotated, the same deals: at 3 players 44.8 % against version 4's
# 44.1 % (2,700 games), at 4 35.6 % against 32.1 % (2,400). Version 4's tree (16/4 at 0.4) stays as
# CUT_TRAINING: it plays the leftover model's training games (POLICY_LEFTOVER_TRAINING,
# training.LEFTOVER_POLICY), so that retuning learned leaves the shipped weights reproducible from their
# seed, and fast's tree is built on it.
# Tried on 2026-12-02 (session 8) and not adopted, 2 players against mcts, seats swapped, the same
# deals (plain learned: 67.0 % and 67.1 % of 1,000 and 2,000 games, 2.5-2.7 ms a game on a loaded
# machine): (1) no UCT and no rollouts, a selective minimax (max-n) over the round: the k_root best
# moves by the heuristic at the root, k_inner below, to a fixed depth, every leaf the round ended
# there and valued as the cut rollouts are: depth 2 at 20/4 44.5 % (0.65 ms), 12/4 39.0 % (0.48);
# depth 3 at 12/4 48.8 % (1.26), 20/4 53.4 % (1.80), 20/8 62.5 % (3.79); depth 4 at 12/4 55.5 %
# (3.24), 20/4 61.3 % (4.62); depth 5 at 12/3 51.8 % (4.60). Against mcts:200, depth 2 at 20/4
# won 59.1 % (0.69 ms) where fast won 52.8 % (0.52 ms): the same frontier as the UCT search, no
# better. (2) A progressive bias toward the heuristic's best moves in select_child (weight w times
# the move's heuristic value less its best sibling's, over scale and visits + 1): w = 0.25 69.7 %,
# 0.5 69.5 % and 67.2 % (two deal sets), 1 68.6 %, 2 65.2 %, against 67.1 % and 67.6 % without it:
# within the noise. (3) The rollout's reply chosen as the best of the opponent's 2 or 3 best moves
# by the heuristic, each valued at the leaf, at the same time per game (60 and 40 iterations):
# 64.3 % and 59.7 %.
# Search version 7 (2026-12-03): learned's budget was the one lever that moved its strength (session 10, an experiment
# build, 2 players against mcts, seats swapped, 8,000 games a row on two sets of deals; times against mcts's on one idle
# core): version 6 (100 iterations) 71.5 % and 72.25 % at 0.092x, 110 iterations 74.0 % (0.099x); and a relaxed stop
# buys the time for more of them: the search stops once no rival of the most visited root move could catch it with half
# the iterations left (stop_share; the exact stop credits it all of them), a guess that may cost a move the iterations
# would have changed but plays as strongly for less time: at 100 iterations 72.4 % for 0.088x, at 120 74.8 % (0.101x),
# at 130 75.9 % and 76.05 % (0.106x); a third of the iterations left at 140, 75.7 % (0.104x). Kept: 120 iterations with
# the relaxed stop (LEARNED_BUDGET), measured on main's code against mcts on four deal sets (16,000 games): 74.8 %
# (74.2, 75.3, 74.5, 75.1) where version 6 won 71.9 % (72.9, 71.6, 71.2, 71.8): +2.9 points, about +26 Elo; 125
# iterations 75.2 %. Times (median of five fresh processes, one core): 100 iterations with the relaxed stop 0.088x, 110
# 0.093x, 115 0.094x, 120 0.097x, 125 0.101x. Neutral or worse the same session: the budget scaled by the legal moves,
# first-play urgency, root progressive widening, rollouts with no reply, a leftover model fitted to three times the
# games or to the seats' difference (the closing note of issue 27 has the figures).
# Search version 8 (2026-12-03): the cut search caught up. With the leftover model, the retuned tree and the relaxed
# stop, learned:N with rollouts cut short wins more than full rollouts up to 400 iterations, for far less time, and
# stays short of them from 500 (2 players against mcts, seats swapped, the same deals, 4,000 games a budget or 8,000
# where marked, ms per game on one idle core): cut 200* 78.4 % (3.55 ms) against full 72.5 %*, 300* 80.3 % (5.45
# ms), 400 82.2 % against full 81.35 %, 500 82.2 % (7.58 ms) against 83.4 %, 700 83.1 % against 85.6 %, 1,000 83.8 %
# (12.5 ms) against 87.55 % (20.7 ms), 2,000 83.0 % (21.7 ms); at 3 and 4 players one seat of learned:200 against
# mcts won 51.8 % and 39.2 % cut, 49.1 % and 37.4 % full (3,600 and 4,800 games). So FULL_ROLLOUTS_FROM went from 200
# to 500: learned:200 to learned:499 play plain learned's search with their budget, learned:500 and up the games they
# played before.
# Tried after version 8 and not shipped (2026-12-03, an experiment build; 2 players against mcts, seats swapped, three
# deal sets of 8,000 games, the same for every row; native instructions per game): extending the search when its budget
# runs out before the relaxed stop has settled the move, by up to E iterations on the larger budget: plain learned (120)
# 74.0 % (24.6 M), learned:130 74.55 % (26.2 M), learned:140 75.45 % (28.1 M); 110 + 60 74.4 % (24.7 M), 100 + 80
# 74.6 % (23.95 M), 80 + 120 73.45 % (22.8 M), 100 + 150 75.2 % (25.6 M): about half a point at equal cost.
# Search version 10 (2026-12-03, session 15): learned explores less (uct_c 0.25) and does not stop while its move is
# unsettled: when the relaxed stop finds the most visited root move out of reach, or the budget runs out, while another
# visited root move has the higher mean value, the search goes on (up to `extend` iterations past its budget) until the
# two agree (unsettled). 2 players against mcts, seats swapped, five deal sets of 8,000 games (the same deals for every
# row, search version 9's leftover network; native instructions per game): version 9 76.79 % (76.94, 77.35, 76.83,
# 76.49, 76.36; 25.07 M), version 10 77.00 % (77.50, 76.64, 76.89, 77.49, 76.50; 24.72 M): a fifth of a point,
# within the noise, for 1.4 % fewer instructions (set 21 chose the settings; on the four others 76.88 % against
# 76.76 %). On deal set 21 alone: exploration 0.25 77.23 % (24.5 M), 0.2
# 75.76 % (23.4 M), 0.35 75.67 %; the unsettled extension on version 9's exploration 77.42 % at 0.15 % more
# instructions, the same with up to 120 iterations past the budget; version 10 at 125 iterations 77.06 % on the five
# sets (+1.5 % instructions), at 130 with exploration 0.25 78.15 % on set 21 alone (+4 %), at 130 and 140 with 0.2
# 76.47 % and 77.75 % (set 21).
# Search version 12 (2026-12-04, session 18): at 2 players learned keeps 6 moves where the opponent moves (k_reply)
# and 4 where its own seat moves again (k_inner): the four best answers by the heuristic, which values only what a
# move gives its mover, too often leave out the answer that spoils the seat's plan. 2 players against mcts, seats
# swapped, the same deals (8,000 games a set; version 11: 77.87, 77.56, 77.37, 77.48 % on sets 22 to 25): 4 own / 6
# replies 78.71, 78.16, 78.43, 79.25 % (78.64 %, +1.07 points), on the benchmark's 4,000 games 78.72 % against 77.2 %,
# for the same instructions a game (25.8 M); on set 22, replies 5 78.68 %, 8 78.81 % (sets 23 and 24: 77.59 and 78.05
# %), 12 76.81 %; own/replies 6/4 77.67 %, 3/5 77.41 %, 5/3 76.42 %, 4/3 76.59 %, 3/4 75.90 %. Neutral or worse the
# same day (set 22): the heuristic's weights for learned's ordering and rollouts (bonus potentials x0.6 77.31 %, x1.5
# 76.78 %; partial lines 0.25 77.38 %, 0.8 75.54 %; the marker 0 75.99 %, 1.5 76.31 %), averaging the board weights of
# two training seeds (77.51 and 77.63 % on sets 22 and 23). fast (16 iterations) barely expands a node below the root:
# replies 3 or 4 moved it by less than a tenth of a point against mcts:200; it keeps 2. At 3 and 4 players, one seat
# against mcts (the same deals), 6 moves at every opponent's level won 46.31 % of 3,000 games and 36.70 % of 4,000,
# where version 11 won 47.69 % and 37.1 %: there learned keeps 4 (k_inner).
cdef Params CUT_TRAINING = FULL
CUT_TRAINING.uct_c = 0.4
CUT_TRAINING.uct_c_2p = 0.4
CUT_TRAINING.k_root = 16
CUT_TRAINING.k_inner = 4
CUT_TRAINING.k_reply = 4
CUT_TRAINING.rollout_replies = 1
cdef Params LEARNED = CUT_TRAINING
LEARNED.uct_c = 0.25
LEARNED.uct_c_2p = 0.25
LEARNED.k_root = 20
LEARNED.k_reply = 6
LEARNED.stop_share = 0.5
LEARNED.stop_share_2p = 0.5
LEARNED.extend = 60

# The fast search: the learned one, tuned for budgets of a few dozen iterations. Against full
# rollouts at 30 iterations (4,000 games, seats swapped, 2026-12-01, when learned still played
# them): 40 iterations after one move 50.7 % for 0.86x the time, after 2 moves 48.3 % (30
# iterations, 0.82x), after 3 50.0 % (0.89x), none (the leaf valued as it stands) 36.8 % at 40;
# full rollouts at 22 iterations 41.7 % for 0.84x. At a small budget the tree wants an even
# narrower inside than learned's: against mcts:200 (4,000 games each, the same deals): at 32
# iterations 12/4 moves kept 55.2 %, 10/4 55.0 %, 8/4 52.3 %, 6/4 47.4 %, 8/3 51.9 %, 8/5 49.9 %;
# at 26, 12/3 52.0 %, 12/2 52.4 %, 12/4 48.8 %, 16/3 50.5 %; exploration 0.4 53.4 % against 0.3's
# 52.0 % (26, 12/3), 0.5 51.0 % against 0.4's 51.5 % (24, 12/3); rollout noise 1 point 47.4 %
# against 0.7's 48.2 % and 1.5's 49.0 % (32, 6/4: no clear gain, kept). Plain fast was 24
# iterations at 12/2: 52.6 % against mcts:200 in about 1/11 of its time on those deals (search version 3).
# One seat against mcts at 4 players (960 games): a rollout of one move 20.5 %, of three (every
# opponent answers once, as now) 23.9 % (fair: 25 %). With the leftover model (search version 4, above)
# 24 iterations won 58.3 % against mcts:200 (8,000 games, the same deals; 50.8 % without), 18 54.4 %,
# 16 51.9 %, 14 49.7 %: plain fast became 18 iterations (FAST_BUDGET). Retuned on 2026-12-02 (16,000
# games each against mcts:200): 12/2 at 0.4 54.7 % (kept), at 0.3 54.6 %, 12/3 at 0.3 54.5 %, 16/2 at 0.4
# 53.2 %, at 0.3 53.4 %, 20/2 at 0.3 49.6 %.
cdef Params FAST = CUT_TRAINING
FAST.k_root = 12
FAST.k_inner = 2
FAST.k_reply = 2

# Search version 13 (2026-12-04, session 19): learned from FULL_ROLLOUTS_FROM iterations on is FULL in a wider tree:
# version 12's idea (at 2 players more moves kept where the opponent moves than where the root's seat moves again)
# and a wider root. FULL itself stays as it is: it plays the training games, and the shipped weights are
# reproducible from them.
# learned:1000 against mcts at 2 players, seats swapped, 2,000 games a deal set (seeds 210 to 213, 210 the
# benchmark's), root/own/replies kept: version 12's 12/8/8 87.95, 87.83 %; 12/8/12 89.92, 89.88, 89.68, 89.42 %
# (89.73 %); 16/8/12 92.33, 90.10, 92.27, 91.80 % (91.63 %, kept); 20/8/12 91.10, 91.20, 91.77, 91.42 %; 24/8/12
# 90.90, 91.77, 91.53, 90.62 %; on seeds 210 and 211: 12/8/16 89.80, 88.38 %, 12/8/24 87.58, 87.55 %, 12/6/12
# 88.42, 88.20 %, 16/8/10 90.83, 91.12 %, 16/10/12 90.65, 90.67 %, 20/8/14 90.72, 90.75 %, 16/8/12 with
# exploration 0.4 90.55, 91.42 %, 12/8/12 with 0.4 89.25, 89.40 %, with 0.6 90.12, 90.08 %.
# The wider root holds at 3 and 4 players too, where the replies stay k_inner (one seat of learned:1000 against mcts,
# seats rotated, the same deals, seed 31): root 12 66.97 % of 1,500 games at 3 players and 51.95 % of 2,000 at 4,
# root 16 67.04 % and 55.97 % (fair shares 33.3 and 25 %); 12 replies there too 66.10 % and 52.23 %: not taken.
# Around the chosen tree, on seeds 211 to 214 (16/8/12 as shipped: 90.10, 92.27, 91.80, 91.97 %, 91.54 %): rollout
# noise 1.5 points 91.75, 92.15, 91.53, 92.20 % (91.91 %), 2 points 91.67, 92.65, 92.10, 91.10 % (91.88 %), 3 points
# 92.77, 91.97 % (211 and 212); the strongest opponent weighted 0.8 91.42, 91.05, 91.80, 91.22 %, with noise 1.5 91.72,
# 91.47, 90.80, 91.72 %; exploration 0.6 90.35, 91.30 % (211, 212); plain learned's relaxed stop (stop_share 0.5)
# 89.35, 91.00 % for 10 % fewer instructions, with the unsettled extension 89.22, 91.17 %. Within a third of a
# point, or worse: kept as they are.
cdef Params LEARNED_FULL = FULL
LEARNED_FULL.k_root = 16
LEARNED_FULL.k_reply = 12

# Search version 14 (2026-12-04, session 20): at 2 players the searches of the learned policies value denial in
# their move heuristic (deny_w, count_denial): a take that leaves the table too few tiles to complete the
# opponent's partly filled line. The training searches (FULL, CUT_TRAINING) keep none, so the shipped weights stay
# reproducible. Against mcts at 2 players (learned:1000 and learned) or mcts:200 (fast), seats swapped, the same
# deals (seeds 211 to 214, 2,000 games a set; fast 4,000), version 13 first:
# - learned:1000 90.10, 92.27, 91.80, 91.97 % (91.54 %); a spoiled line worth deny_w times its length: 0.3 93.47,
#   92.10, 92.55, 91.95 %; 0.6 93.45, 92.60, 93.53, 93.20 % (93.20 %); 1.0 92.60, 92.77, 93.05, 92.45 %; 1.8 points
#   a line 94.53, 92.75 % (211, 213); 1.2 a tile on it 93.77, 92.70 %; its tile's score on the opponent's wall
#   times 0.9 93.53, 93.95 %; the length plus that score (shipped) times 0.4 93.80, 94.20, 94.10, 93.60 % (93.93 %),
#   times 0.6 93.33, 93.83 %, times 0.25 92.80, 92.73 %. In the order alone (0.6 a tile of length) 93.17, 93.62 %
#   (211, 213), in the rollouts alone 93.08, 93.38 %, twice as much in the rollouts 93.50, 93.85 %.
# - learned 78.33, 78.95, 77.92 % (211 to 213); 0.3 a tile of length 80.55, 79.95, 78.83 %, 0.6 80.10, 79.77, 79.22 %,
#   1.0 79.07 % (211); shipped 80.33, 81.27 % (211, 212).
# - fast against mcts:200 60.79, 59.31 % (211, 212); 0.3 a tile of length 61.69, 62.49 %, 0.6 62.20, 62.69 %;
#   shipped 62.78, 62.19 %.
# - At 3 and 4 players denial of every opponent lost: one seat of learned against mcts 46.29 % of 1,800 games at 3
#   players (seed 311) and 33.50 % of 2,000 at 4 (seed 312) where version 13 won 48.69 and 36.91 %; of the next
#   seat only 47.21 % at 3. So it applies at 2 players only (walk_takes).
LEARNED.deny_w = 0.4
FAST.deny_w = 0.4
LEARNED_FULL.deny_w = 0.4

# Search version 15 (2026-12-05, session 21): in a round that ends the game, at 2 players, learned first asks the
# exact round search for a move that wins outright whatever the opponent replies (_solve.forced_win), when the table
# holds few enough tiles for the proof to be cheap, and plays it if one is proved; otherwise it searches as before.
# The search's pruned tree and noisy rollouts miss some of those wins; a proof settles them, and a proved win spends
# nothing on the search. Against mcts at 2 players (fast against mcts:200), seats swapped, the same deals (sets 211
# to 214 of 2,000 games, fast 4,000), version 14 first; native instructions per self-play game (learned 20 games,
# learned:1000 10, fast 100):
# - learned:1000 93.80, 94.20, 94.10, 93.60 % (93.93 %, 287.0 M); at most 14 tiles and 20,000 positions 94.23, 94.47,
#   94.23, 93.97 % (290.4 M); 15 and 30,000 94.38, 94.67, 94.33, 94.03 % (94.35 %, 295.6 M: kept); 16 and 50,000
#   94.58, 94.83, 94.42, 94.03 % (338.9 M); any table and 20,000 94.50, 94.97 % (211, 212; 336.7 M); 200,000
#   94.85, 95.12 % (547.5 M). The proof of the margin (solve) instead of the win, 20,000 positions: 94.05 % (211).
# - learned 80.33, 81.27 % (211, 212; 26.5 M); at most 11 tiles and 3,000 positions 80.90, 81.80 % (27.3 M); 12 and
#   2,000 81.27, 81.88 % (27.6 M: kept, +0.8 points for 4 % more instructions); 12 and 3,000 81.27, 81.90 % (28.1 M);
#   13 and 3,000 81.47, 82.10 % (28.5 M); 14 and 20,000 82.15, 82.70 % (38.1 M), the same only where the learned
#   evaluation puts the seats within 15 or 8 points 82.10, 82.65 % and 81.53, 82.17 % (37.9 and 31.7 M).
# - fast 62.78, 62.19 % (5.214 M); at most 8 tiles and 500 positions 63.16, 62.45 % (5.300 M); 9 and 1,000 63.44,
#   62.86 % (5.329 M); 10 and 1,000 63.73, 63.42 % (5.395 M). Not taken: fast's time against mcts:200 is within 4 %
#   of its target (1/12), and it meets its strength target by 10 points.
# LEARNED_FULL's tree retuned with denial (learned:1000, sets 211 and 212 against version 14's 93.80 and 94.20 %):
# root 20 94.17, 95.20 % (213, 214: 93.88, 93.50 %; 94.19 % on the four against 93.93 %), root 24 93.73, 93.77 %,
# root 32 93.10, 94.17 %; exploration 0.4 94.17, 93.75 %, 0.6 93.38, 94.65 %; rollout noise 1.5 points 93.95,
# 94.38 %, 2 points 93.38, 93.25 %; own moves 6 93.47, 93.45 %, 10 93.45, 93.73 %; on set 211 alone, replies 16 at
# the first reply and 8 deeper 92.92 %, 12 and 8 93.38 %, 20 and 10 93.42 %, own moves 8 then 5 deeper 93.65 %,
# root 20 with noise 1.5 94.65 %, with exploration 0.4 94.10 %. Within the noise of 2,000 games: kept as it is.
LEARNED.win_tiles = 12
LEARNED.win_nodes = 2000
LEARNED_FULL.win_tiles = 15
LEARNED_FULL.win_nodes = 30000

# Search version 16 (2026-12-05, session 22): at 2 players the full-rollout search (learned:500 and up) values each
# leaf by a blend of two estimates with unlike errors: its rollout played to the round's end (noisy: one line of
# noisy play) and the leaf itself with its round ended where it stands, each seat's learned value plus what the
# leftover model says the tiles still on the table are worth to it (biased, but not noisy: the cut searches' value,
# taken at the leaf). Against mcts at 2 players, seats swapped, the same deals (sets 211 to 214 of 2,000 games),
# version 15 94.38, 94.67, 94.33, 94.03 % (94.35 %); milliseconds per game relative to mcts's in the same process:
# - learned:1000 with the rollout weighted 0.6 (shipped) 95.75, 96.65, 95.97, 95.97 % (96.09 %), 0.5 95.95, 95.55,
#   95.67, 95.15 % (95.58 %); on sets 211 and 212: 0.7 96.05, 95.25 %, 0.4 94.95, 95.78 %, 0.3 93.50, 94.90 %. Time
#   about 1.3x mcts's against version 15's 1.02x (the leftover model, a second round end and more board values
#   at every leaf). learned:2000 of version 14 won 95.60 % (seed 215) for twice the time: the blend is worth
#   about a doubling of the budget for a quarter more time.
# - The leaf's value without the leftover model (the table's tiles simply lost) 93.58, 94.92 % (211, 212): worse
#   than none, so the blend needs the leftover model, which has weights at 2 players only.
# - Cheaper blends: only at leaves with at least 8 tiles on the table 95.67, 95.97 % (211, 212; the time unchanged:
#   most leaves have that many), at least 14 95.03, 94.92 % (1.15x); rollouts cut after 8 moves and valued as the
#   cut searches value them 95.38, 96.08 % (1.32x), after 4 94.65, 95.58 % (1.28x): no time saved.
LEARNED_FULL.rollout_w = 0.6
# Tried after version 16 (2026-12-05, session 23; an experiment build, learned:700 against mcts at 2 players, seats
# swapped, sets of 2,000 games on the same deals; version 16 won 94.82 % over sets 211 to 226, 94.90 % over 211 to
# 218, the sets below unless said) and not shipped, none beyond the noise: the rollout weighted 0.7 94.67 % (215 to
# 226, where version 16 won 94.84 %); the rollout's weight 0.2 lower (higher) for every 10 tiles above 10 left at the
# leaf 95.02 % (94.75 %); the leaf's own value taken one or two moves into its rollout 94.32 and 94.12 %; 20 root
# moves 94.99 %, 16 replies 94.40 %. The relaxed stop (stop_share 0.5), on sets 211 to 226: learned:1000 95.78 %
# against 95.94 % in 0.89x its time; learned:750 94.75 % in 0.96x learned:700's time, learned:780 95.08 % in 0.99x,
# learned:800 95.28 % in 1.01x (each timed at once against mcts); at 3 players one seat of learned:800 against mcts
# 65.2 % of 3,600 games, 65.6 % without: perhaps +0.3 points at equal time at 2 players.
# Search version 17 (2026-12-05): that relaxed stop, at 2 players only (at 3 players it was no better, within the
# noise; at 4 one seat of learned:800 against mcts won 50.0 % of 8,000 games with it and 51.1 % without, lower on
# each of four sets): the time it saves buys a larger budget at the same cost per game. Its
# benchmark of record (bench_strength.py, 4,000 games a match): learned:800 95.4 % at 1.03x mcts's time timed at
# once, learned:750 94.5 % at 0.99x, learned:1000 95.5 % at 1.21x (version 16: learned:700 94.8 % at 1.01x).
LEARNED_FULL.stop_share_2p = 0.5
# Tried after version 17 (2026-12-05, session 25; learned:800 against mcts at 2 players, sets of 2,000 deals on the
# same deals; version 17 95.16 % over sets 211 to 214, 95.27 % over 211 to 216; time at once against version 17's
# learned:800) and not shipped, none above the frontier the budgets draw: denial valued in a rollout's first move only
# (Params.deny_w in the later moves 0) 94.87 % in 0.93x the time, learned:860 so 95.05 % (211 to 216) in 0.97x,
# learned:900 95.31 %; denial in its first two moves 94.99 % in 0.95x; the relaxed stop crediting 0.3 of the
# iterations left, learned:900, 95.13 % (211 to 216) in 0.98x; 10 tanh(margin / 5) added to every backed-up margin
# (playing for the win) 94.84 %, 20 tanh(margin / 10) 94.81 %; rollout noise 0.5, 0.75 and 1.25 points 94.77,
# 94.33 and 94.60 %. docs/policies.md has the table.
# Tried in session 26 (the same sets) and not shipped: the subtree of the move played and its reply kept for the
# seat's next search in the round, its visits counted in the budget, 94.97 % in 0.975x the time (not counted, 94.91 %
# in 0.99x): it holds 12 % of the next search's visits, and a game's time fell by 2.5 % only.
# Search version 18 (2026-12-05, session 26): at 2 players the full-rollout search explores as plain learned does,
# UCT constant 0.25 where FULL's 0.5 was (Params.uct_c_2p). Under version 17's relaxed stop a search that explores
# less gathers its visits on its leading move sooner and stops sooner: the gain is time, which buys iterations.
# learned:800 against mcts at 2 players, sets 211 to 214 of 2,000 deals (version 17: 95.16 %), time per self-play
# game on one core against version 17's learned:800 (200 games, three runs each): exploration 0.4 95.38 % in 0.94x,
# 0.3 95.31 % in 0.87x, 0.25 95.26 % in 0.85x, 0.2 94.85 % in 0.80x; at about 0.9x: 0.3 with learned:850 95.41 %
# (0.90x), 0.25 with learned:900 95.66 % (0.91x, kept). Exploration 0.4 and 0.6 were tried in versions 13 and 15
# under the exact stop, where exploring less saves no time. At 3 and 4 players, where the search keeps the exact
# stop, it keeps 0.5 (not measured there).
LEARNED_FULL.uct_c_2p = 0.25

# Each search's parameters and name (for its errors), by SEARCH_ code.
cdef const Params *SEARCH_PARAMS[6]
SEARCH_PARAMS[SEARCH_MCTS] = &DEFAULT
SEARCH_PARAMS[SEARCH_LEARNED] = &LEARNED
SEARCH_PARAMS[SEARCH_FAST] = &FAST
SEARCH_PARAMS[SEARCH_FULL] = &FULL
SEARCH_PARAMS[SEARCH_CUT_TRAINING] = &CUT_TRAINING
SEARCH_PARAMS[SEARCH_LEARNED_FULL] = &LEARNED_FULL
cdef tuple SEARCH_NAMES = ("mcts", "learned", "fast", "training", "leftover training", "learned")


cdef inline double potential(const Params *P, const double *table, int tiles, int left) noexcept nogil:
    return table[tiles] if 5 - tiles <= left else P.late * table[tiles]


cdef double wall_potential(const Params *P, const Board *b, int left, uint32_t dead) noexcept nogil:
    """Worth of progress towards the end bonuses (rows, columns, colours) of a wall.

    Rows and columns with a dead cell (`dead`, gray wall) can never be completed: no potential.
    """
    cdef int i
    cdef uint32_t wall = b.wall
    cdef double v = 0
    for i in range(5):
        if not (dead >> (i * 5)) & 0x1F:
            v += potential(P, P.row_pot, popcount10((wall >> (i * 5)) & 0x1F), left)
        if not dead & (COLUMN_MASK << i):
            v += potential(P, P.col_pot, popcount25(wall & (COLUMN_MASK << i)), left)
        v += potential(P, P.color_pot, popcount25(b.color_cells[i]), left)
    return v


cdef inline double placement_value(const Params *P, const Board *b, int row, int color, int left,
                                   int variant) noexcept nogil:
    """Points for a tile of `color` placed in `row` now, plus the bonus potential it adds."""
    cdef int col = greedy_column(b, row, color, variant)
    cdef uint32_t wall = b.wall
    if col < 0:
        return -(row + 1)   # gray wall, no column left: the line will go to the floor
    cdef int tr = popcount10((wall >> (row * 5)) & 0x1F)
    cdef int tc = popcount25(wall & (COLUMN_MASK << col))
    cdef int tk = popcount25(b.color_cells[color])
    return (score_tile(wall, row, col)
            + potential(P, P.row_pot, tr + 1, left) - potential(P, P.row_pot, tr, left)
            + potential(P, P.col_pot, tc + 1, left) - potential(P, P.col_pot, tc, left)
            + potential(P, P.color_pot, tk + 1, left) - potential(P, P.color_pot, tk, left))


cdef double board_value(const Params *P, const Game *g, int player) noexcept nogil:
    """Static value of a board between rounds: score, partly filled lines, bonus potential."""
    if g.game_over:
        return g.boards[player].score
    return board_value_of(P, g, &g.boards[player], rounds_left(g))


cdef double board_value_of(const Params *P, const Game *g, const Board *b, int left) noexcept nogil:
    cdef int r, n
    cdef double v = b.score
    v += wall_potential(P, b, left, dead_cells(b) if g.variant == GRAY else 0)
    for r in range(N_LINES):
        n = b.line_count[r]
        if n:
            v += P.line_w * n / (r + 1) * placement_value(P, b, r, b.line_color[r], left, g.variant)
    return v


cdef int best_placement(const Params *P, const Game *g, uint64_t *rng) noexcept nogil:
    """Gray wall: the legal column for the tile being tiled whose board evaluates best.

    Ties: one draw from `rng` among the best columns, or the first of them when `rng` is NULL.
    """
    cdef const Board *b = &g.boards[g.tile_player]
    cdef int row = g.tile_line, color = b.line_color[row], col, left = rounds_left(g)
    cdef unsigned int cols = placement_columns(b, row), top = 0
    cdef uint32_t bit
    cdef double v, best = -1e300
    cdef Board after
    while cols:
        col = ctz(cols)
        cols &= cols - 1
        after = b[0]
        bit = 1 << (row * 5 + col)
        after.score += score_tile(after.wall, row, col)
        after.wall |= bit
        after.color_cells[color] |= bit
        after.line_count[row] = 0
        v = board_value_of(P, g, &after, left)
        if v > best + 1e-9:
            best = v
            top = 0
        if v >= best - 1e-9:
            top |= 1 << col
    return PLACE_CODE + nth_bit(top, below(rng, popcount10(top)) if rng != NULL else 0)


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


cdef inline double cached_placement(const Params *P, const Board *b, int row, int color, int left,
                                    PlacementCache *cache) noexcept nogil:
    """placement_value of `b` (the board `cache` belongs to), computed once per line and colour."""
    cdef int k = row * 5 + color
    if not (cache.known >> k) & 1:
        cache.value[k] = placement_value(P, b, row, color, left, cache.variant)
        cache.known |= <uint32_t>1 << k
    return cache.value[k]


cdef inline double take_value(const Params *P, const Board *b, int taken, int color, int dest, bint marker,
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
        place = cached_placement(P, b, dest, color, left, cache)
        if n + put == cap:
            v = place * (1 - P.partial_w * n / cap)
        else:
            v = place * P.partial_w * put / cap
    slots = b.floor_count
    if marker:
        v += P.marker
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
                v = take_value(P, b, taken, c, d, marker, left, cache) + deny
                if moves != NULL:
                    moves[n] = code + d
                    values[n] = v
                    n += 1
                if rng != NULL:
                    v += P.noise * uniform(rng)
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
    cdef const Params *P = &DEFAULT
    cdef PlacementCache cache
    clear_placements(&cache, g.variant)
    if g.placing:
        return best_placement(P, g, &g.policy_rng)
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


ctypedef struct Node:
    double total            # sum of the values backed up through this node, for `player`
    double mean             # total / visits / scale, kept by the backup: UCB1 reads it at every selection
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
    """learned_value of `seat` (its game not over, `left` its rounds_left), from `table` when that
    board was valued before in this search. The value reads the seat's board, the rounds left and
    whether the seat starts the next round (and the wall side and player count, fixed in a search)."""
    cdef const Board *b = &g.boards[seat]
    cdef int key = left * 2 + (g.current_player == seat)
    cdef int k = board_slot(b, key, VALUE_SLOTS)
    cdef ValueSlot *slot = &table.slot[k]
    if table.key[k] == key and memcmp(&slot.board, b, sizeof(Board)) == 0:
        return slot.value
    table.key[k] = key
    slot.board = b[0]
    slot.value = learned_value_at(g, seat, left)
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


cdef inline void round_end_values(const Params *P, ValueTable *values_seen, const Game *g, double *out) noexcept nogil:
    """The seats' values of a search's copy `g` at its round's end: learned_value (from `values_seen`;
    the final scores once the game is over), or mcts's board_value when `values_seen` is NULL."""
    cdef int p, left
    if values_seen == NULL:
        for p in range(g.players):
            out[p] = board_value(P, g, p)
    elif g.game_over:
        for p in range(g.players):
            out[p] = learned_value(g, p)
    else:
        left = rounds_left(g)
        for p in range(g.players):
            out[p] = cached_learned_value(values_seen, g, p, left)


cdef inline void cut_values(const Params *P, ValueTable *values_seen, TilingTable *tilings, Game *g,
                            double *out) noexcept nogil:
    """The seats' values of a learned search's copy `g` mid-round, its round ended where it stands
    (end_round_cut): round_end_values plus what the tiles left unplayed were worth to each seat (the
    leftover model)."""
    cdef double leftover[MAX_PLAYERS]
    cdef int p
    leftover_values(g, leftover)
    end_round_cut(tilings, g)   # the table's leftovers unplayed (lookahead: no refill drawn)
    round_end_values(P, values_seen, g, out)
    for p in range(g.players):
        out[p] += leftover[p]


# Whether a search stops once its move is decided (decided_after): always, except where a test
# turns it off to show that the full budget plays the same moves as the exact stop (set_early_stop).
cdef bint early_stop = True


def set_early_stop(enabled):
    """Let searches stop once their move is decided (True, the default) or run their whole
    budget (False). For the test that the exact early stop changes no move."""
    global early_stop
    early_stop = bool(enabled)


cdef bint unsettled(const Node *nodes) noexcept nogil:
    """Whether the root's most visited child is not also its visited child of highest mean value
    (the first of either in the root's order): the iterations so far disagree about the move."""
    cdef const Node *root = &nodes[0]
    cdef int i, top = root.first_child, good = root.first_child
    for i in range(root.first_child, root.first_child + root.n_children):
        if nodes[i].visits > nodes[top].visits:
            top = i
        if nodes[i].visits > 0 and (nodes[good].visits == 0 or nodes[i].mean > nodes[good].mean):
            good = i
    return top != good


cdef int decided_after(const Node *nodes, int done, int budget, double share) noexcept nogil:
    """-1 when the root's most visited child can no longer be overtaken after `done` of `budget`
    iterations (the move played is then already known: the exact early stop), else the iteration
    at which that could first be true.

    Every iteration visits one root child, so in the `budget - done` left a rival gains at most
    that many visits. The leader must stay strictly ahead of every rival (a tie is broken by the
    totals, which the iterations left could still change). The gap to the runner-up grows by at
    most one an iteration while the iterations left shrink by one, so the shortfall closes by at
    most two an iteration: checking again before then would only cost time.

    With `share` below 1 (Params.stop_share, or stop_share_2p at 2 players) a rival is credited only
    that share of the iterations left, rounded up: the relaxed stop, checked every iteration (its
    shortfall closes unevenly).
    """
    cdef const Node *root = &nodes[0]
    cdef uint32_t top = 0, second = 0, v
    cdef int i, shortfall, credit
    for i in range(root.first_child, root.first_child + root.n_children):
        v = nodes[i].visits
        if v > top:
            second = top
            top = v
        elif v > second:
            second = v
    credit = budget - done if share >= 1 else <int>ceil((budget - done) * share)
    shortfall = credit - <int>(top - second) + 1
    if shortfall <= 0:
        return -1
    return done + (shortfall + 1) // 2 if share >= 1 else done + 1


# The most nodes a search tree may have: no limit, except where a test lowers it to make the
# allocation fail as it would on a machine out of memory (set_tree_limit).
cdef int tree_limit = INT_MAX


# Set by `request_stop` (the run loops call it on Ctrl-C or SIGTERM, from Python with the GIL) and
# read by every search without the GIL: volatile, so a search spinning in its loop sees the store.
# A search checks it every STOP_CHECK iterations (some milliseconds), which costs nothing that counts.
cdef extern from *:
    """
    static volatile int azul_fast_stop_requested = 0;
    """
    int stop_requested "azul_fast_stop_requested"

cdef enum:
    STOP_CHECK = 1024   # a power of two: iterations between two looks at stop_requested


# A search in the main thread (State.choose, a study's rollouts on one worker) also runs the
# process's signal handlers at each look, as the interpreter would between bytecodes: Ctrl-C, or
# SIGTERM turned into KeyboardInterrupt, stops it at once. Other threads cannot run them.
cdef extern from "pythread.h":
    unsigned long PyThread_get_thread_ident() nogil   # safe without the GIL: it reads the OS thread id

cdef unsigned long main_thread = PyThread_get_thread_ident()


def request_stop(bint stop=True):
    """Make every search in the process (True) raise KeyboardInterrupt within some milliseconds,
    or let them run again (False). The run loops call it when Ctrl-C or SIGTERM stops a run, so
    that a thread in the middle of a long search does not finish its game first."""
    global stop_requested
    stop_requested = stop


def set_tree_limit(limit):
    """Make every search whose tree would need more than `limit` nodes fail its allocation
    (MemoryError); None lifts the limit. For tests of the out-of-memory path."""
    global tree_limit
    tree_limit = INT_MAX if limit is None else limit


cdef int choose_search(Game *g, int budget, int search) except -1 nogil:
    """UCT over the moves of the current round (`budget` iterations), see the module comment;
    but for SEARCH_MCTS, the boards at the round's end are valued by the learned evaluation; it stops
    early once the move is decided (decided_after). MemoryError when the tree cannot be allocated."""
    cdef uint16_t moves[MAX_LEGAL_MOVES]
    cdef const Params *P = SEARCH_PARAMS[search]
    cdef int n
    if (P.win_tiles and g.players == 2 and table_tiles(g) <= P.win_tiles
            and game_ends_this_round(g)):   # a placement of the gray wall's tiling too: the table is empty then
        n = forced_win(g, P.win_nodes)
        if n >= 0:
            return n
    if g.placing:
        return best_placement(&DEFAULT, g, &g.policy_rng)
    cdef uint64_t rng = next64(&g.policy_rng)
    n = legal_moves(g, moves)
    cdef bint learned = search != SEARCH_MCTS
    if n == 1:
        return moves[0]
    cdef int limit = budget + P.extend   # the most iterations the search may run (Params.extend)
    cdef int k_reply = P.k_reply if g.players == 2 else P.k_inner   # moves kept where an opponent moves
    cdef double stop_share = P.stop_share_2p if g.players == 2 else P.stop_share
    cdef double uct_c = P.uct_c_2p if g.players == 2 else P.uct_c
    cdef int capacity = 1 + (limit + 1) * max(P.k_root, P.k_inner, k_reply)
    cdef int rollout_plies = (INT_MAX if P.rollout_replies == INT_MAX
                              else P.rollout_replies * (g.players - 1))
    cdef bint cut = rollout_plies != INT_MAX
    # Full rollouts blended with the leaf's own value (Params.rollout_w): where the leftover model has weights.
    cdef bint blend = learned and P.rollout_w < 1 and g.players == 2
    # One block: the tree, the leaf memo, then the tables of board values (learned searches) and of
    # tilings (the searches that end rounds where they stand).
    cdef size_t tree_bytes = capacity * sizeof(Node), memo_size = memo_bytes(limit)
    cdef size_t size = (tree_bytes + memo_size + (sizeof(ValueTable) if learned else 0)
                        + (sizeof(TilingTable) if cut or blend else 0))
    cdef Node *nodes = <Node *> malloc(size) if capacity <= tree_limit else NULL
    if nodes == NULL:
        with gil:
            raise MemoryError(f"the {SEARCH_NAMES[search]} search with budget {budget} could not "
                              f"allocate its tree ({capacity} nodes, {size} bytes)")
    cdef LeafMemo memo
    memo_init(&memo, <char *> nodes + tree_bytes, limit)
    cdef ValueTable *values_seen = <ValueTable *> (<char *> nodes + tree_bytes + memo_size)
    cdef TilingTable *tilings = <TilingTable *> (<char *> values_seen + (sizeof(ValueTable) if learned else 0))
    cdef int used = 1, it, plies, index, child, depth, p, i, best, left = rounds_left(g), check_at = 0
    cdef int path[64]
    cdef Node *node
    cdef double values[MAX_PLAYERS]
    cdef double own[MAX_PLAYERS]   # the leaf's own values, blended with its rollout's (Params.rollout_w)
    cdef Game root = g[0], sim, leaf
    cdef uint16_t round_number = g.round
    cdef bint fresh, valued, blended
    cdef PlacementCache caches[MAX_PLAYERS]   # a seat's, for every iteration (PlacementCache)
    for p in range(g.players):
        clear_placements(&caches[p], g.variant)
    if learned:
        memset(values_seen.key, -1, VALUE_SLOTS)
    if cut or blend:
        memset(tilings.used, 0, TILING_SLOTS)
    root.bag_rng = next64(&rng)   # the search knows the bag's contents, never its order
    root.lookahead = 1
    nodes[0].total = 0
    nodes[0].mean = 0
    nodes[0].visits = 0
    nodes[0].first_child = -1
    nodes[0].terminal = 0
    expand(P, nodes, &used, 0, &root, P.k_root, left, &caches[root.current_player], &memo)
    for it in range(limit):
        if not it & (STOP_CHECK - 1) and stop_requested:
            free(nodes)
            with gil:
                raise KeyboardInterrupt("search stopped: the run was interrupted")
        if not it & (STOP_CHECK - 1) and PyThread_get_thread_ident() == main_thread:
            with gil:
                if PyErr_CheckSignals() < 0:   # a handler raised (KeyboardInterrupt): it propagates
                    free(nodes)
                    return -1
        if it >= budget:   # past the budget (Params.extend): on only while the move is unsettled
            if not unsettled(nodes):
                break
        elif it == check_at and early_stop:
            check_at = decided_after(nodes, it, budget, stop_share)
            if check_at < 0:
                if P.extend == 0 or not unsettled(nodes):
                    break
                check_at = it + 1   # decided by the visits, not by the values: look again next time
        sim = root
        index = 0
        depth = 0
        path[0] = 0
        fresh = False
        while not nodes[index].terminal and not fresh:
            if nodes[index].first_child < 0:
                if nodes[index].visits == 0:
                    break
                expand(P, nodes, &used, index, &sim,
                       P.k_inner if sim.current_player == root.current_player else k_reply, left,
                       &caches[sim.current_player], &memo)
            child = select_child(uct_c, nodes, index)
            fresh = nodes[child].visits == 0
            play_move(&sim, nodes[child].move)
            settle(&sim)
            index = child
            depth += 1
            path[depth] = index
            if sim.round != round_number or sim.game_over:
                nodes[index].terminal = 1
        plies = 0
        valued = False
        blended = blend and sim.round == round_number and not sim.game_over
        if blended:
            leaf = sim
            cut_values(P, values_seen, tilings, &leaf, own)
        while sim.round == round_number and not sim.game_over:
            if plies == rollout_plies:   # only the learned searches cut their rollouts short
                cut_values(P, values_seen, tilings, &sim, values)
                valued = True
                break
            if plies == 0 and fresh:   # the leaf's first visit: keep what it values for its expansion
                play_move(&sim, memo_rollout_move(P, &nodes[index], &sim, &rng, left, &caches[sim.current_player],
                                                  &memo))
            else:
                play_move(&sim, rollout_move(P, &sim, &rng, left, &caches[sim.current_player]))
            settle(&sim)
            plies += 1
        if not valued:
            round_end_values(P, values_seen if learned else NULL, &sim, values)
        if blended:
            for p in range(sim.players):
                values[p] = P.rollout_w * values[p] + (1 - P.rollout_w) * own[p]
        nodes[0].visits += 1
        for i in range(1, depth + 1):
            node = &nodes[path[i]]
            node.visits += 1
            node.total += seat_value(P, values, sim.players, node.player)
            node.mean = node.total / node.visits / P.scale
    best = nodes[0].first_child
    for i in range(nodes[0].first_child, nodes[0].first_child + nodes[0].n_children):
        if nodes[i].visits > nodes[best].visits or (
            nodes[i].visits == nodes[best].visits and nodes[i].total > nodes[best].total
        ):
            best = i
    n = nodes[best].move
    free(nodes)
    return n
