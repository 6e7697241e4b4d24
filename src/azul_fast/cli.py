"""The `azul-fast` command: simulate games, inspect results, replay a game, write a report.

Every subcommand has ``--help``. Bad arguments, invalid values the library rejects and missing
files end with exit code 2 and one line on stderr (no traceback).

>>> main(["replay", "--seed", "12345", "--policy", "greedy", "--quiet"])
seed 12345, 2 players, policies greedy v greedy: 54 moves, scores (45, 67), winners (1,)
0
"""

from __future__ import annotations

import argparse
import decimal
import difflib
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, TypeVar

import pandas as pd

from azul_fast._version import RULES_VERSION, __version__
from azul_fast.core.bots.policies import UnknownPolicyError, available_policies, parse_policy, policy_budget
from azul_fast.core.formats.board_svg import save_svg
from azul_fast.core.game import GameRecord, play_game
from azul_fast.core.output import check_new, write_new
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.moves import PLAYER_COUNTS, VARIANTS
from azul_fast.core.rules.seeds import resolve_seed
from azul_fast.report.folder import REPLAY_MANIFEST, record_files, written_files
from azul_fast.runs.cluster import run_on_cluster
from azul_fast.runs.folders import games_on_disk, part_size, run_to_folder
from azul_fast.runs.frames import GAME_COLUMNS, SEAT_COLUMNS
from azul_fast.runs.manifest import read_manifest
from azul_fast.runs.plan import plan_run
from azul_fast.runs.signals import interrupt_on_signals, stop_signal
from azul_fast.runs.simulate import simulate
from azul_fast.runs.storage import load, save
from azul_fast.runs.timing import doubling_runs, seconds_for
from azul_fast.studies.settings import (
    BLUNDER,
    DEFAULT_OUT,
    DEFAULT_PLAYERS,
    DEFAULT_SEED,
    LADDER_GAMES,
    LADDER_POLICIES,
    MISTAKE,
    SETTINGS,
    default_policy,
)

if TYPE_CHECKING:
    from azul_fast.core.state import State

__all__ = ["UsageError", "build_parser", "main"]

PROG = "azul-fast"
T = TypeVar("T")


class UsageError(Exception):
    """A bad command line: reported as one line with exit code 2."""

    def __init__(self, message: str, prog: str = PROG) -> None:
        super().__init__(message)
        self.prog = prog

    def __str__(self) -> str:
        return f"{self.prog}: {self.args[0]} (see {self.prog} --help)"


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument raises UsageError instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


def _integer(text: str) -> int:
    """An integer as people write a large one: ``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``.

    Decimal, not float, reads the exponent form, so a value past 2**53 is not rounded; a value with
    a fractional part (``1.5``) is refused rather than truncated.
    """
    try:
        value = decimal.Decimal(text.strip().replace("_", "").replace(",", ""))
    except decimal.InvalidOperation:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected an integer value, got {text!r}")
    return int(value)


def _int_at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = _integer(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


def _seed(text: str) -> int:
    """A seed as a command line gives one: an integer in 0..2**64-1 (not the library's None or SeedSequence)."""
    try:
        return resolve_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer in 0..2**64-1, got {text!r}") from None


_POSITIVE = _int_at_least(1)


def _policy(text: str) -> str:
    """A built-in policy name, a search with its budget included (``mcts:200``), in any case.

    The name is returned as the library spells it (``Greedy`` -> ``greedy``), since it is recorded
    in every result; a typo gets the closest built-in names as a suggestion.
    """
    name = text.strip().lower()
    try:
        parse_policy(name)
    except UnknownPolicyError as error:
        base = name.partition(":")[0]
        close = difflib.get_close_matches(base, available_policies(), n=2, cutoff=0.6)
        if close and base not in close:
            budget = name[len(base):]
            guesses = " or ".join(repr(guess + budget) for guess in close)
            raise argparse.ArgumentTypeError(f"unknown policy {text!r}; did you mean {guesses}?") from None
        raise argparse.ArgumentTypeError(str(error)) from None
    return name


#: The policies that search, whose names take a budget (``mcts:200``).
_SEARCHES = [name for name in available_policies() if policy_budget(name) > 0]
_POLICY_FORMS = (f"one of {', '.join(available_policies())} (any case), or "
                 f"{', '.join(f'{name}:N' for name in _SEARCHES)} for N search iterations per move")


def _add_game_options(parser: argparse.ArgumentParser, players_default: int = 2) -> None:
    """Options shared by the commands that play games: players, policies, workers."""
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=players_default,
                        help=f"players at the table (default {players_default})")
    parser.add_argument("--policy", action="append", type=_policy, metavar="NAME",
                        help=f"policy for every seat, or repeat once per seat; {_POLICY_FORMS}")


