"""`State`, one Azul position, and `LegalMoves`, its moves: the public face of the compiled `_state`
module, which joins the rules (`azul_fast.core.rules`), the policies (`State.choose`) and the position
formats (`State.to_dict`, `State.to_text`).

The methods of State are documented here, once: the compiled class carries the code, and this module
sets each method's docstring when it is imported (which ``import azul_fast`` does first), so ``help``,
the API pages and the doctests of the compiled module all read these.

>>> from azul_fast.core.state import State
>>> State.new(players=3, seed=2)
<State 3 players, round 1, player 0 to move, scores (0, 0, 0)>
"""

import textwrap

from azul_fast.core._state import State
from azul_fast.core.legal_moves import LegalMoves

__all__ = ["LegalMoves", "State"]



def _fragment(text: str) -> str:
    """`text` indented to sit at a placeholder of the docstrings below (their lines after the first are
    indented four spaces)."""
    return textwrap.indent(text, "    ").lstrip()


# What every method that takes a seat says of it (the seat is checked by one helper, State._board).
_SEAT = _fragment("""Parameters
----------
player : int
    Seat, 0..players-1.
""")
_SEAT_RAISES = _fragment("""Raises
------
TypeError
    If `player` is not an int.
ValueError
    If `player` is not a seat of this game.
""")

#: Each method's docstring, by name.
_DOCS = {
    "new": """Set up a new game: 20 tiles of each colour in the bag, factories filled from `seed`.

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
    """,
    "is_game_over": """Whether the game has ended (a complete wall row, the round cap, or no tile left).

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
    """,
    "play": """Play `move` for the current player, in place.

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
    """,
    "choose": """The move a built-in policy picks here, without playing it.

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
    """,
    "copy": """An independent copy of the position (the packed game is copied, not shared).

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
    """,
    "wall_mask": f"""The wall of `player` as a 25-bit int: bit ``row * 5 + col`` is set for a placed tile.

    {_SEAT}
    Returns
    -------
    int
        The mask, 0..2**25-1 (the core's packed wall).

    {_SEAT_RAISES}
    Examples
    --------
    >>> State.new(players=2, seed=1).wall_mask(0)
    0
    """,
    "wall": f"""The wall of `player` as a 5x5 bool array (True where a tile is placed).

    {_SEAT}
    Returns
    -------
    numpy.ndarray
        Shape (5, 5), dtype bool, rows top to bottom.

    {_SEAT_RAISES}
    Examples
    --------
    >>> wall = State.new(players=2, seed=1).wall(1)
    >>> wall.shape, bool(wall.any())
    ((5, 5), False)
    """,
    "wall_colors": f"""The wall of `player` as 5 rows of 5 cells: the Color of a placed tile, or None.

    {_SEAT}
    Returns
    -------
    list of list
        5 rows of 5 entries, each a Color or None (the gray wall needs this: its colours are
        not printed).

    {_SEAT_RAISES}
    Examples
    --------
    >>> State.new(players=2, seed=1).wall_colors(0)[0]
    [None, None, None, None, None]
    """,
    "complete_colors": f"""Colours with all 5 tiles on the wall of `player` (each is worth 10 points at the end).

    {_SEAT}
    Returns
    -------
    int
        How many colours are complete, 0..5.

    {_SEAT_RAISES}
    Examples
    --------
    >>> State.new(players=2, seed=1).complete_colors(0)
    0
    """,
    "pattern_line": """What pattern `line` of `player` holds.

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
    """,
    "floor": f"""The floor line of `player`, slot by slot.

    {_SEAT}
    Returns
    -------
    list
        A Color or `MARKER` (the first-player marker) per filled slot, at most 7.

    {_SEAT_RAISES}
    Examples
    --------
    >>> state = State.new(players=2, seed=7)
    >>> state.play("1R2"); state.play("CBF")
    >>> state.floor(1)
    [MARKER, <Color.BLUE: 0>]
    """,
    "check_invariants": """Check the position against every invariant of the rules (tile counts, walls, lines, ...).

    Raises
    ------
    InvariantError
        Naming every invariant this position breaks; a position reached by legal moves
        breaks none, so this is for tests and for positions built by hand.

    Examples
    --------
    >>> State.new(players=4, seed=9).check_invariants()
    """,
    "to_dict": """The position as plain data: the JSON-compatible format of docs/engine-spec.md (section 9).

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
    """,
    "from_dict": """Rebuild a State from `to_dict()` output (or the same format read from a JSON file).

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
    """,
    "to_text": """The position as one line of text (azul_fast.core.formats.position_text), what FEN is to chess.

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
    """,
    "from_text": """Rebuild a State from `to_text()` output.

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
    """,
}
for _name, _doc in _DOCS.items():
    getattr(State, _name).__doc__ = _doc
