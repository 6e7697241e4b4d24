"""The commands that run the studies: report, bench, ladder, train, strength."""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Callable
from pathlib import Path

from azul_fast.cli.arguments import (
    OVERWRITE_HINT,
    POLICY_FORMS,
    POSITIVE,
    PROG,
    Commands,
    UsageError,
    add_game_options,
    add_overwrite,
    add_scheduler,
    add_variant,
    add_workers,
    err,
    int_at_least,
    policy_option,
    print_table,
    seed_option,
)
from azul_fast.core.bots.families import FAMILIES
from azul_fast.core.bots.policies import parse_policy
from azul_fast.core.output import check_new, check_not_link
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.moves import PLAYER_COUNTS, VARIANTS
from azul_fast.report.settings import DEFAULT_OUT, DEFAULT_PLAYERS, DEFAULT_SEED, SETTINGS, default_policy
from azul_fast.runs.timing import doubling_runs, seconds_for
from azul_fast.studies.settings import LADDER_GAMES, LADDER_POLICIES


def _add_report(commands: Commands) -> None:
    from azul_fast.report.timing import running_time

    report = commands.add_parser(
        "report", help="run the standard study and write an HTML report",
        description="The first player's advantage along a ladder of bots from random to search (the strongest "
                    "to +/-1 point at 2 players), then the seat advantage, the openings and the first-player "
                    "marker under the strongest bot the setting affords, written as index.html, summary.md, "
                    "charts (PNG and SVG), CSV tables and the games as parquet. Measured on 2 shared cores, "
                    f"the default took {running_time('default')}, --quick {running_time('quick')} and --thorough "
                    f"{running_time('thorough')} (one run, idle cores); a busier machine takes longer. A progress "
                    "line goes to stderr at least every 10 s.")
    size = report.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="setting", action="store_const", const="quick",
                      help="a small study, to try the command (numbers too noisy to quote)")
    size.add_argument("--default", dest="setting", action="store_const", const="default",
                      help="the default study (what the command plays without --quick or --thorough; the "
                           "report's 'reproduce with' line names it)")
    size.add_argument("--thorough", dest="setting", action="store_const", const="thorough",
                      help="more games, the headline to +/-0.5 points, and the strength study up to plain mcts")
    sizes = {name: SETTINGS[name] for name in ("default", "quick", "thorough")}
    report.add_argument("--games", type=POSITIVE, default=None,
                        help="games of the report's policy per player count, played once for the strength "
                             "study and the seat study; at 2 players at least what the headline's precision "
                             f"needs (default {sizes['default'].games:,}, 2 players "
                             f"{sizes['default'].top_games(2):,}; --quick {sizes['quick'].games:,}, "
                             f"--thorough {sizes['thorough'].games:,})")
    report.add_argument("--players", type=int, nargs="+", choices=PLAYER_COUNTS, default=list(DEFAULT_PLAYERS),
                        help="player counts (default 2 3 4)")
    report.add_argument("--policy", type=policy_option, default=None, metavar="NAME",
                        help="policy in every seat of the seat, opening and marker studies (default: the "
                             "strongest the setting affords, "
                             + ("; ".join(sorted({f"{default_policy(name)}" for name in sizes})) if
                                len({default_policy(name) for name in sizes}) == 1 else
                                ", ".join(f"{default_policy(name)} ({name})" for name in sizes))
                             + f"); {POLICY_FORMS}")
    report.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"output folder (default {DEFAULT_OUT})")
    report.add_argument("--seed", type=seed_option, default=DEFAULT_SEED, help=f"report seed (default {DEFAULT_SEED})")
    add_variant(report, (*VARIANTS, "both"))
    report.add_argument("--rollouts", type=int_at_least(2), default=None,
                        help=f"rollouts per first move and deal in the opening-type study (default "
                             f"{SETTINGS['default'].rollouts})")
    add_workers(report)
    add_scheduler(report)
    report.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    report.set_defaults(run=_cmd_report, setting="default")


def _add_bench(commands: Commands) -> None:
    bench = commands.add_parser("bench", help="print games per second for a short run",
                                description="Speed of the native core: games per second per policy (by default "
                                            "every policy that does not search; name a search with --policy).")
    bench.add_argument("--games", type=POSITIVE, default=None,
                       help="games per policy (default: as many as fit in about a second)")
    add_game_options(bench)
    add_workers(bench)
    bench.set_defaults(run=_cmd_bench)