def _add_variant(parser: argparse.ArgumentParser, choices: tuple[str, ...] = VARIANTS) -> None:
    parser.add_argument("--variant", choices=choices, default="colored",
                        help="wall side: colored (printed colours) or gray (the player picks every tile's "
                             "column; the rulebook's variant); default colored")


#: The subcommands of the parser, to which each _add_<command> adds its own.
_Commands: TypeAlias = "argparse._SubParsersAction[_Parser]"


#: How a refusal to replace a file says what to do: the option every writing command takes.
_OVERWRITE_HINT = "pass --overwrite to replace it"


def _add_overwrite(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace {what} if it exists (by default a file already there, or put there while the "
                             "command runs, is kept and the command fails; a link is replaced, never written through)")


def _add_workers(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=_POSITIVE, default=None, help="threads/processes (default: every core)")


def _add_scheduler(parser: argparse.ArgumentParser, what: str = "the games and rollouts") -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help=f"play {what} on the Dask cluster of this scheduler (tcp://HOST:8786; "
                             "the same results as here)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `azul-fast` and all its subcommands (one function adds each command)."""
    parser = _Parser(prog=PROG, description="Exact Azul rules in a native core: Monte Carlo studies of strategy.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} (rules {RULES_VERSION})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add_command in (_add_simulate, _add_seats, _add_openings, _add_replay, _add_report, _add_bench, _add_ladder,
                        _add_train, _add_strength, _add_analyse, _add_review, _add_board):
        add_command(commands)
    return parser


def _add_simulate(commands: _Commands) -> None:
    sim = commands.add_parser("simulate", help="play many games and save them as parquet",
                              description="Play many games in the native core and save one row per game.")
    sim.add_argument("--games", type=_POSITIVE, required=True, help="number of games (deals with --seat-rotation)")
    _add_game_options(sim)
    sim.add_argument("--seed", type=_seed, default=None, help="root seed (default: fresh entropy, printed)")
    _add_workers(sim)
    sim.add_argument("--first-player", type=int, default=0, help="seat that moves first (default 0)")
    sim.add_argument("--max-rounds", type=_POSITIVE, default=100, help="truncate games after this many rounds")
    _add_variant(sim)
    sim.add_argument("--out", required=True, metavar="PATH",
                     help="FILE.parquet for one file, or a folder for a resumable run in parts")
    sim.add_argument("--seat-rotation", action="store_true",
                     help="play every deal once per rotation of the policies round the table (same tiles)")
    sim.add_argument("--resume", action="store_true", help="with a folder --out: continue an interrupted run")
    _add_overwrite(sim, "a FILE.parquet --out (a run folder is never replaced: --resume finishes it)")
    sim.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster at this scheduler address")
    sim.add_argument("--moves", action="store_true",
                     help="also record every move and round (a folder --out: FOLDER/_moves and FOLDER/_rounds, read "
                          "with azul_fast.load(FOLDER, table='moves'); built-in policies)")
    sim.set_defaults(run=_cmd_simulate)


def _add_seats(commands: _Commands) -> None:
    seats = commands.add_parser("seats", help="print the seat-advantage table of saved games",
                                description="Win rate of every seat against its fair share, with 95% intervals.")
    seats.add_argument("file", metavar="FILE.parquet", help="games saved by `azul-fast simulate`")
    seats.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    seats.set_defaults(run=_cmd_seats)


def _add_openings(commands: _Commands) -> None:
    openings = commands.add_parser(
        "openings", help="opening study: by type from saved games, or every first move of one deal",
        description="With FILE: the first player's win rate by opening type in saved games. Without: every legal "
                    "first move of the deal --seed, rolled out --rollouts times with common random numbers, ranked.")
    openings.add_argument("file", nargs="?", metavar="FILE.parquet", help="games saved by `azul-fast simulate`")
    openings.add_argument("--seed", type=_seed, default=1,
                          help="deal (game seed) whose first moves to rank (default 1)")
    _add_game_options(openings)
    openings.add_argument("--rollouts", type=_int_at_least(2), default=200, help="rollouts per move (default 200)")
    openings.add_argument("--correction", choices=("holm", "fdr_bh"), default="holm",
                          help="multiple-comparison correction (default holm)")
    openings.add_argument("--top", type=_POSITIVE, default=20, help="moves to print (default 20)")
    _add_variant(openings)
    _add_workers(openings)
    _add_scheduler(openings, "the rollouts")
    openings.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    openings.set_defaults(run=_cmd_openings)


def _add_replay(commands: _Commands) -> None:
    replay = commands.add_parser("replay", help="print one game move by move with the boards",
                                 description="Replay one game (a row's seed column replays that row).")
    replay.add_argument("--seed", type=_seed, required=True, help="game seed")
    _add_game_options(replay)
    replay.add_argument("--first-player", type=int, default=0, help="seat that moves first (default 0)")
    replay.add_argument("--max-rounds", type=_POSITIVE, default=100, help="truncate after this many rounds")
    _add_variant(replay)
    replay.add_argument("--quiet", action="store_true", help="print only the result line")
    replay.add_argument("--svg", metavar="DIR",
                        help="also draw the game: DIR/move-001.svg ... (each position with the move about to be "
                             "played highlighted) and DIR/final.svg; the diagrams an earlier replay wrote there "
                             f"(listed in DIR/{REPLAY_MANIFEST}) are replaced, and no other file is touched")
    replay.set_defaults(run=_cmd_replay)


def _add_report(commands: _Commands) -> None:
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
    report.add_argument("--games", type=_POSITIVE, default=None,
                        help="games of the report's policy per player count, played once for the strength "
                             "study and the seat study; at 2 players at least what the headline's precision "
                             f"needs (default {sizes['default'].games:,}, 2 players "
                             f"{sizes['default'].top_games(2):,}; --quick {sizes['quick'].games:,}, "
                             f"--thorough {sizes['thorough'].games:,})")
    report.add_argument("--players", type=int, nargs="+", choices=PLAYER_COUNTS, default=list(DEFAULT_PLAYERS),
                        help="player counts (default 2 3 4)")
    report.add_argument("--policy", type=_policy, default=None, metavar="NAME",
                        help="policy in every seat of the seat, opening and marker studies (default: the "
                             "strongest the setting affords, "
                             + ("; ".join(sorted({f"{default_policy(name)}" for name in sizes})) if
                                len({default_policy(name) for name in sizes}) == 1 else
                                ", ".join(f"{default_policy(name)} ({name})" for name in sizes))
                             + f"); {_POLICY_FORMS}")
    report.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"output folder (default {DEFAULT_OUT})")
    report.add_argument("--seed", type=_seed, default=DEFAULT_SEED, help=f"report seed (default {DEFAULT_SEED})")
    _add_variant(report, (*VARIANTS, "both"))
    report.add_argument("--rollouts", type=_int_at_least(2), default=None,
                        help=f"rollouts per first move and deal in the opening-type study (default "
                             f"{SETTINGS['default'].rollouts})")
    _add_workers(report)
    _add_scheduler(report)
    report.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    report.set_defaults(run=_cmd_report, setting="default")


