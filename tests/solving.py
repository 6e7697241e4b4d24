"""A brute-force solver of final rounds, and small final-round positions, for the tests of solve and analyse."""

from __future__ import annotations

from azul_fast import State


class TooBig(Exception):
    pass


def _minimax(state, root, budget, leaf):
    """Plain minimax over State.copy/play to the round's end, no pruning and no table: seat `root`
    maximises `leaf(game over, root)`, the others minimise it; None if some line of play does not end
    the game. `budget` is a one-element list of positions still allowed (TooBig when spent)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    if state.is_game_over():
        return leaf(state, root)
    values = []
    for move in state.legal_moves:
        child = state.copy()
        round_before = child.round
        child.play(move)
        if not child.is_game_over() and child.round != round_before:
            return None   # this line reaches the next round: not a final round
        value = _minimax(child, root, budget, leaf)
        if value is None:
            return None
        values.append(value)
    return max(values) if state.current_player == root else min(values)


def _margin(state, root):
    scores = state.scores
    return scores[root] - max(s for p, s in enumerate(scores) if p != root)


def _outright(state, root):
    winners = state.winners
    return 1 if winners == (root,) else 0 if root in winners else -1


def paranoid(state, root, budget):
    """Brute-force value of the rest of the round for seat `root`: it maximises its score minus the
    best opponent's, the others minimise that; None if some line of play does not end the game.
    The independent check of _solve (`budget`: see _minimax)."""
    return _minimax(state, root, budget, _margin)


def outright(state, root, budget):
    """Brute-force value of the rest of the round for seat `root` as forced_win sees it: 1 if it wins
    alone whatever the others play (they play together against it), 0 if the best it can force is a
    shared victory, -1 otherwise; None if some line of play does not end the game."""
    return _minimax(state, root, budget, _outright)


def final_round_positions(players, variant, seeds, budget=4000):
    """Positions of final rounds of greedy games (the game ends at this round's end on every line),
    each the earliest of its round that the brute force can still afford, with its value."""
    found = []
    for seed in seeds:
        state = State.new(players=players, seed=seed, variant=variant)
        history = []
        while not state.is_game_over():
            history.append(state.copy())
            state.play(state.choose("greedy" if len(history) % 3 else "random"))
        last_round = [s for s in history if s.round == history[-1].round]
        for position in last_round:
            try:
                value = paranoid(position, position.current_player, [budget])
            except TooBig:
                continue
            if value is not None and len(position.legal_moves) > 1:
                found.append((position, value))
                break
    return found
