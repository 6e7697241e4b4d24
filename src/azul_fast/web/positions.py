"""What the board shows of a position, and the lines of play it starts from: plain data, no web.

A position travels between the page and the server as its one-line text with the random streams
(`State.to_text(rng=True)`), so a deal played on from the page continues as `State.new` would,
and the server keeps no position of its own: undo and redo are the page's list of these texts.
"""

from __future__ import annotations

import json
from typing import Any

from azul_fast.core.formats.board_svg import render_svg
from azul_fast.core.played_game import line_document, replay_with_final
from azul_fast.core.rules.moves import parse_move
from azul_fast.core.state import State

__all__ = ["game_line", "line_file", "line_of", "new_deal", "play", "view"]


def view(state: State, highlight: str | None = None, columns: int = 2) -> dict[str, Any]:
    """Everything the page draws of `state`: the diagram (with `highlight`, a legal move, outlined;
    the boards `columns` side by side), the legal moves in the move notation, whose turn it is, and
    the position's text."""
    over = state.is_game_over()
    return {
        "text": state.to_text(rng=True),
        "plain": state.to_text(),
        "svg": render_svg(state, move=highlight, columns=columns),
        "legal": [] if over else [str(move) for move in state.legal_moves],
        "to_move": None if over else state.current_player,
        "tiling": None if state.tiling is None else list(state.tiling),
        "players": state.players,
        "variant": state.variant,
        "round": state.round,
        "scores": list(state.scores),
        "over": over,
        "winners": list(state.winners) if over else [],
    }


def new_deal(players: int, seed: int, variant: str) -> State:
    """The first position of the game `State.new(players, seed, variant)`."""
    return State.new(players=players, seed=seed, variant=variant)


def play(text: str, move: str) -> tuple[State, str]:
    """The position after `move` (notation) in the position `text`, and the move as the notation
    writes it; an illegal move raises the engine's own IllegalMoveError (a ValueError)."""
    state = State.from_text(text)
    parsed = parse_move(move)
    state.play(parsed)
    return state, str(parsed)


def line_of(positions: list[tuple[State, Any]], final: State) -> dict[str, Any]:
    """A game as the page keeps it: the text before every move with that move, then the final text."""
    plies = [{"text": state.to_text(rng=True), "move": str(move)} for state, move in positions]
    return {"plies": plies, "final": final.to_text(rng=True)}


def game_line(content: str) -> dict[str, Any]:
    """The game in a game file's `content` (JSON, `azul_fast.core.played_game`'s format), with the
    parsed document so that a review can be asked for it; errors are the command line's (without its file name)."""
    try:
        document = json.loads(content)
        return {**line_of(*replay_with_final(document, in_progress=True)), "document": document}
    except RecursionError:
        raise ValueError("nested too deeply to be a position or a game") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON ({error})") from None


def line_file(texts: list[str], moves: list[str]) -> dict[str, Any]:
    """The game file (`azul_fast.core.played_game`'s document) of the line the page keeps: the
    position texts `texts`, a game's first position and the one after each of `moves`; a game in
    progress is its moves so far."""
    return line_document([State.from_text(text) for text in texts], moves)
