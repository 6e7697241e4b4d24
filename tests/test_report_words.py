"""The report's words: a claim ("the best kind of opening") is made only when the data separate it."""

from types import SimpleNamespace

import pandas as pd

from azul_fast.report.prose import _opening_summary


def run_with(worse):
    types = pd.DataFrame({"type": ["a", "b", "c"], "edge": [0.05, 0.0, -0.05], "edge_low": [0.01, -0.02, -0.09],
                          "edge_high": [0.09, 0.02, -0.01], "p_vs_best": [float("nan"), 0.01, 0.001],
                          "worse_than_best": [False, *worse]})
    types.attrs["deals"] = 40
    config = SimpleNamespace(players=(2,), policy="heuristic", rollouts=8)
    ladder = pd.DataFrame({"policy": ["heuristic"], "rating": [75.0]})
    return SimpleNamespace(config=config, types=types, ladder=ladder)


def test_a_best_opening_is_named_only_when_every_other_type_is_significantly_worse():
    assert 'The best kind of opening is "a"' in _opening_summary(run_with([True, True]))
    unseparated = _opening_summary(run_with([False, True]))
    assert "do not separate" in unseparated and "best kind" not in unseparated
    assert "heuristic (+75 Elo)" in unseparated
