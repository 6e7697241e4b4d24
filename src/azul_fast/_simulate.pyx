# Whole batches of games in the native core: the GIL is released for the entire batch, so
# threads run batches in parallel, and only result arrays come back to Python.
from libc.stdint cimport int16_t, uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast._board cimport (
    GRAY, Game, board_complete_colors, complete_columns, complete_rows, new_game, winners_mask,
)
from azul_fast._policies cimport N_POLICIES, POLICY_ID_MASK, play_to_end
from azul_fast._rng cimport game_seed


def derive_game_seed(uint64_t root, uint64_t index):
    """The seed of game `index` in a run with root seed `root` (docs/engine-spec.md, section 2)."""
    return game_seed(root, index)

GAME_ARRAYS = ("seed", "rounds", "turns", "truncated", "opening")
SEAT_ARRAYS = ("score", "win", "rows", "cols", "colors", "wall")


def run_batch(uint64_t root, uint64_t start, int players, const uint32_t[::1] seat_policy,
              int first_player, int max_rounds, int rotations, dict out, bint check=False, int variant=0):
    """Play games start .. start+len(out['seed'])-1 of the run with root seed `root`.

    `seat_policy` holds one policy code per seat (policies.native_policy_id: id and budget).
    Per-seat arrays are indexed [seat, game]; booleans come as uint8 views (results.runner_views).

    With `rotations` > 1 (the seat-rotated design), game i replays deal i // rotations with the
    policies moved round the table by i % rotations seats: same seed, hence the same tile draws.

    `out` holds preallocated arrays (see simulate.py), written in place: per game `seed`,
    `rounds`, `turns`, `truncated`, `opening`; per game and seat `score`, `win`, `rows`,
    `cols`, `colors`, `wall`. Arguments are validated by the caller. `variant` is 0 (colored
    wall) or 1 (gray wall; placements are moves too, so `turns` counts them).
    """
    cdef uint64_t[::1] seeds = out["seed"]
    cdef uint8_t[::1] rounds = out["rounds"]
    cdef uint16_t[::1] turns = out["turns"]
    cdef uint8_t[::1] truncated = out["truncated"]
    cdef uint16_t[::1] opening = out["opening"]
    cdef int16_t[:, :] score = out["score"]
    cdef uint8_t[:, :] win = out["win"]
    cdef uint8_t[:, :] rows = out["rows"]
    cdef uint8_t[:, :] cols = out["cols"]
    cdef uint8_t[:, :] colors = out["colors"]
    cdef uint32_t[:, :] wall = out["wall"]
    cdef uint8_t[::1] violations = out["violations"] if check else out["truncated"]
    cdef int broken
    cdef Py_ssize_t n = seeds.shape[0], i
    cdef int p, first_move = 0, winners, shift
    cdef uint32_t rotated[4]
    cdef Game g
    if not 2 <= players <= 4:
        raise ValueError(f"players must be in 2..4, got {players}")
    if seat_policy.shape[0] != players:
        raise ValueError("seat_policy needs one entry per seat")
    if not 0 <= variant <= GRAY:
        raise ValueError("variant must be 0 (colored) or 1 (gray)")
    # The loop below writes without bounds checks: every array must have room for every game.
    for name in GAME_ARRAYS + (("violations",) if check else ()):
        if out[name].shape != (n,):
            raise ValueError(f"out[{name!r}] has shape {out[name].shape}, expected ({n},)")
    for name in SEAT_ARRAYS:
        if out[name].shape != (players, n):
            raise ValueError(f"out[{name!r}] has shape {out[name].shape}, expected ({players}, {n})")
    if not 1 <= rotations <= players:
        raise ValueError("rotations must be in 1..players")
    for p in range(players):
        if (seat_policy[p] & POLICY_ID_MASK) >= N_POLICIES:
            raise ValueError(f"unknown native policy code {seat_policy[p]}")
    with nogil:
        for i in range(n):
            seeds[i] = game_seed(root, (start + i) // rotations)
            shift = (start + i) % rotations
            for p in range(players):
                rotated[p] = seat_policy[(p + players - shift) % players]
            new_game(&g, players, seeds[i], first_player, max_rounds, variant)
            broken = 0
            turns[i] = play_to_end(&g, rotated, &first_move, check, &broken)
            if check:
                violations[i] = broken
            rounds[i] = g.round
            truncated[i] = g.truncated
            opening[i] = first_move
            winners = winners_mask(&g)
            for p in range(players):
                score[p, i] = g.boards[p].score
                win[p, i] = (winners >> p) & 1
                rows[p, i] = complete_rows(g.boards[p].wall)
                cols[p, i] = complete_columns(g.boards[p].wall)
                colors[p, i] = board_complete_colors(&g.boards[p])
                wall[p, i] = g.boards[p].wall
