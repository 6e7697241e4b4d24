"""Which kind of opening is best: every first move of many deals, paired rollouts, grouped by type.

    python analysis/opening_types.py          # 60 deals x ~80 moves x 20 rollouts, a few minutes

Writes analysis/results/opening_types_by_rollouts.csv (one row per opening type: its edge over the
deal's average first move, with a 95 % interval over deals, and its paired test against the top
type) and opening_types_moves.csv (the drill-down: every move of every deal).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from azul_fast.report.formatting import opening_types_display
from azul_fast.studies.opening_types import opening_types

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--rollouts", type=int, default=20)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play the rollouts on the Dask cluster of this scheduler (the same tables as here)")
    args = parser.parse_args()
    started = time.perf_counter()
    types, moves = opening_types(args.deals, players=2, policy=args.policy, rollouts=args.rollouts, seed=args.seed,
                                 workers=args.workers, log=lambda line: print(line, flush=True),
                                 scheduler=args.scheduler)
    (HERE / "results").mkdir(exist_ok=True)
    types.to_csv(HERE / "results" / "opening_types_by_rollouts.csv", index=False, float_format="%.6g")
    moves.to_csv(HERE / "results" / "opening_types_moves.csv", index=False, float_format="%.6g")
    print(f"features kept {types.attrs['features']}, dropped {types.attrs['dropped']}")
    print(opening_types_display(types).to_string(index=False))
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
