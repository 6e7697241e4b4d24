"""Regenerate perft.json: move counts from fixed positions, counted by the reference engine.

    PYTHONPATH=src python tests/data/make_perft.py

Positions come from seeded random games stopped after a few moves; depth 2 counts every
reply to every move (a move that ends the round includes the refill, which is deterministic
because the random streams are part of the position).
"""

import json
from pathlib import Path

from azul_fast.core.rules import reference as ref


def perft(state, depth):
    if depth == 0 or state.game_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total


def main():
    cases = []
    for players in (2, 3, 4):
        for seed, moves in ((1, 0), (2, 3), (3, 9), (4, 17), (5, 30), (6, 45)):
            state = ref.ReferenceState.new(players=players, seed=seed)
            for _ in range(moves):
                if state.game_over:
                    break
                state.play(ref.choose_random(state))
            cases.append({"position": state.to_dict(), "depth1": perft(state, 1), "depth2": perft(state, 2)})
    path = Path(__file__).with_name("perft.json")
    path.write_text(json.dumps(cases, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
