"""
An article in twenty lines
==========================

Does the first player win more often than the fair share under strong play? Twenty lines take the
question from simulation to a chart ready for print: games of ``learned`` (the strongest policy
that plays thousands of games in seconds) in every seat, the first player's share of wins with its
95 % interval, and one figure written as PNG (200 dpi) and SVG (editable text).

This page runs when the site is built, so every number on it is what the code prints today (about
half a minute on 2 cores). Weak bots give other answers (``greedy`` moves first at a disadvantage,
``heuristic`` at an advantage of 6 points): those are habits of the bots, not of Azul, which is
why the question is asked of the strongest play.
"""

# %%
# Simulate strong play
# --------------------
# ``policies="learned"`` puts the learned search in every seat; seat 0 moves first. Every row
# replays from its ``seed``.
import matplotlib.pyplot as plt

import azul_fast as az
from azul_fast.report import charts
from azul_fast.studies import seats

games = az.simulate(4_000, players=2, policies="learned", seed=20261130)
games[["game", "seed", "first_player", "score_0", "score_1", "win_0", "win_1"]].head(4)

# %%
# The first player's share, with its interval
# -------------------------------------------
# `seats.seat_advantage` gives every seat's win share (a shared victory split between its
# winners, so equal seats would each get exactly 1/2) with a 95 % t interval. The answer is an
# advantage when the whole interval lies above one half.
table = seats.seat_advantage(games)
first = table[table.seat == table.first_player].iloc[0]
verdict = "an advantage" if first.share_low > 0.5 else "a disadvantage" if first.share_high < 0.5 else "no edge"
print(f"first player: {first.win_share:.1%} [{first.share_low:.1%}, {first.share_high:.1%}] of "
      f"{first.games:,} learned games, ties split: {verdict}; mean score {first.mean_score:.1f}")

# %%
# One chart, saved for print
# --------------------------
# `charts.azul_style` applies the shipped colour-blind-safe style; the chart shows each seat's
# share minus its fair share, ties split. `charts.save_figure` writes ``first_player.png`` and
# ``first_player.svg`` side by side.
with charts.azul_style():
    fig, ax = plt.subplots(figsize=(5, 3.6))
    charts.plot_seat_advantage(table, ax=ax)
    written = charts.save_figure(fig, "article/first_player", overwrite=True)
print([path.name for path in written])
# sphinx_gallery_start_ignore
import shutil  # noqa: E402  (the build keeps the docs folder clean)

shutil.rmtree("article")
# sphinx_gallery_end_ignore
