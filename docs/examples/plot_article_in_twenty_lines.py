"""
An article in twenty lines
==========================

Does the first player win more often than the fair share? Twenty lines take the question from
simulation to a chart ready for print: seat-rotated games, the first player's win share with its
95 % interval, and one figure written as PNG (200 dpi) and SVG (editable text).

This page runs when the site is built, so every number on it is what the code prints today.
"""

# %%
# Simulate with seat rotation
# ---------------------------
# ``seat_rotation=True`` plays every deal once per rotation of the policies round the table, with
# the same tile draws: ``greedy`` and ``heuristic`` each sit in the first seat of every deal, so
# the luck of the deal cancels out of the comparison. Every row replays from its ``seed``.
import matplotlib.pyplot as plt

import azul_fast as az
from azul_fast.report import charts
from azul_fast.studies import seats

games = az.simulate(5_000, players=2, policies=["greedy", "heuristic"], seed=2026, seat_rotation=True)
print(len(games), "games from", games.deal.nunique(), "deals")
games[["deal", "rotation", "policy_0", "score_0", "policy_1", "score_1", "win_0"]].head(4)

# %%
# The first player's share, with its interval
# -------------------------------------------
# `seats.seat_advantage` gives every seat's win share (a shared victory split between its
# winners, so equal seats would each get exactly 1/2) with a 95 % t interval, per lineup.
table = seats.seat_advantage(games)
first = table[table.seat == 0][["policies", "games", "win_share", "share_low", "share_high"]]
print(first.round(3).to_string(index=False))

# %%
# Pooled over both lineups and paired deal by deal, `seats.paired_rotation_stats` compares the
# first seat with the second at the same deals (``win_diff``: first seat minus the others).
paired = seats.paired_rotation_stats(games)
seat0 = paired[paired.level == "seat 0"].iloc[0]
print(f"first seat wins {seat0.win_rate:.1%} [{seat0.ci_low:.1%}, {seat0.ci_high:.1%}] of its games; "
      f"paired difference {seat0.win_diff:+.3f} [{seat0.win_diff_low:+.3f}, {seat0.win_diff_high:+.3f}]")

# %%
# One chart, saved for print
# --------------------------
# `charts.azul_style` applies the shipped colour-blind-safe style; one panel per lineup shows
# each seat's win rate minus its fair share. `charts.save_figure` writes ``first_player.png``
# and ``first_player.svg`` side by side.
with charts.azul_style():
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6), sharey=True, layout="constrained")
    for ax, (_, lineup) in zip(axes, table.groupby("policies")):
        charts.plot_seat_advantage(lineup, ax=ax)
    written = charts.save_figure(fig, "article/first_player")
print([path.name for path in written])
# sphinx_gallery_start_ignore
import shutil  # noqa: E402  (the build keeps the docs folder clean)

shutil.rmtree("article")
# sphinx_gallery_end_ignore