def _add_ladder(commands: Commands) -> None:
    ladder = commands.add_parser(
        "ladder", help="rate policies against each other (Bradley-Terry, Elo scale)",
        description="Every pair of policies plays seat-swapped 2-player games; Bradley-Terry ratings with 95% "
                    "intervals, on the Elo scale with greedy at 0. A shared victory counts half.")
    ladder.add_argument("--policy", action="append", type=policy_option, metavar="NAME",
                        help=f"a policy to rate, repeated (default {' '.join(LADDER_POLICIES)}); {POLICY_FORMS}")
    ladder.add_argument("--games", type=POSITIVE, default=LADDER_GAMES,
                        help=f"deals per pair, each played once per seat (default {LADDER_GAMES})")
    ladder.add_argument("--seed", type=seed_option, default=0, help="root seed (default 0)")
    add_workers(ladder)
    add_scheduler(ladder, "the games")
    ladder.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    ladder.set_defaults(run=_cmd_ladder)


def _add_train(commands: Commands) -> None:
    from azul_fast.training import pipeline as training  # light (no scipy): the compiled self-play and the weights file
    from azul_fast.training import value_net as net_training

    train = commands.add_parser(
        "train", help="fit the learned evaluation (or with --net the value network) from self-play",
        description="Fit the weights of the learned evaluation (azul_fast.training.pipeline): games of the search for "
                    "every wall side and player count, ridge regression of the points each board went on to gain, "
                    "repeated with the learned search; then the leftover model (a small network: what the tiles "
                    "left on the table are worth when the search ends a round early), fitted twice to games of "
                    "the search. With --net, the value network of the strong search instead "
                    "(azul_fast.training.value_net): games of learned:BUDGET, a network fitted to them, then games "
                    "of strong:BUDGET with it and a network fitted to those (expert iteration), kept in parts in "
                    "--work so that a stopped run resumes. Reproducible from --seed on one machine. Install the "
                    "result with azul_fast.core.bots.learned.install(PATH) or, for --net, "
                    "azul_fast.core.bots.value_net.install_net(PATH).")
    train.add_argument("--out", type=Path, required=True, help="weights file to write (JSON, a new file)")
    add_overwrite(train, "the weights file")
    train.add_argument("--net", action="store_true", help="fit the strong search's value network")
    train.add_argument("--games", type=POSITIVE, default=None,
                       help="games per wall side and player count in each iteration "
                            f"(default {training.DEFAULT_GAMES}; with --net {net_training.DEFAULT_GAMES})")
    train.add_argument("--iterations", type=POSITIVE, default=None,
                       help=f"policy iterations (default {training.DEFAULT_ITERATIONS}; with --net "
                            f"{net_training.DEFAULT_ITERATIONS})")
    train.add_argument("--budget", type=POSITIVE, default=None,
                       help=f"search iterations per move of the training games (default {training.DEFAULT_BUDGET}; "
                            f"with --net {net_training.DEFAULT_BUDGET})")
    train.add_argument("--leftover-games", type=POSITIVE, default=training.DEFAULT_LEFTOVER_GAMES,
                       help="games of the search per wall side and player count for each fit of the leftover model "
                            f"(default {training.DEFAULT_LEFTOVER_GAMES})")
    train.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=None,
                       help="with --net: the player counts to train (default 2; untrained settings play learned's "
                            "games)")
    train.add_argument("--variants", nargs="+", choices=("colored", "gray"), default=None,
                       help="with --net: the wall sides to train (default colored)")
    train.add_argument("--work", type=Path, default=None,
                       help="with --net: the folder that keeps the games in parts, so that a stopped run resumes "
                            "(default: OUT's name with .parts beside it)")
    train.add_argument("--seed", type=seed_option, default=0, help="root seed (default 0)")
    add_workers(train)
    train.set_defaults(run=_cmd_train)


#: The strength command's sizes without --thorough (a quick look: about a minute on 2 cores).
_STRENGTH_SECONDS = 3.0
_STRENGTH_LADDER_GAMES = 40


