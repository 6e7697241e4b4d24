"""Move generation counted from fixed positions stored as data (like chess perft files).

The counts in data/perft.json were produced by the reference engine (data/make_perft.py); the
native core must reproduce them, including across the end of a round.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from azul_fast import State

CASES = json.loads((Path(__file__).parents[1] / "data" / "perft.json").read_text())


def perft(state: State, depth: int) -> int:
    if depth == 0 or state.is_game_over():
        return 1
    total = 0
    for move in state.legal_moves:
        child = state.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("case", CASES,
                         ids=lambda c: f"{c['position']['players']}p-r{c['position']['round']}-d1={c['depth1']}")
def test_perft_counts(case):
    state = State.from_dict(case["position"])
    assert perft(state, 1) == case["depth1"]
    assert perft(state, 2) == case["depth2"]


def test_perft_cases_cover_every_player_count_and_several_rounds():
    assert {c["position"]["players"] for c in CASES} == {2, 3, 4}
    assert len({c["position"]["round"] for c in CASES}) >= 2
