# Stubs for the Python-visible names of _solve.pyx (use azul_fast.core.bots.solve.solve instead).
from azul_fast.core._state import State

def ends_this_round(state: State) -> bool: ...
def solve_round(
    state: State, max_nodes: int
) -> tuple[list[int], list[float], list[tuple[int, int]], int, int, bool] | None: ...

NO_FORCED_WIN: int
UNPROVEN: int

def forced_win_move(state: State, max_nodes: int) -> int: ...
