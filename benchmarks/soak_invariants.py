"""Soak test: a million games per player count with the core's invariant checker on.

    python benchmarks/soak_invariants.py [--games 1000000] [--policy random] [--variant gray]

Every position of every game is checked in the native core (all 100 tiles accounted for,
scores >= 0, floors <= 7 slots, pattern lines consistent with walls, derived masks in step,
finished games have a complete row or are marked truncated; on the gray wall also each colour
at most once per wall row and column, and a paused tiling that awaits a real choice). Prints the violations found
(expected: zero) and exits non-zero if there are any.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import sys
import time

from azul_fast import simulate
from azul_fast.core.bots.policies import parse_policy
from azul_fast.runs.simulate import InvariantError


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--policy", action="append", type=parse_policy,
                        help="policy (repeatable; default random and greedy)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--variant", action="append", choices=["colored", "gray"],
                        help="wall side (repeatable; default colored)")
    args = parser.parse_args()
    policies = args.policy or [parse_policy("random"), parse_policy("greedy")]
    variants = args.variant or ["colored"]
    print(f"soak {datetime.datetime.now():%Y-%m-%d %H:%M}, {args.games:,} games per player count and policy")
    failures = 0
    for variant, policy, players in itertools.product(variants, policies, (2, 3, 4)):
        start = time.perf_counter()
        try:
            df = simulate(args.games, players=players, policies=policy, seed=args.seed, check_invariants=True,
                          variant=variant, progress=False)
            verdict = f"0 violations, {int(df.truncated.sum()):,} truncated games"
        except InvariantError as error:
            failures += 1
            verdict = f"VIOLATION: {error}"
        elapsed = time.perf_counter() - start
        print(f"{variant:>7} {policy:>7} {players} players: {args.games:,} games in {elapsed:.0f} s: {verdict}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
