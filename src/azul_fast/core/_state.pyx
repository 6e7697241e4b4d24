# The Python face of one packed game: State wraps the Game struct of _board.pxd. Arguments are
# validated here in Python; the rules themselves run in the nogil kernels.
import numpy as np

from azul_fast.core.rules.checks import check_bool, check_int
from azul_fast.core.rules.seeds import check_seed
from azul_fast.core.rules.moves import (
    CENTER as PY_CENTER, COLOR_LETTERS, MARKER, VARIANTS, Color, IllegalMoveError, InvariantError, Move, Placement,
    move_from_code, parse_move,
)
from azul_fast.core.rules.table import check_players, check_variant
from azul_fast.core.formats.position_text import position_from_text, position_to_text
from azul_fast.core.formats.position_json import POSITION_FORMAT, validate_position
from azul_fast.core.legal_moves import LegalMoves

from azul_fast.core.rules._board cimport (
    CENTER, ERR_BAD_SOURCE, ERR_CELL_TAKEN, ERR_COLUMN_HAS_COLOR, ERR_GAME_OVER, ERR_LINE_FULL,
    ERR_LINE_OTHER_COLOR, ERR_NO_PLACEMENT, ERR_NO_TILES, ERR_PLACEMENT_PENDING, ERR_WALL_HAS_COLOR,
    BAD_PATTERN_LINE, BAD_TILE_COUNT, BAD_TILING, BAD_WALL_COLORS, FLOOR_OVERFULL, NEGATIVE_SCORE,
    STALE_DERIVED, UNMARKED_TRUNCATION, MARKER_CODE, MAX_LEGAL_MOVES, MOVE_OK, N_COLORS, NO_PLAYER,
    Board, Game, MoveError, board_complete_colors, check_move, legal_moves, new_game, play_move,
    invariant_violations, refresh_accepts, refresh_source_masks, winners_mask,
)
from azul_fast.core.bots._policies cimport choose_move
from libc.stdint cimport uint16_t, uint64_t

include "_state_messages.pxi"
include "_state_positions.pxi"


def _policy_code(policy):
    """The core's code of a policy: a PolicySpec's own, else its name parsed (UnknownPolicyError if not one).

    A PolicySpec is known by its class's name, not its identity: a test run that imports the policies
    module a second time (doctest collection) makes a second PolicySpec class.
    """
    if type(policy).__name__ == "PolicySpec":
        return policy.code
    from azul_fast.core.bots.policies import parse_policy   # here: the bots import this module at load
    return parse_policy(policy).code


