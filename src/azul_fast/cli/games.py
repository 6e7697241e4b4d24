"""The commands that play games and read saved ones: simulate, seats, openings, replay."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from azul_fast.cli.arguments import (
    OVERWRITE_HINT,
    POSITIVE,
    PROG,
    UNVERIFIED_HINT,
    Commands,
    UsageError,
    add_game_options,
    add_overwrite,
    add_scheduler,
    add_unverified,
    add_variant,
    add_workers,
    int_at_least,
    print_table,
    read_json_file,
    seed_option,
)
from azul_fast.core.game import play_game
from azul_fast.core.output import check_new
from azul_fast.core.played_game import replay_with_final
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.seeds import resolve_seed
from azul_fast.report.folder import REPLAY_MANIFEST
from azul_fast.report.game_files import replay_positions, write_replay_diagrams
from azul_fast.report.settings import default_policy
from azul_fast.runs.cluster import run_on_cluster
from azul_fast.runs.folders import games_on_disk, part_size, run_to_folder
from azul_fast.runs.frames import GAME_COLUMNS, SEAT_COLUMNS
from azul_fast.runs.manifest import read_manifest
from azul_fast.runs.plan import plan_run
from azul_fast.runs.simulate import simulate
from azul_fast.runs.storage import load, save


def _add_simulate(commands: Commands) -> None:
    sim = commands.add_parser("simulate", help="play many games and save them as parquet",
                              description="Play many games in the native core and save one row per game.")
    sim.add_argument("--games", type=POSITIVE, required=True, help="number of games (deals with --seat-rotation)")
    add_game_options(sim)
    sim.add_argument("--seed", type=seed_option, default=None, help="root seed (default: fresh entropy, printed)")
    add_workers(sim)
    sim.add_argument("--first-player", type=int, default=0, help="seat that moves first (default 0)")
    sim.add_argument("--max-rounds", type=POSITIVE, default=100, help="truncate games after this many rounds")
    add_variant(sim)
    sim.add_argument("--out", required=True, metavar="PATH",
                     help="FILE.parquet for one file, or a folder for a resumable run in parts")
    sim.add_argument("--seat-rotation", action="store_true",
                     help="play every deal once per rotation of the policies round the table (same tiles)")
    sim.add_argument("--resume", action="store_true", help="with a folder --out: continue an interrupted run")
    add_overwrite(sim, "a FILE.parquet --out (a run folder is never replaced: --resume finishes it)")
    sim.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster at this scheduler address")
    sim.add_argument("--moves", action="store_true",
                     help="also record every move and round (a folder --out: FOLDER/_moves and FOLDER/_rounds, read "
                          "with azul_fast.load(FOLDER, table='moves'); built-in policies)")
    sim.set_defaults(run=_cmd_simulate)


def _add_seats(commands: Commands) -> None:
    seats = commands.add_parser("seats", help="print the seat-advantage table of saved games",
                                description="Win rate of every seat against its fair share, with 95% intervals.")
    seats.add_argument("file", metavar="FILE.parquet", help="games saved by `azul-fast simulate`")
    seats.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    add_unverified(seats)
    seats.set_defaults(run=_cmd_seats)


def _add_openings(commands: Commands) -> None:
    openings = commands.add_parser(
        "openings", help="opening study: by type from saved games, or every first move of one deal",
        description="With FILE: the first player's win rate by opening type in saved games. Without: every legal "
                    "first move of the deal --seed, rolled out --rollouts times with common random numbers, ranked.")
    openings.add_argument("file", nargs="?", metavar="FILE.parquet", help="games saved by `azul-fast simulate`")
    openings.add_argument("--seed", type=seed_option, default=1,
                          help="deal (game seed) whose first moves to rank (default 1)")
    add_game_options(openings)
    openings.add_argument("--rollouts", type=int_at_least(2), default=200, help="rollouts per move (default 200)")
    openings.add_argument("--correction", choices=("holm", "fdr_bh"), default="holm",
                          help="multiple-comparison correction (default holm)")
    openings.add_argument("--top", type=POSITIVE, default=20, help="moves to print (default 20)")
    add_variant(openings)
    add_workers(openings)
    add_scheduler(openings, "the rollouts")
    openings.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    add_unverified(openings)
    openings.set_defaults(run=_cmd_openings)


def _add_replay(commands: Commands) -> None:
    replay = commands.add_parser("replay", help="print one game move by move with the boards",
                                 description="Replay one game: a simulated one by its seed (a row's seed column "
                                             "replays that row), or a game file (--game).")
    replay.add_argument("--seed", type=seed_option, help="game seed")
    replay.add_argument("--game", metavar="GAME.json",
                        help="replay a game file instead (azul_fast.core.played_game's JSON, as the board exports "
                             "it; a game in progress replays as far as it goes)")
    add_game_options(replay)
    replay.add_argument("--first-player", type=int, default=0, help="seat that moves first (default 0)")
    replay.add_argument("--max-rounds", type=POSITIVE, default=100, help="truncate after this many rounds")
    add_variant(replay)
    replay.add_argument("--quiet", action="store_true", help="print only the result line")
    replay.add_argument("--svg", metavar="DIR",
                        help="also draw the game: DIR/move-001.svg ... (each position with the move about to be "
                             "played highlighted) and DIR/final.svg; the diagrams an earlier replay wrote there "
                             f"(listed in DIR/{REPLAY_MANIFEST}) are replaced, and no other file is touched")
    replay.set_defaults(run=_cmd_replay)


def _seat_policies(args: argparse.Namespace, default: str) -> str | list[str]:
    """One --policy for every seat, or one per seat (simulate() checks the count)."""
    names = args.policy or [default]
    return names[0] if len(names) == 1 else names


def _cmd_simulate(args: argparse.Namespace) -> int:
    """One parquet file, or a resumable folder of parts (azul_fast.runs.folders); prints the root seed."""
    policies = _seat_policies(args, "random")
    started = time.perf_counter()
    if _out_is_parquet_file(args.out):
        if args.resume:
            raise UsageError("--resume needs a folder --out (a run in parts), not a .parquet file", f"{PROG} simulate")
        if args.moves:
            raise UsageError("--moves writes three tables (games, moves, rounds), so it needs a folder --out, "
                             "not a .parquet file", f"{PROG} simulate")
        check_new(args.out, args.overwrite, OVERWRITE_HINT)  # now, not after the whole run
        seed = args.seed if args.seed is not None else resolve_seed(None)  # fixed now, so it can be printed
        extra = {} if args.scheduler is None else {"scheduler": args.scheduler}
        df = simulate(args.games, args.players, policies, seed=seed, workers=args.workers,
                      first_player=args.first_player, max_rounds=args.max_rounds, progress=None,
                      seat_rotation=args.seat_rotation, variant=args.variant, **extra)
        save(df, args.out, overwrite=args.overwrite, hint=OVERWRITE_HINT)
        games = len(df)
    else:
        if args.overwrite:
            raise UsageError("--overwrite replaces a FILE.parquet; a run folder is never replaced (--resume "
                             "finishes it; give a new folder for a new run)", f"{PROG} simulate")
        before = games_on_disk(Path(args.out)) if args.resume else 0
        seed = _run_folder(args, policies)
        games = args.games * (args.players if args.seat_rotation else 1) - before
        if games == 0:
            print(f"the run in {args.out} was already finished: nothing to play (root seed {seed})")
            return 0
    seconds = time.perf_counter() - started
    what = "games with every move" if args.moves else "games"
    print(f"wrote {games:,} {what} to {args.out} (root seed {seed}, {seconds:.1f} s, {games / seconds:,.0f} games/s)")
    return 0


def _out_is_parquet_file(out: str) -> bool:
    """True for FILE.parquet (any case), False for a folder meant as a run; UsageError for anything else.

    A name with another extension (``x.csv``) would silently become a folder, so it is refused;
    a folder with a dot in its name is given as an existing folder or with a trailing slash.
    """
    where = f"{PROG} simulate"
    if not out:
        raise UsageError("--out is empty; give FILE.parquet or a folder for the run", where)
    path = Path(out)  # Path drops a trailing /, so that is looked at first: x.parquet/ is a folder
    if out.endswith(("/", os.sep)) or path.is_dir():
        return False
    if path.suffix.lower() == ".parquet":
        return True
    if path.exists():
        raise UsageError(f"--out {out} is a file but not .parquet; give FILE.parquet or a folder for the run", where)
    if path.suffix:
        raise UsageError(f"--out {out} is neither FILE.parquet nor a folder for a run; to make a folder with "
                         f"a dot in its name, end it with /", where)
    return False


def _run_folder(args: argparse.Namespace, policies: str | list[str]) -> int:
    """Play (or finish, with --resume) a run in parts; return its root seed (a resumed run keeps its own).

    With --scheduler the parts are played on the Dask cluster (one task a part, written by the
    workers into the folder, which they must be able to reach); --resume finishes such a folder here.
    """
    if args.scheduler and not args.resume:
        plan = plan_run(args.games, args.players, policies, args.seed, args.first_player, args.max_rounds,
                        seat_rotation=args.seat_rotation, variant=args.variant)
        run_on_cluster(plan, scheduler=args.scheduler, dataset=args.out, shard_size=part_size(plan, args.moves),
                       moves=args.moves)
        return plan.root
    folder = run_to_folder(args.out, args.games, players=args.players, policies=policies, seed=args.seed,
                           workers=args.workers, first_player=args.first_player, max_rounds=args.max_rounds,
                           resume=args.resume, progress=None, seat_rotation=args.seat_rotation, variant=args.variant,
                           moves=args.moves)
    return int(read_manifest(folder)["root_seed"])


def _saved_games(path: str, unverified: bool) -> pd.DataFrame:
    """The games in `path`, with every column `simulate` writes for their player counts: the studies
    would fail on a KeyError deep inside instead of naming the file and the column. A file without
    azul_fast's checksum is refused unless `unverified` (`azul_fast.runs.storage.load`)."""
    games = load(path, verify=not unverified, hint=UNVERIFIED_HINT)
    counts = games["players"].unique() if "players" in games.columns else [2]
    expected = list(GAME_COLUMNS) + [f"{stem}_{seat}" for stem in SEAT_COLUMNS for seat in range(max(counts))]
    missing = [name for name in expected if name not in games.columns]
    if missing:
        raise ValueError(f"{path}: not games saved by `azul-fast simulate`: no column {', '.join(missing)}")
    return games