def _add_bench(commands: _Commands) -> None:
    bench = commands.add_parser("bench", help="print games per second for a short run",
                                description="Speed of the native core: games per second per policy (by default "
                                            "every policy that does not search; name a search with --policy).")
    bench.add_argument("--games", type=_POSITIVE, default=None,
                       help="games per policy (default: as many as fit in about a second)")
    _add_game_options(bench)
    _add_workers(bench)
    bench.set_defaults(run=_cmd_bench)


def _add_ladder(commands: _Commands) -> None:
    ladder = commands.add_parser(
        "ladder", help="rate policies against each other (Bradley-Terry, Elo scale)",
        description="Every pair of policies plays seat-swapped 2-player games; Bradley-Terry ratings with 95% "
                    "intervals, on the Elo scale with greedy at 0. A shared victory counts half.")
    ladder.add_argument("--policy", action="append", type=_policy, metavar="NAME",
                        help=f"a policy to rate, repeated (default {' '.join(LADDER_POLICIES)}); {_POLICY_FORMS}")
    ladder.add_argument("--games", type=_POSITIVE, default=LADDER_GAMES,
                        help=f"deals per pair, each played once per seat (default {LADDER_GAMES})")
    ladder.add_argument("--seed", type=_seed, default=0, help="root seed (default 0)")
    _add_workers(ladder)
    _add_scheduler(ladder, "the games")
    ladder.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    ladder.set_defaults(run=_cmd_ladder)


def _add_train(commands: _Commands) -> None:
    from azul_fast.training import pipeline as training  # light (no scipy): the compiled self-play and the weights file

    train = commands.add_parser(
        "train", help="fit the learned evaluation from self-play and write a weights file",
        description="Fit the weights of the learned evaluation (azul_fast.training.pipeline): games of the search for "
                    "every wall side and player count, ridge regression of the points each board went on to gain, "
                    "repeated with the learned search; then the leftover model (a small network: what the tiles "
                    "left on the table are worth when the search ends a round early), fitted twice to games of "
                    "the search. Reproducible from --seed on one machine. "
                    "Install the result with "
                    "azul_fast.core.bots.learned.install(PATH).")
    train.add_argument("--out", type=Path, required=True, help="weights file to write (JSON, a new file)")
    _add_overwrite(train, "the weights file")
    train.add_argument("--games", type=_POSITIVE, default=training.DEFAULT_GAMES,
                       help="games per wall side and player count in each iteration "
                            f"(default {training.DEFAULT_GAMES})")
    train.add_argument("--iterations", type=_POSITIVE, default=training.DEFAULT_ITERATIONS,
                       help=f"policy iterations (default {training.DEFAULT_ITERATIONS})")
    train.add_argument("--budget", type=_POSITIVE, default=training.DEFAULT_BUDGET,
                       help=f"search iterations per move of the training games (default {training.DEFAULT_BUDGET})")
    train.add_argument("--leftover-games", type=_POSITIVE, default=training.DEFAULT_LEFTOVER_GAMES,
                       help="games of the search per wall side and player count for each fit of the leftover model "
                            f"(default {training.DEFAULT_LEFTOVER_GAMES})")
    train.add_argument("--seed", type=_seed, default=0, help="root seed (default 0)")
    _add_workers(train)
    train.set_defaults(run=_cmd_train)


