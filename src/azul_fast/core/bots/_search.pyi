# Stubs for the Python-visible names of _search.pyx (the search itself is C-level only).
import enum

def set_tree_limit(limit: int | None) -> None: ...
def request_stop(stop: bool = True) -> None: ...
def set_early_stop(enabled: bool) -> None: ...

FULL_ROLLOUTS_FROM: int
def name_search(search: int, name: str) -> None: ...

class SearchId(enum.IntEnum):
    SEARCH_MCTS = 0
    SEARCH_LEARNED = 1
    SEARCH_FAST = 2
    SEARCH_TRAINING = 3
    SEARCH_LEFTOVER_TRAINING = 4
    SEARCH_LEARNED_FULL = 5
    SEARCH_LEARNED_OWN = 6
    SEARCH_LEARNED_FULL_OWN = 7
    SEARCH_LEARNED_MARGIN = 8
    SEARCH_LEARNED_FULL_MARGIN = 9
    SEARCH_LEARNED_HALF = 10
    SEARCH_LEARNED_FULL_HALF = 11
    SEARCH_STRONG = 12
    SEARCH_STRONG_FULL = 13
    N_SEARCHES = 14
