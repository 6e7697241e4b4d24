"""The rest of the current round solved exactly: `solve` (the search is in _solve.pyx, nogil C).

Within a round every tile still to be taken lies open on the table, so the rest of the round is a
game of perfect information: alpha-beta with a transposition table and move ordering plays it out
to the round's end. What each seat plays for:

- at 2 players, its final margin: its score minus the opponent's (a zero-sum game);
- at 3 and 4 players, the seat to move maximises its score minus the best opponent's, and every
  opponent is assumed to minimise that same number (the paranoid reduction: the value is what the
  seat to move can guarantee against its strongest rival whatever the others do).

The round's end is valued by the final scores (end bonuses included) when the game ends there;
otherwise by the learned evaluation (azul_fast.core.bots.learned), an estimate. When some player's full
pattern line will complete a wall row at the tiling whatever is played, the game ends with this
round on every line and the result is ``exact``. The next round's deal is never simulated, so the
hidden bag order is never read.

`forced_win` asks less of such a final round, and so settles larger ones: a move that wins the game
outright (alone, after the tie-break) whatever the others reply, if there is one. The learned
searches play it when they can prove it cheaply (docs/policies.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from azul_fast.core.bots import _solve
from azul_fast.core.bots import learned as _learned_weights  # noqa: F401 (installs the shipped weights)
from azul_fast.core.errors import AzulFastError
from azul_fast.core.rules.checks import check_int
from azul_fast.core.rules.moves import AnyMove, move_from_code
from azul_fast.core.state import State

__all__ = ["DEFAULT_MAX_NODES", "SolveBudgetError", "SolveResult", "final_round", "forced_win", "solve"]

#: Positions `solve` may visit unless told otherwise: about a second on one core.
DEFAULT_MAX_NODES = 1_000_000


class SolveBudgetError(AzulFastError, ValueError):
    """A position whose round needs more positions than `solve`'s ``max_nodes`` allows."""


@dataclass(frozen=True)
class SolveResult:
    """The solved rest of a round, seen from the player to move.

    `value` is that player's final margin (exact) or estimated margin (learned evaluation at the
    round's end); `move_values` gives every legal move its value, `best_moves` those reaching
    `value`, `line` the principal line to the round's end (ties: the first move in the canonical
    order); `nodes` counts the positions visited.
    """

    value: float
    best_moves: tuple[AnyMove, ...]
    move_values: dict[AnyMove, float]
    line: tuple[AnyMove, ...]
    nodes: int
    exact: bool


def final_round(state: State) -> bool:
    """Whether the game ends at this round's end on every line of play: some player's full pattern
    line will complete a wall row at the tiling whatever is played (then `solve` is exact).

    On the gray wall the test is conservative: the line's colour must not be able to reach the
    row's empty column from one of the player's earlier lines.

    >>> from azul_fast import State
    >>> final_round(State.new(players=2, seed=7))
    False
    """
    if not isinstance(state, State):
        raise TypeError(f"final_round() takes a State, got {type(state).__name__}")
    return _solve.ends_this_round(state)