cdef class State:
    """A position of Azul (colored or gray wall) for 2 to 4 players, backed by the native core.

    A State is not to be shared between threads without a lock. `choose` searches on a copy of
    the position without the GIL and then writes the copy back, so a `play` made from another
    thread while it searches is silently undone; give each thread its own State (`copy`), or
    hold one lock around every call on a shared one. Different States run in parallel freely.

    >>> from azul_fast import State, Move
    >>> state = State.new(players=2, seed=7)
    >>> state.round, state.current_player, state.scores
    (1, 0, (0, 0))
    >>> len(state.legal_moves) > 0
    True
    >>> state.play(next(iter(state.legal_moves)))
    >>> state.current_player
    1
    """

    # its Game struct is declared in _state.pxd (the solver and the rollouts read it). The methods'
    # documentation is written once, in the public face (azul_fast.core.state), which sets it on import.

    @staticmethod
    def new(players=2, seed=None, first_player=0, max_rounds=100, variant="colored"):
        players = check_players(players)
        cdef int variant_id = check_variant(variant)
        first_player = check_int(first_player, "first_player", 0, players - 1)
        max_rounds = check_int(max_rounds, "max_rounds", 1, 255)
        cdef uint64_t game_seed = check_seed(seed)
        cdef State state = State.__new__(State)
        new_game(&state.g, players, game_seed, first_player, max_rounds, variant_id)
        return state

    # -- the game --------------------------------------------------------------------------

    @property
    def players(self):
        return self.g.players

    @property
    def variant(self):
        """``"colored"`` or ``"gray"``."""
        return VARIANTS[self.g.variant]

    @property
    def tiling(self):
        """(seat, pattern line) whose wall placement the gray tiling waits for, or None."""
        return (self.g.tile_player, self.g.tile_line) if self.g.placing else None

    def _tile_line(self):
        return self.g.tile_line

    @property
    def n_factories(self):
        return self.g.n_factories

    @property
    def current_player(self):
        return self.g.current_player

    @property
    def start_player(self):
        """The seat that started the current round."""
        return self.g.start_player

    @property
    def marker_holder(self):
        """The seat that took the first-player marker this round, or None."""
        return None if self.g.marker_holder == NO_PLAYER else self.g.marker_holder

    @property
    def round(self):
        return self.g.round

    @property
    def max_rounds(self):
        return self.g.max_rounds

    @property
    def truncated(self):
        """True when the game ended without a complete row (round cap, or no tile left to draw)."""
        return bool(self.g.truncated)

    def is_game_over(self):
        return bool(self.g.game_over)

    @property
    def scores(self):
        return tuple(self.g.boards[p].score for p in range(self.g.players))

    @property
    def winners(self):
        """Seats sharing the victory (highest score, then most complete rows); () until the end."""
        cdef int mask = winners_mask(&self.g)
        return tuple(p for p in range(self.g.players) if mask >> p & 1)

    @property
    def legal_moves(self):
        return LegalMoves(self)

    def _legal_codes(self):
        cdef uint16_t buffer[MAX_LEGAL_MOVES]
        cdef int n = legal_moves(&self.g, buffer)
        return [buffer[i] for i in range(n)]

    def _why_illegal(self, move):
        if isinstance(move, Placement) and self.g.placing and not self.g.game_over and move.line != self.g.tile_line:
            return f"the wall tiling waits for pattern line {self.g.tile_line + 1}, not line {move.line + 1}"
        cdef MoveError error = check_move(&self.g, move.code)
        return None if error == MOVE_OK else _why_illegal(error, move, &self.g)

    def play(self, move):
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, (Move, Placement)):
            raise TypeError(f"play() takes a Move, a Placement or its notation, got {type(move).__name__}")
        why = self._why_illegal(move)
        if why is not None:
            raise IllegalMoveError(f"illegal move {move}: {why}")
        play_move(&self.g, move.code)

    def choose(self, policy):
        cdef int policy_id = _policy_code(policy)
        cdef int code
        cdef Game g = self.g   # searched on a copy: a search that fails (MemoryError) changes nothing
        if self.g.game_over:
            raise IllegalMoveError("the game is over: there is no move to choose")
        with nogil:
            code = choose_move(&g, policy_id)
        self.g = g
        return move_from_code(code, self.g.tile_line)

    def copy(self):
        cdef State other = State.__new__(State)
        other.g = self.g
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        # Whatever the State is (a position set up with reachable=False too), a copy is the same.
        return (_unpickle, (self.to_dict(),))

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None

    # -- read access ----------------------------------------------------------------------

    @property
    def factories(self):
        """Tiles by colour on each factory display, shape (n_factories, 5)."""
        out = np.zeros((self.g.n_factories, N_COLORS), dtype=np.int8)
        for f in range(self.g.n_factories):
            for c in range(N_COLORS):
                out[f, c] = self.g.sources[f][c]
        return out

    @property
    def center(self):
        return np.array([self.g.sources[CENTER][c] for c in range(N_COLORS)], dtype=np.int8)

    @property
    def center_has_marker(self):
        return bool(self.g.center_has_marker)

    @property
    def bag(self):
        return np.array([self.g.bag[c] for c in range(N_COLORS)], dtype=np.int8)

    @property
    def lid(self):
        return np.array([self.g.lid[c] for c in range(N_COLORS)], dtype=np.int8)

    def _board(self, player):
        player = check_int(player, "player", 0, self.g.players - 1)
        return player

    def wall_mask(self, player):
        return self.g.boards[self._board(player)].wall

    def wall(self, player):
        mask = self.wall_mask(player)
        return np.array([[mask >> (r * 5 + c) & 1 for c in range(5)] for r in range(5)], dtype=bool)

    def wall_colors(self, player):
        cdef Board *b = &self.g.boards[self._board(player)]
        rows = [[None] * 5 for _ in range(5)]
        for c in range(N_COLORS):
            for cell in range(25):
                if b.color_cells[c] >> cell & 1:
                    rows[cell // 5][cell % 5] = Color(c)
        return rows

    def complete_colors(self, player):
        return board_complete_colors(&self.g.boards[self._board(player)])

    def pattern_line(self, player, line):
        cdef Board *b = &self.g.boards[self._board(player)]
        line = check_int(line, "line", 0, 4)
        if b.line_count[line] == 0:
            return (None, 0)
        return (Color(b.line_color[line]), b.line_count[line])

    def floor(self, player):
        cdef Board *b = &self.g.boards[self._board(player)]
        return [MARKER if b.floor[i] == MARKER_CODE else Color(b.floor[i]) for i in range(b.floor_count)]

    def check_invariants(self):
        cdef int found = invariant_violations(&self.g)
        broken = [text for bit, text in INVARIANT_TEXT.items() if found & bit]
        if broken:
            raise InvariantError("; ".join(broken))

    # -- positions as data ------------------------------------------------------------------

    def to_dict(self):
        return position_dict(self)

    @staticmethod
    def from_dict(d, *, reachable=True):
        cdef State state = State.__new__(State)
        set_position(&state.g, validate_position(d, reachable=reachable))
        return state

    def to_text(self, rng=False):
        return position_to_text(self.to_dict(), check_bool(rng, "rng"))

    @staticmethod
    def from_text(text, *, reachable=True):
        return State.from_dict(position_from_text(text), reachable=reachable)

    # -- text ------------------------------------------------------------------------------

    def __str__(self):
        from azul_fast.core.formats.board_text import board_text
        return board_text(self)

    def _repr_svg_(self):
        """Notebooks show the board as a diagram."""
        from azul_fast.core.formats.board_svg import render_svg
        return render_svg(self)

    def __repr__(self):
        status = "game over" if self.g.game_over else f"player {self.g.current_player} to move"
        return f"<State {self.g.players} players, round {self.g.round}, {status}, scores {self.scores}>"


def _unpickle(d):
    """A pickled State back as it was (a position set up with reachable=False included)."""
    return State.from_dict(d, reachable=False)
