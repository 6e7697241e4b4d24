"""The run plan: a validated run that can play any range of its games, anywhere.

`plan_run` checks `simulate`'s arguments and fixes the root seed; the `RunPlan` it returns plays
games start..stop-1 into result arrays. Local threads (`azul_fast.simulate`), run folders
(`azul_fast.runs.folders`) and Dask (`azul_fast.runs.cluster`) all run plans, so every way of running
gives the same rows.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from azul_fast._version import RULES_VERSION, __version__
from azul_fast.core.bots import value_net
from azul_fast.core.bots.learned import WeightsError, fingerprint
from azul_fast.core.bots.policies import LEARNED_STYLES, PolicySpec, parse_policy
from azul_fast.core.game import Policy, play_game, policy_name, seat_policies
from azul_fast.core.rules.checks import check_bool, check_int
from azul_fast.core.rules.kernels import complete_counts
from azul_fast.core.rules.moves import VARIANTS, InvariantError, Move, factory_count
from azul_fast.core.rules.seeds import SeedLike, resolve_seed
from azul_fast.core.rules.table import check_players, check_variant
from azul_fast.runs._simulate import derive_game_seed, run_batch
from azul_fast.runs.frames import allocate, runner_views, to_frame

__all__ = ["GAME_COSTS", "GameCost", "RunPlan", "check_memory", "estimated_seconds_per_game", "memory_limit",
           "plan_run"]


class GameCost(NamedTuple):
    """How a policy's game cost grows with its search budget and the player count (`GAME_COSTS`)."""

    seconds: float          # a 2-player game at a budget of 1
    budget_power: float     # growth with the iterations a move (0: the policy does not search)
    players_power: float    # growth with players / 2

    def game_seconds(self, budget: int, players: int) -> float:
        """The estimated seconds of a game at `players` players, every seat searching `budget` iterations."""
        return float(self.seconds * max(budget, 1) ** self.budget_power * (players / 2) ** self.players_power)


#: What a game costs on one core with every seat playing the policy: ``seconds * budget ** budget_power * (players /
#: 2) ** players_power`` (budget: search iterations a move; 1 for a policy that does not search). Fitted by least
#: squares on the logarithms to self-play timed on one core of an idle 2-core AMD EPYC (the CI machine class), every
#: policy at 2, 3 and 4 players: random, greedy, heuristic; mcts at 50, 200, 1,000 and 3,000 iterations; fast at 18
#: and 40; learned below `FULL_ROLLOUTS_FROM` iterations (rollouts cut short) and ``"learned-full"`` from it (full
#: rollouts). ``benchmarks/bench_costs.py`` checks them against timed games: they need only be right to a few tens of
#: percent, since the estimates only size tasks, budgets and progress reports, never which games are played (how the
#: searches' cost moved since the fit: docs/history.md). Refitting would change the game counts the studies
#: derive from these estimates, so it waits for a run that replays them. The searches grow less than linearly with
#: the budget because they stop once their move is decided; more players make longer games with more to weigh at
#: every move.
GAME_COSTS = {
    "random": GameCost(6.0e-6, 0.0, 0.76),
    "greedy": GameCost(1.45e-5, 0.0, 1.24),
    "heuristic": GameCost(2.25e-5, 0.0, 1.21),
    "mcts": GameCost(5.93e-5, 0.876, 2.05),
    "fast": GameCost(4.48e-5, 0.839, 1.68),
    "learned": GameCost(3.78e-5, 0.879, 1.72),
    "learned-full": GameCost(6.09e-5, 0.848, 2.20),
    # learned's two searches with the value network at the leaves: learned's costs times 1.3, the ratio of
    # 2-player self-play timed at 120 and 900 iterations (1.27 and 1.31)
    "strong": GameCost(1.3 * 3.78e-5, 0.879, 1.72),
    "strong-full": GameCost(1.3 * 6.09e-5, 0.848, 2.20),
}
#: What a seat played by a Python callable is taken to cost (a short search's game).
PYTHON_POLICY_COST = GameCost(1e-3, 0.0, 1.5)


