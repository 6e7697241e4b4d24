"""Does playing the final round exactly make a bot stronger? A measurement, not a new policy.

    python benchmarks/bench_exact_endgame.py --deals 100 --policy learned

Seat A plays `policy` until the game is sure to end with the current round (`final_round`), then
the best move of `solve` when it fits `--max-nodes` (else `policy` again); seat B plays `policy`
throughout. Every deal is played twice with the seats swapped (same seed, same tiles), so the
first-player advantage cancels. Prints A's win share with a 95 % interval, the mean margin, and
how many of A's moves were exact. The games run through the Python State API (one move at a time).
"""

from __future__ import annotations

import argparse
import math
import time

from azul_fast import State
from azul_fast.core.solve import SolveBudgetError, final_round, solve


def play(seed: int, exact_seat: int, policy: str, max_nodes: int) -> tuple[float, int, int]:
    """One 2-player game: the exact seat's tie-split win share, its margin, and its exact moves."""
    state = State.new(players=2, seed=seed)
    exact_moves = 0
    while not state.is_game_over():
        move = None
        if state.current_player == exact_seat and final_round(state):
            try:
                move = solve(state, max_nodes=max_nodes).line[0]
                exact_moves += 1
            except SolveBudgetError:
                move = None
        state.play(move if move is not None else state.choose(policy))
    winners = state.winners
    share = (exact_seat in winners) / len(winners)
    return share, state.scores[exact_seat] - state.scores[1 - exact_seat], exact_moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--policy", default="learned")
    parser.add_argument("--max-nodes", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    shares, margins, exact = [], [], 0
    for deal in range(args.deals):
        for seat in (0, 1):
            share, margin, moves = play(args.seed * 1_000_003 + deal, seat, args.policy, args.max_nodes)
            shares.append(share)
            margins.append(margin)
            exact += moves
    n = len(shares)
    mean = sum(shares) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in shares) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(f"{args.policy} + exact final round vs {args.policy}: {n} games ({args.deals} deals, seats swapped), "
          f"win share {mean:.3f} [{mean - half:.3f}, {mean + half:.3f}], mean margin {sum(margins) / n:+.2f}, "
          f"{exact} exact moves, max_nodes {args.max_nodes:,}, {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