#: The strength command's sizes without --thorough (a quick look: about a minute on 2 cores).
_STRENGTH_SECONDS = 3.0
_STRENGTH_LADDER_GAMES = 40


def _add_strength(commands: _Commands) -> None:
    strength = commands.add_parser(
        "strength", help="the first player's share of wins along the strength ladder",
        description="For each player count and each policy of the ladder (the same policy in every seat), the "
                    "first player's share of wins with shared victories split, with 95% intervals and the "
                    "policy's Elo from a ladder played first; says whether the two strongest levels agree. "
                    "Games per level follow from --seconds by a fixed cost model (reproducible from --seed).")
    strength.add_argument("--policy", action="append", type=_policy, metavar="NAME",
                          help=f"a level, repeated, weakest first (default {' '.join(LADDER_POLICIES)})")
    strength.add_argument("--players", type=int, nargs="+", choices=PLAYER_COUNTS, default=list(PLAYER_COUNTS),
                          help="player counts (default 2 3 4)")
    thorough = SETTINGS["thorough"]
    strength.add_argument("--seconds", type=float, default=None,
                          help=f"budget of one core per level and player count (default {_STRENGTH_SECONDS:g}; "
                               f"--thorough {thorough.seconds:g})")
    strength.add_argument("--ladder-games", type=_POSITIVE, default=None,
                          help=f"deals per pair of the ladder (default {_STRENGTH_LADDER_GAMES}; --thorough "
                               f"{thorough.ladder_games})")
    strength.add_argument("--thorough", action="store_true",
                          help="more games: the sizes of `report --thorough` for --seconds and --ladder-games "
                               "(either given explicitly wins)")
    strength.add_argument("--seed", type=_seed, default=0, help="root seed (default 0)")
    _add_workers(strength)
    _add_scheduler(strength, "the games")
    strength.add_argument("--out", metavar="DIR", help="also write first_player_by_strength.csv and its chart here")
    _add_overwrite(strength, "those files in --out")
    strength.add_argument("--csv", action="store_true", help="print raw numbers as CSV instead of a table")
    strength.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    strength.set_defaults(run=_cmd_strength)


def _add_analyse(commands: _Commands) -> None:
    analyse = commands.add_parser(
        "analyse", help="rank every legal move of a position, with intervals (exact where the round is solvable)",
        description="Every legal move of a position ranked by the mover's win share and margin: exact where the "
                    "game ends with this round and the round fits --max-nodes, else native rollouts with common "
                    "random numbers and adaptive allocation. The position is POSITION (a JSON file as "
                    "State.to_dict writes it, or the one-line text of State.to_text, quoted), or the position "
                    "after --ply moves of the game --seed played by --policy.")
    analyse.add_argument("position", nargs="?", metavar="POSITION", help="FILE.json, or a position's text line")
    analyse.add_argument("--seed", type=_seed, default=None, help="without POSITION: the simulated game's seed")
    analyse.add_argument("--ply", type=_int_at_least(0), default=0,
                         help="without POSITION: moves of that game played before the position (default 0)")
    analyse.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players (default 2)")
    analyse.add_argument("--policy", type=_policy, default="greedy", metavar="NAME",
                         help=f"the policy of the simulated game and of every seat in the rollouts (default greedy); "
                              f"{_POLICY_FORMS}")
    _add_variant(analyse)
    budget = analyse.add_mutually_exclusive_group()
    budget.add_argument("--rollouts", type=_POSITIVE, default=None, help="rollouts in all (default 4000)")
    budget.add_argument("--seconds", type=float, default=None, help="seconds of rollouts instead of a count")
    analyse.add_argument("--rollout-seed", type=_seed, default=0, help="root of the continuation seeds (default 0)")
    analyse.add_argument("--max-nodes", type=_int_at_least(0), default=None,
                         help="positions the exact solver may visit (default 1,000,000; 0: rollouts only)")
    analyse.add_argument("--top", type=_POSITIVE, default=20, help="moves to print (default 20)")
    _add_workers(analyse)
    _add_scheduler(analyse, "the rollouts")
    analyse.add_argument("--csv", metavar="FILE", help="also write the whole table as CSV (a new file)")
    analyse.add_argument("--svg", metavar="FILE", help="also draw the board with the best move marked (a new file)")
    _add_overwrite(analyse, "the --csv and --svg files")
    analyse.set_defaults(run=_cmd_analyse)


