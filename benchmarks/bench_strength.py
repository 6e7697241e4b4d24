"""Strength for time: every built-in policy and search budget on one Elo scale, beside its cost.

    python benchmarks/bench_strength.py --out strength/          # about 17 minutes on 2 cores (1,018 s, 2026-12-03)
    python benchmarks/bench_strength.py --deals 100 --headline-deals 100 --multi-games 0 --out /tmp/s  # a quick look
    python benchmarks/bench_strength.py --variant gray --out strength-gray/
    python benchmarks/bench_strength.py --replot --out strength/   # only the chart, from strength/strength.csv

What it measures, all in one run on one machine (named in the output):
- time: milliseconds per 2-player self-play game on ONE core (both seats play the policy), the median
  of --time-rounds timings, every policy timed once a round in turn;
- with --instruction-games N: native instructions per game of the same self-play, counted by
  valgrind's callgrind in the core's batch over N fixed games, as bench_instructions.py counts: the same
  count every run whatever else the machine does, so the ratios to mcts lack the timings' scatter;
- ratings: 2-player matches with seats swapped (each deal played once per seat), every policy
  against the next one up the list and against `mcts` (the reference), fitted by Bradley-Terry
  (azul_fast.studies.ladder.fit_ratings; Elo scale, greedy = 0, 95% intervals);
- the headline matches against `mcts` (1,000 iterations a move): `learned` (target: at least 77% at
  no more than a tenth of mcts's time) and every `learned:N` budget (target: some budget wins at
  least 95% at no more time per game than mcts); win shares with 95% intervals (a shared victory
  counts half; the interval treats the two games of a deal as one cluster);
- the targets of the `strong` family (STRONG_TARGETS): `strong` against `learned` (at least 64%) and its strong
  level against `learned:900` (at least 76%), each in at most the opponent's time (timed at once), --headline-deals
  deals with seats swapped;
- the headline match of `fast` against `mcts:200` (target: at least 50% in at most a twelfth of
  mcts:200's time per game), and `fast`'s games per second with --workers workers;
- with --ratio-pairs N (10 by default on the colored wall with two cores): the targets' time ratios
  (AT_ONCE: `learned` and the full-rollout budgets over `mcts`, `fast` over `mcts:200`) timed at once,
  one policy a core, the cores swapped every pair (bench_search_speed.py's `ratio`): the median of N pairs, which the
  load's drift between the timings taken in turn does not reach;
- at 3 and 4 players: one seat of `fast` or `learned` against `mcts` in the others, the seats
  rotated, its share of the wins against the fair share.

Writes strength.md (the tables), strength.csv (the ratings with ms per game) and
strength_frontier.png / .svg (Elo against milliseconds per game, log scale) into --out.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from bench_instructions import batch_instructions  # benchmarks/, beside this script
from bench_search_speed import ratios_at_once

import azul_fast
from azul_fast import simulate
from azul_fast.core.bots.families import STRONG_TOP_BUDGET
from azul_fast.core.bots.policies import parse_policy
from azul_fast.report.charts import azul_style, plot_strength_frontier, save_figure
from azul_fast.studies.ladder import fit_ratings, ms_per_game

#: The strong family's strong level: its target is judged against learned:900 (STRONG_TARGETS).
STRONG_LEVEL = f"strong:{STRONG_TOP_BUDGET}"
LEVELS = [parse_policy(name) for name in
          ("random", "greedy", "heuristic", "mcts:50", "learned:20", "fast", "mcts:200", "fast:100", "learned",
           "strong", "mcts", "learned:300", "learned:800", "learned:900", "learned:1000", STRONG_LEVEL)]
REFERENCE = "mcts"
#: The headline match of `fast`: against this, in at most TIME_SHARE of its time per game.
FAST_REFERENCE = "mcts:200"
FAST_TIME_SHARE = 1 / 12
#: The policies in one seat against `mcts` at 3 and 4 players.
MULTI = ("fast", "learned")
#: The time ratios the targets are judged by, (policy, reference), also timed at once on two cores.
AT_ONCE = (("learned", REFERENCE), ("fast", FAST_REFERENCE), ("learned:800", REFERENCE), ("learned:900", REFERENCE),
           ("learned:1000", REFERENCE), ("strong", "learned"), (STRONG_LEVEL, "learned:900"))
#: The strong family's targets, (policy, opponent, least win share): 2-player matches of --headline-deals deals with
#: seats swapped, each in at most the opponent's time (timed at once: AT_ONCE).
STRONG_TARGETS = (("strong", "learned", 0.64), (STRONG_LEVEL, "learned:900", 0.76))


def match(a: str, b: str, deals: int, players: int, workers: int, variant: str, seed: int) -> dict:
    """`a` in one seat against `b` in the others, every deal once per rotation: a's share of the wins
    (a shared victory split evenly) with a 95% interval clustered by deal."""
    lineup = [a] + [b] * (players - 1)
    df = simulate(deals, players, lineup, seed=seed, workers=workers, progress=False, seat_rotation=True,
                  variant=variant)
    wins = np.stack([df[f"win_{p}"].to_numpy(float) for p in range(players)], axis=1)
    mine = np.stack([(df[f"policy_{p}"] == a).to_numpy() for p in range(players)], axis=1)
    share = (wins * mine).sum(axis=1) / wins.sum(axis=1)
    per_deal = pd.Series(share).groupby(df.deal.to_numpy()).mean()
    half = 1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
    return {"a": a, "b": b, "players": players, "games": len(df), "deals": deals, "share": share.mean(),
            "ci_low": share.mean() - half, "ci_high": share.mean() + half, "wins_a": share.sum()}


def instructions_per_game(policy: str, games: int, variant: str) -> float:
    """Native instructions per 2-player self-play game of `policy` (both seats), counted by callgrind
    in the core's batch (bench_instructions.batch_instructions) over `games` games of a fixed seed."""
    return batch_instructions(f"from azul_fast import simulate; simulate({games}, 2, {str(policy)!r}, seed=2026, "
                              f"workers=1, progress=False, variant={variant!r})") / games


