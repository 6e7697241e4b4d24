"""The `azul-fast` command: simulate games, inspect results, replay a game, write a report.

Every subcommand has ``--help``. Bad arguments, invalid values the library rejects and missing
files end with exit code 2 and one line on stderr (no traceback).

>>> main(["replay", "--seed", "12345", "--policy", "greedy", "--quiet"])
seed 12345, 2 players, policies greedy v greedy: 54 moves, scores (45, 67), winners (1,)
0
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
from collections.abc import Callable, Sequence

from azul_fast._version import RULES_VERSION, __version__
from azul_fast.cli import analysis, games, studies
from azul_fast.cli.arguments import POLICY_LIST, PROG, Parser, UsageError, err
from azul_fast.runs.signals import interrupt_on_signals, stop_signal

__all__ = ["UsageError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `azul-fast` and all its subcommands (each command module adds its own)."""
    parser = Parser(prog=PROG, description="Exact Azul rules in a native core: Monte Carlo studies of strategy.",
                    epilog=POLICY_LIST, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__} (rules {RULES_VERSION})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add_command in (*games.COMMANDS, *studies.COMMANDS, *analysis.COMMANDS):
        add_command(commands)
    return parser


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
        err(str(error))
    except (ValueError, TypeError, MemoryError) as error:  # MemoryError: a run refused as too large for memory
        err(f"{PROG}: error: {_one_line(error)}")
    except OSError as error:
        reason = f"{error.strerror or error}: {error.filename}" if error.filename else str(error)
        err(f"{PROG}: error: {reason}")
    except KeyboardInterrupt as stop:
        signum = stop_signal(stop)
        err(f"{PROG}: interrupted ({signal.Signals(signum).name})")
        # Every clean-up has run. What is left is the interpreter's own last collections over the
        # heap (pandas, matplotlib, a Dask client's objects): seconds on a busy machine after a run on
        # a cluster. Frozen objects are left to the process's end, so a stopped command ends at once.
        gc.freeze()
        return 128 + signum
    return 2


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
