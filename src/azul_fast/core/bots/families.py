"""The built-in policy families, one row each: everything the library knows about a family.

A row names the family, its id in the core (_policies.pxd, PolicyId), the budget of its plain name,
the native searches it plays (_search.pxd, SearchId: one whose rollouts stop once every opponent has
answered, one that plays them to the round's end, or both: then the full one from `FULL_ROLLOUTS_FROM`
iterations on), whether its play depends on the learned weights, whether it has a policy name or is a
training search, and a line for people. `azul_fast.core.bots.policies` parses names with this table,
the core's dispatch (_policies.choose_move) is installed from it when this module is imported, and the
command line lists its named rows. tests/core/test_constants.py checks the core's enums against it.

Adding a family is one row here plus its native search (docs/development.md, "Adding a policy family").

>>> [family.name for family in FAMILIES if family.named][:5]
['random', 'greedy', 'heuristic', 'mcts', 'learned']
>>> FAMILY["learned"].searches
(<SearchId.SEARCH_LEARNED: 1>, <SearchId.SEARCH_LEARNED_FULL: 5>)
"""

from __future__ import annotations

from typing import NamedTuple

from azul_fast.core.bots import _policies, _search
from azul_fast.core.bots._policies import PolicyId
from azul_fast.core.bots._search import FULL_ROLLOUTS_FROM, SearchId

__all__ = ["DEFAULT_BUDGET", "FAMILIES", "FAMILY", "FAST_BUDGET", "FULL_ROLLOUTS_FROM", "LEARNED_BUDGET",
           "STRONG_BUDGET", "STRONG_TOP_BUDGET", "Family"]

#: Iterations per move of plain "mcts".
DEFAULT_BUDGET = 1000
#: Iterations per move of plain "learned": under a tenth of `mcts`'s time (benchmarks/bench_strength.py),
#: which its relaxed early stop makes room for (a search may also run up to 60 past it while its move is
#: unsettled: Params.extend in _search_named.pxi).
LEARNED_BUDGET = 120
#: Iterations per move of plain "strong": the budget at which it takes at most plain `learned`'s time, and of its
#: strongest level (``strong:600``): at most `learned:900`'s time. Each leaf costs more to value than learned's,
#: so the same time buys fewer iterations (benchmarks/bench_strength.py times each pair at once and plays its match).
STRONG_BUDGET = 90
STRONG_TOP_BUDGET = 600
#: Iterations per move of plain "fast": at least half the wins against mcts:200 for a fraction of its time
#: (benchmarks/bench_strength.py; the budgets tried: docs/history.md).
FAST_BUDGET = 16


class Family(NamedTuple):
    """One built-in policy family (a row of `FAMILIES`)."""

    name: str
    """The policy name without a budget (``"mcts"``); a training search's name is read only with ``training=True``."""
    policy_id: PolicyId
    """Its id in the core: the low byte of a policy code."""
    budget: int | None
    """Iterations per move of the plain name: 0 for a family that does not search, None for a training search
    (always named with its budget)."""
    cut_search: SearchId | None
    """The native search whose rollouts stop once every opponent has answered (None: it has none)."""
    full_search: SearchId | None
    """The native search whose rollouts play the round out (None: it has none). With both, the cut one plays
    below `FULL_ROLLOUTS_FROM` iterations and the full one from there on."""
    learned: bool
    """Whether its games depend on the installed learned weights (azul_fast.core.bots.learned)."""
    named: bool
    """Whether it is a policy people name (False: a training search, azul_fast.training.pipeline)."""
    description: str
    """What it plays, in one line (the command line's list of policies)."""
    value_net: bool = False
    """Whether its leaves are valued by the value network (azul_fast.core.bots.value_net) rather than the
    learned linear model; its games then depend on the installed network too."""

    @property
    def searches(self) -> tuple[SearchId, ...]:
        """Its native searches: none for a family that does not search, the cut one first."""
        return tuple(search for search in (self.cut_search, self.full_search) if search is not None)

    def search(self, budget: int) -> SearchId | None:
        """The native search it plays at `budget` iterations (None: it does not search).

        >>> FAMILY["learned"].search(499).name, FAMILY["learned"].search(500).name, FAMILY["mcts"].search(1).name
        ('SEARCH_LEARNED', 'SEARCH_LEARNED_FULL', 'SEARCH_MCTS')
        """
        if not self.searches:
            return None
        return self.searches[-1] if budget >= FULL_ROLLOUTS_FROM else self.searches[0]


_ID, _S = PolicyId, SearchId
#: Every family, weakest named one first, then the styles of the learned search; the training searches have
#: no name. The ids are part of the rules version (results record the codes).
FAMILIES = (
    Family("random", _ID.POLICY_RANDOM, 0, None, None, False, True, "a uniformly random legal move"),
    Family("greedy", _ID.POLICY_GREEDY, 0, None, None, False, True, "the move that scores the most points now"),
    Family("heuristic", _ID.POLICY_HEURISTIC, 0, None, None, False, True,
           "the move that most improves a static evaluation of its board, one move deep"),
    Family("mcts", _ID.POLICY_MCTS, DEFAULT_BUDGET, None, _S.SEARCH_MCTS, False, True,
           "a tree search over the round's moves, the boards valued by the static evaluation"),
    Family("learned", _ID.POLICY_LEARNED, LEARNED_BUDGET, _S.SEARCH_LEARNED, _S.SEARCH_LEARNED_FULL, True, True,
           "the round search with the learned evaluation, playing for its margin: the default strong bot"),
    Family("fast", _ID.POLICY_FAST, FAST_BUDGET, _S.SEARCH_FAST, None, True, True,
           "the learned search in a wide, shallow tree, for bulk studies"),
    Family("training", _ID.POLICY_TRAINING, None, None, _S.SEARCH_TRAINING, True, False,
           "the learned evaluation with full rollouts: the board weights' training games"),
    Family("leftover-training", _ID.POLICY_LEFTOVER_TRAINING, None, _S.SEARCH_LEFTOVER_TRAINING, None, True, False,
           "cut rollouts in a wide root and a narrow inside: the leftover model's training games"),
    Family("learned-own", _ID.POLICY_LEARNED_OWN, LEARNED_BUDGET, _S.SEARCH_LEARNED_OWN, _S.SEARCH_LEARNED_FULL_OWN,
           True, True, "the learned search playing for its own score alone, as most people play"),
    Family("learned-margin", _ID.POLICY_LEARNED_MARGIN, LEARNED_BUDGET, _S.SEARCH_LEARNED_MARGIN,
           _S.SEARCH_LEARNED_FULL_MARGIN, True, True, "the learned search playing for its margin, without denial"),
    Family("learned-half", _ID.POLICY_LEARNED_HALF, LEARNED_BUDGET, _S.SEARCH_LEARNED_HALF,
           _S.SEARCH_LEARNED_FULL_HALF, True, True,
           "the learned search playing for its score less half the opponent's, without denial"),
    Family("strong", _ID.POLICY_STRONG, STRONG_BUDGET, _S.SEARCH_STRONG, _S.SEARCH_STRONG_FULL, True, True,
           "the learned search with a value network at its leaves: the strongest at 2 players, colored wall",
           value_net=True),
)
#: The families by name.
FAMILY = {family.name: family for family in FAMILIES}

# The core's dispatch and its searches' names (for their errors) come from this table, so that a code
# reaching the core plays the search its row names.
for _family in FAMILIES:
    if _family.searches:
        _policies.install_family(_family.policy_id, _family.searches[0], _family.searches[-1])
    for _code in _family.searches:
        _search.name_search(_code, _family.name)