def _analysed_position(args: argparse.Namespace) -> State:
    """POSITION (JSON file or text line), or the position after --ply moves of game --seed."""
    from azul_fast.core.state import State

    if args.position is not None:
        if args.seed is not None:
            raise UsageError("analyse takes POSITION or --seed, not both")
        # a text line starts with its variant and a space; anything else names a JSON file
        if args.position.split(" ", 1)[0] in VARIANTS and " " in args.position:
            return State.from_text(args.position)
        return _from_json(args.position, State.from_dict)
    if args.seed is None:
        raise UsageError("analyse needs POSITION, or --seed (and --ply) of a simulated game")
    state = State.new(players=args.players, seed=args.seed, variant=args.variant)
    for ply in range(args.ply):
        if state.is_game_over():
            raise UsageError(f"--ply {args.ply}: game {args.seed} ends after {ply} moves")
        state.play(state.choose(args.policy))
    return state


def _from_json(name: str, read: Callable[[Any], T]) -> T:
    """``read(document)`` of the JSON file `name`; a ValueError naming the file for anything malformed,
    however deep (json and the readers recurse: a document nested thousands deep is a RecursionError)."""
    import json

    try:
        return read(json.loads(Path(name).read_text(encoding="utf-8")))
    except RecursionError:
        raise ValueError(f"{name}: nested too deeply to be a position or a game") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{name}: not valid JSON ({error})") from None


def _new_file(name: str | None, option: str, overwrite: bool) -> Path | None:
    """An output file with nothing at it yet (not even a link), unless `overwrite`: checked before the analysis."""
    if name is None:
        return None
    if not overwrite and os.path.lexists(name):
        raise UsageError(f"{option} {name} exists (a file or a link); analyse writes only new files unless given "
                         "--overwrite", f"{PROG} analyse")
    return Path(name)


def _cmd_analyse(args: argparse.Namespace) -> int:
    from azul_fast.core.bots.solve import DEFAULT_MAX_NODES
    from azul_fast.report.formatting import analysis_display
    from azul_fast.studies.analyse import analyse

    csv, svg = _new_file(args.csv, "--csv", args.overwrite), _new_file(args.svg, "--svg", args.overwrite)
    state = _analysed_position(args)
    table = analyse(state, policy=args.policy, rollouts=args.rollouts, seconds=args.seconds, seed=args.rollout_seed,
                    max_nodes=DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes,
                    workers=args.workers or os.cpu_count() or 1, scheduler=args.scheduler)
    print(state, end="\n\n")
    attrs = table.attrs
    how = ("solved exactly" if attrs["stopped"] == "exact" else
           f"{attrs['rollouts']:,} rollouts by {args.policy}, stopped: {attrs['stopped']}")
    print(f"player {state.current_player} to move, {len(table)} legal moves, {how} ({attrs['seconds']} s)")
    print(analysis_display(table.head(args.top)).to_string(index=False))
    if csv is not None:
        write_new(csv, lambda tmp: table.to_csv(tmp, index=False), overwrite=args.overwrite, hint=_OVERWRITE_HINT)
        print(f"wrote {csv}")
    if svg is not None:
        save_svg(state, svg, move=table.move.iloc[0], overwrite=args.overwrite)
        print(f"wrote {svg}")
    return 0


def _add_review(commands: _Commands) -> None:
    review = commands.add_parser(
        "review", help="a simulated game move by move: each move beside the best one and what it lost",
        description="Review the game --seed played by --policy: before every move, analyse names the best move "
                    "and both are rolled out on the same continuations; a loss of win share of "
                    f"{100 * MISTAKE:g} percentage points is a mistake, {100 * BLUNDER:g} a blunder. "
                    "The table shows shares in percent and the loss in points; "
                    "--out DIR writes review.csv (shares as 0-1 fractions), the chart of the first player's win "
                    "share (PNG and SVG) and the board of every flagged move.")
    review.add_argument("game", nargs="?", metavar="GAME.json",
                        help="a game people played: the deal of every round and the moves (docs: Analyse a position)")
    review.add_argument("--seed", type=_seed, default=None, help="without GAME.json: the simulated game's seed")
    review.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players (default 2)")
    review.add_argument("--policy", type=_policy, default="greedy", metavar="NAME",
                        help=f"the policy of every seat and of the rollouts (default greedy); {_POLICY_FORMS}")
    _add_variant(review)
    review.add_argument("--rollouts", type=_POSITIVE, default=1000, help="analyse's budget a move (default 1000)")
    review.add_argument("--paired", type=_int_at_least(2), default=400,
                        help="continuations of the played and the best move (default 400)")
    review.add_argument("--max-nodes", type=_int_at_least(0), default=None,
                        help="positions the exact solver may visit (default 1,000,000; 0: rollouts only)")
    _add_workers(review)
    _add_scheduler(review, "the rollouts")
    review.add_argument("--out", metavar="DIR", help="write the CSV, the chart and the flagged boards (a new folder)")
    review.set_defaults(run=_cmd_review)


