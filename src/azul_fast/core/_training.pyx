# Training data for the learned evaluation: whole games played in the core, with the features of
# every board at every round boundary and the points that board went on to gain (learned.py fits
# the weights to them). Kept apart from _learned so the evaluation does not depend on the policies.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core._bits cimport init_popcount
from azul_fast.core._board cimport Game, new_game, play_move, rounds_left
from azul_fast.core._learned cimport N_FEATURES, board_features
from azul_fast.core._policies cimport N_POLICIES, POLICY_ID_MASK, choose_move
from azul_fast.core._rng cimport game_seed

import numpy as np

init_popcount()   # rounds_left counts wall tiles with the table of this module

cdef enum:
    MAX_RECORDED_ROUNDS = 16    # round boundaries one game records at most (games last 5 to 7 rounds)


def collect(uint64_t root, uint64_t start, int n_games, int players, const uint32_t[::1] seat_policy,
            int variant, int max_rounds):
    """Play games start .. start + n_games - 1 of the run with root seed `root` and record, at every
    round boundary, each board's features, its phase (rounds left, 1..5) and the points it gains
    from there to the end of the game.

    Returns ``(features, phase, gain, game)``: float64 (N, N_FEATURES), uint8, float64 and int64
    arrays with one row per board and round boundary (game is the game's index in the run).
    """
    if not 2 <= players <= 4 or seat_policy.shape[0] != players:
        raise ValueError("seat_policy needs one entry per seat, for 2..4 players")
    for code in seat_policy:
        if (code & POLICY_ID_MASK) >= N_POLICIES:
            raise ValueError(f"unknown native policy code {code}")
    cdef Py_ssize_t capacity = <Py_ssize_t>n_games * MAX_RECORDED_ROUNDS * players
    features_out = np.zeros((capacity, N_FEATURES), dtype=np.float64)
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
                        board_features(&g, p, &x[used, 0])
                        phase[used] = rounds_left(&g)
                        gain[used] = -g.boards[p].score   # the final score is added below
                        game[used] = start + i
                        used += 1
            for k in range(first, used):
                gain[k] += g.boards[(k - first) % players].score
    return features_out[:used], phase_out[:used], gain_out[:used], game_out[:used]