def games_per_second(policy: str, workers: int, variant: str, min_seconds: float = 4.0) -> float:
    """Self-play games a second of `policy` at 2 players with `workers` threads (runs doubled until one lasts
    `min_seconds`; the rate of the last)."""
    games = 200
    while True:
        started = time.perf_counter()
        simulate(games, 2, policy, seed=3, workers=workers, progress=False, variant=variant)
        seconds = time.perf_counter() - started
        if seconds >= min_seconds:
            return games / seconds
        games *= 2


def draw(ratings: pd.DataFrame, out: Path) -> None:
    """The strength-for-time chart of `ratings` (strength.csv) as out/strength_frontier.png and .svg."""
    with azul_style():
        ax = plot_strength_frontier(ratings)
        save_figure(ax.figure, out / "strength_frontier", overwrite=True)
        plt.close(ax.figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=LEVELS, type=parse_policy, help="policies, weakest first")
    parser.add_argument("--deals", type=int, default=150, help="deals per ladder pair (games = 2 x deals)")
    # 4,000 games put a headline share within about 1.3 points (95 %): the targets differ from the shares by a
    # point or two, which 1,000 games (2.8 points) could not tell apart. The first 500 deals are those of 1,000 games.
    parser.add_argument("--headline-deals", type=int, default=2000,
                        help="deals of the headline 2-player matches against mcts and mcts:200 (games = 2 x deals)")
    parser.add_argument("--multi-games", type=int, default=600,
                        help="least games of each 3- and 4-player match (a multiple of the players; 0 skips them)")
    parser.add_argument("--time-seconds", type=float, default=2.0,
                        help="least seconds of self-play of each timing (ladder.ms_per_game)")
    parser.add_argument("--time-rounds", type=int, default=5,
                        help="timing rounds: every policy is timed once a round, in turn, and its time is the median "
                             "(a shared machine's load drifts; taking the policies in turn spreads it over all)")
    parser.add_argument("--ratio-pairs", type=int, default=None,
                        help="pairs of timings at once, one policy a core, of each target's policy and reference "
                             f"({', '.join(f'{p} against {r}' for p, r in AT_ONCE)}; colored wall, two cores; "
                             "default 10 where those are given, else 0: not)")
    parser.add_argument("--instruction-games", type=int, default=0,
                        help="also count native instructions per game over this many self-play games of each "
                             "policy with valgrind (0: not; 40 takes a few minutes)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variant", choices=azul_fast.VARIANTS, default="colored")
    parser.add_argument("--out", type=Path, required=True, help="folder for strength.md, .csv and the chart")
    parser.add_argument("--replot", action="store_true",
                        help="only redraw the chart from the strength.csv in --out (no games)")
    args = parser.parse_args()
    if args.time_rounds < 1 or args.time_seconds <= 0 or (args.ratio_pairs or 0) < 0:
        parser.error("--time-rounds takes 1 or more, --time-seconds a positive number and --ratio-pairs 0 or more")
    can_pair = args.variant == "colored" and len(os.sched_getaffinity(0)) >= 2
    if args.ratio_pairs and not can_pair:
        parser.error("--ratio-pairs times colored-wall games on two cores at once: this run has "
                     f"the {args.variant} wall and {len(os.sched_getaffinity(0))} core(s)")
    if args.ratio_pairs is None:
        args.ratio_pairs = 10 if can_pair else 0
    if REFERENCE not in args.levels:
        parser.error(f"--levels must include {REFERENCE}, the reference every rating and time is measured against")
    if args.instruction_games < 0:
        parser.error("--instruction-games takes 0 (no counts) or a number of games")
    if args.instruction_games and (shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None):
        parser.error("--instruction-games counts with valgrind, which is not installed (apt-get install valgrind)")
    if args.replot:
        source = args.out / "strength.csv"
        if not source.is_file():
            parser.error(f"--replot draws from {source}, which does not exist: run the benchmark into --out first")
        draw(pd.read_csv(source), args.out)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def log(line: str) -> None:
        print(f"[{time.perf_counter() - started:6.0f} s] {line}", flush=True)

    timings: dict[str, list[float]] = {policy: [] for policy in args.levels}
    for _ in range(args.time_rounds):
        for policy in args.levels:
            timings[policy].append(ms_per_game(policy, args.time_seconds, args.variant))
    ms = {policy: float(np.median(t)) for policy, t in timings.items()}
    for policy, t in timings.items():
        log(f"{policy}: {ms[policy]:.2f} ms a game (median of {', '.join(f'{x:.2f}' for x in t)})")
    at_once = {}   # policy: (median, least, most) of its time over its reference's, timed at once
    for policy, reference in AT_ONCE:
        if args.ratio_pairs and policy in args.levels and reference in args.levels:
            ratios = ratios_at_once(policy, reference, args.time_seconds, args.ratio_pairs)[2]
            at_once[policy] = (float(np.median(ratios)), ratios[0], ratios[-1])
            log(f"{policy} / {reference} timed at once: {at_once[policy][0]:.3f}x (the median of {args.ratio_pairs} "
                f"pairs, {ratios[0]:.3f} .. {ratios[-1]:.3f})")
    instructions = {}
    if args.instruction_games:
        for policy in args.levels:
            instructions[policy] = instructions_per_game(policy, args.instruction_games, args.variant)
            log(f"{policy}: {instructions[policy] / 1e6:,.2f} M instructions a game ({args.instruction_games} games)")

    pairs = []
    headline = [p for p in args.levels if p.startswith("learned")]
    fast_match = None
    if "fast" in args.levels and FAST_REFERENCE in args.levels:
        fast_match = match("fast", FAST_REFERENCE, args.headline_deals, 2, args.workers, args.variant, seed=90)
        log(f"fast v {FAST_REFERENCE}: {100 * fast_match['share']:.1f}% of {fast_match['games']} games")
    targets = []
    for k, (a, b, least) in enumerate(STRONG_TARGETS):
        if a in args.levels and b in args.levels:
            targets.append(match(a, b, args.headline_deals, 2, args.workers, args.variant, seed=400 + k))
            log(f"{a} v {b}: {100 * targets[-1]['share']:.1f}% of {targets[-1]['games']} games (target "
                f"{100 * least:.0f}%)")
    for k, (a, b) in enumerate(zip(args.levels[1:], args.levels[:-1])):
        pairs.append(match(a, b, args.deals, 2, args.workers, args.variant, seed=100 + k))
        log(f"{a} v {b}: {100 * pairs[-1]['share']:.1f}%")
    for k, a in enumerate(p for p in args.levels if p != REFERENCE):
        if any({r["a"], r["b"]} == {a, REFERENCE} for r in pairs) and a not in headline:
            continue
        deals = args.headline_deals if a in headline else args.deals
        pairs = [r for r in pairs if {r["a"], r["b"]} != {a, REFERENCE}]
        pairs.append(match(a, REFERENCE, deals, 2, args.workers, args.variant, seed=200 + k))
        log(f"{a} v {REFERENCE}: {100 * pairs[-1]['share']:.1f}% of {pairs[-1]['games']} games")
    results = pd.DataFrame(pairs + ([fast_match] if fast_match else []) + targets)
    ratings = fit_ratings(results[["a", "b", "games", "wins_a"]],
                          anchor="greedy" if "greedy" in args.levels else None)
    ratings["ms_per_game"] = ratings.policy.map(ms)
    if instructions:
        ratings["instructions_per_game"] = ratings.policy.map(instructions)
    ratings = ratings.rename(columns={"rating": "elo"})

    multi = []
    if args.multi_games:
        for players in (3, 4):
            for k, policy in enumerate(MULTI):
                multi.append(match(policy, REFERENCE, -(-args.multi_games // players), players, args.workers,
                                   args.variant, seed=300 + 10 * k + players))
                log(f"{policy} v {REFERENCE} at {players} players: {100 * multi[-1]['share']:.1f}%")

    fast_rate = None
    if "fast" in args.levels:
        fast_rate = games_per_second("fast", args.workers, args.variant)
        log(f"fast: {fast_rate:,.0f} games a second with {args.workers} workers")

    ratings.to_csv(args.out / "strength.csv", index=False)
    draw(ratings, args.out)

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## Strength for time, {args.variant} wall, {now}", "",
        f"azul_fast {azul_fast.__version__}, {platform.platform()}, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; {args.workers} threads for the matches, one "
        f"core for the times (the median of {args.time_rounds} timings each, the policies in turn); "
        f"{time.perf_counter() - started:.0f} s in all.", "",
        "| policy | Elo (95% CI), greedy = 0 | ms per game, one core | time vs mcts |"
        + (" M instructions per game | instructions vs mcts |" if instructions else ""),
        "| --- | --- | --- | --- |" + (" --- | --- |" if instructions else ""),
    ]
    for row in ratings.sort_values("elo").itertuples():
        count = (f" {instructions[row.policy] / 1e6:,.2f} | {instructions[row.policy] / instructions[REFERENCE]:.3f}x |"
                 if instructions else "")
        lines.append(f"| {row.policy} | {row.elo:+.0f} ({row.ci_low:+.0f} .. {row.ci_high:+.0f}) | "
                     f"{row.ms_per_game:.2f} | {row.ms_per_game / ms[REFERENCE]:.3f}x |{count}")
    lines += ["", f"Against `{REFERENCE}`, 2 players, seats swapped:", "",
              "| policy | win share vs mcts (95% CI) | games | ms per game (vs mcts) |", "| --- | --- | --- | --- |"]
    for r in pairs:
        if r["b"] == REFERENCE or r["a"] == REFERENCE:
            a = r["a"] if r["b"] == REFERENCE else r["b"]
            share = r["share"] if r["b"] == REFERENCE else 1 - r["share"]
            low, high = (r["ci_low"], r["ci_high"]) if r["b"] == REFERENCE else (1 - r["ci_high"], 1 - r["ci_low"])
            lines.append(f"| {a} | {100 * share:.1f}% ({100 * low:.1f} .. {100 * high:.1f}) | {r['games']:,} | "
                         f"{ms[a]:.2f} ({ms[a] / ms[REFERENCE]:.2f}x) |")
    if fast_match:
        r, ratio = fast_match, ms["fast"] / ms[FAST_REFERENCE]
        lines += ["", f"`fast` against `{FAST_REFERENCE}`, 2 players, seats swapped (target: at least 50% in at most "
                  f"{FAST_TIME_SHARE:.3f}x its time): {100 * r['share']:.1f}% ({100 * r['ci_low']:.1f} .. "
                  f"{100 * r['ci_high']:.1f}) of {r['games']:,} games, {ms['fast']:.2f} ms a game against "
                  f"{ms[FAST_REFERENCE]:.2f} ({ratio:.3f}x, 1/{1 / ratio:.1f})."]
    for r, (_, _, least) in zip(targets, STRONG_TARGETS):
        a, b = r["a"], r["b"]
        ratio = at_once[a][0] if a in at_once else ms[a] / ms[b]
        met = r["share"] >= least and ratio <= 1.0
        lines += ["", f"`{a}` against `{b}`, 2 players, seats swapped (target: at least {100 * least:.0f}% in at most "
                  f"its time): {100 * r['share']:.1f}% ({100 * r['ci_low']:.1f} .. {100 * r['ci_high']:.1f}) of "
                  f"{r['games']:,} games, {ratio:.3f}x its time ({'timed at once' if a in at_once else 'in turn'}): "
                  f"{'met' if met else 'not met'}."]
    if at_once:
        lines += ["", f"Time ratios of the targets timed at once ({args.ratio_pairs} pairs of timings, one policy a "
                  "core, the cores swapped every pair; the median of the pairs' ratios and their range), which the "
                  "load's drift between timings taken in turn does not reach:", ""]
        for policy, reference in AT_ONCE:
            if policy in at_once:
                middle, least, most = at_once[policy]
                lines.append(f"- `{policy}` / `{reference}`: {middle:.3f}x (1/{1 / middle:.1f}; {least:.3f} .. "
                             f"{most:.3f})")
    if fast_rate:
        lines += ["", f"`fast` self-play with {args.workers} workers: {fast_rate:,.0f} games a second (a million games "
                  f"in {1e6 / fast_rate / 60:.1f} minutes)."]
    if multi:
        lines += ["", "One seat against `mcts` in the others, seats rotated:", "",
                  "| policy | players | share of the wins (95% CI) | fair share | games |",
                  "| --- | --- | --- | --- | --- |"]
        for r in multi:
            lines.append(f"| {r['a']} | {r['players']} | {100 * r['share']:.1f}% ({100 * r['ci_low']:.1f} .. "
                         f"{100 * r['ci_high']:.1f}) | {100 / r['players']:.1f}% | {r['games']:,} |")
    text = "\n".join(lines) + "\n"
    (args.out / "strength.md").write_text(text)
    print("\n" + text)


if __name__ == "__main__":
    main()
