# Whole batches of games in the native core: the GIL is released for the entire batch, so
# threads run batches in parallel, and only result arrays come back to Python.
from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from azul_fast.core.rules._board cimport (
    CENTER, FLOOR, FULL_ROW, GRAY, MAX_PLAYERS, MIN_PLAYERS, PLACE_CODE, Board, Game, board_complete_colors,
    board_end_bonus, complete_columns, complete_rows, invariant_violations, new_game, play_move,
    score_tile, winners_mask,
)
from azul_fast.core.bots._policies cimport N_POLICIES, POLICY_ID_MASK, choose_move, play_to_end
from azul_fast.core.rules._rng cimport game_seed

from azul_fast.core.rules._bits cimport ctz, init_popcount, popcount25

init_popcount()

cdef enum:
    OUT_OF_ROOM = -2    # _Recorder.play: the game did not fit in the arrays (-1 is an exception)


def derive_game_seed(uint64_t root, uint64_t index):
    """The seed of game `index` in a run with root seed `root` (docs/engine-spec.md, section 2)."""
    return game_seed(root, index)


GAME_ARRAYS = ("seed", "rounds", "turns", "truncated", "opening")
SEAT_ARRAYS = ("score", "win", "rows", "cols", "colors", "wall")
#: Per-move arrays of run_moves_batch, one entry per move in play order (move_records.py names them).
MOVE_ARRAYS = ("game", "seed", "ply", "code", "round", "seat", "color", "tiles", "to_floor", "took_marker")
#: Per-round arrays of run_moves_batch: one entry per seat and round, rounds in order, seats within.
ROUND_ARRAYS = ("game", "round", "seat", "score", "tiles_placed", "points", "floor_penalty", "bonus")


cdef class _GameArrays:
    """The per-game result arrays of a batch as typed views, checked once against the batch size."""
    cdef uint64_t[::1] seed
    cdef uint8_t[::1] rounds
    cdef uint16_t[::1] turns
    cdef uint8_t[::1] truncated
    cdef uint16_t[::1] opening
    cdef int16_t[:, :] score
    cdef uint8_t[:, :] win, rows, cols, colors
    cdef uint32_t[:, :] wall
    cdef uint8_t[::1] violations
    cdef Py_ssize_t n
    cdef int players

    def __init__(self, dict out, int players, bint check):
        self.n = out["seed"].shape[0]
        self.players = players
        # The loops write without bounds checks: every array must have room for every game.
        for name in GAME_ARRAYS + (("violations",) if check else ()):
            if out[name].shape != (self.n,):
                raise ValueError(f"out[{name!r}] has shape {out[name].shape}, expected ({self.n},)")
        for name in SEAT_ARRAYS:
            if out[name].shape != (players, self.n):
                raise ValueError(f"out[{name!r}] has shape {out[name].shape}, expected ({players}, {self.n})")
        self.seed = out["seed"]
        self.rounds = out["rounds"]
        self.turns = out["turns"]
        self.truncated = out["truncated"]
        self.opening = out["opening"]
        self.score = out["score"]
        self.win = out["win"]
        self.rows = out["rows"]
        self.cols = out["cols"]
        self.colors = out["colors"]
        self.wall = out["wall"]
        self.violations = out["violations"] if check else out["truncated"]

    cdef void store(self, Py_ssize_t i, const Game *g, int turns, int first_move) noexcept nogil:
        """Game i's result, from its finished position."""
        cdef int p, winners = winners_mask(g)
        self.rounds[i] = g.round
        self.turns[i] = turns
        self.truncated[i] = g.truncated
        self.opening[i] = first_move
        for p in range(self.players):
            self.score[p, i] = g.boards[p].score
            self.win[p, i] = (winners >> p) & 1
            self.rows[p, i] = complete_rows(g.boards[p].wall)
            self.cols[p, i] = complete_columns(g.boards[p].wall)
            self.colors[p, i] = board_complete_colors(&g.boards[p])
            self.wall[p, i] = g.boards[p].wall


