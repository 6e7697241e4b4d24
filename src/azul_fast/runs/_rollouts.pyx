# Rollouts of one position in the native core: each candidate move played, then the game finished
# under a policy once per continuation seed, without the GIL (azul_fast.runs.rollouts is the face).
#
# Job j is (move j // n_seeds, continuation j % n_seeds) and depends on nothing else: its game is
# the position, the move played with the position's own streams (as State.play would), then both
# streams replaced by continuation k's pair and the game played to its end. So continuation k of
# every move draws the same tiles and the same policy randomness (common random numbers), and
# any split of the jobs over threads gives the same arrays.
from libc.stdint cimport int16_t, uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core.rules._board cimport Game, play_move, winners_mask
from azul_fast.core.bots._policies cimport play_to_end
from azul_fast.core._state cimport State

cdef enum:
    NO_MOVE_CODE = 0xFFFF

#: The code of "no move": the continuation starts from the position itself.
NO_MOVE = NO_MOVE_CODE


def rollout_batch(State state, const uint16_t[::1] codes, const uint64_t[:, ::1] seeds,
                  const uint32_t[::1] seat_policy, Py_ssize_t start, Py_ssize_t stop,
                  int16_t[:, :, ::1] scores, uint8_t[:, ::1] winners):
    """Jobs start..stop-1 into scores[move, k, seat] and winners[move, k] (bit p: seat p shares the win).

    The caller (rollouts.py) checks the moves' legality, the policy codes and the shapes.
    """
    cdef Py_ssize_t n_seeds = seeds.shape[0], j, i, k
    cdef int p, first_move = 0, violations = 0
    cdef Game g
    if scores.shape[0] != codes.shape[0] or scores.shape[1] != n_seeds or scores.shape[2] != state.g.players:
        raise ValueError("scores must have shape (moves, seeds, players)")
    if winners.shape[0] != codes.shape[0] or winners.shape[1] != n_seeds or seat_policy.shape[0] != state.g.players:
        raise ValueError("winners must have shape (moves, seeds) and seat_policy one entry a seat")
    if not 0 <= start <= stop <= codes.shape[0] * n_seeds:
        raise ValueError("jobs out of range")
    with nogil:
        for j in range(start, stop):
            i = j // n_seeds
            k = j % n_seeds
            g = state.g
            if codes[i] != NO_MOVE_CODE:
                play_move(&g, codes[i])
            g.bag_rng = seeds[k, 0]
            g.policy_rng = seeds[k, 1]
            play_to_end(&g, &seat_policy[0], &first_move, False, &violations)
            for p in range(g.players):
                scores[i, k, p] = g.boards[p].score
            winners[i, k] = winners_mask(&g)
