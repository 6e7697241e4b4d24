"""
Seat advantage at 2, 3 and 4 players
====================================

Every seat's win rate minus its fair share, with Wilson intervals, for greedy play at each table
size. The :doc:`studies </studies>` page has the same chart from 200,000 games a row; here 4,000
keep the build quick, so the intervals are about seven times wider.
"""

# %%
# Greedy play in every seat, 4,000 games per table size:
import matplotlib.pyplot as plt
import pandas as pd

import azul_fast as az
from azul_fast.report import charts
from azul_fast.studies import seats

runs = [az.simulate(4_000, players=n, policies="greedy", seed=n) for n in (2, 3, 4)]
table = seats.seat_advantage(pd.concat(runs, ignore_index=True))
print(table[["players", "seat", "win_rate", "ci_low", "ci_high", "chi2_pvalue"]].round(3).to_string(index=False))

# %%
# Bars are grouped by table size and coloured by seat; seat 0 moves first.
with charts.azul_style():
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    charts.plot_seat_advantage(table, ax=ax)