cdef check_batch(int players, const uint32_t[::1] seat_policy, int rotations, int variant):
    # The run plan checked every argument (table.check_players); this guards the core against a direct caller.
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be in {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    if seat_policy.shape[0] != players:
        raise ValueError("seat_policy needs one entry per seat")
    if not 0 <= variant <= GRAY:
        raise ValueError("variant must be 0 (colored) or 1 (gray)")
    if not 1 <= rotations <= players:
        raise ValueError("rotations must be in 1..players")
    for p in range(players):
        if (seat_policy[p] & POLICY_ID_MASK) >= N_POLICIES:
            raise ValueError(f"unknown native policy code {seat_policy[p]}")


cdef uint64_t start_game(Game *g, uint64_t root, uint64_t game, int rotations, int players,
                         const uint32_t[::1] seat_policy, uint32_t *rotated, int first_player,
                         int max_rounds, int variant) noexcept nogil:
    """Deal game `game` of the run into g and set its seats' policies; return its seed.

    With `rotations` > 1 (the seat-rotated design), game i replays deal i // rotations with the
    policies moved round the table by i % rotations seats: same seed, hence the same tile draws.
    """
    cdef uint64_t seed = game_seed(root, game // rotations)
    cdef int p, shift = game % rotations
    for p in range(players):
        rotated[p] = seat_policy[(p + players - shift) % players]
    new_game(g, players, seed, first_player, max_rounds, variant)
    return seed


def run_batch(uint64_t root, uint64_t start, int players, const uint32_t[::1] seat_policy,
              int first_player, int max_rounds, int rotations, dict out, bint check=False, int variant=0):
    """Play games start .. start+len(out['seed'])-1 of the run with root seed `root`.

    `seat_policy` holds one policy code per seat (policies.native_policy_id: id and budget).
    Per-seat arrays are indexed [seat, game]; booleans come as uint8 views (results.runner_views).
    `rotations` > 1 plays the seat-rotated design (start_game).

    `out` holds preallocated arrays (see simulate.py), written in place: per game `seed`,
    `rounds`, `turns`, `truncated`, `opening`; per game and seat `score`, `win`, `rows`,
    `cols`, `colors`, `wall`. Arguments are validated by the caller. `variant` is 0 (colored
    wall) or 1 (gray wall; placements are moves too, so `turns` counts them).
    """
    check_batch(players, seat_policy, rotations, variant)
    play_batch(root, start, players, seat_policy, first_player, max_rounds, rotations,
               _GameArrays(out, players, check), None, check, variant)


cdef Py_ssize_t play_batch(uint64_t root, uint64_t start, int players, const uint32_t[::1] seat_policy,
                           int first_player, int max_rounds, int rotations, _GameArrays games,
                           _Recorder recorder, bint check, int variant):
    """The loop of run_batch and run_moves_batch: play the games, without the GIL, until done
    or until the recorder (None: nothing recorded) runs out of room; return how many."""
    cdef int broken, turns, first_move = 0
    cdef Py_ssize_t i, done = 0
    cdef uint32_t rotated[MAX_PLAYERS]
    cdef Game g
    with nogil:
        for i in range(games.n):
            games.seed[i] = start_game(&g, root, start + i, rotations, players, seat_policy, rotated,
                                       first_player, max_rounds, variant)
            broken = 0
            if recorder is None:
                turns = play_to_end(&g, rotated, &first_move, check, &broken)
            else:
                turns = recorder.play(&g, start + i, games.seed[i], rotated, &first_move, check, &broken)
                if turns == OUT_OF_ROOM:
                    break
            if check:
                games.violations[i] = broken
            games.store(i, &g, turns, first_move)
            done += 1
    return done


cdef int tiling_points(uint32_t before, uint32_t placed) noexcept nogil:
    """Points of the tiles `placed` on a wall that held `before`, scored as the tiling does.

    Both walls tile row by row from the top, and a round adds at most one tile to a row, so
    scoring each new tile against the wall as it stands then gives the round's points exactly.
    """
    cdef int r, col, points = 0
    cdef unsigned int bits
    for r in range(5):
        bits = (placed >> (r * 5)) & FULL_ROW
        if bits:
            col = ctz(bits)
            points += score_tile(before, r, col)
            before |= <uint32_t>1 << (r * 5 + col)
    return points


cdef class _Recorder:
    """Growing-free output of run_moves_batch: per-move and per-round arrays with a fixed capacity.

    A game is appended whole or not at all: when the next move or round would not fit, the
    game's entries are dropped and the batch stops, so the caller grows the arrays and resumes.
    """
    cdef uint32_t[::1] game, round_game
    cdef uint64_t[::1] seed
    cdef uint16_t[::1] ply, code
    cdef uint8_t[::1] round, seat, color, tiles, to_floor, took_marker
    cdef uint8_t[::1] round_no, round_seat, tiles_placed, points, floor_penalty, bonus
    cdef int16_t[::1] score
    cdef Py_ssize_t n_moves, n_rounds, move_capacity, round_capacity
    cdef int32_t start_score[MAX_PLAYERS]
    cdef uint32_t start_wall[MAX_PLAYERS]

    def __init__(self, dict moves, dict rounds):
        self.move_capacity = moves["code"].shape[0]
        self.round_capacity = rounds["score"].shape[0]
        for name in MOVE_ARRAYS:
            if moves[name].shape != (self.move_capacity,):
                raise ValueError(f"moves[{name!r}] has shape {moves[name].shape}, expected ({self.move_capacity},)")
        for name in ROUND_ARRAYS:
            if rounds[name].shape != (self.round_capacity,):
                raise ValueError(f"rounds[{name!r}] has shape {rounds[name].shape}, expected ({self.round_capacity},)")
        self.game = moves["game"]
        self.seed = moves["seed"]
        self.ply = moves["ply"]
        self.code = moves["code"]
        self.round = moves["round"]
        self.seat = moves["seat"]
        self.color = moves["color"]
        self.tiles = moves["tiles"]
        self.to_floor = moves["to_floor"]
        self.took_marker = moves["took_marker"]
        self.round_game = rounds["game"]
        self.round_no = rounds["round"]
        self.round_seat = rounds["seat"]
        self.score = rounds["score"]
        self.tiles_placed = rounds["tiles_placed"]
        self.points = rounds["points"]
        self.floor_penalty = rounds["floor_penalty"]
        self.bonus = rounds["bonus"]

    cdef int play(self, Game *g, uint32_t game, uint64_t seed, const uint32_t *seat_policy, int *first_move,
                  bint check, int *violations) except -1 nogil:
        """play_to_end, recording every move and round of game number `game`; OUT_OF_ROOM (nothing
        kept) when out of room."""
        cdef Py_ssize_t moves_before = self.n_moves, rounds_before = self.n_rounds
        cdef int turns = 0, code, round_no
        self.open_round(g)
        while not g.game_over:
            if self.n_moves == self.move_capacity:
                self.n_moves, self.n_rounds = moves_before, rounds_before
                return OUT_OF_ROOM
            code = choose_move(g, seat_policy[g.current_player])
            if turns == 0:
                first_move[0] = code
            self.game[self.n_moves] = game
            self.seed[self.n_moves] = seed
            self.ply[self.n_moves] = turns
            self.describe(g, code)
            round_no = g.round
            play_move(g, code)
            turns += 1
            if check:
                violations[0] |= invariant_violations(g)
            if g.round != round_no or g.game_over:
                if self.n_rounds + g.players > self.round_capacity:
                    self.n_moves, self.n_rounds = moves_before, rounds_before
                    return OUT_OF_ROOM
                self.close_round(g, game, round_no)
                self.open_round(g)
        return turns

    cdef void describe(self, const Game *g, int code) noexcept nogil:
        """Append move `code`, about to be played in g (a take, or a gray-wall placement)."""
        cdef Py_ssize_t i = self.n_moves
        cdef int source = code // 30, color = code // 6 % 5, dest = code % 6, taken, room
        cdef const Board *b = &g.boards[g.current_player]
        self.round[i] = g.round
        self.seat[i] = g.current_player
        if code >= PLACE_CODE:
            # The engine's code holds only the column; the record also names the line (move_records.py).
            self.code[i] = PLACE_CODE + g.tile_line * 5 + code - PLACE_CODE
            self.color[i] = b.line_color[g.tile_line]
            self.tiles[i] = 0
            self.to_floor[i] = 0
            self.took_marker[i] = 0
        else:
            taken = g.sources[source][color]
            room = dest + 1 - b.line_count[dest] if dest != FLOOR else 0
            self.code[i] = code
            self.color[i] = color
            self.tiles[i] = taken
            self.to_floor[i] = taken - room if taken > room else 0
            self.took_marker[i] = source == CENTER and g.center_has_marker
        self.n_moves += 1

    cdef void open_round(self, const Game *g) noexcept nogil:
        cdef int p
        for p in range(g.players):
            self.start_score[p] = g.boards[p].score
            self.start_wall[p] = g.boards[p].wall

    cdef void close_round(self, const Game *g, uint32_t game, int round_no) noexcept nogil:
        """Append one entry per seat for the round just finished (tiled, floors paid)."""
        cdef int p, points, bonus
        cdef uint32_t placed
        cdef const Board *b
        cdef Py_ssize_t i
        for p in range(g.players):
            b = &g.boards[p]
            i = self.n_rounds
            placed = b.wall & ~self.start_wall[p]
            points = tiling_points(self.start_wall[p], placed)
            bonus = board_end_bonus(b) if g.game_over and not g.truncated else 0
            self.round_game[i] = game
            self.round_no[i] = round_no
            self.round_seat[i] = p
            self.score[i] = b.score
            self.tiles_placed[i] = popcount25(placed)
            self.points[i] = points
            self.bonus[i] = bonus
            # What the floor actually cost: its penalty, less what the zero floor of the score absorbed.
            self.floor_penalty[i] = self.start_score[p] + points + bonus - b.score
            self.n_rounds += 1


def run_moves_batch(uint64_t root, uint64_t start, int players, const uint32_t[::1] seat_policy,
                    int first_player, int max_rounds, int rotations, dict out, dict moves, dict rounds,
                    bint check=False, int variant=0):
    """run_batch, also recording every move into `moves` and every round into `rounds`.

    `moves` holds arrays of one capacity for MOVE_ARRAYS, `rounds` arrays of another for
    ROUND_ARRAYS (dtypes in move_records.py). Games are appended in order until one does not fit;
    returns (games played, moves written, rounds written): games after that are left unwritten,
    for the caller to resume with larger arrays. `out` is run_batch's, for all games asked.
    """
    check_batch(players, seat_policy, rotations, variant)
    cdef _GameArrays games = _GameArrays(out, players, check)
    cdef _Recorder recorder = _Recorder(moves, rounds)
    cdef Py_ssize_t done = play_batch(root, start, players, seat_policy, first_player, max_rounds, rotations,
                                      games, recorder, check, variant)
    return done, recorder.n_moves, recorder.n_rounds
