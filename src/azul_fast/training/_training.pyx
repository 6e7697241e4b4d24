# Training data for the learned evaluation: whole games played in the core, with the features of
# every board at every round boundary and the points that board went on to gain (collect), and
# with the leftover features of every seat at every turn and what cutting the round short there
# missed (collect_leftovers); training.py fits the weights to them. Kept apart from _learned so
# the evaluation does not depend on the policies.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core.rules._bits cimport init_popcount
from azul_fast.core.rules._board cimport Game, end_round, new_game, play_move, rounds_left
from azul_fast.core.bots._learned cimport (
    N_FEATURES, N_LEFTOVER_FEATURES, NET_INPUTS, board_features, learned_value, leftover_features, net_features,
)
from azul_fast.core.bots._policies cimport N_POLICIES, POLICY_ID_MASK, choose_move
from azul_fast.core.bots._search cimport settle
from azul_fast.core.rules._rng cimport game_seed

import numpy as np

init_popcount()   # rounds_left counts wall tiles with the table of this module

cdef enum:
    MAX_RECORDED_ROUNDS = 16    # round boundaries one game records at most (games last 5 to 7 rounds)
    MAX_RECORDED_TURNS = 200    # turns one game records at most (games last under 130)


cdef int check_seats(int players, const uint32_t[::1] seat_policy) except -1:
    """ValueError unless `seat_policy` holds one known policy code per seat, for 2..4 players."""
    if not 2 <= players <= 4 or seat_policy.shape[0] != players:
        raise ValueError("seat_policy needs one entry per seat, for 2..4 players")
    for code in seat_policy:
        if (code & POLICY_ID_MASK) >= N_POLICIES:
            raise ValueError(f"unknown native policy code {code}")
    return 0


def collect(uint64_t root, uint64_t start, int n_games, int players, const uint32_t[::1] seat_policy,
            int variant, int max_rounds, bint net=False):
    """Play games start .. start + n_games - 1 of the run with root seed `root` and record, at every
    round boundary, each board's features, its phase (rounds left, 1..5) and the points it gains
    from there to the end of the game.

    Returns ``(features, phase, gain, game)``: float64 (N, N_FEATURES), uint8, float64 and int64
    arrays with one row per board and round boundary (game is the game's index in the run). With `net`,
    the features are the value network's inputs (N, NET_INPUTS: _learned.net_features).
    """
    check_seats(players, seat_policy)
    cdef Py_ssize_t capacity = <Py_ssize_t>n_games * MAX_RECORDED_ROUNDS * players
    features_out = np.zeros((capacity, NET_INPUTS if net else N_FEATURES), dtype=np.float64)
    phase_out = np.zeros(capacity, dtype=np.uint8)
    gain_out = np.zeros(capacity, dtype=np.float64)
    game_out = np.zeros(capacity, dtype=np.int64)
    cdef double[:, ::1] x = features_out
    cdef uint8_t[::1] phase = phase_out
    cdef double[::1] gain = gain_out
    cdef long long[::1] game = game_out
    cdef Py_ssize_t used = 0, first, k
    cdef int i, p, recorded
    cdef uint16_t last_round
    cdef Game g
    with nogil:
        for i in range(n_games):
            new_game(&g, players, game_seed(root, start + i), 0, max_rounds, variant)
            first = used
            recorded = 0
            last_round = g.round
            while not g.game_over:
                play_move(&g, choose_move(&g, seat_policy[g.current_player]))
                if g.round != last_round and not g.game_over and not g.placing and recorded < MAX_RECORDED_ROUNDS:
                    last_round = g.round
                    recorded += 1
                    for p in range(players):
                        if net:
                            net_features(&g, p, rounds_left(&g), &x[used, 0])
                        else:
                            board_features(&g, p, &x[used, 0])
                        phase[used] = rounds_left(&g)
                        gain[used] = -g.boards[p].score   # the final score is added below
                        game[used] = start + i
                        used += 1
            for k in range(first, used):
                gain[k] += g.boards[(k - first) % players].score
    return features_out[:used], phase_out[:used], gain_out[:used], game_out[:used]


def collect_leftovers(uint64_t root, uint64_t start, int n_games, int players, const uint32_t[::1] seat_policy,
                      int variant, int max_rounds):
    """Play games start .. start + n_games - 1 of the run with root seed `root` and record, before
    every take, each seat's leftover features and what ending the round there would miss: the
    learned value of its board at the round's real end minus that of its board with the round
    ended at once, the tiles on the table unplayed (as the learned search ends its rollouts).

    Returns ``(features, missed, game)``: float64 (N, N_LEFTOVER_FEATURES), float64 and int64 arrays
    with one row per seat and turn (game is the game's index in the run).
    """
    check_seats(players, seat_policy)
    cdef Py_ssize_t capacity = <Py_ssize_t>n_games * MAX_RECORDED_TURNS * players
    features_out = np.zeros((capacity, N_LEFTOVER_FEATURES), dtype=np.float64)
    missed_out = np.zeros(capacity, dtype=np.float64)
    game_out = np.zeros(capacity, dtype=np.int64)
    cdef double[:, ::1] x = features_out
    cdef double[::1] missed = missed_out
    cdef long long[::1] game = game_out
    cdef Py_ssize_t used = 0, first, k, limit
    cdef int i, p
    cdef uint16_t round_number
    cdef Game g, cut
    with nogil:
        for i in range(n_games):
            new_game(&g, players, game_seed(root, start + i), 0, max_rounds, variant)
            first = used
            limit = used + MAX_RECORDED_TURNS * players
            round_number = g.round
            while not g.game_over:
                if not g.placing and used < limit:
                    cut = g
                    cut.lookahead = 1   # a copy: its round's end draws nothing
                    for p in range(players):
                        leftover_features(&cut, p, &x[used + p, 0])
                    end_round(&cut)
                    settle(&cut)
                    for p in range(players):
                        missed[used + p] = -learned_value(&cut, p)   # the real round's value is added below
                        game[used + p] = start + i
                    used += players
                play_move(&g, choose_move(&g, seat_policy[g.current_player]))
                if g.game_over or (g.round != round_number and not g.placing):
                    for k in range(first, used):
                        missed[k] += learned_value(&g, (k - first) % players)
                    first = used
                    round_number = g.round
    return features_out[:used], missed_out[:used], game_out[:used]
