"""Monte Carlo runs: many complete games in the native core, results as a pandas DataFrame.

Game ``i`` of a run gets its own seed, a hash of the root seed and ``i`` (docs/engine-spec.md,
section 2), and each game seed drives two separate streams: tile draws and policy choices. So a
run's result does not depend on how it is split into chunks or over how many threads it ran,
and the same deal can be replayed with other policies or seats (common random numbers).
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Union

import numpy as np
import pandas as pd

from azul_fast._board import _complete_counts
from azul_fast._simulate import derive_game_seed, run_batch
from azul_fast._state import State, check_int, check_seed, check_variant
from azul_fast.moves import VARIANTS, AnyMove, IllegalMoveError, Move, Placement, parse_move
from azul_fast.policies import available_policies, native_policy_id, policy_budget
from azul_fast._version import RULES_VERSION, __version__
from azul_fast.results import allocate, runner_views, to_frame

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "CHUNK_SIZE", "SECONDS_PER_GAME", "SECONDS_PER_ITERATION", "TASK_SECONDS", "GameRecord", "InvariantError", "Policy", "RunPlan", "SeedLike", "plan_run", "play_game",
    "resolve_seed", "simulate",
]

#: A built-in policy name, or a callable ``policy(state) -> Move`` (runs on the slow Python path;
#: on the gray wall it also answers with a Placement while `state.tiling` is set).
Policy = Union[str, Callable[[State], AnyMove]]
#: What a seed may be: None (fresh entropy), an int in 0..2**64-1, or a numpy SeedSequence.
SeedLike = Union[int, np.integer[Any], np.random.SeedSequence, None]
#: The most games per task. Results never depend on it; it only sets how often progress is reported.
CHUNK_SIZE = 20_000
#: Seconds of play a task aims at (by the policies' cost): Ctrl-C waits at most that long for the
#: tasks running, and a search's slow games still spread over every thread.
TASK_SECONDS = 1.0
#: Rough seconds a 2-player game takes on one core with every seat playing the policy (measured on
#: the CI machine class with benchmarks/bench_simulate.py); they only size tasks and run parts.
SECONDS_PER_GAME = {"random": 1.2e-5, "greedy": 3.5e-5, "heuristic": 7e-5, "mcts": 4e-4}
#: What each search iteration per move adds to a 2-player game's seconds (mcts: 0.11 s a game at 1000).
SECONDS_PER_ITERATION = 1.1e-4


def resolve_seed(seed: SeedLike) -> int:
    """A root seed as an int in 0..2**64-1: None draws fresh entropy; a SeedSequence is hashed.

    >>> resolve_seed(42)
    42
    """
    if seed is None:
        seed = np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0])
    try:
        return check_seed(seed)
    except (TypeError, ValueError) as error:
        raise ValueError(f"seed: {error}; valid: None, an int in 0..2**64-1, or a numpy SeedSequence") from None


def _policy_name(policy: Policy) -> str:
    if isinstance(policy, str):
        native_policy_id(policy)  # raises ValueError listing the valid names
        return policy
    if callable(policy):
        return getattr(policy, "__name__", type(policy).__name__)
    raise ValueError(f"policies: expected a policy name {available_policies()} or a callable, got {policy!r}")


def _seat_policies(policies: Policy | Sequence[Policy], players: int) -> list[Policy]:
    if isinstance(policies, str) or callable(policies):
        return [policies] * players
    if not isinstance(policies, Sequence) or len(policies) != players:
        raise ValueError(
            f"policies: give one policy for every seat or a list of exactly {players} (one per seat), got {policies!r}"
        )
    return list(policies)


def _check(value: Any, name: str, low: int, high: int | float) -> int:
    try:
        return check_int(value, name, low, high)
    except TypeError as error:
        raise ValueError(str(error)) from None


class InvariantError(AssertionError):
    """A game in the native core reached a position that breaks the rules' invariants."""


