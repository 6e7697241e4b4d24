"""
The gray wall against the colored wall
======================================

The same deals played on both sides of the boards (same root seed: game i starts from the same
tiles on each wall), and the first player's tie-split share compared deal by deal with
`seats.variant_difference`. The :doc:`studies </studies>` page has this study with 200,000
games a row; 3,000 here.
"""

# %%
# The same root seed on both walls, heuristic play in every seat, for 2, 3 and 4 players:
import matplotlib.pyplot as plt
import pandas as pd

import azul_fast as az
from azul_fast.report import charts
from azul_fast.studies import seats

walls = {variant: pd.concat([az.simulate(3_000, players=n, policies="heuristic", seed=11, variant=variant)
                             for n in (2, 3, 4)], ignore_index=True)
         for variant in ("colored", "gray")}
table = seats.variant_difference(walls["colored"], walls["gray"])
print(table[["players", "colored_share", "gray_share", "diff_pp", "diff_pp_low", "diff_pp_high"]].round(3)
      .to_string(index=False))

# %%
# Each pair of bars is the first player's share minus the fair share on each wall; the paired
# difference, gray minus colored, is written over the pair.
with charts.azul_style():
    fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    charts.plot_variant_difference(table, ax=ax)
