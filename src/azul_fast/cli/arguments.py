"""What every subcommand of `azul-fast` shares: the usage error, the argument types and the options
that several commands take alike.

The modules of `azul_fast.cli` are the command line's own, not a library API (no ``__all__``): the
work they call is the library's, documented there.
"""

from __future__ import annotations

import argparse
import decimal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, TypeVar

from azul_fast.core.bots.families import FAMILIES
from azul_fast.core.bots.policies import PolicySpec, UnknownPolicyError, available_policies, parse_policy
from azul_fast.core.errors import AzulFastError
from azul_fast.core.rules.moves import PLAYER_COUNTS, VARIANTS
from azul_fast.core.rules.seeds import resolve_seed

if TYPE_CHECKING:
    import pandas as pd


PROG = "azul-fast"
T = TypeVar("T")


class UsageError(AzulFastError):
    """A bad command line: reported as one line with exit code 2."""

    def __init__(self, message: str, prog: str = PROG) -> None:
        super().__init__(message)
        self.prog = prog

    def __str__(self) -> str:
        return f"{self.prog}: {self.args[0]} (see {self.prog} --help)"


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument raises UsageError instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


#: The subcommands of the parser, to which each command module adds its own.
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


def integer(text: str) -> int:
    """An integer as people write a large one: ``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``.

    Decimal, not float, reads the exponent form, so a value past 2**53 is not rounded; a value with
    a fractional part (``1.5``) is refused rather than truncated.

    >>> integer("1e6"), integer("1,000,000")
    (1000000, 1000000)
    """
    try:
        value = decimal.Decimal(text.strip().replace("_", "").replace(",", ""))
    except decimal.InvalidOperation:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected an integer value, got {text!r}")
    return int(value)


def int_at_least(low: int) -> Callable[[str], int]:
    """The argument type of an `integer` of at least `low`."""

    def parse(text: str) -> int:
        value = integer(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse


POSITIVE = int_at_least(1)


def int_in(low: int, high: int) -> Callable[[str], int]:
    """The argument type of an `integer` in `low`..`high`.

    >>> int_in(0, 65535)("8000")
    8000
    """

    def parse(text: str) -> int:
        value = integer(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in {low}..{high}, got {value}")
        return value

    parse.__name__ = f"integer in {low}..{high}"
    return parse


def seed_option(text: str) -> int:
    """A seed as a command line gives one: an integer in 0..2**64-1 (not the library's None or SeedSequence)."""
    try:
        return resolve_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer in 0..2**64-1, got {text!r}") from None


def policy_option(text: str) -> PolicySpec:
    """A built-in policy name, a search with its budget included (``mcts:200``), in any case, parsed
    here once: the commands pass the `PolicySpec` on.

    The name is the library's spelling (``Greedy`` -> ``greedy``), since it is recorded in every result;
    an unknown one gets the library's message (`parse_policy`: the closest built-in names for a typo,
    else the valid forms).

    >>> policy_option("Greedy")
    PolicySpec(name='greedy', family='greedy', budget=0)
    >>> policy_option("gredy")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown policy 'gredy'; did you mean 'greedy'? (valid policies: ...)
    """
    try:
        return parse_policy(text.strip().lower())
    except UnknownPolicyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


#: The policies that search, whose names take a budget (``mcts:200``).
_SEARCHES = [family.name for family in FAMILIES if family.named and family.searches]
#: How a policy option's help names the valid forms.
POLICY_FORMS = (f"one of {', '.join(available_policies())} (any case), or "
                f"{', '.join(f'{name}:N' for name in _SEARCHES)} for N search iterations per move")

#: The policies with a line each, as the main ``--help`` ends.
POLICY_LIST = "policies:\n" + "\n".join(f"  {family.name:<16}{family.description}"
                                         for family in FAMILIES if family.named)


def add_game_options(parser: argparse.ArgumentParser, players_default: int = 2) -> None:
    """Options shared by the commands that play games: players, policies, workers."""
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=players_default,
                        help=f"players at the table (default {players_default})")
    parser.add_argument("--policy", action="append", type=policy_option, metavar="NAME",
                        help=f"policy for every seat, or repeat once per seat; {POLICY_FORMS}")


def add_variant(parser: argparse.ArgumentParser, choices: tuple[str, ...] = VARIANTS) -> None:
    parser.add_argument("--variant", choices=choices, default="colored",
                        help="wall side: colored (printed colours) or gray (the player picks every tile's "
                             "column; the rulebook's variant); default colored")


#: How a refusal to replace a file says what to do: the option every writing command takes.
OVERWRITE_HINT = "pass --overwrite to replace it"


def add_overwrite(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace {what} if it exists (by default a file already there, or put there while the "
                             "command runs, is kept and the command fails; a link is replaced, never written through)")


#: How a refused results file names the way to read it anyway (`azul_fast.runs.storage.load`'s rule).
UNVERIFIED_HINT = "pass --unverified to read it anyway"


def add_unverified(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--unverified", action="store_true",
                        help="read a file without azul_fast's checksum (written by pandas or another tool, or edited "
                             "and saved again), with a warning that its numbers are not verified; by default such "
                             "a file is refused")


def add_workers(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=POSITIVE, default=None, help="threads/processes (default: every core)")


def add_scheduler(parser: argparse.ArgumentParser, what: str = "the games and rollouts") -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help=f"play {what} on the Dask cluster of this scheduler (tcp://HOST:8786; "
                             "the same results as here)")


def read_json_file(name: str, read: Callable[[Any], T]) -> T:
    """``read(document)`` of the JSON file `name`; a ValueError naming the file for anything malformed,
    however deep (json and the readers recurse: a document nested thousands deep is a RecursionError)."""
    import json

    try:
        return read(json.loads(Path(name).read_text(encoding="utf-8")))
    except RecursionError:
        raise ValueError(f"{name}: nested too deeply to be a position or a game") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{name}: not valid JSON ({error})") from None


def err(line: str) -> None:
    """Print `line` on stderr (progress and errors; stdout keeps the results)."""
    print(line, file=sys.stderr)


def print_table(table: pd.DataFrame, raw: pd.DataFrame, csv: bool) -> None:
    """Print `table` (shown as people read it), or with `csv` the `raw` numbers as CSV."""
    if csv:
        raw.to_csv(sys.stdout, index=False)
    else:
        print(table.to_string(index=False))
