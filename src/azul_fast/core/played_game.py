"""A game as people played it: the deal of every round and the moves, as JSON (`replay_document`).

The bag is random, so a game is only reproducible with its deals. The document::

    {"format": "azul_fast/game/1", "players": 2, "variant": "colored", "first_player": 0,
     "rounds": [{"factories": ["BYRR", "BBKK", "BYKW", "YRWW", "BRKW"], "moves": ["2K2", "1R2", ...]},
                ...]}

Each round lists its factories' tiles as colour letters (``-`` for an empty factory, as in the
position text of `azul_fast.core.formats.position_text`) and its moves in the move notation (gray wall
placements ``@2.3`` included). The tiles of a deal must be in the bag (or, when the bag ran out,
in the bag and the lid together, all of the bag drawn first). A document that does not describe
a legal game is one ValueError naming the round and the move or field.

>>> document = game_document(players=2, policy="greedy", seed=7)
>>> document["rounds"][0]["factories"]
['BYRR', 'BBKK', 'BYKW', 'YRWW', 'BRKW']
>>> positions = replay_document(document)
>>> len(positions) == sum(len(r["moves"]) for r in document["rounds"]), str(positions[0][1])
(True, '2K2')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from azul_fast.core.rules.moves import COLOR_LETTERS, VARIANTS, AnyMove, IllegalMoveError, parse_move
from azul_fast.core.state import State

__all__ = ["GAME_FORMAT", "game_document", "iter_simulated_positions", "line_document", "replay_document",
           "replay_with_final", "simulated_positions"]

GAME_FORMAT = "azul_fast/game/1"


def _letters(counts: Any) -> str:
    return "".join(letter * int(n) for letter, n in zip(COLOR_LETTERS, counts)) or "-"


def game_document(players: int = 2, policy: str = "greedy", seed: int = 0, variant: str = "colored") -> dict[str, Any]:
    """The document of the game `State.new(players, seed, variant=variant)` played by `policy`."""
    positions = simulated_positions(players, policy, seed, variant)
    final = positions[-1][0].copy()
    final.play(positions[-1][1])
    return line_document([state for state, _move in positions] + [final], [move for _state, move in positions])


def line_document(positions: Sequence[State], moves: Sequence[AnyMove | str]) -> dict[str, Any]:
    """The document of a line of play: `moves[i]` played in `positions[i]` gives `positions[i + 1]`,
    and `positions[0]` is a game's first position (round 1, nothing played). Each round's deal is
    read from its first position, so a line whose deals came from a game file keeps them. The last
    round may stop before its end (a game in progress, which `replay_document` reads with
    ``in_progress=True``). A ValueError if the positions are not such a line.

    >>> state = State.new(players=2, seed=7)
    >>> line = [state.copy()]
    >>> for move in ["2K2", "1R2"]:
    ...     state.play(move)
    ...     line.append(state.copy())
    >>> line_document(line, ["2K2", "1R2"])["rounds"]
    [{'factories': ['BYRR', 'BBKK', 'BYKW', 'YRWW', 'BRKW'], 'moves': ['2K2', '1R2']}]
    """
    if len(positions) != len(moves) + 1:
        raise ValueError(f"a line of {len(moves)} moves has {len(moves) + 1} positions, got {len(positions)}")
    first = positions[0]
    rounds: list[dict[str, Any]] = []
    for state, move in zip(positions, [*moves, None]):
        if move is None and rounds:
            break
        if not rounds or state.round != len(rounds):
            rounds.append({"factories": [_letters(f) for f in state.factories], "moves": []})
        if move is not None:
            rounds[-1]["moves"].append(str(move))
    document = {"format": GAME_FORMAT, "players": first.players, "variant": first.variant,
                "first_player": first.current_player, "rounds": rounds}
    try:
        replayed, final = replay_with_final(document, in_progress=True)
    except ValueError as error:
        raise ValueError(f"the line is not a game from its first position: {error}") from None
    if [state.to_text() for state, _move in replayed] + [final.to_text()] != [state.to_text() for state in positions]:
        raise ValueError("a game file starts from a game's first position (round 1, nothing played) and goes on "
                         "by legal moves; this line does not")
    return document


def _deal(position: dict[str, Any], factories: Any, where: str) -> State:
    """`position` (a round's start, its random deal undone) with the deal `factories`."""
    n = len(position["factories"])
    if not isinstance(factories, list) or len(factories) != n:
        raise ValueError(f"game {where} factories must list {n} factories for {position['players']} players")
    deal = []
    for i, text in enumerate(factories):
        if not isinstance(text, str) or (text != "-" and any(ch not in COLOR_LETTERS for ch in text)) or len(text) > 4:
            raise ValueError(f"game {where} factory {i + 1} must be up to 4 colour letters or -, got {text!r}")
        deal.append([0 if text == "-" else text.count(letter) for letter in COLOR_LETTERS])
    # the random deal back into the bag: its tiles came from the bag, or from the lid poured into it
    bag = [b + sum(f[c] for f in position["factories"]) for c, b in enumerate(position["bag"])]
    lid = list(position["lid"])
    need = [sum(f[c] for f in deal) for c in range(5)]
    if any(need[c] > bag[c] for c in range(5)):   # the bag ran out: all of it drawn, then the lid poured in
        bag, lid = [b + x for b, x in zip(bag, lid)], [0] * 5
    for c, letter in enumerate(COLOR_LETTERS):
        if need[c] > bag[c]:
            raise ValueError(f"game {where} factories need {need[c]} {letter} tiles; only {bag[c]} are left to draw")
    position["factories"] = deal
    position["bag"] = [b - x for b, x in zip(bag, need)]
    position["lid"] = lid
    return State.from_dict(position)


def replay_document(document: Any, in_progress: bool = False) -> list[tuple[State, AnyMove]]:
    """Every position of the game `document` describes, with the move played there; with
    `in_progress` the last round may stop before its end (a game still being played)."""
    return replay_with_final(document, in_progress)[0]


def replay_with_final(document: Any, in_progress: bool = False) -> tuple[list[tuple[State, AnyMove]], State]:
    """`replay_document`'s positions, and the position after the last move (the deal itself for
    a game in progress with no move yet)."""
    if not isinstance(document, dict) or document.get("format") != GAME_FORMAT:
        raise ValueError(f"a game document is an object with \"format\": {GAME_FORMAT!r}")
    players, variant = document.get("players"), document.get("variant", "colored")
    if players not in (2, 3, 4) or variant not in VARIANTS:
        raise ValueError(f"game field 'players' must be 2, 3 or 4 and 'variant' one of {list(VARIANTS)}")
    rounds = document.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ValueError("game field 'rounds' must list the rounds played")
    first = document.get("first_player", 0)
    if not isinstance(first, int) or not 0 <= first < players:
        raise ValueError(f"game field 'first_player' must be a seat of 0..{players - 1}, got {first!r}")
    state = State.new(players=players, seed=0, first_player=first, variant=variant)
    out: list[tuple[State, AnyMove]] = []
    for number, entry in enumerate(rounds, 1):
        where = f"round {number}"
        if state.is_game_over():
            raise ValueError(f"game {where}: the game was over after round {number - 1}")
        if not isinstance(entry, dict) or not isinstance(entry.get("moves"), list):
            raise ValueError(f"game {where} must be an object with 'factories' and 'moves'")
        state = _deal(state.to_dict(), entry.get("factories"), where)
        for k, text in enumerate(entry["moves"], 1):
            if state.round != number or state.is_game_over():
                raise ValueError(f"game {where} move {k} ({text}): the round is already over")
            try:
                move = parse_move(text)
                before = state.copy()
                state.play(move)
            except (IllegalMoveError, ValueError, TypeError) as error:
                raise ValueError(f"game {where} move {k} ({text!r}): {error}") from None
            out.append((before, move))
        if state.round == number and not state.is_game_over() and not (in_progress and number == len(rounds)):
            raise ValueError(f"game {where}: tiles are left on the table after its {len(entry['moves'])} moves")
    return out, state


def simulated_positions(players: int = 2, policy: str = "greedy", seed: int = 0,
                        variant: str = "colored") -> list[tuple[State, AnyMove]]:
    """Every position of the game `State.new(players, seed, variant=variant)` played by `policy`
    in every seat (the game `play_game` replays), with the move played there: what
    `replay_document` gives for a game people played."""
    return list(iter_simulated_positions(players, policy, seed, variant))


def iter_simulated_positions(players: int = 2, policy: str = "greedy", seed: int = 0,
                             variant: str = "colored") -> Iterator[tuple[State, AnyMove]]:
    """`simulated_positions` one move at a time (a caller may stop between moves)."""
    state = State.new(players=players, seed=seed, variant=variant)
    while not state.is_game_over():
        move = state.choose(policy)
        yield state.copy(), move
        state.play(move)