@dataclass(frozen=True)
class GameRecord:
    """One complete game: its seed, the moves in notation, the final State and the result.

    On the gray wall `moves` also holds the wall placements (``"@2.3"``) where they were played.

    >>> record = play_game(2, ["greedy", "random"], seed=5)
    >>> record.moves[:4], record.turns, record.rounds
    (['1B1', 'CY5', '3R2', '5B1'], 54, 5)
    >>> record.scores, record.winners, record.policies
    ((42, 0), (0,), ['greedy', 'random'])
    """

    seed: int
    moves: list[str]
    state: State
    policies: list[str]

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores

    @property
    def winners(self) -> tuple[int, ...]:
        return self.state.winners

    @property
    def rounds(self) -> int:
        return self.state.round

    @property
    def turns(self) -> int:
        return len(self.moves)

    @property
    def truncated(self) -> bool:
        return self.state.truncated

    @property
    def opening(self) -> str:
        return self.moves[0]

    @property
    def variant(self) -> str:
        return self.state.variant


def _variant(variant: Any) -> str:
    try:
        check_variant(variant)
    except ValueError as error:
        raise ValueError(str(error)) from None
    return str(variant)


def play_game(
    players: int = 2,
    policies: Policy | Sequence[Policy] = "random",
    seed: SeedLike = None,
    first_player: int = 0,
    max_rounds: int = 100,
    *,
    check_invariants: bool = False,
    variant: str = "colored",
) -> GameRecord:
    """Play one game move by move; with a row's `seed` it replays that row of `simulate`.

    >>> record = play_game(players=2, policies="greedy", seed=12345)
    >>> record.moves[0], record.scores == play_game(2, "greedy", 12345).scores
    ('1W1', True)
    >>> gray = play_game(players=2, policies="greedy", seed=12345, variant="gray")
    >>> gray.variant, any(move.startswith("@") for move in gray.moves)
    ('gray', True)
    """
    players = _check(players, "players", 2, 4)
    seats = _seat_policies(policies, players)
    names = [_policy_name(p) for p in seats]
    game_seed = resolve_seed(seed)
    state = State.new(players, seed=game_seed, first_player=first_player, max_rounds=max_rounds,
                      variant=_variant(variant))
    moves = []
    while not state.is_game_over():
        policy = seats[state.current_player]
        move = state.choose(policy) if isinstance(policy, str) else _ask(policy, state)
        state.play(move)
        moves.append(str(move))
        if check_invariants:
            try:
                state.check_invariants()
            except AssertionError as error:
                raise InvariantError(f"game seed {game_seed}, after move {len(moves)} ({move}): {error}") from None
    return GameRecord(seed=game_seed, moves=moves, state=state, policies=names)


def _ask(policy: Callable[[State], AnyMove], state: State) -> AnyMove:
    """A user policy sees a copy, so it cannot corrupt the game; its answer is checked."""
    move = policy(state.copy())
    if isinstance(move, str):
        move = parse_move(move)
    if not isinstance(move, (Move, Placement)) or move not in state.legal_moves:
        raise IllegalMoveError(f"policy {_policy_name(policy)!r} returned {move!r}, not a legal move here")
    return move