def _cmd_review(args: argparse.Namespace) -> int:
    from azul_fast.core.bots.solve import DEFAULT_MAX_NODES
    from azul_fast.report.formatting import review_display
    from azul_fast.studies.analyse import review_game

    out = None if args.out is None else Path(args.out)
    if out is not None and os.path.lexists(out) and (out.is_symlink() or not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"--out {out} exists and is not an empty folder; review writes only into a new one")
    if (args.game is None) == (args.seed is None):
        raise UsageError("review takes GAME.json or --seed, one of them")
    document = None if args.game is None else _from_json(args.game, lambda document: document)
    try:
        table = review_game(args.players, args.policy, args.seed or 0, args.variant, rollouts=args.rollouts,
                            paired=args.paired,
                            max_nodes=DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes,
                            workers=args.workers or os.cpu_count() or 1, document=document, scheduler=args.scheduler)
    except RecursionError:  # a document nested deeper than any game, found while reading its fields
        raise ValueError(f"{args.game}: nested too deeply to be a game document") from None
    print(review_display(table).to_string(index=False))
    flagged = table[table.flag != ""]
    name = args.game if args.game is not None else f"seed {args.seed}"
    print(f"{name}, {table.attrs['players']} players, {args.policy}: scores {table.attrs['scores']}, "
          f"{(table.flag == 'mistake').sum()} mistakes, {(table.flag == 'blunder').sum()} blunders")
    if out is not None:
        _write_review(out, table, flagged, _reviewed_positions(document, table, args))
    return 0


def _reviewed_positions(document: dict[str, object] | None, table: pd.DataFrame,
                        args: argparse.Namespace) -> list[State]:
    """The position before every move of the reviewed game (a document's own deals, or the replay)."""
    from azul_fast.core.played_game import replay_document
    from azul_fast.core.state import State

    if document is not None:
        return [state for state, _move in replay_document(document)]
    state = State.new(args.players, seed=args.seed, variant=args.variant)
    positions = []
    for move in table.move.tolist():
        positions.append(state.copy())
        state.play(str(move))
    return positions


#: A file that appeared in review's new folder while it ran is not replaced.
_REVIEW_HINT = "review writes only into a new folder; remove what appeared there or name another"


def _write_review(out: Path, table: pd.DataFrame, flagged: pd.DataFrame, positions: list[State]) -> None:
    import matplotlib.pyplot as plt

    from azul_fast.report import charts
    from azul_fast.report.review_chart import plot_first_player_share

    out.mkdir(parents=True, exist_ok=True)
    # Every file new: one put into the folder while the review ran is kept, and the command fails.
    write_new(out / "review.csv", lambda tmp: table.to_csv(tmp, index=False), hint=_REVIEW_HINT)
    with charts.azul_style():
        fig, ax = plt.subplots(figsize=(8, 3.5))
        plot_first_player_share(table, ax=ax)
        charts.save_figure(fig, out / "first_player_share", hint=_REVIEW_HINT)
        plt.close(fig)
    for ply, move, flag in zip(table.ply.tolist(), table.move.tolist(), table.flag.tolist()):
        if flag:
            save_svg(positions[ply], out / f"move-{ply + 1:03d}.svg", move=str(move), hint=_REVIEW_HINT)
    print(f"wrote {out}: review.csv, first_player_share.png/.svg and {len(flagged)} boards of flagged moves")


def _add_board(commands: _Commands) -> None:
    board = commands.add_parser(
        "board", help="an analysis board in the browser (needs the extra: pip install \"azul-fast[board]\")",
        description="Serve a page on this machine: play a position by clicking, see the engine's ranked moves "
                    "and a game's review, export the diagram. Prints its address; Ctrl+C stops it.")
    board.add_argument("--port", type=_int_at_least(0), default=0, help="port (default: a free one, printed)")
    board.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; another gets a warning: others can reach it)")
    board.add_argument("--no-browser", action="store_true", help="do not open the page in the browser")
    board.add_argument("--time-limit", type=float, default=120.0, help="seconds an analysis or review may take "
                                                                       "(default 120)")
    board.add_argument("--memory", type=_int_at_least(512), default=4096, help="MiB the engine's process may "
                                                                               "address (default 4096)")
    _add_workers(board)
    board.set_defaults(run=_cmd_board)