def _add_strength(commands: Commands) -> None:
    strength = commands.add_parser(
        "strength", help="the first player's share of wins along the strength ladder",
        description="For each player count and each policy of the ladder (the same policy in every seat), the "
                    "first player's share of wins with shared victories split, with 95% intervals and the "
                    "policy's Elo from a ladder played first; says whether the two strongest levels agree. "
                    "Games per level follow from --seconds by a fixed cost model (reproducible from --seed).")
    strength.add_argument("--policy", action="append", type=policy_option, metavar="NAME",
                          help=f"a level, repeated, weakest first (default {' '.join(LADDER_POLICIES)})")
    strength.add_argument("--players", type=int, nargs="+", choices=PLAYER_COUNTS, default=list(PLAYER_COUNTS),
                          help="player counts (default 2 3 4)")
    thorough = SETTINGS["thorough"]
    strength.add_argument("--seconds", type=float, default=None,
                          help=f"budget of one core per level and player count (default {_STRENGTH_SECONDS:g}; "
                               f"--thorough {thorough.seconds:g})")
    strength.add_argument("--ladder-games", type=POSITIVE, default=None,
                          help=f"deals per pair of the ladder (default {_STRENGTH_LADDER_GAMES}; --thorough "
                               f"{thorough.ladder_games})")
    strength.add_argument("--thorough", action="store_true",
                          help="more games: the sizes of `report --thorough` for --seconds and --ladder-games "
                               "(either given explicitly wins)")
    strength.add_argument("--seed", type=seed_option, default=0, help="root seed (default 0)")
    add_workers(strength)
    add_scheduler(strength, "the games")
    strength.add_argument("--out", metavar="DIR", help="also write first_player_by_strength.csv and its chart here")
    add_overwrite(strength, "those files in --out")
    strength.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    strength.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    strength.set_defaults(run=_cmd_strength)



def _cmd_report(args: argparse.Namespace) -> int:
    from azul_fast.report.build import build_report

    command = " ".join([PROG] + [shlex.quote(a) for a in args.argv])
    log = None if args.quiet else err
    folder = build_report(args.out, games=args.games, players=args.players, policy=args.policy, seed=args.seed,
                          workers=args.workers, rollouts=args.rollouts, command=command, log=log,
                          variant=args.variant, setting=args.setting, scheduler=args.scheduler)
    print(Path(folder) / "index.html")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    names = args.policy or [parse_policy(family.name) for family in FAMILIES if family.named and not family.searches]
    workers = resolve_workers(args.workers)
    for name in names:
        games, seconds = _time_games(name, args.players, workers, args.games)
        print(f"{name:>8}, {args.players} players: {games / seconds:>10,.0f} games/s "
              f"({games:,} games in {seconds:.2f} s, {workers} workers)")
    return 0


def _cmd_ladder(args: argparse.Namespace) -> int:
    from azul_fast.report.formatting import ladder_display
    from azul_fast.studies.ladder import ladder

    table = ladder(args.policy, games=args.games, seed=args.seed, workers=args.workers, scheduler=args.scheduler)
    if not args.csv:
        print(f"{table.attrs['games_per_pair']:,} games per pair (seats swapped), root seed {args.seed}, "
              f"Bradley-Terry ratings on the Elo scale, {table.attrs['anchor']} = 0 ({table.attrs['seconds']} s)")
    print_table(ladder_display(table), table, args.csv)
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from azul_fast.training import pipeline as training
    from azul_fast.training import value_net as net_training

    if args.out.is_dir():
        raise UsageError(f"--out {args.out} is a folder; name the weights file to write")
    folder = args.out.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):  # now, not after the whole training
        why = "does not exist" if not folder.exists() else "is not a folder" if not folder.is_dir() else "is read-only"
        raise UsageError(f"--out {args.out}: {folder} {why}, so the weights could not be written", f"{PROG} train")
    if not args.net and (args.players is not None or args.variants is not None or args.work is not None):
        raise UsageError("--players, --variants and --work are options of --net (the value network)", f"{PROG} train")
    check_new(args.out, args.overwrite, OVERWRITE_HINT)
    if args.net:
        from azul_fast.runs.heartbeat import format_duration

        games = args.games or net_training.DEFAULT_GAMES
        iterations = args.iterations or net_training.DEFAULT_ITERATIONS
        budget = args.budget or net_training.DEFAULT_BUDGET
        default_variants = sorted({variant for variant, _ in net_training.DEFAULT_SETTINGS})
        default_players = sorted({players for _, players in net_training.DEFAULT_SETTINGS})
        settings = [(variant, players) for players in sorted(set(args.players or default_players))
                    for variant in ("colored", "gray") if variant in (args.variants or default_variants)]
        work = args.work or args.out.with_name(args.out.name + ".parts")
        check_not_link(work, "--work")
        workers = resolve_workers(args.workers)
        seconds = net_training.estimated_seconds(games, iterations, budget, settings, workers)
        print(f"{games * iterations * len(settings):,} games on {workers} cores: about {format_duration(seconds)} "
              f"(the estimate of azul_fast.runs.plan); its parts are kept in {work}", flush=True)
        net, record = net_training.train_net(games, args.seed, iterations, budget, settings, workers, work,
                                             log=lambda line: print(line, flush=True))
        net_training.write_net(net, record, args.out, overwrite=args.overwrite, hint=OVERWRITE_HINT)
    else:
        weights, record = training.train(
            args.games or training.DEFAULT_GAMES, args.seed, args.iterations or training.DEFAULT_ITERATIONS,
            args.budget or training.DEFAULT_BUDGET, args.workers, log=lambda line: print(line, flush=True),
            leftover_games=args.leftover_games)
        training.write_weights(weights, record, args.out, overwrite=args.overwrite, hint=OVERWRITE_HINT)
    print(f"wrote {args.out} ({record['seconds']} s)")
    return 0


