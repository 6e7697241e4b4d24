"""
Walls and scores
================

Where the tiles end up and how the scores spread: `charts.plot_wall_heatmap` shows how often
each wall cell is filled at the end of the game, `charts.plot_score_distributions` the final
scores of each policy, from the same 2,000 games of greedy against heuristic.
"""

# %%
# 2,000 games, greedy in seat 0 and heuristic in seat 1:
import matplotlib.pyplot as plt

import azul_fast as az
from azul_fast.report import charts

games = az.simulate(2_000, players=2, policies=["greedy", "heuristic"], seed=7)

# %%
# Each wall cell shows the colour printed there and how often it ends the game filled (the
# heuristic player's walls); the box plots compare the final scores of the two policies.
with charts.azul_style():
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.5), layout="constrained")
    charts.plot_wall_heatmap(games, policy="heuristic", ax=left)
    charts.plot_score_distributions(games, ax=right)
