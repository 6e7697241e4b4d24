"""Does playing the final round exactly make a bot stronger, per CPU second? Two matches in one run.

    python benchmarks/bench_exact_endgame.py --deals 500 --policy learned     # about 10 minutes

1. Seat A plays `policy` until the game is sure to end with the current round (`final_round`), then
   the best move of `solve` when it fits `--max-nodes` (else `policy` again); seat B plays `policy`
   throughout.
2. That time spent on search instead: seat A plays `policy` with the budget that time buys at
   `policy`'s rate (`--budget` to set it; the search's early stop can make it cost less), seat B
   plain `policy`.

Every deal is played twice with the seats swapped (same seed, same tiles), so the first-player
advantage cancels. Prints A's win share with a 95 % interval, its mean margin, and A's time per
game against B's. The games run through the Python State API (one move at a time), so the times
include the same Python overhead on both seats; `solve` pays a little more of it. The built-in
policies switch to the exact final round only if match 1 beats match 2.
"""

from __future__ import annotations

import argparse
import math
import time

from azul_fast import State
from azul_fast.core.bots.policies import parse_policy
from azul_fast.core.bots.solve import SolveBudgetError, final_round, solve


def play(seed: int, a_seat: int, a_policy: str, b_policy: str, max_nodes: int | None) -> dict[str, float]:
    """One 2-player game: seat A (`a_policy`, and the exact final round when `max_nodes` is given)
    against seat B; A's tie-split win share, its margin, its exact moves and both seats' seconds."""
    state = State.new(players=2, seed=seed)
    out = {"exact": 0, "a_seconds": 0.0, "b_seconds": 0.0}
    while not state.is_game_over():
        started = time.perf_counter()
        mover_is_a = state.current_player == a_seat
        move = None
        if mover_is_a and max_nodes is not None and final_round(state):
            try:
                move = solve(state, max_nodes=max_nodes).line[0]
                out["exact"] += 1
            except SolveBudgetError:
                move = None
        if move is None:
            move = state.choose(a_policy if mover_is_a else b_policy)
        out["a_seconds" if mover_is_a else "b_seconds"] += time.perf_counter() - started
        state.play(move)
    winners = state.winners
    out["share"] = (a_seat in winners) / len(winners)
    out["margin"] = state.scores[a_seat] - state.scores[1 - a_seat]
    return out


def run_match(deals: int, seed: int, a_policy: str, b_policy: str, max_nodes: int | None) -> dict[str, float]:
    """Every deal twice, seats swapped: A's share with a 95 % interval (the deal is the unit), its
    mean margin, exact moves, and seconds per game of each seat."""
    per_deal, margins, totals = [], [], {"exact": 0, "a_seconds": 0.0, "b_seconds": 0.0}
    for deal in range(deals):
        games = [play(seed * 1_000_003 + deal, seat, a_policy, b_policy, max_nodes) for seat in (0, 1)]
        per_deal.append(sum(g["share"] for g in games) / 2)
        margins += [g["margin"] for g in games]
        for key in totals:
            totals[key] += sum(g[key] for g in games)
    mean = sum(per_deal) / deals
    sd = math.sqrt(sum((s - mean) ** 2 for s in per_deal) / (deals - 1))
    half = 1.96 * sd / math.sqrt(deals)
    return {"share": mean, "low": mean - half, "high": mean + half, "margin": sum(margins) / len(margins),
            "exact": totals["exact"], "a_ms": 1e3 * totals["a_seconds"] / (2 * deals),
            "b_ms": 1e3 * totals["b_seconds"] / (2 * deals)}


def describe(label: str, r: dict[str, float], deals: int) -> str:
    return (f"{label}: {100 * r['share']:.1f} % [{100 * r['low']:.1f}, {100 * r['high']:.1f}] of {2 * deals} games "
            f"({deals} deals, seats swapped), mean margin {r['margin']:+.2f}; A {r['a_ms']:.1f} ms a game, "
            f"B {r['b_ms']:.1f} ms ({r['a_ms'] / r['b_ms']:.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--policy", default="learned", type=parse_policy, help="a search policy (mcts, learned, fast)")
    parser.add_argument("--max-nodes", type=int, default=300_000)
    parser.add_argument("--budget", type=int, default=None,
                        help="match 2's budget for seat A (default: the one costing what match 1's A cost)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    family, budget = args.policy.family, args.policy.budget
    started = time.perf_counter()
    exact = run_match(args.deals, args.seed, args.policy, args.policy, args.max_nodes)
    print(describe(f"{args.policy} + exact final round vs {args.policy}", exact, args.deals)
          + f"; {exact['exact']} exact moves (max_nodes {args.max_nodes:,})", flush=True)
    more = args.budget or max(budget + 1, round(budget * exact["a_ms"] / exact["b_ms"]))
    searched = run_match(args.deals, args.seed, f"{family}:{more}", args.policy, None)
    print(describe(f"{family}:{more} vs {args.policy} (at most the same time, spent on search)", searched, args.deals))
    better = "the exact final round" if exact["share"] > searched["share"] else f"{family}:{more}"
    print(f"per CPU second, {better} gains more; {time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
