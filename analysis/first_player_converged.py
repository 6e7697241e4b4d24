"""The converged first-player table: the first player's share under the three strongest levels that fit.

    python analysis/first_player_converged.py                   # every missing row (resumable, see below)
    python analysis/first_player_converged.py --levels learned:900   # one level, at its player counts
    python analysis/first_player_converged.py --replot          # the figure and page table from the CSV
    python analysis/first_player_converged.py --players 2 --variants colored    # one part
    python analysis/first_player_converged.py --style-only      # only the bots' style table

The levels and the player counts each plays are `LEVELS`: `learned` and `learned:200` at 2, 3 and 4 players
(31 min on 2 idle cores, 2026-12-03), and `learned:900` (about ten times learned's cost a game) at 2, 3 and
4 players: 54 min of 2 cores for both walls at 2 players and 68 min at 3 (2026-12-07); its 4-player rows are
not played yet (about an hour and a half more: `--levels learned:900 --players 4`). For every player count
and wall, each level plays (one policy in every seat, seat 0 first) until its tie-split first-player share
is known to +/-0.5 points (95 %): a pilot of --pilot games estimates the spread, and the games it calls for
are played in one more run (a two-stage design: the number of games does not depend on the share found, so
the interval keeps its coverage). Both runs are run folders under --runs (`azul_fast.runs.folders`): a run
stopped (Ctrl-C, a kill, the machine) resumes where it stopped when the script is started again, with the
same games. Adjacent levels (by Elo) are compared at every player count and wall where both were played: the
difference of their shares with its 95 % interval, and the verdict "converged" when that interval lies
within +/-1 point and holds 0, "differ" when it excludes 0, and "agreement not shown" when it holds 0 but
reaches past a point either way (more games of both would decide). The verdict sits on the stronger level's
row.

Every level's Elo is read from the one ladder file of the project, analysis/results/ladder_for_strength.csv
(greedy = 0; analysis/first_player_by_strength.py --add-to-ladder rates a level it lacks), at every write.

Writes analysis/results/first_player_converged.csv (one row per player count, wall and level;
parts already in it are kept, so a run can be split) and analysis/figures/first_player_converged.png/.svg
(the PNG also into docs/_static/ for docs/first-player.md).
Beside it, first_player_converged_style.csv: how the bots play (--style-games games move by move of
each level, and of greedy and mcts for contrast): points, floor penalty and end bonus per player and
round, rounds per game.
Every row's root seed is in the CSV (``seed``): ``simulate(games, players, policy, seed=seed,
variant=variant)`` replays it, with the learned search and weights of ``learned`` (the row's
`azul_fast.core.bots.learned.fingerprint`): a run refuses to add rows to files whose rows another
version played (they would not compare); move those files away to play the table afresh.
"""

from __future__ import annotations

import argparse
import math
import shutil
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import load, simulate, simulate_moves  # noqa: E402
from azul_fast.core.bots.learned import fingerprint  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.seeds import spawn_seed  # noqa: E402
from azul_fast.report.charts import azul_style, save_figure  # noqa: E402
from azul_fast.runs.folders import run_to_folder  # noqa: E402
from azul_fast.studies.intervals import mean_interval  # noqa: E402
from azul_fast.studies.seats import first_player_shares, seat_matrix  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "first_player_converged.csv"
STYLE = HERE / "results" / "first_player_converged_style.csv"
LADDER = HERE / "results" / "ladder_for_strength.csv"
RUNS = HERE / "runs" / "first_player_converged"
DOCS_FIGURE = HERE.parent / "docs" / "_static" / "first_player_converged.png"
# The package ships the table (azul_fast.studies.published): a report states the published answer from it.
SHIPPED = HERE.parent / "src" / "azul_fast" / "studies" / "data" / "first_player_converged.csv"
COLUMNS = ["players", "variant", "policy", "elo", "elo_low", "elo_high", "games", "first_player_share", "ci_low",
           "ci_high", "mean_score", "verdict", "difference", "difference_low", "difference_high",
           "seed", "learned"]
Z = 1.959963984540054   # the 95 % normal quantile