def estimated_seconds_per_game(seats: Sequence[Policy], players: int) -> float:
    """A rough estimate of one game's seconds on one core with `seats` (one policy a seat), from
    `GAME_COSTS`: each seat plays its share of the moves. A Python policy counts as a short search.

    >>> estimated_seconds_per_game(["mcts:200", "mcts:200"], 2) < estimated_seconds_per_game(["mcts"] * 2, 2)
    True
    >>> round(estimated_seconds_per_game(["learned"] * 2, 2) * 1000, 1)   # ms
    2.5
    """
    return sum(_seat_seconds(p, players) for p in seats) / len(seats)


def _seat_seconds(policy: Policy, players: int) -> float:
    """A game's seconds with `policy` in every seat: learned plays full rollouts from FULL_ROLLOUTS_FROM."""
    if not isinstance(policy, (str, PolicySpec)):
        return PYTHON_POLICY_COST.game_seconds(1, players)
    spec = parse_policy(policy)
    kind = spec.family
    if kind in LEARNED_STYLES:   # the styles of the learned search cost what it costs
        kind = "learned-full" if spec.full_rollouts else "learned"
    elif kind == "strong" and spec.full_rollouts:
        kind = "strong-full"
    return GAME_COSTS[kind].game_seconds(spec.budget, players)


def evaluation_fingerprint(seats: Sequence[Policy]) -> str:
    """What decides how the learned evaluation plays the built-in `seats` here: `learned.fingerprint()` when a
    seat plays it, and `value_net.fingerprint()` after " + " when a seat plays ``"strong"`` ("" if none).

    >>> evaluation_fingerprint([parse_policy("mcts")]), evaluation_fingerprint([parse_policy("fast")]) == fingerprint()
    ('', True)
    """
    specs = [p for p in seats if isinstance(p, PolicySpec)]
    if not any(spec.plays_learned for spec in specs):
        return ""
    if any(spec.plays_net for spec in specs):
        return f"{fingerprint()} + {value_net.fingerprint()}"
    return fingerprint()


