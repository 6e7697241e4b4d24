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

    # its Game struct is declared in _state.pxd (the solver and the rollouts read it)

    @staticmethod
    def new(players=2, seed=None, first_player=0, max_rounds=100, variant="colored"):
        """Set up a new game: 20 tiles of each colour in the bag, factories filled from `seed`.

        Parameters
        ----------
        players : int
            Players at the table, 2 to 4.
        seed : int, numpy integer or None
            The game seed, 0..2**64-1 (None: a random one). It fixes the bag's order and the
            policies' choices, so the same seed replays the same game.
        first_player : int
            Seat that moves first, 0..players-1.
        max_rounds : int
            1..255: a game not finished after that many rounds ends as truncated.
        variant : str
            ``"colored"`` (the printed wall) or ``"gray"`` (the player picks the column of every tile).

        Returns
        -------
        State
            Round 1, `first_player` to move, every score 0.

        Raises
        ------
        TypeError
            If an argument has the wrong type (a bool is not an int).
        ValueError
            If a value is out of range or `variant` is unknown.

        Examples
        --------
        >>> state = State.new(players=3, seed=1, first_player=2)
        >>> state.players, state.n_factories, state.current_player, state.scores
        (3, 7, 2, (0, 0, 0))
        >>> State.new(players=5)
        Traceback (most recent call last):
        ValueError: players must be in 2..4, got 5
        """
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
        """Whether the game has ended (a complete wall row, the round cap, or no tile left).

        Returns
        -------
        bool
            True once `scores` are final (end bonuses included) and `winners` is set.

        Examples
        --------
        >>> state = State.new(players=2, seed=3)
        >>> state.is_game_over()
        False
        >>> while not state.is_game_over():
        ...     state.play(state.choose("greedy"))
        >>> state.is_game_over(), len(state.winners) >= 1
        (True, True)
        """
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
        """Play `move` for the current player, in place.

        After the last take of a round this also tiles the walls, scores, and refills the
        factories or ends the game; on the gray wall the tiling stops where a player must pick a
        column (`tiling`), and that player's Placement continues it.

        Parameters
        ----------
        move : Move, Placement or str
            The move, or its notation (``"3B2"``: factory 3, blue, pattern line 2; see
            `parse_move`).

        Raises
        ------
        IllegalMoveError
            If the move is not legal here (a ValueError); the position is left unchanged.
        TypeError
            If `move` is neither a Move, a Placement nor a string.

        Examples
        --------
        >>> state = State.new(players=2, seed=2026)
        >>> state.play("3B2")
        >>> state.pattern_line(0, 1), state.current_player
        ((<Color.BLUE: 0>, 2), 1)
        >>> state.play("3B2")
        Traceback (most recent call last):
        azul_fast.IllegalMoveError: illegal move 3B2: factory 3 holds no blue tile
        """
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, (Move, Placement)):
            raise TypeError(f"play() takes a Move, a Placement or its notation, got {type(move).__name__}")
        why = self._why_illegal(move)
        if why is not None:
            raise IllegalMoveError(f"illegal move {move}: {why}")
        play_move(&self.g, move.code)

    def choose(self, policy):
        """The move a built-in policy picks here, without playing it.

        The choice draws from this game's policy random stream (never from the bag's order), so it
        is reproducible from the game seed; a search runs without the GIL, so threads can think
        about different games at once (not about one State: see the class docstring).

        Parameters
        ----------
        policy : str or PolicySpec
            A name of `available_policies()`, or a search with its budget (``"mcts:400"``), or its
            parsed `azul_fast.core.bots.policies.PolicySpec`.

        Returns
        -------
        Move or Placement
            A legal move of the current player.

        Raises
        ------
        UnknownPolicyError
            (a ValueError) For an unknown policy name or budget (the message lists the valid forms).
        IllegalMoveError
            If the game is over.
        KeyboardInterrupt
            The search was stopped (a run interrupted by Ctrl-C,
            `azul_fast.core.bots.policies.stop_searches`); the State is unchanged.

        Examples
        --------
        >>> state = State.new(players=2, seed=2026)
        >>> move = state.choose("greedy")
        >>> move in state.legal_moves
        True
        >>> state.play(move)
        """
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
        """An independent copy of the position (the packed game is copied, not shared).

        Returns
        -------
        State
            Equal to this one; playing on it leaves this one unchanged.

        Examples
        --------
        >>> state = State.new(players=2, seed=5)
        >>> other = state.copy()
        >>> other.play(other.choose("random"))
        >>> other == state, state.current_player
        (False, 0)
        """
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
        """The wall of `player` as a 25-bit int: bit ``row * 5 + col`` is set for a placed tile.

        Parameters
        ----------
        player : int
            Seat, 0..players-1.

        Returns
        -------
        int
            The mask, 0..2**25-1 (the core's packed wall).

        Raises
        ------
        TypeError
            If `player` is not an int.
        ValueError
            If `player` is not a seat of this game.

        Examples
        --------
        >>> State.new(players=2, seed=1).wall_mask(0)
        0
        """
        return self.g.boards[self._board(player)].wall

    def wall(self, player):
        """The wall of `player` as a 5x5 bool array (True where a tile is placed).

        Parameters
        ----------
        player : int
            Seat, 0..players-1.

        Returns
        -------
        numpy.ndarray
            Shape (5, 5), dtype bool, rows top to bottom.

        Raises
        ------
        TypeError
            If `player` is not an int.
        ValueError
            If `player` is not a seat of this game.

        Examples
        --------
        >>> wall = State.new(players=2, seed=1).wall(1)
        >>> wall.shape, bool(wall.any())
        ((5, 5), False)
        """
        mask = self.wall_mask(player)
        return np.array([[mask >> (r * 5 + c) & 1 for c in range(5)] for r in range(5)], dtype=bool)

    def wall_colors(self, player):
        """The wall of `player` as 5 rows of 5 cells: the Color of a placed tile, or None.

        Parameters
        ----------
        player : int
            Seat, 0..players-1.

        Returns
        -------
        list of list
            5 rows of 5 entries, each a Color or None (the gray wall needs this: its colours are
            not printed).

        Raises
        ------
        TypeError
            If `player` is not an int.
        ValueError
            If `player` is not a seat of this game.

        Examples
        --------
        >>> State.new(players=2, seed=1).wall_colors(0)[0]
        [None, None, None, None, None]
        """
        cdef Board *b = &self.g.boards[self._board(player)]
        rows = [[None] * 5 for _ in range(5)]
        for c in range(N_COLORS):
            for cell in range(25):
                if b.color_cells[c] >> cell & 1:
                    rows[cell // 5][cell % 5] = Color(c)
        return rows

    def complete_colors(self, player):
        """Colours with all 5 tiles on the wall of `player` (each is worth 10 points at the end).

        Parameters
        ----------
        player : int
            Seat, 0..players-1.

        Returns
        -------
        int
            How many colours are complete, 0..5.

        Raises
        ------
        TypeError
            If `player` is not an int.
        ValueError
            If `player` is not a seat of this game.

        Examples
        --------
        >>> State.new(players=2, seed=1).complete_colors(0)
        0
        """
        return board_complete_colors(&self.g.boards[self._board(player)])

    def pattern_line(self, player, line):
        """What pattern `line` of `player` holds.

        Parameters
        ----------
        player : int
            Seat, 0..players-1.
        line : int
            Pattern line, 0..4 (line 0 holds one tile, line 4 five).

        Returns
        -------
        tuple
            ``(Color, count)``, or ``(None, 0)`` for an empty line.

        Raises
        ------
        TypeError
            If `player` or `line` is not an int.
        ValueError
            If either is out of range.

        Examples
        --------
        >>> state = State.new(players=2, seed=2026)
        >>> state.play("3B2")
        >>> state.pattern_line(0, 1), state.pattern_line(0, 0)
        ((<Color.BLUE: 0>, 2), (None, 0))
        """
        cdef Board *b = &self.g.boards[self._board(player)]
        line = check_int(line, "line", 0, 4)
        if b.line_count[line] == 0:
            return (None, 0)
        return (Color(b.line_color[line]), b.line_count[line])

    def floor(self, player):
        """The floor line of `player`, slot by slot.

        Parameters
        ----------
        player : int
            Seat, 0..players-1.

        Returns
        -------
        list
            A Color or `MARKER` (the first-player marker) per filled slot, at most 7.

        Raises
        ------
        TypeError
            If `player` is not an int.
        ValueError
            If `player` is not a seat of this game.

        Examples
        --------
        >>> state = State.new(players=2, seed=7)
        >>> state.play("1R2"); state.play("CBF")
        >>> state.floor(1)
        [MARKER, <Color.BLUE: 0>]
        """
        cdef Board *b = &self.g.boards[self._board(player)]
        return [MARKER if b.floor[i] == MARKER_CODE else Color(b.floor[i]) for i in range(b.floor_count)]

    def check_invariants(self):
        """Check the position against every invariant of the rules (tile counts, walls, lines, ...).

        Raises
        ------
        InvariantError
            Naming every invariant this position breaks; a position reached by legal moves
            breaks none, so this is for tests and for positions built by hand.

        Examples
        --------
        >>> State.new(players=4, seed=9).check_invariants()
        """
        cdef int found = invariant_violations(&self.g)
        broken = [text for bit, text in INVARIANT_TEXT.items() if found & bit]
        if broken:
            raise InvariantError("; ".join(broken))

    # -- positions as data ------------------------------------------------------------------

    def to_dict(self):
        """The position as plain data: the JSON-compatible format of docs/engine-spec.md (section 9).

        Returns
        -------
        dict
            Every field of the position, the random streams included, so `from_dict` gives it back
            whole (``json.dumps`` writes it as it is).

        Examples
        --------
        >>> d = State.new(players=2, seed=1).to_dict()
        >>> d["players"], d["round"], d["variant"], State.from_dict(d) == State.new(players=2, seed=1)
        (2, 1, 'colored', True)
        """
        return position_dict(self)

    @staticmethod
    def from_dict(d, *, reachable=True):
        """Rebuild a State from `to_dict()` output (or the same format read from a JSON file).

        Parameters
        ----------
        d : dict
            A position in the format of docs/engine-spec.md (section 9).
        reachable : bool
            Refuse a position that no game reaches (`azul_fast.core.formats.position_json.validate_position`);
            False only for a position set up to try one rule, as the rules tests do.

        Returns
        -------
        State
            The position, equal to the one that wrote `d`.

        Raises
        ------
        ValueError
            Naming the field, for any flaw: a missing or extra field, a value of the wrong type or
            out of range, tile counts that do not add up (a position from a file is data, so every
            flaw is a ValueError).

        Examples
        --------
        >>> state = State.new(players=3, seed=4)
        >>> State.from_dict(state.to_dict()) == state
        True
        >>> State.from_dict({"players": 2})
        Traceback (most recent call last):
        ...
        ValueError: ...
        """
        cdef State state = State.__new__(State)
        set_position(&state.g, validate_position(d, reachable=reachable))
        return state

    def to_text(self, rng=False):
        """The position as one line of text (azul_fast.core.formats.position_text), what FEN is to chess.

        Parameters
        ----------
        rng : bool
            Append the game's random streams (default False), so that the line restores the future
            deals and policy draws too; without them it is the position a player sees.

        Returns
        -------
        str
            One line; `State.from_text` reads it back.

        Raises
        ------
        TypeError
            If `rng` is not True or False.

        Examples
        --------
        >>> state = State.new(players=2, seed=7)
        >>> State.from_text(state.to_text()).to_text() == state.to_text()
        True
        >>> State.from_text(state.to_text(rng=True)) == state
        True
        """
        return position_to_text(self.to_dict(), check_bool(rng, "rng"))

    @staticmethod
    def from_text(text, *, reachable=True):
        """Rebuild a State from `to_text()` output.

        Parameters
        ----------
        text : str
            A line written by `State.to_text`.
        reachable : bool
            As in `from_dict`.

        Returns
        -------
        State
            The position (with the random streams at 0 unless the line carries them).

        Raises
        ------
        ValueError
            For a malformed line, naming the field.

        Examples
        --------
        >>> State.from_text("colored 5")
        Traceback (most recent call last):
        ...
        azul_fast.NotationError: position text field 'players' must be 2, 3 or 4, got '5'
        """
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
