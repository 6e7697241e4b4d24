"""The project's published answer: the first player's share under the strongest levels it has played.

The converged study (analysis/first_player_converged.py) plays every level of the learned family to
+/-0.5 points at 2, 3 and 4 players on both walls; its table ships with the package
(``studies/data/first_player_converged.csv``, the script writes it beside
analysis/results/first_player_converged.csv and a test keeps the two equal), so that a report run on
any machine can state the project's answer and set its own numbers beside it. Every Elo in it is the
one ladder's (analysis/results/ladder_for_strength.csv, greedy = 0), not a report's own small ladder.

>>> answer = published_answer(2)
>>> list(answer.levels)[:3]     # weakest first
['learned', 'learned:200', 'learned:900']
>>> answer.strongest.elo == max(level.elo for level in answer.levels.values()), answer.strongest.verdict in VERDICTS
(True, True)
>>> answer.levels["learned"].verdict is None    # the weakest level has none below it
True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from azul_fast.core.rules.moves import VARIANTS

__all__ = ["PUBLISHED_FILE", "VERDICTS", "PublishedAnswer", "PublishedRow", "compare_with_published",
           "published_answer", "published_table"]

#: The converged table as shipped (a copy of analysis/results/first_player_converged.csv).
PUBLISHED_FILE = Path(__file__).resolve().parent / "data" / "first_player_converged.csv"
#: The verdicts of two shares compared: their difference's 95 % interval within +/-1 point and holding 0
#: ("converged"), holding 0 but wider ("agreement not shown"), or excluding 0 ("differ").
VERDICTS = ("converged", "agreement not shown", "differ")
_Z = 1.959963984540054   # the 95 % normal quantile
_CONVERGED_WITHIN = 0.01


@dataclass(frozen=True)
class PublishedRow:
    """One level's published first-player share at one player count and wall."""

    policy: str
    elo: float              # on the project's one ladder (greedy = 0)
    games: int
    share: float            # the first player's share of the wins, ties split
    low: float              # its 95 % interval
    high: float
    verdict: str | None     # against the level below it (None for the weakest level)
    difference: float       # its share minus the level below's (nan for the weakest)
    difference_low: float
    difference_high: float

    @property
    def se(self) -> float:
        """The share's standard error, from its 95 % interval."""
        return (self.high - self.low) / (2 * _Z)


@dataclass(frozen=True)
class PublishedAnswer:
    """The published answer at one player count and wall: the strongest level played, the level below
    it, and every level by policy name."""

    players: int
    variant: str
    strongest: PublishedRow
    runner_up: PublishedRow | None
    levels: dict[str, PublishedRow]


@functools.lru_cache(maxsize=1)
def published_table() -> pd.DataFrame:
    """The shipped converged table, one row per player count, wall and level (a copy: change it freely)."""
    return pd.read_csv(PUBLISHED_FILE)


def _row(row: pd.Series) -> PublishedRow:
    verdict = row.verdict if isinstance(row.verdict, str) else None
    return PublishedRow(str(row.policy), float(row.elo), int(row.games), float(row.first_player_share),
                        float(row.ci_low), float(row.ci_high), verdict, float(row.difference),
                        float(row.difference_low), float(row.difference_high))


def published_answer(players: int, variant: str = "colored") -> PublishedAnswer | None:
    """The published answer at `players` players on the `variant` wall, or None where none was played.

    Parameters
    ----------
    players : int
        2, 3 or 4.
    variant : str
        ``"colored"`` or ``"gray"``.

    Raises
    ------
    ValueError
        For a wall that is not one of `VARIANTS`.
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {variant!r}")
    table = published_table()
    rows = table[(table.players == players) & (table.variant == variant)].sort_values("elo")
    if rows.empty:
        return None
    levels = [_row(row) for _, row in rows.iterrows()]
    return PublishedAnswer(players, variant, levels[-1], levels[-2] if len(levels) > 1 else None,
                           {level.policy: level for level in levels})


def compare_with_published(share: float, se: float, published: PublishedRow) -> tuple[str, float, float, float]:
    """A share measured elsewhere (its standard error `se`) against a published row, the two independent:
    the verdict (one of `VERDICTS`), and the difference (this minus published) with its 95 % interval.

    >>> row = published_answer(2).levels["learned"]
    >>> verdict, difference, low, high = compare_with_published(row.share, row.se, row)
    >>> verdict, difference
    ('converged', 0.0)
    >>> compare_with_published(row.share + 0.05, 0.005, row)[0]
    'differ'
    """
    difference = share - published.share
    half = _Z * math.hypot(se, published.se)
    low, high = difference - half, difference + half
    verdict = ("differ" if low > 0 or high < 0 else
               "converged" if half <= _CONVERGED_WITHIN else "agreement not shown")
    return verdict, difference, low, high