def memory_limit() -> int:
    """The most bytes this process may hold: the machine's memory, or less under an address-space or
    data limit (``ulimit -v``, ``ulimit -d``) or a cgroup's (a container's) memory limit.

    >>> memory_limit() > 2**20
    True
    """
    limits = [os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")]
    for kind in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
        soft = resource.getrlimit(kind)[0]
        if soft != resource.RLIM_INFINITY:
            limits.append(soft)
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(path).read_text(encoding="ascii").strip()
        except OSError:
            continue
        if text.isdigit():
            limits.append(int(text))
    return min(limits)


def check_memory(needed: int, what: str) -> None:
    """Refuse up front, with a MemoryError naming both sizes, `what` needing `needed` bytes or more
    than `memory_limit` allows: numpy would fail half way (or the interpreter abort) instead.

    >>> check_memory(10**6, "a small run")
    >>> check_memory(2**62, "1,000,000,000 games in memory")
    Traceback (most recent call last):
    ...
    MemoryError: 1,000,000,000 games in memory need at least 4,611,686,018.4 GB, more than the ... GB ...
    """
    limit = memory_limit()
    if needed > limit:
        raise MemoryError(f"{what} need at least {needed / 1e9:,.1f} GB, more than the {limit / 1e9:,.1f} GB "
                          "this process may use; write the run to a folder (--out DIR/, run_to_folder), "
                          "which holds one part at a time, or play fewer games")


@dataclass(frozen=True)
class RunPlan:
    """A validated run: everything needed to play any range of its games, anywhere.

    `run(start, stop)` plays games start..stop-1 and returns their result arrays; `frame` turns
    arrays into the result DataFrame. Local threads, resumable runs and Dask all use these two,
    so every way of running gives the same rows.

    >>> plan = plan_run(1000, players=2, policies="greedy", seed=3)
    >>> plan.frame(plan.run(0, 3), first_game=0)[["game", "score_0", "score_1"]]
       game  score_0  score_1
    0     0       44       68
    1     1       52       44
    2     2       72       66
    >>> plan.frame(plan.run(2, 3), first_game=2).score_0.tolist()   # game 2 alone: the same game
    [72]
    """

    total: int
    players: int
    #: One policy a seat: a built-in one parsed (`PolicySpec`), or a Python callable.
    seats: tuple[Policy, ...]
    names: tuple[str, ...]
    root: int
    first_player: int
    max_rounds: int
    rotations: int
    check_invariants: bool = False
    variant: str = "colored"
    #: `learned.fingerprint()` where the run was planned, when a seat plays ``"learned"`` ("" if none), and
    #: `value_net.fingerprint()` after " + " when a seat plays ``"strong"`` (`evaluation_fingerprint`).
    learned: str = ""
    #: The seats' policy codes for the core (`PolicySpec.code`); empty when a seat is a Python callable (the
    #: run then plays through the State API).
    codes: tuple[int, ...] = ()
    #: The wall side as the core takes it (its index in `VARIANTS`), fixed when the run is planned.
    variant_index: int = 0

    def __post_init__(self) -> None:
        if VARIANTS[self.variant_index] != self.variant:
            raise ValueError(f"variant_index {self.variant_index} is not the index of variant {self.variant!r}")

    @property
    def native(self) -> bool:
        return all(isinstance(p, PolicySpec) for p in self.seats)

    @property
    def native_codes(self) -> np.ndarray:
        """`codes` as the core takes them."""
        return np.array(self.codes, dtype=np.uint32)


    @property
    def seconds_per_game(self) -> float:
        """A rough estimate of a game's seconds on one core (`GAME_COSTS`), to size tasks by work.

        Each seat plays its share of the moves; more players make longer games with more to weigh
        at every move (about 2.8 times a 2-player game's seconds at 4 players). A Python policy
        counts as a short search.
        """
        return estimated_seconds_per_game(self.seats, self.players)

    @property
    def attrs(self) -> dict[str, Any]:
        return {
            "azul_fast_version": __version__,
            "rules_version": RULES_VERSION,
            "root_seed": str(self.root),
            "players": self.players,
            "policies": list(self.names),
            "first_player": self.first_player,
            "max_rounds": self.max_rounds,
            "variant": self.variant,
            "seat_rotation": self.rotations > 1,
            "n_games": self.total,
            **({"learned": self.learned} if self.learned else {}),
        }

    @property
    def fewest_rounds(self) -> int:
        """The fewest rounds a game of the run lasts: a wall row takes 5 rounds to fill, unless
        `max_rounds` stops the game first."""
        return min(5, self.max_rounds)

    @property
    def fewest_moves(self) -> int:
        """The fewest moves a game of the run makes: every round empties every factory, one take each."""
        return factory_count(self.players) * self.fewest_rounds

    def result_bytes(self) -> int:
        """Bytes of the run's result frame, which `simulate` holds all at once (building it takes
        about a quarter more for a moment): a lower bound of its memory. Measured on frames of one
        and of two games, so it follows the columns (42 bytes a 2-player game, 64 at 4 players).

        >>> plan_run(1_000_000, players=2).result_bytes()
        42000000
        """
        one, two = (int(self.frame(allocate(n, self.players), 0).memory_usage(index=False).sum()) for n in (1, 2))
        return (two - one) * self.total

    def check_learned(self) -> None:
        """Refuse to play where ``"learned"`` would play differently from where the run was planned
        (a Dask worker, or this process after `learned.install`): the rows would silently differ."""
        here = evaluation_fingerprint(self.seats)
        if self.learned and here != self.learned:
            raise WeightsError(f"this process plays 'learned' as {here}, but the run was planned with "
                               f"{self.learned}; install the same weights (azul_fast.core.bots.learned.install, "
                               "value_net.install_net) everywhere the run plays, Dask workers too")

    def run(self, start: int, stop: int) -> dict[str, np.ndarray]:
        """Play games start..stop-1 into new result arrays."""
        arrays = allocate(stop - start, self.players)
        self.run_into(arrays, start, stop, offset=start)
        return arrays

    def run_into(self, arrays: dict[str, np.ndarray], start: int, stop: int, offset: int = 0) -> None:
        """Play games start..stop-1 into `arrays` at positions start-offset..stop-offset-1."""
        if not 0 <= start < stop <= self.total:
            raise ValueError(f"game range {start}..{stop} is outside 0..{self.total}")
        self.check_learned()
        if self.native:
            views = runner_views(arrays, start - offset, stop - offset)
            if self.check_invariants:
                views["violations"] = np.zeros(stop - start, np.uint8)
            run_batch(self.root, start, self.players, self.native_codes, self.first_player, self.max_rounds,
                      self.rotations, views, self.check_invariants, self.variant_index)
            broken = np.flatnonzero(views.get("violations", ()))
            if broken.size:
                raise InvariantError(
                    f"{broken.size} game(s) broke an invariant, first game {start + broken[0]} "
                    f"(seed {views['seed'][broken[0]]}); replay it with play_game and State.check_invariants()"
                )
        else:
            for i in range(start, stop):
                self._play_python(i, arrays, i - offset)

    def _play_python(self, game: int, arrays: dict[str, np.ndarray], row: int) -> None:
        """The slow path for user policies: one game through the State API."""
        shift = game % self.rotations
        rotated = [self.seats[(p - shift) % self.players] for p in range(self.players)]
        seed = derive_game_seed(self.root, game // self.rotations)
        record = play_game(self.players, rotated, seed, self.first_player, self.max_rounds,
                           check_invariants=self.check_invariants, variant=self.variant)
        state = record.state
        arrays["seed"][row] = record.seed
        arrays["rounds"][row] = state.round
        arrays["turns"][row] = record.turns
        arrays["truncated"][row] = state.truncated
        arrays["opening"][row] = Move.from_notation(record.opening).code
        for p in range(self.players):
            mask = state.wall_mask(p)
            arrays["score"][p, row] = state.scores[p]
            arrays["win"][p, row] = p in state.winners
            arrays["wall"][p, row] = mask
            arrays["rows"][p, row], arrays["cols"][p, row], _ = complete_counts(mask)
            arrays["colors"][p, row] = state.complete_colors(p)

    def frame(self, arrays: dict[str, np.ndarray], first_game: int) -> pd.DataFrame:
        return to_frame(
            arrays, first_game=first_game, players=self.players, first_player=self.first_player,
            seat_policies=list(self.names), rotations=self.rotations, attrs=self.attrs,
        )


def plan_run(
    n_games: int,
    players: int = 2,
    policies: Policy | Sequence[Policy] = "random",
    seed: SeedLike = None,
    first_player: int = 0,
    max_rounds: int = 100,
    *,
    seat_rotation: bool = False,
    check_invariants: bool = False,
    variant: str = "colored",
) -> RunPlan:
    """Validate simulate()'s arguments (a TypeError or ValueError naming the bad one, by `azul_fast.core.rules.checks`)
    and fix the root seed."""
    n_games = check_int(n_games, "n_games", 1, 2**32 // 4)
    players = check_players(players)
    seats = seat_policies(policies, players)
    names = tuple(policy_name(p) for p in seats)
    root = resolve_seed(seed)
    first_player = check_int(first_player, "first_player", 0, players - 1)
    max_rounds = check_int(max_rounds, "max_rounds", 1, 255)
    seat_rotation = check_bool(seat_rotation, "seat_rotation")
    check_invariants = check_bool(check_invariants, "check_invariants")
    rotations = players if seat_rotation else 1
    variant_index = check_variant(variant)
    specs = [p for p in seats if isinstance(p, PolicySpec)]
    codes = tuple(p.code for p in specs) if len(specs) == len(seats) else ()
    return RunPlan(n_games * rotations, players, tuple(seats), names, root, first_player, max_rounds, rotations,
                   check_invariants, VARIANTS[variant_index], evaluation_fingerprint(seats), codes,
                   variant_index)