def _cmd_strength(args: argparse.Namespace) -> int:
    from azul_fast.report.exports import check_strength_files, save_first_player_by_strength
    from azul_fast.report.formatting import strength_display
    from azul_fast.runs.heartbeat import Heartbeat
    from azul_fast.runs.where import run_where
    from azul_fast.studies.ladder import estimated_ladder_seconds, ladder
    from azul_fast.studies.strength import (
        check_budget,
        estimated_study_seconds,
        first_player_by_strength,
        strength_verdict,
    )

    thorough = SETTINGS["thorough"]
    seconds, ladder_games = ((thorough.seconds, thorough.ladder_games) if args.thorough
                             else (_STRENGTH_SECONDS, _STRENGTH_LADDER_GAMES))
    seconds = seconds if args.seconds is None else args.seconds
    ladder_games = ladder_games if args.ladder_games is None else args.ladder_games
    check_budget(seconds)  # before the ladder, which takes a while
    if args.out is not None:
        check_strength_files(Path(args.out), args.overwrite, OVERWRITE_HINT)
    levels = args.policy or list(LADDER_POLICIES)
    plan = {"strength ladder": estimated_ladder_seconds(levels, ladder_games),
            "first player by strength": estimated_study_seconds(levels, args.players, seconds)}
    with (run_where(args.workers, args.scheduler) as where,
          Heartbeat((lambda line: None) if args.quiet else err, plan=plan,
                    cores=resolve_workers(args.workers)) as beat):
        beat.step("strength ladder")
        beat.say(f"strength ladder: {', '.join(levels)}, {ladder_games} deals per pair")
        ratings = ladder(levels, games=ladder_games, seed=args.seed, workers=where.workers, client=where.client)
        beat.step("first player by strength")
        table = first_player_by_strength(ratings, levels, args.players, seconds=seconds, seed=args.seed,
                                         workers=where.workers, log=beat.say, progress=beat.progress,
                                         client=where.client)
    if args.out is not None:
        save_first_player_by_strength(table, Path(args.out), overwrite=args.overwrite, hint=OVERWRITE_HINT)
    print_table(strength_display(table), table, args.csv)
    if not args.csv:
        for players in sorted(table.players.unique()):
            print(strength_verdict(table, int(players))["text"])
    return 0


def _time_games(policy: str, players: int, workers: int, games: int | None) -> tuple[int, float]:
    """Seconds for `games` games, or double the count from 200 until a run takes a second."""
    if games is not None:
        return games, seconds_for(games, policy, players, workers)
    return next((count, seconds) for count, seconds in doubling_runs(policy, players, workers, first=200)
                if seconds >= 1.0)


#: The functions that add its commands to the parser, in the order `--help` lists them.
COMMANDS: tuple[Callable[[Commands], None], ...] = (_add_report, _add_bench, _add_ladder, _add_train, _add_strength)
