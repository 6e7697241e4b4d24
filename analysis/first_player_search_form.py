"""What moves the first player's share between the converged table's two strongest levels: the budget or
the form of the search.

    python analysis/first_player_search_form.py            # about 8 minutes on 2 cores; resumable
    python analysis/first_player_search_form.py --workers 1

`learned:N` searches in one of two forms (docs/policies.md, "The learned search"). Below
`FULL_ROLLOUTS_FROM` (500) iterations a rollout stops once the opponent has answered and a small network
values the tiles left on the table; from 500 iterations on, rollouts play the round to its end, the tree
keeps more moves, and at 2 players each leaf blends the rollout's value with its own learned value. The
converged table's `learned:200` and `learned:900` differ in both budget and form, and their first-player
shares differ at 2 players. This plays the two budgets on either side of the switch, `learned:400`
(the largest of the short form) and `learned:500` (the smallest of the full form), at 2 players on the
colored wall, one policy in every seat, seat 0 first, 9,604 games each (a 95 % interval of about one
point either way), each in a run folder under analysis/runs/ (a stopped run resumes with the same games).

Writes analysis/results/first_player_search_form.csv: one row per policy, with its form, budget, games,
tie-split first-player share and 95 % t interval, mean score, root seed (``simulate(games, 2, policy,
seed=seed)`` replays it) and the `learned` fingerprint of the search and weights that played it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from azul_fast import load
from azul_fast.core.bots.learned import fingerprint
from azul_fast.core.bots.policies import FULL_ROLLOUTS_FROM, parse_policy
from azul_fast.core.rules.seeds import spawn_seed
from azul_fast.runs.folders import run_to_folder
from azul_fast.studies.intervals import mean_interval
from azul_fast.studies.seats import first_player_shares, seat_matrix

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "first_player_search_form.csv"
RUNS = HERE / "runs" / "first_player_search_form"
#: The budgets on either side of the switch to full rollouts.
LEVELS = (f"learned:{FULL_ROLLOUTS_FROM - 100}", f"learned:{FULL_ROLLOUTS_FROM}")
GAMES = 9_604   # (1.96 * 0.5 / 0.01) ** 2: a share near one half to about +/-1 point
SEED = 20261207


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs", type=Path, default=RUNS, help=f"folder of the run folders (default {RUNS})")
    args = parser.parse_args()
    rows = []
    for k, policy in enumerate(LEVELS):
        started = time.perf_counter()
        seed = spawn_seed(SEED, k)
        folder = args.runs / policy.replace(":", "-")
        run_to_folder(folder, GAMES, 2, policy, seed=seed, workers=args.workers, progress=False,
                      resume=(folder / "_manifest.json").exists())
        games = load(folder)
        share, low, high = mean_interval(first_player_shares(games), 0.05)
        spec = parse_policy(policy)
        rows.append({"players": 2, "variant": "colored", "policy": policy, "budget": spec.budget,
                     "rollouts": "to the round's end" if spec.full_rollouts else "to the opponent's answer",
                     "games": len(games), "first_player_share": share, "ci_low": low, "ci_high": high,
                     "mean_score": float(seat_matrix(games, "score", 2, float).mean()), "seed": str(seed),
                     "learned": fingerprint()})
        print(f"{policy}: {share:.2%} [{low:.2%}, {high:.2%}] of {len(games):,} games, "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    RESULTS.parent.mkdir(exist_ok=True)
    pd.DataFrame(rows).to_csv(RESULTS, index=False, float_format="%.6g")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
