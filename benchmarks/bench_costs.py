"""The cost model against the clock: every policy's self-play timed on one core at 2, 3 and 4 players,
beside the estimate of `runs.plan.GAME_COSTS` (which sizes the report's studies, the ladder's budgets
and the run plans' tasks), and the model's constants fitted again to those timings.

    python benchmarks/bench_costs.py                    # about 5 minutes on one core
    python benchmarks/bench_costs.py --seconds 0.3      # a quick look

For each point (a policy at a budget and a player count) it prints the measured milliseconds per
game (studies.ladder.ms_per_game: runs of doubling size until one lasts --seconds, the difference of
the last two), the model's estimate and their ratio; then, per kind, the constants that least squares
on the logarithms fits to these timings, in the form GAME_COSTS takes, and the worst ratio of either
model. Time it on an idle machine: the constants are meant for one core of the CI machine class.
The estimates size tasks and budgets only, never which games are played, so a few tens of percent
is close enough; a ratio far outside that means the constants should be refitted (paste the fitted
ones into runs/plan.py with the date and the machine).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

import numpy as np

from azul_fast.runs.plan import GAME_COSTS, GameCost
from azul_fast.studies.ladder import ms_per_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_simulate import machine  # noqa: E402  (benchmarks/, beside this script)

#: The budgets timed for each kind of GAME_COSTS (1: the policy does not search). "learned-full" is
#: learned from FULL_ROLLOUTS_FROM iterations on, where it plays full rollouts.
POINTS = {
    "random": (1,), "greedy": (1,), "heuristic": (1,),
    "mcts": (50, 200, 1000, 3000),
    "fast": (18, 40),
    "learned": (30, 120, 300, 499),
    "learned-full": (500, 1000, 3000),
}
PLAYER_COUNTS = (2, 3, 4)


def policy_name(kind: str, budget: int) -> str:
    """The policy string of a point: a kind at a budget ("learned-full" is plain learned:N)."""
    family = "learned" if kind == "learned-full" else kind
    return family if budget == 1 else f"{family}:{budget}"


def fit(budgets: np.ndarray, players: np.ndarray, seconds: np.ndarray, searches: bool) -> tuple[float, float, float]:
    """GameCost constants fitted by least squares on the logarithms (no budget term for a policy that
    does not search)."""
    columns = [np.ones(len(seconds)), np.log(players / 2)]
    if searches:
        columns.insert(1, np.log(budgets))
    coef, *_ = np.linalg.lstsq(np.column_stack(columns), np.log(seconds), rcond=None)
    if searches:
        return float(np.exp(coef[0])), float(coef[1]), float(coef[2])
    return float(np.exp(coef[0])), 0.0, float(coef[1])


def worst_ratio(cost: GameCost, rows: list[tuple[int, int, float]]) -> float:
    """The estimate over the measured time of the point (budget, players, seconds) in `rows` that
    `cost` misses by the largest factor."""
    ratios = [cost.game_seconds(budget, players) / seconds for budget, players, seconds in rows]
    return float(max(ratios, key=lambda r: abs(np.log(r))))


def described(cost: GameCost) -> str:
    """`cost` as it would be written in GAME_COSTS."""
    return f"GameCost({cost.seconds:.3g}, {cost.budget_power:.3f}, {cost.players_power:.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="the shortest timed run of a point (default 1)")
    parser.add_argument("--kinds", nargs="+", choices=sorted(POINTS), default=list(POINTS),
                        help="the kinds of GAME_COSTS to time (default: all)")
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, not {args.seconds}")

    print(f"# The cost model against the clock ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)\n")
    print(f"Machine: {machine()}. Self-play on one core, every seat the policy; runs of at least {args.seconds} s.\n")
    print("| policy | players | measured ms | estimated ms | estimate / measured |\n| --- | --- | --- | --- | --- |")
    timed: dict[str, list[tuple[int, int, float]]] = {}
    for kind in args.kinds:
        for budget in POINTS[kind]:
            for players in PLAYER_COUNTS:
                ms = ms_per_game(policy_name(kind, budget), args.seconds, players=players)
                estimate = 1000 * GAME_COSTS[kind].game_seconds(budget, players)
                timed.setdefault(kind, []).append((budget, players, ms / 1000))
                print(f"| {policy_name(kind, budget)} | {players} | {ms:.3f} | {estimate:.3f} | {estimate / ms:.2f} |",
                      flush=True)

    print("\n| kind | GAME_COSTS now | fitted to these timings | worst estimate / measured, now | fitted |")
    print("| --- | --- | --- | --- | --- |")
    for kind, rows in timed.items():
        budgets, counts, seconds = (np.array(column, dtype=float) for column in zip(*rows))
        fitted = GameCost(*fit(budgets, counts, seconds, searches=max(POINTS[kind]) > 1))
        now = GAME_COSTS[kind]
        print(f"| {kind} | {described(now)} | {described(fitted)} | {worst_ratio(now, rows):.2f} "
              f"| {worst_ratio(fitted, rows):.2f} |")


if __name__ == "__main__":
    main()