def simulate(
    n_games: int,
    players: int = 2,
    policies: Policy | Sequence[Policy] = "random",
    seed: SeedLike = None,
    workers: int | None = None,
    first_player: int = 0,
    max_rounds: int = 100,
    progress: bool | None = None,
    *,
    seat_rotation: bool = False,
    chunk_size: int | None = None,
    scheduler: str | None = None,
    client: Client | None = None,
    check_invariants: bool = False,
    variant: str = "colored",
) -> pd.DataFrame:
    """Play `n_games` complete games and return one row per game.

    Parameters
    ----------
    n_games : int
        Number of games (with `seat_rotation`, the number of deals; each is played once per seat).
    players : int
        2, 3 or 4.
    policies : str, callable, or a sequence with one per seat
        Built-in names (`available_policies()`, a search with its budget as ``"mcts:400"``)
        run in the native core without the GIL.
        A callable ``policy(state) -> Move`` runs on a slower Python path (one game at a time).
    seed : None, int or numpy.random.SeedSequence
        Root seed of the run; game ``i`` gets the seed in its row, derived from it and ``i``.
    workers : int or None
        Threads running native batches (None: every core). The result does not depend on it.
    seat_rotation : bool
        Play every deal once per seat rotation (policies moved round the table, same tile draws).
    chunk_size : int or None
        Games per thread task (None: at least four tasks a worker, each about `TASK_SECONDS` of
        play by the policies' cost, at most `CHUNK_SIZE`). The result does not depend on it.
    scheduler : str, optional
        Address of a Dask scheduler (``"tcp://host:8786"``): the games run as tasks on its
        workers (built-in policies only; needs ``pip install "azul_fast[dask]"``). The rows are
        the same as a local run's; `workers` and `chunk_size` do not apply.
    client : distributed.Client, optional
        Run on the cluster of a client you already have, instead of `scheduler`.
    check_invariants : bool
        Verify the rules' invariants after every move in the core (all 100 tiles accounted for,
        scores >= 0, floors <= 7 slots, lines consistent with walls); a violation raises
        `InvariantError`. Runs about four times slower; meant for soak tests and debugging.
    variant : str
        ``"colored"`` (the printed wall) or ``"gray"`` (the rulebook's variant: every tiled
        line's player picks its column; the policies decide, docs/engine-spec.md section 10).
        Recorded in ``df.attrs["variant"]``; `turns` counts the placements of a gray game.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, seed, players, first_player, rounds, turns, truncated, opening`` and per
        seat ``policy_i, score_i, win_i, rows_i, cols_i, colors_i, wall_i``; with `seat_rotation`
        also ``deal`` and ``rotation``. ``df.attrs`` records the run.

    >>> df = simulate(1000, players=2, policies=["greedy", "random"], seed=1, workers=1)
    >>> len(df), bool(df.win_0.mean() > 0.9)
    (1000, True)
    """
    plan = plan_run(
        n_games, players, policies, seed, first_player, max_rounds,
        seat_rotation=seat_rotation, check_invariants=check_invariants, variant=variant,
    )
    if scheduler is not None or client is not None:
        from azul_fast.distributed import run_on_cluster

        return run_on_cluster(plan, scheduler=scheduler, client=client, progress=progress)
    workers = (os.cpu_count() or 1) if workers is None else _check(workers, "workers", 1, 1024)
    if chunk_size is None:
        # At least four chunks a worker, so the last chunks do not leave a thread idle.
        largest = max(1, min(CHUNK_SIZE, int(TASK_SECONDS / plan.seconds_per_game)))
        chunk_size = max(1, min(largest, -(-plan.total // (4 * workers))))
    chunk_size = _check(chunk_size, "chunk_size", 1, 2**31)
    if plan.native:
        arrays = _run_chunks(plan, workers, chunk_size, progress)
    else:
        arrays = _run_here(plan, progress)
    return plan.frame(arrays, first_game=0)


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
    seats: tuple[Policy, ...]
    names: tuple[str, ...]
    root: int
    first_player: int
    max_rounds: int
    rotations: int
    check_invariants: bool = False
    variant: str = "colored"

    @property
    def native(self) -> bool:
        return all(isinstance(p, str) for p in self.seats)

    @property
    def seconds_per_game(self) -> float:
        """A rough estimate of a game's seconds on one core (`SECONDS_PER_GAME`), to size tasks by work.

        Each seat plays its share of the moves; more players make longer games with more to weigh
        at every move (about 2.8 times a 2-player game's seconds at 4 players). A Python policy
        counts as a short search.
        """
        seats = [SECONDS_PER_GAME[p.partition(":")[0]] + SECONDS_PER_ITERATION * policy_budget(p)
                 if isinstance(p, str) else SECONDS_PER_GAME["mcts"] for p in self.seats]
        scale = self.players / 2
        return sum(seats) / len(seats) * scale * math.sqrt(scale)

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
        }

    def run(self, start: int, stop: int) -> dict[str, np.ndarray]:
        """Play games start..stop-1 into new result arrays."""
        arrays = allocate(stop - start, self.players)
        self.run_into(arrays, start, stop, offset=start)
        return arrays

    def run_into(self, arrays: dict[str, np.ndarray], start: int, stop: int, offset: int = 0) -> None:
        """Play games start..stop-1 into `arrays` at positions start-offset..stop-offset-1."""
        if not 0 <= start < stop <= self.total:
            raise ValueError(f"game range {start}..{stop} is outside 0..{self.total}")
        if self.native:
            views = runner_views(arrays, start - offset, stop - offset)
            ids = np.array([native_policy_id(p) for p in self.seats if isinstance(p, str)], dtype=np.uint32)
            if self.check_invariants:
                views["violations"] = np.zeros(stop - start, np.uint8)
            run_batch(self.root, start, self.players, ids, self.first_player, self.max_rounds, self.rotations,
                      views, self.check_invariants, VARIANTS.index(self.variant))
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
            arrays["rows"][p, row], arrays["cols"][p, row], _ = _complete_counts(mask)
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
    """Validate simulate()'s arguments (ValueError naming the bad one) and fix the root seed."""
    n_games = _check(n_games, "n_games", 1, 2**32 // 4)
    players = _check(players, "players", 2, 4)
    seats = _seat_policies(policies, players)
    names = tuple(_policy_name(p) for p in seats)
    root = resolve_seed(seed)
    first_player = _check(first_player, "first_player", 0, players - 1)
    max_rounds = _check(max_rounds, "max_rounds", 1, 255)
    if not isinstance(seat_rotation, bool):
        raise ValueError(f"seat_rotation must be True or False, got {seat_rotation!r}")
    if not isinstance(check_invariants, bool):
        raise ValueError(f"check_invariants must be True or False, got {check_invariants!r}")
    rotations = players if seat_rotation else 1
    return RunPlan(n_games * rotations, players, tuple(seats), names, root, first_player, max_rounds, rotations,
                   check_invariants, _variant(variant))


class _ProgressBar(Protocol):
    """What the runners use of a tqdm bar."""

    def update(self, n: int) -> object: ...

    def close(self) -> None: ...


def _progress_bar(total: int, progress: bool | None) -> _ProgressBar | None:
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm.auto import tqdm

    bar: _ProgressBar = tqdm(total=total, unit="game", unit_scale=True, smoothing=0.1)
    return bar


def _run_here(plan: RunPlan, progress: bool | None) -> dict[str, np.ndarray]:
    """Play a run of Python policies in the calling thread, one game at a time.

    They hold the GIL, so threads would only take turns; and here Ctrl-C stops the run at once
    instead of waiting for a thread's chunk of slow games.
    """
    arrays = allocate(plan.total, plan.players)
    bar = _progress_bar(plan.total, progress)
    try:
        for game in range(plan.total):
            plan.run_into(arrays, game, game + 1)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return arrays


def _run_chunks(plan: RunPlan, workers: int, chunk_size: int, progress: bool | None) -> dict[str, np.ndarray]:
    """Run chunks on a thread pool, each writing its own slice of the result arrays.

    The native batches release the GIL, so threads scale; nothing is copied or concatenated.
    Ctrl-C cancels the chunks not yet started, waits for the running ones (each is short) and
    re-raises, so no worker is left behind.
    """
    total = plan.total
    arrays = allocate(total, plan.players)
    bounds = [(a, min(a + chunk_size, total)) for a in range(0, total, chunk_size)]
    bar = _progress_bar(total, progress)
    pool = cf.ThreadPoolExecutor(max_workers=min(workers, len(bounds)), thread_name_prefix="azul_fast")
    try:
        futures = {pool.submit(plan.run_into, arrays, a, b): b - a for a, b in bounds}
        for future in cf.as_completed(futures):
            future.result()
            if bar is not None:
                bar.update(futures[future])
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    return arrays