def solve(state: State, max_nodes: int = DEFAULT_MAX_NODES) -> SolveResult:
    """Solve the rest of the current round of `state` by alpha-beta (see the module docstring).

    Parameters
    ----------
    state : State
        A position whose game is not over (it is not changed).
    max_nodes : int
        The most positions the search may visit; a round that needs more raises
        `SolveBudgetError` naming the budget, so a call never runs away.

    Returns
    -------
    SolveResult
        ``value``, ``best_moves``, ``move_values``, ``line``, ``nodes`` and ``exact``.

    Raises
    ------
    TypeError
        If `state` is not a State, or `max_nodes` not an int.
    ValueError
        If the game is over; `SolveBudgetError` (a ValueError) if the round needs more than
        `max_nodes` positions.

    Examples
    --------
    >>> from azul_fast import State
    >>> state = State.new(players=2, seed=7)
    >>> while len(state.legal_moves) > 12:
    ...     state.play(state.choose("greedy"))
    >>> result = solve(state)
    >>> result.exact, result.best_moves[0] in state.legal_moves, result.value == result.move_values[result.line[0]]
    (False, True, True)
    >>> solve(State.new(players=4, seed=7), max_nodes=1000)
    Traceback (most recent call last):
    ...
    azul_fast.core.bots.solve.SolveBudgetError: solve: the rest of this round needs more than max_nodes=1,000 ...
    """
    if not isinstance(state, State):
        raise TypeError(f"solve() takes a State, got {type(state).__name__}")
    max_nodes = check_int(max_nodes, "max_nodes", 1, 2**62)
    if state.is_game_over():
        raise ValueError("solve: the game is over, there is no round left to solve")
    solved = _solve.solve_round(state, max_nodes)
    if solved is None:
        raise SolveBudgetError(f"solve: the rest of this round needs more than max_nodes={max_nodes:,} positions; "
                               "raise max_nodes or solve a later position of the round")
    codes, values, line, nodes, _estimated, exact = solved
    tile_line = state.tiling[1] if state.tiling is not None else 0
    moves = [move_from_code(code, tile_line) for code in codes]
    move_values = {move: _number(v, exact) for move, v in zip(moves, values)}
    best = move_values[move_from_code(*line[0])]
    return SolveResult(
        value=best,
        best_moves=tuple(m for m in moves if move_values[m] == best),
        move_values=move_values,
        line=tuple(move_from_code(code, tiled) for code, tiled in line),
        nodes=nodes,
        exact=exact,
    )


def forced_win(state: State, max_nodes: int = DEFAULT_MAX_NODES) -> AnyMove | None:
    """A move that wins the game outright whatever the other players reply, in a round that ends the
    game (`final_round`); None when no move does.

    "Outright" is the rulebook's victory alone: the highest score, ties broken by complete wall
    rows; a shared victory is not a win here. At 3 and 4 players the others are assumed to play
    together against the player to move. Of several winning moves the first found is given (the
    search tries the promising ones first), not the one winning by the most: `solve` ranks them.

    Parameters
    ----------
    state : State
        A position whose round ends the game on every line of play (``final_round(state)``).
    max_nodes : int
        The most positions the proof may visit; a round that needs more raises `SolveBudgetError`.

    Raises
    ------
    TypeError
        If `state` is not a State, or `max_nodes` not an int.
    ValueError
        If the game is over or its round does not end it; `SolveBudgetError` (a ValueError) if the
        proof needs more than `max_nodes` positions.

    Examples
    --------
    >>> from azul_fast import State
    >>> state = State.new(players=2, seed=3)
    >>> while not final_round(state):
    ...     state.play(state.choose("greedy"))
    >>> move = forced_win(state)
    >>> move is None or move in state.legal_moves
    True
    """
    if not isinstance(state, State):
        raise TypeError(f"forced_win() takes a State, got {type(state).__name__}")
    max_nodes = check_int(max_nodes, "max_nodes", 1, 2**62)
    if state.is_game_over():
        raise ValueError("forced_win: the game is over, there is no round left to win")
    if not final_round(state):
        raise ValueError("forced_win: this round may not end the game (final_round(state) is False), "
                         "so no win can be proved within it; use solve for its values")
    code = _solve.forced_win_move(state, max_nodes)
    if code == _solve.UNPROVEN:
        raise SolveBudgetError(f"forced_win: the proof needs more than max_nodes={max_nodes:,} positions; "
                               "raise max_nodes or ask at a later position of the round")
    if code == _solve.NO_FORCED_WIN:
        return None
    return move_from_code(code, state.tiling[1] if state.tiling is not None else 0)


def _number(value: float, exact: bool) -> float:
    # exact values are final margins: whole points, shown as such
    return float(round(value)) if exact else value

