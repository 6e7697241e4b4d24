"""The first player's share against strength, from `random` to the strongest level: a chart and a test of trend.

    python analysis/first_player_trend.py        # a few seconds: no games, it reads two results files

Takes every level of analysis/results/first_player_by_strength.csv (the strength ladder's levels, colored
wall, `random` to `learned`) and of first_player_converged.csv on the colored wall (`learned`,
`learned:200`, `learned:900` at 2 players; at 3 and 4 players the levels played there), each with its Elo
from the one ladder file. Where both files hold a level (`learned`), the converged table's run, the
larger, stands for it. Writes analysis/results/first_player_trend.csv, one row per player count and range of
levels:

- ``slope_per_100_elo`` (points of first-player share per 100 Elo) with its 95 % interval and p-value: a
  weighted least-squares line of the share on Elo (weights: the inverse variance of each level's share),
  the test of trend. Over ``all`` levels and over the ``searches`` (`mcts:50` and up: the levels within
  about 600 Elo of the strongest);
- ``spearman`` (Spearman's rank correlation of the first player's absolute edge, |share - fair|, with Elo)
  and its p-value: whether stronger play brings the share towards the fair one, line or not;
- ``levels``, ``weakest``, ``strongest``.

And analysis/figures/first_player_trend.png/.svg (the PNG also into docs/_static/ for docs/first-player-style.md):
the share minus the fair share against Elo, one panel per player count.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402

from azul_fast.report.charts import azul_style, save_figure  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
OUT = RESULTS / "first_player_trend.csv"
DOCS_FIGURE = HERE.parent / "docs" / "_static" / "first_player_trend.png"
#: The searches' range starts here (mcts:50 is the weakest search on the ladder).
SEARCHES_FROM = "mcts:50"


def levels() -> pd.DataFrame:
    """Every level's 2-, 3- and 4-player first-player share on the colored wall, with its Elo from the ladder."""
    ladder = pd.read_csv(RESULTS / "ladder_for_strength.csv").set_index("policy")
    strength = pd.read_csv(RESULTS / "first_player_by_strength.csv").assign(source="first_player_by_strength")
    converged = pd.read_csv(RESULTS / "first_player_converged.csv")
    converged = converged[converged.variant == "colored"].assign(source="first_player_converged")
    columns = ["players", "policy", "games", "first_player_share", "ci_low", "ci_high", "source"]
    both = pd.concat([strength[columns], converged[columns]], ignore_index=True)
    # one row per level: the converged run, the larger, where both files hold it
    both = both.sort_values("games").drop_duplicates(["players", "policy"], keep="last")
    both["elo"] = both.policy.map(ladder.rating)
    both["fair"] = 1 / both.players
    both["se"] = (both.ci_high - both.ci_low) / (2 * stats.norm.ppf(0.975))
    return both.sort_values(["players", "elo"]).reset_index(drop=True)


def trend(part: pd.DataFrame) -> dict[str, float]:
    """The weighted least-squares slope of the share on Elo (per 100 Elo, in points), and Spearman's rho of the
    absolute edge with Elo."""
    x = part.elo.to_numpy() / 100
    y = 100 * (part.first_player_share - part.fair).to_numpy()
    w = 1 / (100 * part.se.to_numpy()) ** 2
    design = np.column_stack([np.ones_like(x), x])
    cov = np.linalg.inv(design.T @ (design * w[:, None]))
    beta = cov @ design.T @ (w * y)
    # the levels' spread about the line beyond their sampling error widens the interval (never narrows it)
    dof = len(x) - 2
    scale = max(1.0, float(np.sum(w * (y - design @ beta) ** 2)) / dof) if dof > 0 else 1.0
    se = float(np.sqrt(cov[1, 1] * scale))
    t = stats.t.ppf(0.975, dof) if dof > 0 else np.nan
    rho, rho_p = stats.spearmanr(part.elo, np.abs(y))
    return {"slope_per_100_elo": float(beta[1]), "slope_low": float(beta[1] - t * se),
            "slope_high": float(beta[1] + t * se), "slope_pvalue": float(2 * stats.t.sf(abs(beta[1] / se), dof)),
            "spearman": float(rho), "spearman_pvalue": float(rho_p)}


def table(data: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for players, part in data.groupby("players"):
        start = float(part.elo[part.policy == SEARCHES_FROM].iloc[0])
        for name, chosen in (("all", part), ("searches", part[part.elo >= start])):
            rows.append({"players": players, "levels_range": name, "levels": len(chosen),
                         "weakest": chosen.policy.iloc[0], "strongest": chosen.policy.iloc[-1], **trend(chosen)})
    return pd.DataFrame(rows)


def plot(data: pd.DataFrame) -> plt.Figure:
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.8), sharey=True)
    for ax, (players, part) in zip(axes, data.groupby("players")):
        y = 100 * (part.first_player_share - part.fair)
        err = [y - 100 * (part.ci_low - part.fair), 100 * (part.ci_high - part.fair) - y]
        ax.errorbar(part.elo, y, yerr=err, fmt="o", capsize=3)
        for row, value in zip(part.itertuples(), y):
            ax.annotate(row.policy, (row.elo, value), textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.axhline(0, color="0.4", linestyle="dashed", lw=1)
        ax.set_title(f"{players} players")
        ax.set_xlabel("Elo on the ladder (greedy = 0)")
    axes[0].set_ylabel("first player's share minus the fair share\n(points, ties split, 95 % intervals)")
    fig.suptitle("The first player's edge against strength, colored wall")
    return fig


def main() -> None:
    data = levels()
    result = table(data)
    result.to_csv(OUT, index=False, float_format="%.6g")
    with azul_style():
        fig = plot(data)
        save_figure(fig, HERE / "figures" / "first_player_trend", overwrite=True)
        plt.close(fig)
    shutil.copyfile(HERE / "figures" / "first_player_trend.png", DOCS_FIGURE)
    print(result.to_string(index=False))


if __name__ == "__main__":
    main()
