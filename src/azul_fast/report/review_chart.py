"""The chart of a reviewed game: the first player's win share after every move, mistakes marked.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import pandas as pd
>>> table = pd.DataFrame({"ply": [0, 1, 2], "first_player_share": [0.5, 0.4, 0.7], "flag": ["", "mistake", ""],
...                       "seat": [0, 1, 0], "move": ["1B1", "2R2", "CKF"]})
>>> plot_first_player_share(table).get_ylabel()
"first player's win share (%)"
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes

from azul_fast.studies.analyse import BLUNDER, MISTAKE

__all__ = ["plot_first_player_share"]


def plot_first_player_share(review: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Seat 0's win share after each move of `review` (`azul_fast.studies.analyse.review_game`),
    in percent as `azul-fast review` prints it, with the moves flagged as mistakes and blunders
    marked and labelled."""
    if ax is None:
        _fig, ax = plt.subplots(figsize=(8, 3.5))
    share = 100 * review.first_player_share
    ax.plot(review.ply + 1, share, color="0.3", linewidth=1.5)
    ax.axhline(50, color="0.7", linewidth=0.8, linestyle="--")
    for flag, color, threshold in (("mistake", "tab:orange", MISTAKE), ("blunder", "tab:red", BLUNDER)):
        marked = review.flag == flag
        ax.scatter(review.ply[marked] + 1, share[marked], color=color, zorder=3,
                   label=f"{flag} (loss >= {100 * threshold:g} points)")
        for ply, move, y in zip(review.ply[marked], review.move[marked], share[marked]):
            ax.annotate(f"{move}", (ply + 1, y), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)
    ax.set_ylim(-2, 102)
    ax.set_xlabel("move")
    ax.set_ylabel("first player's win share (%)")
    ax.legend(loc="best", fontsize=8, frameon=False)
    return ax
