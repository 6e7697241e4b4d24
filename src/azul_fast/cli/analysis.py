"""The commands that look at one position or one game: analyse, review, and the board in the browser."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from azul_fast.cli.arguments import (
    OVERWRITE_HINT,
    POLICY_FORMS,
    POSITIVE,
    PROG,
    Commands,
    UsageError,
    add_overwrite,
    add_scheduler,
    add_variant,
    add_workers,
    int_at_least,
    int_in,
    policy_option,
    read_json_file,
    seed_option,
)
from azul_fast.core.formats.board_svg import save_svg
from azul_fast.core.output import write_new
from azul_fast.core.rules.checks import resolve_workers
from azul_fast.core.rules.moves import VARIANTS
from azul_fast.studies.settings import ANALYSIS_POLICY, BLUNDER, MISTAKE

if TYPE_CHECKING:
    from azul_fast.core.state import State


def _add_analyse(commands: Commands) -> None:
    analyse = commands.add_parser(
        "analyse", help="rank every legal move of a position, with intervals (exact where the round is solvable)",
        description="Every legal move of a position ranked by the mover's win share and margin: exact where the "
                    "game ends with this round and the round fits --max-nodes, else native rollouts with common "
                    "random numbers and adaptive allocation. The position is POSITION (a JSON file as "
                    "State.to_dict writes it, or the one-line text of State.to_text, quoted), or the position "
                    "after --ply moves of the game --seed played by --policy.")
    analyse.add_argument("position", nargs="?", metavar="POSITION", help="FILE.json, or a position's text line")
    analyse.add_argument("--seed", type=seed_option, default=None, help="without POSITION: the simulated game's seed")
    analyse.add_argument("--ply", type=int_at_least(0), default=0,
                         help="without POSITION: moves of that game played before the position (default 0)")
    analyse.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players (default 2)")
    analyse.add_argument("--policy", type=policy_option, default=ANALYSIS_POLICY, metavar="NAME",
                         help="the policy of the simulated game and of every seat in the rollouts (default "
                              f"{ANALYSIS_POLICY}); {POLICY_FORMS}")
    add_variant(analyse)
    budget = analyse.add_mutually_exclusive_group()
    budget.add_argument("--rollouts", type=POSITIVE, default=None, help="rollouts in all (default 4000)")
    budget.add_argument("--seconds", type=float, default=None, help="seconds of rollouts instead of a count")
    analyse.add_argument("--rollout-seed", type=seed_option, default=0,
                         help="root of the continuation seeds (default 0)")
    analyse.add_argument("--max-nodes", type=int_at_least(0), default=None,
                         help="positions the exact solver may visit (default 1,000,000; 0: rollouts only)")
    analyse.add_argument("--top", type=POSITIVE, default=20, help="moves to print (default 20)")
    add_workers(analyse)
    add_scheduler(analyse, "the rollouts")
    analyse.add_argument("--csv", metavar="FILE", help="also write the whole table as CSV (a new file)")
    analyse.add_argument("--svg", metavar="FILE", help="also draw the board with the best move marked (a new file)")
    add_overwrite(analyse, "the --csv and --svg files")
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
        return read_json_file(args.position, State.from_dict)
    if args.seed is None:
        raise UsageError("analyse needs POSITION, or --seed (and --ply) of a simulated game")
    state = State.new(players=args.players, seed=args.seed, variant=args.variant)
    for ply in range(args.ply):
        if state.is_game_over():
            raise UsageError(f"--ply {args.ply}: game {args.seed} ends after {ply} moves")
        state.play(state.choose(args.policy))
    return state


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
        write_new(csv, lambda tmp: table.to_csv(tmp, index=False), overwrite=args.overwrite, hint=OVERWRITE_HINT)
        print(f"wrote {csv}")
    if svg is not None:
        save_svg(state, svg, move=table.move.iloc[0], overwrite=args.overwrite)
        print(f"wrote {svg}")
    return 0


def _add_review(commands: Commands) -> None:
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
    review.add_argument("--seed", type=seed_option, default=None, help="without GAME.json: the simulated game's seed")
    review.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players (default 2)")
    review.add_argument("--policy", type=policy_option, default=ANALYSIS_POLICY, metavar="NAME",
                        help=f"the policy of every seat and of the rollouts (default {ANALYSIS_POLICY}); "
                             f"{POLICY_FORMS}")
    add_variant(review)
    review.add_argument("--rollouts", type=POSITIVE, default=1000, help="analyse's budget a move (default 1000)")
    review.add_argument("--paired", type=int_at_least(2), default=400,
                        help="continuations of the played and the best move (default 400)")
    review.add_argument("--max-nodes", type=int_at_least(0), default=None,
                        help="positions the exact solver may visit (default 1,000,000; 0: rollouts only)")
    add_workers(review)
    add_scheduler(review, "the rollouts")
    review.add_argument("--out", metavar="DIR", help="write the CSV, the chart and the flagged boards (a new folder)")
    review.set_defaults(run=_cmd_review)


def _cmd_review(args: argparse.Namespace) -> int:
    from azul_fast.core.bots.solve import DEFAULT_MAX_NODES
    from azul_fast.report.formatting import review_display
    from azul_fast.report.game_files import write_review
    from azul_fast.studies.analyse import review_game

    out = None if args.out is None else Path(args.out)
    if out is not None and os.path.lexists(out) and (out.is_symlink() or not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"--out {out} exists and is not an empty folder; review writes only into a new one")
    if (args.game is None) == (args.seed is None):
        raise UsageError("review takes GAME.json or --seed, one of them")
    document = None if args.game is None else read_json_file(args.game, lambda document: document)
    try:
        table = review_game(args.players, args.policy, args.seed or 0, args.variant, rollouts=args.rollouts,
                            paired=args.paired,
                            max_nodes=DEFAULT_MAX_NODES if args.max_nodes is None else args.max_nodes,
                            workers=args.workers or os.cpu_count() or 1, document=document, scheduler=args.scheduler)
    except RecursionError:  # a document nested deeper than any game, found while reading its fields
        raise ValueError(f"{args.game}: nested too deeply to be a game document") from None
    print(review_display(table).to_string(index=False))
    name = args.game if args.game is not None else f"seed {args.seed}"
    print(f"{name}, {table.attrs['players']} players, {args.policy}: scores {table.attrs['scores']}, "
          f"{(table.flag == 'mistake').sum()} mistakes, {(table.flag == 'blunder').sum()} blunders")
    if out is not None:
        write_review(out, table, document)
        print(f"wrote {out}: review.csv, first_player_share.png/.svg and {(table.flag != '').sum()} boards of "
              "flagged moves")
    return 0


def _add_board(commands: Commands) -> None:
    board = commands.add_parser(
        "board", help="an analysis board in the browser (needs the extra: pip install \"azul-fast[board]\")",
        description="Serve a page on this machine: play a position by clicking, see the engine's ranked moves "
                    "and a game's review, export the diagram. Prints its address; Ctrl+C stops it.")
    board.add_argument("--port", type=int_in(0, 65535), default=0,
                       help="port, 0..65535 (default 0: a free one, printed)")
    board.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; another gets a warning: others can reach "
                            "it by this machine's name or address)")
    board.add_argument("--no-browser", action="store_true", help="do not open the page in the browser")
    board.add_argument("--time-limit", type=float, default=120.0, help="seconds an analysis or review may take "
                                                                       "(default 120)")
    board.add_argument("--memory", type=int_at_least(512), default=4096, help="MiB the engine's process may "
                                                                               "address (default 4096)")
    add_workers(board)
    board.set_defaults(run=_cmd_board)


def _cmd_board(args: argparse.Namespace) -> int:
    from azul_fast.web import serve

    return serve(args.host, args.port, not args.no_browser, args.time_limit, args.memory,
                 resolve_workers(args.workers))


#: The functions that add its commands to the parser, in the order `--help` lists them.
COMMANDS: tuple[Callable[[Commands], None], ...] = (_add_analyse, _add_review, _add_board)