#: The levels, weakest first, and the player counts at which each plays. learned:900 is at least 200 Elo
#: above learned on the ladder, and its rollouts play the round to its end.
LEVELS = {parse_policy(name): (2, 3, 4) for name in ("learned", "learned:200", "learned:900")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", type=parse_policy, default=list(LEVELS), choices=list(LEVELS),
                        metavar="POLICY",
                        help=f"the levels to play (default: all, {', '.join(LEVELS)})")
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4])
    parser.add_argument("--variants", nargs="+", default=["colored", "gray"])
    parser.add_argument("--precision", type=float, default=0.005, help="half-width of each share's interval")
    parser.add_argument("--pilot", type=int, default=4_000, help="games of the pilot run of each level")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs", type=Path, default=RUNS, help=f"folder of the run folders (default {RUNS})")
    parser.add_argument("--style-games", type=int, default=500, help="games of each level in the style table")
    parser.add_argument("--again", action="store_true",
                        help="play the rows the CSV holds already too (by default only the missing ones)")
    parser.add_argument("--replot", action="store_true", help="only redraw the figure from the CSV (no games)")
    parser.add_argument("--style-only", action="store_true", help="only the style table")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play the games on the Dask cluster of this scheduler (the same rows as here; "
                             "not into run folders, so a lost scheduler means running the part again)")
    parser.add_argument("--play-only", action="store_true",
                        help="only play the run folders (no ladder needed); a later run writes their rows")
    args = parser.parse_args()
    if args.replot:
        _finish(_read(RESULTS))
        return
    if args.style_only:
        _style(args)
        return
    started = time.perf_counter()
    table = _same_version(RESULTS, pd.DataFrame(columns=COLUMNS))
    # before any game: a level the ladder lacks is refused
    elo = {level: (math.nan,) * 3 for level in args.levels} if args.play_only else _ladder_elo(args.levels)
    for variant in args.variants:
        for players in args.players:
            for policy in args.levels:
                here = (table.players == players) & (table.variant == variant) & (table.policy == policy)
                if players not in LEVELS[policy] or (here.any() and not args.again):
                    continue
                t0 = time.perf_counter()
                row = _level(policy, players, variant, args) | dict(zip(("elo", "elo_low", "elo_high"), elo[policy]))
                print(f"{players} players, {variant}, {policy}: {row['first_player_share']:.2%} "
                      f"[{row['ci_low']:.2%}, {row['ci_high']:.2%}] of {row['games']:,} games, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
                if not args.play_only:
                    table = pd.concat([table[~here], pd.DataFrame([row])], ignore_index=True)
                    _write(table)
    if not args.play_only:
        _finish(table)
    print(f"{time.perf_counter() - started:.0f} s in all")


def _read(path: Path) -> pd.DataFrame:
    """A CSV of this script, its 64-bit seeds kept exact (as text: a float would round them)."""
    return pd.read_csv(path, dtype={"seed": str})


def _same_version(path: Path, empty: pd.DataFrame) -> pd.DataFrame:
    """The rows of the CSV at `path` (`empty` if there is none); SystemExit if another version of
    ``learned`` played any of them."""
    if not path.exists():
        return empty
    table = _read(path)
    others = _other_versions(table)
    if others:
        raise SystemExit(f"{path} holds rows that learned played as {others[0]}, but this azul_fast plays it as "
                         f"{fingerprint()}: the two would not compare. Move the file away to play it afresh.")
    return table


def _other_versions(table: pd.DataFrame) -> list[str]:
    """The versions of ``learned`` other than this one's that played rows of `table` (one not recorded
    if it has no ``learned`` column)."""
    versions = set(table["learned"]) if "learned" in table else {"an earlier version (not recorded)"}
    return sorted(versions - {fingerprint()})


def _ladder_elo(levels: list[str]) -> dict[str, tuple[float, float, float]]:
    """Elo of every level (rating, 95 % interval) from the ladder file. SystemExit, before any game, if the
    ladder's learned search is not this one's or a level is not on it."""
    ladder = pd.read_csv(LADDER).set_index("policy")
    others = _other_versions(ladder)
    if others:
        raise SystemExit(f"{LADDER} was played by {', '.join(others)}, not by this {fingerprint()}: its "
                         f"Elo would not be this learned's. Rebuild it first: "
                         f"python analysis/first_player_by_strength.py --seconds 30 --min-games 300 --ladder-games 60")
    missing = [level for level in levels if level not in ladder.index]
    if missing:
        raise SystemExit(f"{LADDER} does not rate {', '.join(missing)}: add it first with "
                         f"python analysis/first_player_by_strength.py --add-to-ladder {' '.join(missing)}")
    return {level: (float(ladder.rating[level]), float(ladder.ci_low[level]), float(ladder.ci_high[level]))
            for level in levels}


def _level(policy: str, players: int, variant: str, args: argparse.Namespace) -> dict[str, object]:
    """One level at one player count and wall: a pilot, then the games the precision calls for, each a run
    folder under args.runs (resumed if it is there)."""
    seed = spawn_seed(args.seed, players, ["colored", "gray"].index(variant) + 1, list(LEVELS).index(policy))
    where = args.runs / f"{players}p-{variant}-{policy.replace(':', '-')}"
    pilot = _run(where / "pilot", args.pilot, players, policy, seed, variant, args.workers, args.scheduler)
    spread = float(first_player_shares(pilot).std(ddof=1))
    needed = math.ceil((Z * spread / args.precision) ** 2)
    parts = [pilot]
    if needed > args.pilot:
        parts.append(_run(where / "rest", needed - args.pilot, players, policy, spawn_seed(seed, 1), variant,
                          args.workers,
                          args.scheduler))
    games = pd.concat(parts, ignore_index=True)
    share, low, high = mean_interval(first_player_shares(games), 0.05)
    scores = seat_matrix(games, "score", players, float)
    return {"players": players, "variant": variant, "policy": policy, "games": len(games),
            "first_player_share": share, "ci_low": low, "ci_high": high,
            "mean_score": float(scores.mean()), "seed": str(seed), "learned": fingerprint()}


def _run(folder: Path, games: int, players: int, policy: str, seed: int, variant: str,
         workers: int | None, scheduler: str | None = None) -> pd.DataFrame:
    """`simulate(games, players, policy, seed=seed, variant=variant)`'s games, played into `folder` (resumed
    where a stopped run left it; a finished run is only read)."""
    if scheduler is not None:  # a cluster plays the same games, not into a folder (a lost scheduler: run again)
        return simulate(games, players, policy, seed=seed, variant=variant, progress=False, scheduler=scheduler)
    run_to_folder(folder, games, players, policy, seed=seed, workers=workers, variant=variant, progress=False,
                  resume=(folder / "_manifest.json").exists())
    return load(folder)


def _style(args: argparse.Namespace) -> None:
    """How each level plays: points, floor penalty and end bonus per player and round, and rounds a game."""
    kept = _same_version(STYLE, pd.DataFrame())   # before any game: a run that cannot be kept is not played
    rows = []
    for variant in args.variants:
        for players in args.players:
            for policy in ("greedy", "mcts", *(level for level in args.levels if players in LEVELS[level])):
                seed = spawn_seed(args.seed, 9, players, ["colored", "gray"].index(variant))
                records = simulate_moves(args.style_games, players, policy, seed=seed, variant=variant,
                                         workers=args.workers, progress=False)
                rounds, games = records.rounds, records.games
                rows.append({"players": players, "variant": variant, "policy": policy, "games": len(games),
                             "mean_score": float(seat_matrix(games, "score", players, float).mean()),
                             "rounds_per_game": float(games.rounds.mean()),
                             "points_per_round": float(rounds.points_scored.mean()),
                             "floor_per_round": float(rounds.floor_penalty.mean()),
                             "end_bonus_per_game": float(rounds.end_bonus.sum() / (len(games) * players)),
                             "seed": str(seed), "learned": fingerprint()})
                print(f"style: {players} players, {variant}, {policy}: {rows[-1]}", flush=True)
    STYLE.parent.mkdir(exist_ok=True)
    # a run over some counts and walls keeps the other rows of the file (as the main table does)
    style = pd.DataFrame(rows)
    if len(kept):
        kept = kept[~kept.set_index(["players", "variant"]).index.isin(style.set_index(["players", "variant"]).index)]
        style = pd.concat([kept, style], ignore_index=True)
    order = {"colored": 0, "gray": 1}
    style = style.sort_values(["variant", "players"], key=lambda c: c.map(order) if c.name == "variant" else c,
                              kind="stable")
    style.to_csv(STYLE, index=False, float_format="%.6g")


def _verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """The difference of each level from the next weaker one (by Elo) at the same player count and wall, and
    the verdict, on the stronger's row."""
    table = table.copy()
    for col in ("verdict", "difference", "difference_low", "difference_high"):
        table[col] = table[col].astype(object) if col == "verdict" else table[col].astype(float)
    table["verdict"] = ""
    for _, part in table.groupby(["players", "variant"]):
        part = part.sort_values("elo")
        for (_, weak), (_, strong) in zip(part.iloc[:-1].iterrows(), part.iloc[1:].iterrows()):
            half = lambda row: (row.ci_high - row.ci_low) / 2  # noqa: E731
            diff = strong.first_player_share - weak.first_player_share
            margin = math.hypot(half(weak), half(strong))
            low, high = diff - margin, diff + margin
            verdict = ("converged" if -0.01 <= low and high <= 0.01 and low <= 0 <= high
                       else "differ" if low > 0 or high < 0 else "agreement not shown")
            table.loc[strong.name, ["difference", "difference_low", "difference_high", "verdict"]] = \
                [diff, low, high, verdict]
    return table


def _with_ladder_elo(table: pd.DataFrame) -> pd.DataFrame:
    """`table` with every level's Elo as the ladder file rates it now (the one source of every Elo)."""
    elo = _ladder_elo(sorted(set(table.policy)))
    table = table.copy()
    for k, col in enumerate(("elo", "elo_low", "elo_high")):
        table[col] = table.policy.map(lambda policy, k=k: elo[policy][k]).astype(float)
    return table


def _write(table: pd.DataFrame) -> None:
    RESULTS.parent.mkdir(exist_ok=True)
    # Rows gathered into an empty frame keep object columns, which float_format would not round.
    table = _verdicts(_with_ladder_elo(table)).sort_values(["variant", "players", "elo"])[COLUMNS].infer_objects()
    tmp = RESULTS.with_suffix(".tmp")
    table.to_csv(tmp, index=False, float_format="%.6g")
    tmp.replace(RESULTS)
    shutil.copyfile(RESULTS, SHIPPED)


def _finish(table: pd.DataFrame) -> None:
    _write(table)
    table = _read(RESULTS)
    with azul_style():
        fig = _plot(table)
        save_figure(fig, HERE / "figures" / "first_player_converged", overwrite=True)
        plt.close(fig)
    # the docs page shows the same picture (Sphinx takes images from inside docs/)
    shutil.copyfile(HERE / "figures" / "first_player_converged.png", DOCS_FIGURE)
    print(markdown_table(table))
    if STYLE.exists():
        print(style_table(_read(STYLE)))


def style_table(style: pd.DataFrame) -> str:
    """The style table as docs/first-player.md shows it."""
    lines = ["| players | wall | policy | score a game | points a round | floor a round | end bonus a game |",
             "|---|---|---|---|---|---|---|"]
    for row in style.itertuples():
        lines.append(f"| {row.players} | {row.variant} | `{row.policy}` | {row.mean_score:.1f} | "
                     f"{row.points_per_round:.1f} | {row.floor_per_round:.1f} | {row.end_bonus_per_game:.1f} |")
    return "\n".join(lines)


def markdown_table(table: pd.DataFrame) -> str:
    """The table as docs/first-player.md shows it (tests/report/test_docs_results.py checks the page against
    the CSV)."""
    lines = ["| players, wall | policy (Elo) | games | first player's share | difference, verdict |",
             "|---|---|---|---|---|"]
    for row in table.sort_values(["players", "variant", "elo"]).itertuples():
        verdict = "" if not row.verdict or pd.isna(row.verdict) else (
            f"{100 * row.difference:+.1f} [{100 * row.difference_low:+.1f}, {100 * row.difference_high:+.1f}], "
            f"{row.verdict}")
        lines.append(f"| {row.players}, {row.variant} | `{row.policy}` ({row.elo:+.0f}) | {row.games:,} | "
                     f"{100 * row.first_player_share:.1f}\u00a0% [{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}] | "
                     f"{verdict} |")
    return "\n".join(lines)


def _plot(table: pd.DataFrame) -> plt.Figure:
    """The first player's edge over the fair share (points) by player count, one marker per level
    and wall: on one axis the three counts compare, which shares of 50, 33 and 25 % would hide."""
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    levels = list(table.sort_values("elo").policy.unique())
    keys = [(v, p) for v in ("colored", "gray") for p in levels]
    offsets = {key: (k - (len(keys) - 1) / 2) * 0.36 / max(len(keys) - 1, 1) for k, key in enumerate(keys)}
    for (variant, policy), part in table.groupby(["variant", "policy"]):
        part = part.sort_values("players")
        fair = 1 / part.players
        x = part.players + offsets[(variant, policy)]
        y = 100 * (part.first_player_share - fair)
        err = [y - 100 * (part.ci_low - fair), 100 * (part.ci_high - fair) - y]
        ax.errorbar(x, y, yerr=err, fmt="o" if variant == "colored" else "s", capsize=3,
                    mfc="white" if variant == "gray" else None,
                    label=f"{policy} ({part.elo.iloc[0]:+.0f} Elo), {variant} wall")
    ax.axhline(0, color="0.4", linestyle="dashed", lw=1)
    ax.set_xticks([2, 3, 4], ["2 players", "3 players", "4 players"])
    ax.set_xlim(1.5, 4.5)
    # room below the lowest interval (an interval can reach under the fair share) and under the axis
    # for the legend, which inside the axes would cover a player count's markers
    lowest = 100 * float((table.ci_low - 1 / table.players).min())
    ax.set_ylim(min(-0.5, lowest - 0.3), None)
    ax.set_ylabel("first player's share minus the fair share\n(points of win share, ties split)")
    ax.set_title("The first player's edge under the strongest bots (95 % intervals)")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, frameon=False)
    return fig


if __name__ == "__main__":
    main()