def _cmd_board(args: argparse.Namespace) -> int:
    from azul_fast.board import serve

    return serve(args.host, args.port, not args.no_browser, args.time_limit, args.memory,
                 resolve_workers(args.workers))


def _seat_policies(args: argparse.Namespace, default: str) -> str | list[str]:
    """One --policy for every seat, or one per seat (simulate() checks the count)."""
    names = args.policy or [default]
    return names[0] if len(names) == 1 else names


def _err(line: str) -> None:
    print(line, file=sys.stderr)


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
        check_new(args.out, args.overwrite, _OVERWRITE_HINT)  # now, not after the whole run
        seed = args.seed if args.seed is not None else resolve_seed(None)  # fixed now, so it can be printed
        extra = {} if args.scheduler is None else {"scheduler": args.scheduler}
        df = simulate(args.games, args.players, policies, seed=seed, workers=args.workers,
                      first_player=args.first_player, max_rounds=args.max_rounds, progress=None,
                      seat_rotation=args.seat_rotation, variant=args.variant, **extra)
        save(df, args.out, overwrite=args.overwrite, hint=_OVERWRITE_HINT)
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


def _print_table(table: pd.DataFrame, raw: pd.DataFrame, csv: bool) -> None:
    if csv:
        raw.to_csv(sys.stdout, index=False)
    else:
        print(table.to_string(index=False))


def _saved_games(path: str) -> pd.DataFrame:
    """The games in `path`, with every column `simulate` writes for their player counts: the studies
    would fail on a KeyError deep inside instead of naming the file and the column."""
    games = load(path)
    counts = games["players"].unique() if "players" in games.columns else [2]
    expected = list(GAME_COLUMNS) + [f"{stem}_{seat}" for stem in SEAT_COLUMNS for seat in range(max(counts))]
    missing = [name for name in expected if name not in games.columns]
    if missing:
        raise ValueError(f"{path}: not games saved by `azul-fast simulate`: no column {', '.join(missing)}")
    return games


def _cmd_seats(args: argparse.Namespace) -> int:
    from azul_fast.report.formatting import paired_display, seat_display
    from azul_fast.studies.seats import paired_rotation_stats, seat_advantage

    games = _saved_games(args.file)
    table = seat_advantage(games)
    _print_table(seat_display(table), table, args.csv)
    if "deal" in games.columns and not args.csv:
        paired = paired_rotation_stats(games)
        print("\nSeat-rotated deals, compared within each deal (policy and seat effects):")
        _print_table(paired_display(paired), paired, csv=False)
    return 0


def _cmd_openings(args: argparse.Namespace) -> int:
    from azul_fast.report.formatting import opening_display, ranking_display
    from azul_fast.studies.openings import opening_rollouts, opening_study

    if args.file is not None:
        study = opening_study(_saved_games(args.file))
        _print_table(opening_display(study), study, args.csv)
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
    _print_table(ranking_display(ranking, args.top), ranking, args.csv)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    record = play_game(args.players, _seat_policies(args, "random"), args.seed, args.first_player, args.max_rounds,
                       variant=args.variant)
    names = [f"move-{number:03d}.svg" for number in range(1, record.turns + 1)] + ["final.svg"]
    folder = None if args.svg is None else _diagram_folder(Path(args.svg), names)
    written: list[str] = []
    try:
        for number, (state, move) in enumerate(_positions(record, args.first_player, args.max_rounds), 1):
            if not args.quiet:
                print(state, end="\n\n")
                if move is not None:
                    player = state.current_player
                    print(f"Move {number}: player {player} ({record.policies[player]}) plays {move}")
            if folder is not None:
                save_svg(state, folder / names[number - 1], move=move, hint=_REPLAY_HINT)
                written.append(names[number - 1])
    finally:  # also when cut short: what was written is this replay's to replace next time
        if folder is not None:
            record_files(folder, written, REPLAY_MANIFEST)
    ended = " (truncated)" if record.truncated else ""
    wall = ", gray wall" if record.variant == "gray" else ""
    print(f"seed {record.seed}, {args.players} players{wall}, policies {' v '.join(record.policies)}: "
          f"{record.turns} moves, scores {record.scores}, winners {record.winners}{ended}")
    if folder is not None:
        print(f"wrote {record.turns + 1} diagrams to {folder}")
    return 0


def _positions(record: GameRecord, first_player: int, max_rounds: int) -> Iterator[tuple[State, str | None]]:
    """Replay `record`: the position before each move with that move, then the final position with None."""
    from azul_fast.core.state import State

    state = State.new(len(record.policies), seed=record.seed, first_player=first_player, max_rounds=max_rounds,
                      variant=record.variant)
    for move in record.moves:
        yield state, move
        state.play(move)
    yield state, None


