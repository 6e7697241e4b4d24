"""The first player's share under each style of the learned search, at 2, 3 and 4 players on both walls.

    python analysis/first_player_by_style.py                 # every missing cell (resumable, see below)
    python analysis/first_player_by_style.py --players 2     # one part
    python analysis/first_player_by_style.py --play-only     # play the runs only (no ladder needed)
    python analysis/first_player_by_style.py --replot        # the figure and page table from the CSV

The styles (`STYLES`; azul_fast.core.bots.policies describes them) differ only in what the search plays
for: `learned`'s margin over the strongest opponent with denial (at 2 players a take is also credited
with the opponent's pattern lines it leaves the table unable to complete this round), the same margin
without denial (`learned-margin`), and its own score alone (`learned-own`), as most people play. At 3
and 4 players no search credits denial, so `learned-margin` plays `learned`'s games there: the two
extreme styles are played (`CELLS`).

Every cell plays one policy in every seat (seat 0 first) for `games_for_precision(--precision)` games,
enough for a 95 % interval of the tie-split first-player share of +/- --precision whatever the share
(9,624 games for one point; at 3 and 4 players --precision-more, 2,407 games for two points), every move
recorded (a move run), in a run folder under --runs: a run
stopped (Ctrl-C, a kill) resumes where it stopped when the script is started again, with the same games.
At 2 players each style other than `learned` also plays --match-deals deals against `learned`, seats
swapped (its share of those games: how far its strength is from learned's, beside the ladder's Elo).

Writes analysis/results/first_player_by_style.csv, one row per player count, wall and style:
``players, variant, style, policy, elo, games, first_player_share, ci_low, ci_high, mean_score`` (Elo from
the one ladder file, analysis/results/ladder_for_strength.csv, greedy = 0: first_player_by_strength.py
--add-to-ladder rates the styles), then the Elo interval, ``score_0 .. score_3`` (mean score of the seat
moving first, second, ...), ``margin`` (the first player's score minus the best other's, a game;
``margin_round_1`` the same after the first round),
``floor_per_game`` (floor penalty points a player and game), ``marker_by_first`` (the share of rounds
whose first-player marker the first player of the game took), ``denial_share`` (the share of takes that
spoil an opponent's partly filled line: leave the table too few tiles of its colour to complete it this
round, as the search's denial counts it, over the first --denial-games games), ``denial_taken`` (of the
takes made where some take would spoil such a line, the share that do), ``ties``, the 2-player
match against ``learned`` (``vs_learned``, its interval), at 2 players on the colored wall the difference from the
outside figure (``vs_outside``: the share minus `OUTSIDE_SHARE`, its interval from both half-widths), ``seed`` and
``learned`` (the learned search and
weights, `azul_fast.core.bots.learned.fingerprint`). And analysis/figures/first_player_by_style.png/.svg
(the PNG also into docs/_static/ for docs/first-player-style.md).

Running time with --workers 2 on the 2 cores shared with other work (2026-12-07, load 8 to 17): the
2-player cells 47 min (each 9,624 games, the match and the denial count: learned 4 min, learned-margin 6,
learned-own 5, learned-half:300 8 to 9), the 3- and 4-player cells (2,407 games) 15 min;
recomputing the rows from the run folders (--again) about 40 s a row. On idle cores it is a few times faster
(learned: about 6 ms a 2-player game on one core).
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
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from azul_fast import State, load  # noqa: E402
from azul_fast.core.bots.learned import fingerprint  # noqa: E402
from azul_fast.core.bots.policies import parse_policy  # noqa: E402
from azul_fast.core.rules.moves import PLACE_CODE  # noqa: E402
from azul_fast.core.rules.seeds import spawn_seed  # noqa: E402
from azul_fast.report.charts import azul_style, save_figure  # noqa: E402
from azul_fast.runs.folders import run_to_folder  # noqa: E402
from azul_fast.runs.move_records import decode_move  # noqa: E402
from azul_fast.studies.intervals import mean_interval  # noqa: E402
from azul_fast.studies.seats import first_player_shares, seat_matrix, split_wins  # noqa: E402
from azul_fast.studies.settings import games_for_precision  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "first_player_by_style.csv"
LADDER = HERE / "results" / "ladder_for_strength.csv"
RUNS = HERE / "runs" / "first_player_by_style"
DOCS_FIGURE = HERE.parent / "docs" / "_static" / "first_player_by_style.png"
#: Style -> the policy that plays it (a budget where the plain one is more than ~100 Elo below learned).
STYLES = {style: parse_policy(name) for style, name in
          (("margin and denial", "learned"), ("margin", "learned-margin"), ("half margin", "learned-half:300"),
           ("own score", "learned-own"))}
#: The figure from outside the project these shares are set against: an independent AlphaZero-style bot (a trained
#: network, 100 simulations a move) gave the first player 58.3 % [54.3, 62.2] of 600 self-play games at 2 players
#: (shared wins split; the rules' own wall), scoring 52.5 and 50.8 points a side. Only the share and the interval's
#: half-width enter the comparison (``vs_outside``).
OUTSIDE_SHARE, OUTSIDE_HALF_WIDTH = 0.583, (0.622 - 0.543) / 2
#: Player counts -> the styles played there (at 3 and 4 players learned-margin plays learned's games).
CELLS = {2: tuple(STYLES), 3: ("margin and denial", "own score", "half margin"),
         4: ("margin and denial", "own score", "half margin")}
COLUMNS = ["players", "variant", "style", "policy", "elo", "games", "first_player_share", "ci_low", "ci_high",
           "mean_score", "elo_low", "elo_high", "score_0", "score_1", "score_2", "score_3", "margin",
           "margin_round_1", "floor_per_game", "marker_by_first", "denial_share", "denial_taken", "denial_games",
           "ties", "vs_learned",
           "vs_learned_low", "vs_learned_high", "vs_outside", "vs_outside_low", "vs_outside_high", "seed", "learned"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--variants", nargs="+", default=["colored", "gray"], choices=["colored", "gray"])
    parser.add_argument("--styles", nargs="+", default=list(STYLES), choices=list(STYLES))
    parser.add_argument("--precision", type=float, default=0.01, help="half-width of each 2-player share's interval")
    parser.add_argument("--precision-more", type=float, default=0.02,
                        help="the same at 3 and 4 players, where a game costs two to three times more")
    parser.add_argument("--match-deals", type=int, default=1_000, help="deals of each style's match against learned")
    parser.add_argument("--denial-games", type=int, default=1_000, help="games replayed to count denial")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs", type=Path, default=RUNS, help=f"folder of the run folders (default {RUNS})")
    parser.add_argument("--again", action="store_true", help="recompute the rows the CSV holds already too")
    parser.add_argument("--play-only", action="store_true", help="only play the run folders (no ladder needed)")
    parser.add_argument("--replot", action="store_true", help="only redraw the figure from the CSV (no games)")
    args = parser.parse_args()
    if args.replot:
        _finish(_read())
        return
    started = time.perf_counter()
    table = _kept()
    elo = {} if args.play_only else _ladder_elo([STYLES[style] for style in args.styles])
    for players in args.players:
        for variant in args.variants:
            for style in (s for s in CELLS[players] if s in args.styles):
                here = (table.players == players) & (table.variant == variant) & (table["style"] == style)
                if here.any() and not args.again:
                    continue
                t0 = time.perf_counter()
                row = _cell(style, players, variant, args)
                if args.play_only:
                    print(f"{players} players, {variant}, {style}: played, {time.perf_counter() - t0:.0f} s",
                          flush=True)
                    continue
                row.update(zip(("elo", "elo_low", "elo_high"), elo[row["policy"]]))
                print(f"{players} players, {variant}, {style} ({row['policy']}): {row['first_player_share']:.2%} "
                      f"[{row['ci_low']:.2%}, {row['ci_high']:.2%}] of {row['games']:,} games, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
                table = pd.concat([table[~here], pd.DataFrame([row])], ignore_index=True)
                _write(table)
    if not args.play_only:
        _finish(table)
    print(f"{time.perf_counter() - started:.0f} s in all")


def _read() -> pd.DataFrame:
    """The CSV, its 64-bit seeds kept exact (as text: a float would round them)."""
    return pd.read_csv(RESULTS, dtype={"seed": str})


def _kept() -> pd.DataFrame:
    """The rows of the CSV (none if there is none); SystemExit if another version of learned played any."""
    if not RESULTS.exists():
        return pd.DataFrame(columns=COLUMNS)
    table = _read()
    others = sorted(set(table.learned) - {fingerprint()})
    if others:
        raise SystemExit(f"{RESULTS} holds rows that learned played as {others[0]}, but this azul_fast plays it as "
                         f"{fingerprint()}: the two would not compare. Move the file away to play it afresh.")
    return table


def _ladder_elo(policies: list[str]) -> dict[str, tuple[float, float, float]]:
    """Elo of every policy (rating, 95 % interval) from the ladder file; SystemExit, before any game, if the
    ladder was played by another learned or lacks a policy."""
    ladder = pd.read_csv(LADDER).set_index("policy")
    if set(ladder.learned) != {fingerprint()}:
        raise SystemExit(f"{LADDER} was played by another learned than this {fingerprint()}: rebuild it first "
                         "(analysis/first_player_by_strength.py)")
    missing = [policy for policy in policies if policy not in ladder.index]
    if missing:
        raise SystemExit(f"{LADDER} does not rate {', '.join(missing)}: add it first with "
                         "python analysis/first_player_by_strength.py --add-to-ladder")
    return {p: (float(ladder.rating[p]), float(ladder.ci_low[p]), float(ladder.ci_high[p])) for p in policies}


def _cell(style: str, players: int, variant: str, args: argparse.Namespace) -> dict[str, object]:
    """One style at one player count and wall: its self-play games (a move run) and, at 2 players, its match
    against learned, each in a run folder under args.runs (resumed if it is there)."""
    policy = STYLES[style]
    seed = spawn_seed(args.seed, players, ["colored", "gray"].index(variant), list(STYLES).index(style))
    where = args.runs / f"{players}p-{variant}-{policy.replace(':', '-')}"
    precision = args.precision if players == 2 else args.precision_more
    _run(where / "self-play", games_for_precision(precision), players, policy, seed, variant, args.workers,
         moves=True)
    match = None
    if players == 2 and policy != "learned":
        match = _run(where / "against-learned", 2 * args.match_deals, 2, [policy, "learned"], spawn_seed(seed, 1),
                     variant, args.workers, seat_rotation=True)
    if args.play_only:
        return {}
    return _row(style, policy, players, variant, where / "self-play", match, args.denial_games) | {"seed": str(seed)}


def _run(folder: Path, games: int, players: int, policies: str | list[str], seed: int, variant: str,
         workers: int | None, moves: bool = False, seat_rotation: bool = False) -> pd.DataFrame | None:
    """`simulate`'s games, played into `folder` (resumed where a stopped run left it; a finished run is only
    read)."""
    run_to_folder(folder, games, players, policies, seed=seed, workers=workers, variant=variant, progress=False,
                  resume=(folder / "_manifest.json").exists(), moves=moves, seat_rotation=seat_rotation)
    return load(folder)


def _row(style: str, policy: str, players: int, variant: str, folder: Path, match: pd.DataFrame | None,
         denial_games: int) -> dict[str, object]:
    games = load(folder)
    moves, rounds = load(folder, table="moves"), load(folder, table="rounds")
    share, low, high = mean_interval(first_player_shares(games), 0.05)
    scores = seat_matrix(games, "score", players, float)
    first = games.first_player.to_numpy(int)
    # seat k of the turn order: the seat moving k-th in the game's first round
    by_turn = np.stack([scores[np.arange(len(games)), (first + k) % players] for k in range(players)], axis=1)
    wins = seat_matrix(games, "win", players, float)
    marker = moves[moves.took_marker]
    marker_first = (marker.seat.to_numpy(int) == first[marker.game.to_numpy(int)]).mean()
    row: dict[str, object] = {
        "players": players, "variant": variant, "style": style, "policy": policy, "games": len(games),
        "first_player_share": share, "ci_low": low, "ci_high": high, "mean_score": float(scores.mean()),
        **{f"score_{k}": float(by_turn[:, k].mean()) if k < players else math.nan for k in range(4)},
        "margin": float((by_turn[:, 0] - by_turn[:, 1:].max(axis=1)).mean()),
        "margin_round_1": _margin_after_round_1(rounds, first, players),
        "floor_per_game": float(rounds.floor_penalty.sum() / (len(games) * players)),
        "marker_by_first": float(marker_first),
        **dict(zip(("denial_share", "denial_taken"), _denial(games.iloc[:denial_games], moves, players, variant))),
        "denial_games": min(denial_games, len(games)),
        "ties": float((wins.sum(axis=1) > 1).mean()), "learned": fingerprint(),
    }
    if players == 2 and variant == "colored":   # the outside figure was played on the rules' own wall
        difference, half = share - OUTSIDE_SHARE, math.hypot((high - low) / 2, OUTSIDE_HALF_WIDTH)
        row.update(vs_outside=difference, vs_outside_low=difference - half, vs_outside_high=difference + half)
    if match is not None:
        mine = np.where(match.policy_0 == policy, 0, 1)
        split = split_wins(seat_matrix(match, "win", 2, float))
        row["vs_learned"], row["vs_learned_low"], row["vs_learned_high"] = mean_interval(
            split[np.arange(len(match)), mine], 0.05)
    return row


def _margin_after_round_1(rounds: pd.DataFrame, first: np.ndarray, players: int) -> float:
    """The first player's score minus the best other's after the first round, a game."""
    one = rounds[rounds["round"] == 1]
    scores = np.zeros((len(first), players))
    scores[one.game.to_numpy(int), one.seat.to_numpy(int)] = one.score_after_round.to_numpy(float)
    mine = scores[np.arange(len(first)), first]
    scores[np.arange(len(first)), first] = -np.inf
    return float((mine - scores.max(axis=1)).mean())


def _denial(games: pd.DataFrame, moves: pd.DataFrame, players: int, variant: str) -> tuple[float, float]:
    """How the takes of `games` deny: the share of takes that spoil an opponent's partly filled pattern line
    (before the take the table held at least the tiles of its colour the line still needs, after it fewer: the
    search's count_denial, for every opponent), and the share of the takes made where some take would spoil one
    that do. The games are replayed move by move from their seeds (every move, placements too)."""
    spoiling = total = chances = taken = 0
    moves = moves[moves.game.isin(games.game)]
    codes = moves.move.cat.codes.to_numpy(int)
    starts = np.flatnonzero(np.r_[True, np.diff(moves.game.to_numpy(np.int64)) != 0])
    for game, part in zip(games.itertuples(), np.split(codes, starts[1:])):
        state = State.new(players, seed=int(game.seed), variant=variant)
        for code in part:
            move = decode_move(int(code))
            if code < PLACE_CODE:   # a take (the codes from PLACE_CODE on are gray-wall placements)
                spoils, could = _spoils(state, move)
                total += 1
                spoiling += spoils
                chances += could
                taken += spoils
            state.play(move)
    return spoiling / total, taken / max(chances, 1)


def _spoils(state: State, move: object) -> tuple[bool, bool]:
    """Whether `move` spoils an opponent's line, and whether some take of the position would."""
    table = np.vstack([state.factories[:state.n_factories], state.center[None, :]]).astype(int)  # sources x colours
    left = table.sum(axis=0)
    # the fewest tiles a take of each colour must hold to spoil a line: left - need + 1, for a line with need <= left
    least = np.full(5, 99)
    for seat in range(state.players):
        if seat == state.current_player:
            continue
        for line in range(1, 5):
            color, count = state.pattern_line(seat, line)
            if color is not None and count > 0:
                c, need = int(color), line + 1 - count
                if need <= left[c]:
                    least[c] = min(least[c], left[c] - need + 1)
    taken = table[move.source if move.source < state.n_factories else -1, int(move.color)]
    return bool(taken >= least[int(move.color)]), bool((table >= least[None, :]).any())


def _write(table: pd.DataFrame) -> None:
    RESULTS.parent.mkdir(exist_ok=True)
    order = {"colored": 0, "gray": 1}
    table = table.sort_values(["players", "variant", "style"], key=lambda c: c.map(order) if c.name == "variant"
                              else c.map(list(STYLES).index) if c.name == "style" else c)
    table = table.reindex(columns=COLUMNS).infer_objects()   # a column added since a row was written: empty there
    tmp = RESULTS.with_suffix(".tmp")
    table.to_csv(tmp, index=False, float_format="%.6g")
    tmp.replace(RESULTS)


def _finish(table: pd.DataFrame) -> None:
    _write(table)
    with azul_style():
        fig = _plot(_read())
        save_figure(fig, HERE / "figures" / "first_player_by_style", overwrite=True)
        plt.close(fig)
    shutil.copyfile(HERE / "figures" / "first_player_by_style.png", DOCS_FIGURE)
    print(markdown_table(_read()))


def markdown_table(table: pd.DataFrame) -> str:
    """The table as docs/first-player-style.md shows it (tests/report/test_first_player_style_page.py checks it)."""
    lines = ["| players, wall | style (policy, Elo) | games | first player's share | score a game, first v next |"
             " floor a game | takes that deny |", "|---|---|---|---|---|---|---|"]
    for row in table.itertuples():
        lines.append(f"| {row.players}, {row.variant} | {row.style} (`{row.policy}`, {row.elo:+.0f}) | "
                     f"{row.games:,} | {100 * row.first_player_share:.1f}\u00a0% [{100 * row.ci_low:.1f}, "
                     f"{100 * row.ci_high:.1f}] | {row.mean_score:.1f}: {row.score_0:.1f} v {row.score_1:.1f} | "
                     f"{row.floor_per_game:.1f} | {100 * row.denial_share:.1f}\u00a0% |")
    return "\n".join(lines)


def _plot(table: pd.DataFrame) -> plt.Figure:
    """The first player's edge over the fair share (points) by player count, one marker per style and wall."""
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    keys = [(v, s) for v in ("colored", "gray") for s in STYLES]
    offsets = {key: (k - (len(keys) - 1) / 2) * 0.07 for k, key in enumerate(keys)}
    colors = dict(zip(STYLES, ("C0", "C1", "C2", "C3")))
    for (variant, style), part in table.groupby(["variant", "style"]):
        part = part.sort_values("players")
        fair = 1 / part.players
        x = part.players + offsets[(variant, style)]
        y = 100 * (part.first_player_share - fair)
        err = [y - 100 * (part.ci_low - fair), 100 * (part.ci_high - fair) - y]
        ax.errorbar(x, y, yerr=err, fmt="o" if variant == "colored" else "s", capsize=3, color=colors[style],
                    mfc="white" if variant == "gray" else None,
                    label=f"{style} ({part.policy.iloc[0]}), {variant} wall")
    ax.axhline(0, color="0.4", linestyle="dashed", lw=1)
    ax.set_xticks([2, 3, 4], ["2 players", "3 players", "4 players"])
    ax.set_xlim(1.5, 4.5)
    ax.set_ylabel("first player's share minus the fair share\n(points of win share, ties split)")
    ax.set_title("The first player's edge by style of play (95 % intervals)")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, frameon=False)
    return fig


if __name__ == "__main__":
    main()