def _cmd_seats(args: argparse.Namespace) -> int:
    from azul_fast.report.formatting import paired_display, seat_display
    from azul_fast.studies.seats import paired_rotation_stats, seat_advantage

    games = _saved_games(args.file, args.unverified)
    table = seat_advantage(games)
    print_table(seat_display(table), table, args.csv)
    if "deal" in games.columns and not args.csv:
        paired = paired_rotation_stats(games)
        print("\nSeat-rotated deals, compared within each deal (policy and seat effects):")
        print_table(paired_display(paired), paired, csv=False)
    return 0


def _cmd_openings(args: argparse.Namespace) -> int:
    from azul_fast.report.formatting import opening_display, ranking_display
    from azul_fast.studies.openings import opening_rollouts, opening_study

    if args.file is not None:
        study = opening_study(_saved_games(args.file, args.unverified))
        print_table(opening_display(study), study, args.csv)
        return 0
    policies = _seat_policies(args, default_policy())
    if not isinstance(policies, str):
        raise UsageError("rollouts use one policy in every seat; give --policy once", f"{PROG} openings")
    ranking = opening_rollouts(args.seed, players=args.players, policy=policies, rollouts=args.rollouts,
                               workers=resolve_workers(args.workers), correction=args.correction,
                               variant=args.variant, scheduler=args.scheduler)
    if not args.csv:
        wall = ", gray wall" if args.variant == "gray" else ""
        print(f"deal {args.seed}, {args.players} players{wall}, {policies} in every seat, {args.rollouts} rollouts "
              f"per move, {args.correction} correction ({ranking.attrs['seconds']} s)")
    print_table(ranking_display(ranking, args.top), ranking, args.csv)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    if (args.seed is None) == (args.game is None):
        raise UsageError("replay needs --seed (a simulated game) or --game GAME.json, one of them", f"{PROG} replay")
    if args.game is not None:
        return _replay_game_file(args)
    record = play_game(args.players, _seat_policies(args, "random"), args.seed, args.first_player, args.max_rounds,
                       variant=args.variant)
    if args.svg is not None:
        try:
            write_replay_diagrams(record, args.svg, args.first_player, args.max_rounds)
        except ValueError as error:  # a diagram's name taken by a file of the user's: nothing written
            raise UsageError(f"--svg {error}", f"{PROG} replay") from None
    if not args.quiet:
        for number, (state, move) in enumerate(replay_positions(record, args.first_player, args.max_rounds), 1):
            print(state, end="\n\n")
            if move is not None:
                player = state.current_player
                print(f"Move {number}: player {player} ({record.policies[player]}) plays {move}")
    ended = " (truncated)" if record.truncated else ""
    wall = ", gray wall" if record.variant == "gray" else ""
    print(f"seed {record.seed}, {args.players} players{wall}, policies {' v '.join(record.policies)}: "
          f"{record.turns} moves, scores {record.scores}, winners {record.winners}{ended}")
    if args.svg is not None:
        print(f"wrote {record.turns + 1} diagrams to {Path(args.svg)}")
    return 0


def _replay_game_file(args: argparse.Namespace) -> int:
    """`replay --game`: the positions of a game file and its moves, then the result line."""
    if args.svg is not None:
        raise UsageError("--svg draws a simulated game (--seed); a game file's diagrams come from "
                         "`azul-fast review GAME.json --out DIR` or the board", f"{PROG} replay")
    positions, final = read_json_file(args.game, lambda document: replay_with_final(document, in_progress=True))
    if not args.quiet:
        for number, (state, move) in enumerate(positions, 1):
            print(state, end="\n\n")
            print(f"Move {number}: player {state.current_player} plays {move}")
        print(final, end="\n\n")
    wall = ", gray wall" if final.variant == "gray" else ""
    result = f"winners {list(final.winners)}" if final.is_game_over() else "in progress"
    print(f"{args.game}: {final.players} players{wall}: {len(positions)} moves, scores {list(final.scores)}, {result}")
    return 0


#: The functions that add its commands to the parser, in the order `--help` lists them.
COMMANDS: tuple[Callable[[Commands], None], ...] = (_add_simulate, _add_seats, _add_openings, _add_replay)