#: A file that appeared in replay's --svg folder while it ran is not replaced.
_REPLAY_HINT = "replay replaces only the diagrams it wrote; move it, or name another folder"


def _diagram_folder(folder: Path, names: list[str]) -> Path:
    """`folder`, created if needed, without the diagrams an earlier replay wrote (so none is left over).

    Only the files its manifest lists, unchanged, are removed; a file of one of `names` that a
    replay did not write (a user's ``move-001.svg``) is refused before anything is written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    ours = written_files(folder, REPLAY_MANIFEST)
    theirs = [name for name in names if os.path.lexists(folder / name) and name not in ours]
    if theirs:
        raise UsageError(f"--svg {folder} holds {', '.join(theirs[:3])}, not written by an earlier replay (or "
                         f"changed since): move it, or name another folder", f"{PROG} replay")
    for name in ours:
        (folder / name).unlink()
    return folder


def _cmd_report(args: argparse.Namespace) -> int:
    from azul_fast.report.build import build_report

    command = " ".join([PROG] + [shlex.quote(a) for a in args.argv])
    log = None if args.quiet else _err
    folder = build_report(args.out, games=args.games, players=args.players, policy=args.policy, seed=args.seed,
                          workers=args.workers, rollouts=args.rollouts, command=command, log=log,
                          variant=args.variant, setting=args.setting, scheduler=args.scheduler)
    print(Path(folder) / "index.html")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    names = args.policy or [name for name in available_policies() if policy_budget(name) == 0]
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
    _print_table(ladder_display(table), table, args.csv)
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from azul_fast.training.pipeline import train, write_weights

    if args.out.is_dir():
        raise UsageError(f"--out {args.out} is a folder; name the weights file to write")
    folder = args.out.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):  # now, not after the whole training
        why = "does not exist" if not folder.exists() else "is not a folder" if not folder.is_dir() else "is read-only"
        raise UsageError(f"--out {args.out}: {folder} {why}, so the weights could not be written", f"{PROG} train")
    check_new(args.out, args.overwrite, _OVERWRITE_HINT)
    weights, record = train(args.games, args.seed, args.iterations, args.budget, args.workers,
                            log=lambda line: print(line, flush=True), leftover_games=args.leftover_games)
    write_weights(weights, record, args.out, overwrite=args.overwrite, hint=_OVERWRITE_HINT)
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
        check_strength_files(Path(args.out), args.overwrite, _OVERWRITE_HINT)
    levels = args.policy or list(LADDER_POLICIES)
    plan = {"strength ladder": estimated_ladder_seconds(levels, ladder_games),
            "first player by strength": estimated_study_seconds(levels, args.players, seconds)}
    with (run_where(args.workers, args.scheduler) as where,
          Heartbeat((lambda line: None) if args.quiet else _err, plan=plan,
                    cores=resolve_workers(args.workers)) as beat):
        beat.step("strength ladder")
        beat.say(f"strength ladder: {', '.join(levels)}, {ladder_games} deals per pair")
        ratings = ladder(levels, games=ladder_games, seed=args.seed, workers=where.workers, client=where.client)
        beat.step("first player by strength")
        table = first_player_by_strength(ratings, levels, args.players, seconds=seconds, seed=args.seed,
                                         workers=where.workers, log=beat.say, progress=beat.progress,
                                         client=where.client)
    if args.out is not None:
        save_first_player_by_strength(table, Path(args.out), overwrite=args.overwrite, hint=_OVERWRITE_HINT)
    _print_table(strength_display(table), table, args.csv)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run `azul-fast` with `argv` (default: the command line); return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, unknown = build_parser().parse_known_args(argv)
        if unknown:  # argparse would blame the top-level parser; the options belong to the subcommand
            raise UsageError(f"unrecognized arguments: {' '.join(unknown)}", f"{PROG} {args.command}")
        args.argv = argv
        run: Callable[[argparse.Namespace], int] = args.run
        with interrupt_on_signals():  # SIGTERM and SIGHUP clean up as Ctrl-C does, for every command
            return run(args)
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except BrokenPipeError:  # e.g. `azul-fast replay ... | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except UsageError as error:
        _err(str(error))
    except (ValueError, TypeError, MemoryError) as error:  # MemoryError: a run refused as too large for memory
        _err(f"{PROG}: error: {_one_line(error)}")
    except OSError as error:
        reason = f"{error.strerror or error}: {error.filename}" if error.filename else str(error)
        _err(f"{PROG}: error: {reason}")
    except KeyboardInterrupt as stop:
        signum = stop_signal(stop)
        _err(f"{PROG}: interrupted ({signal.Signals(signum).name})")
        return 128 + signum
    return 2


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


if __name__ == "__main__":
    sys.exit(main())
