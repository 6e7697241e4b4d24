"""The registry of built-in policies (they run inside the native core).

A policy is named by a string: ``"random"``, ``"greedy"``, ``"heuristic"``, or a search with an
optional budget: ``"mcts:400"`` (400 search iterations per move; plain ``"mcts"`` means
`DEFAULT_BUDGET`) and ``"learned:400"`` (the same search with the learned evaluation, see
azul_fast.core.bots.learned, and below `FULL_ROLLOUTS_FROM` iterations (the core's constant) rollouts
that end once every opponent has answered, and a wider root; plain ``"learned"`` means `LEARNED_BUDGET`), and
``"fast"`` (the learned search with those short rollouts and a wide, shallow tree, for bulk studies: the
strongest play at Monte Carlo speed;
plain ``"fast"`` means `FAST_BUDGET`). The core takes a policy *code*: the id of _policies.pxd (PolicyId) in
the low byte and the budget above it.

The learned search comes in styles (`LEARNED_STYLES`), each named like ``"learned"`` with an optional budget
(plain, the same `LEARNED_BUDGET`; full rollouts from `FULL_ROLLOUTS_FROM` iterations too), and differing only in
what it plays for:

- ``"learned"``: its margin over the strongest opponent and, at 2 players, denial: a move is also credited with
  the opponent's pattern lines it leaves the table unable to complete this round; and in the game's last round it
  plays a move proved to win outright.
- ``"learned-own"``: its own score alone, as most people play: no opponent in its value, no denial, no proof.
- ``"learned-half"``: its score less half the strongest opponent's (as ``"mcts"`` weighs them), without denial.
- ``"learned-margin"``: its margin, as ``"learned"``, without denial (at 3 and 4 players, where no search credits
  denial, it plays ``"learned"``'s games).

A name is parsed once, where it enters the library, into a `PolicySpec` (`parse_policy`), which the run
plan, the cost model, the training and the studies carry; an unknown name raises `UnknownPolicyError`.

>>> spec = parse_policy("learned:300")
>>> spec.family, spec.budget, spec.plays_learned, spec.name
('learned', 300, True, 'learned:300')
>>> parse_policy("lerned:300")
Traceback (most recent call last):
...
azul_fast.UnknownPolicyError: unknown policy 'lerned:300'; did you mean 'learned:300' or 'learned-own:300'? (valid ...
"""

from __future__ import annotations

import difflib

from azul_fast.core.bots import learned as _learned_weights  # noqa: F401 (installs the shipped weights before any game)
from azul_fast.core.bots import value_net as _value_net  # noqa: F401 (installs the shipped network before any game)
from azul_fast.core.bots._policies import POLICY_BUDGET_SHIFT
from azul_fast.core.bots._search import request_stop
from azul_fast.core.bots.families import (
    DEFAULT_BUDGET,
    FAMILIES,
    FAMILY,
    FAST_BUDGET,
    FULL_ROLLOUTS_FROM,
    LEARNED_BUDGET,
    Family,
)
from azul_fast.core.errors import AzulFastError
from azul_fast.core.rules.checks import check_bool

__all__ = [
    "DEFAULT_BUDGET", "FAST_BUDGET", "FULL_ROLLOUTS_FROM", "LEARNED_BUDGET", "LEARNED_STYLES", "MAX_BUDGET",
    "TRAINING_SEARCHES",
    "PolicySpec", "UnknownPolicyError", "available_policies", "native_policy_id", "parse_policy",
    "plays_learned", "policy_budget", "policy_family", "short_lineup", "stop_searches",
]

#: The named families (azul_fast.core.bots.families), in the order of their ids.
_NAMED = {family.name: family for family in FAMILIES if family.named}
#: The styles of the learned search (the module's docstring): the named families that play the learned
#: weights with a cut search below `FULL_ROLLOUTS_FROM` iterations and a full one from there, differing only in
#: what they play for.
LEARNED_STYLES = tuple(name for name, family in _NAMED.items()
                       if family.learned and not family.value_net and family.cut_search is not None
                       and family.full_search is not None)
#: The searches that play the training games (azul_fast.training.pipeline): ids of their own and no policy
#: name, so `parse_policy` reads them only when asked to (``training=True``), always with a budget.
TRAINING_SEARCHES = {family.name: int(family.policy_id) for family in FAMILIES if not family.named}
#: The largest budget a policy code can carry (and far beyond any useful one).
MAX_BUDGET = 1_000_000


