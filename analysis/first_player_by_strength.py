"""The first player's share of wins along the strength ladder, at 2, 3 and 4 players, with fixed seeds.

    python analysis/first_player_by_strength.py                  # about 25 min on 2 cores
    python analysis/first_player_by_strength.py --seconds 10     # a quicker look
    python analysis/first_player_by_strength.py --replot         # the figure from the CSV
    python analysis/first_player_by_strength.py --add-to-ladder  # rate the ADDED levels the ladder file lacks

Plays the strength ladder of `azul_fast.studies.ladder.DEFAULT_POLICIES` (their Elo), then, for every
level and player count, the games that fit in --seconds of one core (`strength.games_for_budget`)
with that policy in every seat. Writes analysis/results/first_player_by_strength.csv and
ladder_for_strength.csv, and analysis/figures/first_player_by_strength.png/.svg; prints the
table and the verdict at each player count. Every level's root seed is in the CSV (``seed``); the
ladder's rows name the learned search and weights that its `learned` and `fast` played
(``learned``: `azul_fast.core.bots.learned.fingerprint`), so that first_player_converged.py never
quotes a ladder of another version.

The ladder file rates more levels than the study plays: `ADDED`, rated after the round robin
(`azul_fast.studies.ladder.add_to_ladder`: each plays every level before it, 60 deals a pair as the
round robin's, seeds following its pairs', and is fitted with the ratings before it held, so that adding
a level moves no rating the pages quote; its interval adds the held ratings' own; the pairs' results are
in analysis/results/ladder_added_pairs.csv). --add-to-ladder rates
the ones the file lacks, with the round robin's seed and deals a pair (learned:900's pairs cost most).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast.core.bots import value_net  # noqa: E402
from azul_fast.core.bots.families import STRONG_TOP_BUDGET  # noqa: E402
from azul_fast.core.bots.learned import fingerprint  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.report.charts import azul_style, plot_first_player_by_strength, save_figure  # noqa: E402
from azul_fast.report.formatting import strength_display  # noqa: E402
from azul_fast.studies.ladder import DEFAULT_POLICIES, add_to_ladder, ladder  # noqa: E402
from azul_fast.studies.strength import first_player_by_strength, strength_verdict

HERE = Path(__file__).resolve().parent
LADDER = HERE / "results" / "ladder_for_strength.csv"
#: The games of the added levels' pairs (`play_pairs`: a, b, games, wins_a, mean scores, the pair's seed).
PAIRS = HERE / "results" / "ladder_added_pairs.csv"
#: Levels rated on the ladder after its round robin, in the order they were added (it sets their pairs'
#: seeds: append, never reorder): the converged study's stronger levels (first_player_converged.py) and the
#: styles of the learned search (first_player_by_style.py).
ADDED = ("learned:200", "learned:900", "learned-own", "learned-margin", "learned-half", "learned-half:300",
         "learned-own:500", "strong", f"strong:{STRONG_TOP_BUDGET}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget of one core per level and player count")
    parser.add_argument("--min-games", type=int, default=400, help="games per level at least")
    parser.add_argument("--ladder-games", type=int, default=100, help="deals per pair of the ladder")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--replot", action="store_true",
                        help="only redraw the figure from results/first_player_by_strength.csv (no games)")
    parser.add_argument("--add-to-ladder", action="store_true",
                        help=f"only rate the levels of {', '.join(ADDED)} that the ladder file lacks")
    args = parser.parse_args()
    if args.replot:
        _draw(pd.read_csv(HERE / "results" / "first_player_by_strength.csv"))
        return
    if args.add_to_ladder:
        _add_to_ladder(args)
        return
    started = time.perf_counter()
    ratings = ladder(DEFAULT_POLICIES, games=args.ladder_games, seed=args.seed, workers=args.workers)
    ratings = _with_added(ratings.assign(rated="round robin"), args.ladder_games, args.seed, args.workers)
    print(f"ladder: {time.perf_counter() - started:.0f} s", flush=True)
    table = first_player_by_strength(ratings, DEFAULT_POLICIES, seconds=args.seconds, min_games=args.min_games,
                                     seed=args.seed, workers=args.workers, log=lambda line: print(line, flush=True))
    (HERE / "results").mkdir(exist_ok=True)
    table.to_csv(HERE / "results" / "first_player_by_strength.csv", index=False, float_format="%.6g")
    _write_ladder(ratings)
    _draw(table)
    print(strength_display(table).to_string(index=False))
    for players in (2, 3, 4):
        print(strength_verdict(table, players, more_games="a larger --seconds and --min-games")["text"])
    print(f"{time.perf_counter() - started:.0f} s in all")


def _add_to_ladder(args: argparse.Namespace) -> None:
    """Rate the `ADDED` levels the ladder file lacks, against it as it stands (the round robin's seed and deals
    a pair, read from the file: its levels each played 2 games a deal against every other)."""
    ratings = pd.read_csv(LADDER)
    if set(ratings.learned) != {fingerprint()}:
        raise SystemExit(f"{LADDER} was played by another learned ({', '.join(sorted(set(ratings.learned)))}) "
                         f"than this {fingerprint()}: rebuild it (without --add-to-ladder)")
    if "net" in ratings:   # a level rated with another value network is rated again
        stale = ratings.net.fillna("").astype(str).ne("") & ratings.net.ne(value_net.fingerprint())
        ratings = ratings[~stale]
    robin = ratings[ratings.rated == "round robin"] if "rated" in ratings else ratings
    deals = robin.games / (2 * (len(DEFAULT_POLICIES) - 1))
    if set(robin.policy) != set(DEFAULT_POLICIES) or len(set(deals)) != 1:
        raise SystemExit(f"{LADDER}'s round robin is not one of {', '.join(DEFAULT_POLICIES)} with equal deals a pair")
    started = time.perf_counter()
    if "rated" not in ratings:
        ratings = ratings.assign(rated="round robin")
    ratings = _with_added(ratings, int(deals.iloc[0]), args.seed, args.workers)
    _write_ladder(ratings)
    print(ratings.to_string(index=False))
    print(f"{time.perf_counter() - started:.0f} s in all")


def _with_added(ratings: pd.DataFrame, deals: int, seed: int, workers: int | None) -> pd.DataFrame:
    """`ratings` and the `ADDED` levels it lacks, rated against it (`add_to_ladder`), ranked anew."""
    if all(level in set(ratings.policy) for level in ADDED):
        return ratings
    added = add_to_ladder(ratings, ADDED, DEFAULT_POLICIES, games=deals, seed=seed, workers=workers)
    pairs = pd.DataFrame(added.attrs["pairs"]).assign(seed=lambda df: df.seed.astype(str))
    kept = pd.read_csv(PAIRS, dtype={"seed": str}) if PAIRS.exists() else pairs.iloc[:0]
    kept = kept[~kept.b.isin(set(pairs.b))]
    pd.concat([kept, pairs], ignore_index=True).to_csv(PAIRS, index=False, float_format="%.6g")
    table = pd.concat([ratings, added.assign(rated="added")], ignore_index=True)
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    table["rank"] = range(1, len(table) + 1)
    return table


def _write_ladder(ratings: pd.DataFrame) -> None:
    """The ladder file: every row names the learned search and weights (``learned``) and, for a level that plays
    the value network, the network (``net``: `value_net.fingerprint`; empty for the others)."""
    columns = ["rank", "policy", "rating", "ci_low", "ci_high", "games", "win_share", "rated", "learned", "net"]
    net = ratings.policy.map(lambda policy: value_net.fingerprint() if parse_policy(policy).plays_net else "")
    ratings.assign(learned=fingerprint(), net=net)[columns].to_csv(LADDER, index=False, float_format="%.6g")


def _draw(table: pd.DataFrame) -> None:
    with azul_style():
        ax = plot_first_player_by_strength(table)
        save_figure(ax.figure, HERE / "figures" / "first_player_by_strength", overwrite=True)
        plt.close(ax.figure)


if __name__ == "__main__":
    main()
