"""Rollouts per second of the native rollout engine, beside simulate's games per second, the Python
State-API loop the studies used before it, and how large a final round `solve` handles.

    python benchmarks/bench_rollouts.py            # the tables (a few minutes on 2 cores)
    python benchmarks/bench_rollouts.py --quick    # fewer games, for a smoke run
    python benchmarks/bench_rollouts.py --minute   # also the largest final rounds solved in a minute

A rollout is a game finished from a position (here the first position of a deal, after one
move), so it is a whole game less one move: its rate is comparable with simulate's. Prints
markdown tables with the date and the machine; the ratios are this run's own.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

import azul_fast
from azul_fast import State, simulate
from azul_fast.core.bots.solve import SolveBudgetError, solve
from azul_fast.runs.rollouts import continuation_seeds, rollouts
from azul_fast.studies.analyse import analyse


def rollout_rate(policy: str, n: int, workers: int, players: int = 2) -> float:
    state = State.new(players=players, seed=7)
    moves = list(state.legal_moves)[:10]
    seeds = continuation_seeds(1, max(1, n // len(moves)))
    rollouts(state, moves[:2], policy, seeds[:4], workers=workers)  # warm up
    start = time.perf_counter()
    rollouts(state, moves, policy, seeds, workers=workers)
    return len(moves) * len(seeds) / (time.perf_counter() - start)


def simulate_rate(policy: str, n: int, workers: int, players: int = 2) -> float:
    simulate(min(n, 200), players=players, policies=policy, seed=0, workers=workers, progress=False)
    start = time.perf_counter()
    simulate(n, players=players, policies=policy, seed=1, workers=workers, progress=False)
    return n / (time.perf_counter() - start)


def python_loop_rate(policy: str, n: int, players: int = 2) -> float:
    """The State-API loop opening_rollouts and marker_rollouts ran before the native engine."""
    state = State.new(players=players, seed=7)
    move = next(iter(state.legal_moves))
    start = time.perf_counter()
    for bag, choice in continuation_seeds(1, n):
        after = state.copy()
        after.play(move)
        position = after.to_dict()
        position["rng"] = {"bag": int(bag), "policy": int(choice)}
        game = State.from_dict(position)
        while not game.is_game_over():
            game.play(game.choose(policy))
    return n / (time.perf_counter() - start)


def largest_final_rounds(players: int, seeds: range, seconds: float) -> list[tuple[int, int, float]]:
    """For each greedy game, the final-round position with the most tiles on the table that
    solve finishes within `seconds`: (tiles, nodes, seconds)."""
    out = []
    for seed in seeds:
        state = State.new(players=players, seed=seed)
        history = []
        while not state.is_game_over():
            history.append(state.copy())
            state.play(state.choose("greedy"))
        last_round = [s for s in history if s.round == history[-1].round]
        best = None
        for position in reversed(last_round):   # later positions first: fewer tiles left
            start = time.perf_counter()
            try:
                result = solve(position, max_nodes=int(2_000_000 * seconds))
            except SolveBudgetError:
                break
            took = time.perf_counter() - start
            if took > seconds:
                break
            best = (int(position.factories.sum() + position.center.sum()), result.nodes, took)
        if best is not None:
            out.append(best)
    return out


def allocation_comparison(positions: list[State], budget: int) -> list[tuple[str, int, str, int]]:
    """For each position: adaptive allocation's best move and rollouts until it separates the best
    move from every other (or `budget`), and the uniform allocation reaching the same verdict:
    every move's continuations doubled from 8 until the paired tests separate its best move."""
    out = []
    for state in positions:
        adaptive = analyse(state, rollouts=budget, seed=1, max_nodes=0, policy="greedy")
        per_move = 8
        while True:
            uniform = analyse(state, rollouts=per_move * len(state.legal_moves), seed=1, allocation="uniform",
                              max_nodes=0, policy="greedy")
            if uniform.worse_than_best.iloc[1:].all() or uniform.attrs["rollouts"] >= budget:
                break
            per_move *= 2
        out.append((adaptive.move.iloc[0] if adaptive.attrs["stopped"] == "separated" else "-",
                    adaptive.attrs["rollouts"],
                    uniform.move.iloc[0] if uniform.worse_than_best.iloc[1:].all() else "-",
                    uniform.attrs["rollouts"]))
    return out


def mid_round_positions(n: int) -> list[State]:
    """Positions of greedy games a few moves into a round (8 to 20 legal moves)."""
    found = []
    seed = 0
    while len(found) < n:
        state = State.new(players=2, seed=seed)
        seed += 1
        while not state.is_game_over() and not 8 <= len(state.legal_moves) <= 20:
            state.play(state.choose("greedy"))
        if not state.is_game_over():
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--minute", action="store_true")
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    cores = os.cpu_count() or 1
    print(f"# Rollouts, {datetime.date.today()}, azul_fast {azul_fast.__version__}, "
          f"{platform.processor() or platform.machine()}, {cores} cores\n")
    print("| policy | workers | rollouts/s | simulate games/s | ratio | State-API loop/s | native / loop |")
    print("|---|---|---|---|---|---|---|")
    for policy, n in (("greedy", 20_000), ("heuristic", 5_000), ("mcts:50", 100)):
        n = max(20, int(n * scale))
        loop = python_loop_rate(policy, max(10, n // 20))
        for workers in sorted({1, cores}):
            roll, sim = rollout_rate(policy, n, workers), simulate_rate(policy, n, workers)
            print(f"| {policy} | {workers} | {roll:,.0f} | {sim:,.0f} | {roll / sim:.2f} | {loop:,.0f} | "
                  f"{roll / loop:.1f}x |")

    positions = mid_round_positions(4 if args.quick else 12)
    print("\n# Adaptive against uniform allocation (greedy rollouts, 2 players, mid-round positions)\n")
    print("| position | legal moves | adaptive best | adaptive rollouts | uniform best | uniform rollouts |")
    print("|---|---|---|---|---|---|")
    for i, (state, row) in enumerate(zip(positions, allocation_comparison(positions, 40_000))):
        print(f"| {i} | {len(state.legal_moves)} | {row[0]} | {row[1]:,} | {row[2]} | {row[3]:,} |")
    print("\n(- : not separated within 40,000 rollouts)\n")
    print("# Final rounds solved exactly (greedy games): the most tiles left on the table that solve finishes\n")
    print("| players | budget | games | tiles on the table (median, max) | nodes (max) |")
    print("|---|---|---|---|---|")
    games = range(4 if args.quick else 12)
    for players in (2, 3, 4):
        for seconds in ((1.0, 60.0) if args.minute else (1.0,)):
            found = largest_final_rounds(players, games, seconds)
            tiles = sorted(t for t, _, _ in found)
            print(f"| {players} | {seconds:g} s | {len(found)} | {tiles[len(tiles) // 2]}, {tiles[-1]} | "
                  f"{max(n for _, n, _ in found):,} |")


if __name__ == "__main__":
    main()