def available_policies() -> list[str]:
    """Names of the built-in policies (a search policy also takes ``name:budget``).

    Returns
    -------
    list of str
        Weakest first: ``random`` (a uniformly random legal move), ``greedy`` (the best immediate
        points), ``heuristic``, and the searches ``mcts`` and ``learned`` (docs/policies.md), then ``fast``
        (the learned search for bulk studies) and the other styles of the learned search: ``learned-own``
        (plays for its own score, as most people play), ``learned-margin`` (for its margin, without
        denial) and ``learned-half`` (for its score less half the opponent's, without denial), `LEARNED_STYLES`;
        last ``strong`` (the learned search with the value network at its leaves: the strongest).

    Examples
    --------
    >>> available_policies()
    ['random', 'greedy', 'heuristic', 'mcts', 'learned', 'fast', 'learned-own', 'learned-margin', 'learned-half',
     'strong']
    """
    return list(_NAMED)


class UnknownPolicyError(AzulFastError, ValueError):
    """A policy name that is not a built-in policy, or a search budget written wrong; the message lists
    the valid forms and, for a near miss, the names meant (`suggestions`)."""

    def __init__(self, message: str, name: object = None, suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.name = name
        self.suggestions = suggestions


UnknownPolicyError.__module__ = "azul_fast"   # named where users import it, as IllegalMoveError


class PolicySpec(str):
    """A built-in policy, parsed once from its name (`parse_policy`): what every caller needs to know of it.

    A PolicySpec is its name (a `str`), so the results that record it, the tables keyed by it and every
    comparison with a name read it as the name; its fields say what the name means, so a caller handed one
    never parses it again (`parse_policy` returns it as it is).

    >>> spec = parse_policy("mcts")
    >>> spec, spec == "mcts", spec.budget
    (PolicySpec(name='mcts', family='mcts', budget=1000), True, 1000)
    """

    family: str
    """The policy without its budget (``"mcts"``), a row of azul_fast.core.bots.families."""
    budget: int
    """Search iterations per move (0 for a policy that does not search)."""

    def __new__(cls, name: str, family: str, budget: int) -> PolicySpec:
        spec = super().__new__(cls, name)
        object.__setattr__(spec, "family", family)
        object.__setattr__(spec, "budget", budget)
        return spec

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a PolicySpec is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a PolicySpec is frozen: cannot delete {name!r}")

    def __reduce__(self) -> tuple[type[PolicySpec], tuple[str, str, int]]:
        return PolicySpec, (self.name, self.family, self.budget)

    def __repr__(self) -> str:
        return f"PolicySpec(name={self.name!r}, family={self.family!r}, budget={self.budget!r})"

    @property
    def name(self) -> str:
        """The name as written (``"mcts"``, ``"mcts:200"``), a plain `str`: what results record."""
        return str.__str__(self)

    @property
    def code(self) -> int:
        """The core's code: the id of _policies.pxd (PolicyId) in the low byte, the budget above."""
        return int(FAMILY[self.family].policy_id) | self.budget << POLICY_BUDGET_SHIFT

    @property
    def searches(self) -> bool:
        """Whether it searches (and so takes a budget).

        >>> parse_policy("greedy").searches, parse_policy("fast").searches
        (False, True)
        """
        return bool(FAMILY[self.family].searches)

    @property
    def search(self) -> int | None:
        """The native search it plays (a code of _search.pxd, SearchId; None for a policy that does not search)."""
        return FAMILY[self.family].search(self.budget)

    @property
    def full_rollouts(self) -> bool:
        """Whether its rollouts play the round to its end (the others stop once every opponent has answered):
        mcts always; a style of the learned search from `FULL_ROLLOUTS_FROM` iterations on.

        >>> parse_policy("learned:900").full_rollouts, parse_policy("learned").full_rollouts
        (True, False)
        """
        search = self.search
        return search is not None and search == FAMILY[self.family].full_search

    @property
    def plays_learned(self) -> bool:
        """Whether its games depend on the installed learned weights."""
        return FAMILY[self.family].learned

    @property
    def plays_net(self) -> bool:
        """Whether its games depend on the installed value network too (azul_fast.core.bots.value_net).

        >>> parse_policy("strong:900").plays_net, parse_policy("learned:900").plays_net
        (True, False)
        """
        return FAMILY[self.family].value_net


def _valid_forms() -> str:
    forms = [f"{name}, {name}:N (N = 1..{MAX_BUDGET:,} iterations per move)" if family.searches else name
             for name, family in _NAMED.items()]
    return ", ".join(forms)


def _parse_name(name: str, training: bool) -> PolicySpec:
    """The PolicySpec of a policy name (`parse_policy` without its pass-through)."""
    base, colon, budget = name.partition(":")
    family: Family | None = FAMILY.get(base) if training else _NAMED.get(base)
    if family is not None and family.named and not colon:
        return PolicySpec(name, base, family.budget or 0)
    # One name per policy: the budget in ASCII digits without leading zeros, so that a run's
    # recorded names (and the seats they group) never hold mcts:05 beside mcts:5.
    if family is not None and family.searches and budget.isdecimal() and 1 <= int(budget) <= MAX_BUDGET:
        if budget.isascii() and budget[0] != "0":
            return PolicySpec(name, base, int(budget))
        raise UnknownPolicyError(f"policy {name!r}: write it {base}:{int(budget)} (the budget in ASCII digits, "
                                 "no leading zeros: one name per policy)", name, (f"{base}:{int(budget)}",))
    if family is not None and not family.named:
        raise UnknownPolicyError(f"{name!r}: the {base} search takes a budget of 1 to {MAX_BUDGET:,} ('{base}:100')",
                                 name)
    close = tuple(guess + name[len(base):] for guess in
                  difflib.get_close_matches(base.lower(), list(_NAMED), n=2, cutoff=0.6) if guess != base)
    hint = f"did you mean {' or '.join(map(repr, close))}? (valid policies: {_valid_forms()})" if close else \
        f"valid policies: {_valid_forms()}"
    raise UnknownPolicyError(f"unknown policy {name!r}; {hint}", name, close)


def parse_policy(policy: str | PolicySpec, *, training: bool = False) -> PolicySpec:
    """The `PolicySpec` of a built-in policy name (a PolicySpec is returned as it is).

    With `training`, the training searches' names are read too (``"training:100"``, `TRAINING_SEARCHES`).

    Raises
    ------
    UnknownPolicyError
        (a ValueError) For an unknown name or a bad budget: the message lists the valid forms, with
        the names meant for a near miss.

    >>> parse_policy("greedy").code, parse_policy("mcts:2").code
    (1, 515)
    """
    if isinstance(policy, PolicySpec):
        return policy
    if not isinstance(policy, str):
        raise UnknownPolicyError(f"unknown policy {policy!r}; valid policies: {_valid_forms()}", policy)
    return _parse_name(policy, training)


def stop_searches(stop: bool = True) -> None:
    """Make every mcts and learned search running in this process raise KeyboardInterrupt within
    milliseconds (`stop` True), or let searches run again (False).

    A search checks the request between its iterations, so a run stopped by Ctrl-C or SIGTERM
    does not wait for the games in play, whatever their budget (the run loops call this when
    interrupted, `azul_fast.runs.pool`). Games that are not stopped play exactly as before.

    >>> from azul_fast import State
    >>> stop_searches()
    >>> try:
    ...     State.new(2, seed=1).choose("mcts:100")
    ... except KeyboardInterrupt as stopped:
    ...     print(stopped)
    search stopped: the run was interrupted
    >>> stop_searches(False)
    >>> State.new(2, seed=1).choose("mcts:100")
    Move.from_notation(...)
    """
    request_stop(check_bool(stop, "stop"))


def policy_family(name: str | PolicySpec) -> str:
    """The built-in policy a name plays, without its budget.

    >>> policy_family("learned:300"), policy_family("mcts")
    ('learned', 'mcts')
    """
    return parse_policy(name).family


def plays_learned(name: str | PolicySpec) -> bool:
    """Whether a policy name plays with the learned weights (so its games depend on which are installed).

    >>> plays_learned("fast"), plays_learned("learned:300"), plays_learned("mcts")
    (True, True, False)
    """
    return parse_policy(name).plays_learned


def policy_budget(name: str | PolicySpec) -> int:
    """Search iterations per move of a policy name (0 for a policy that does not search).

    >>> policy_budget("mcts:200"), policy_budget("mcts") == DEFAULT_BUDGET, policy_budget("greedy")
    (200, True, 0)
    >>> policy_budget("learned") == LEARNED_BUDGET, policy_budget("fast") == FAST_BUDGET
    (True, True)
    """
    return parse_policy(name).budget


def native_policy_id(name: str | PolicySpec) -> int:
    """The core's code for a built-in policy name; an unknown name or bad budget lists the valid forms.

    >>> native_policy_id("greedy"), native_policy_id("mcts:2")
    (1, 515)
    """
    return parse_policy(name).code


def short_lineup(policies: str) -> str:
    """A lineup name for people: one policy in every seat is just its name.

    >>> short_lineup("greedy v greedy v greedy"), short_lineup("greedy v random")
    ('greedy', 'greedy v random')
    """
    names = policies.split(" v ")
    return names[0] if len(set(names)) == 1 else policies
