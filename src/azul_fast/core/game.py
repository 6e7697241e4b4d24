"""One game, move by move, and the arguments that name games: policies, seeds, counts, the wall.

`play_game` plays through the `State` API, so it accepts Python policies and replays any row of
`simulate` from its seed. The checks here raise ValueError naming the bad argument (a TypeError for
one of the wrong type, as `azul_fast.core.rules.checks`); the run plan (`azul_fast.runs.plan`) and the runners use
the same ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Union

from azul_fast.core.bots.policies import PolicySpec, available_policies, parse_policy
from azul_fast.core.rules.moves import AnyMove, IllegalMoveError, InvariantError, Move, Placement, parse_move
from azul_fast.core.rules.seeds import SeedLike, resolve_seed
from azul_fast.core.rules.table import check_players
from azul_fast.core.state import State

__all__ = [
    "GameRecord", "Policy", "play_game", "policy_name", "seat_policies",
]

#: A built-in policy name (or its parsed `PolicySpec`), or a callable ``policy(state) -> Move`` (runs on the
#: slow Python path; on the gray wall it also answers with a Placement while `state.tiling` is set).
Policy = Union[str, PolicySpec, Callable[[State], AnyMove]]
def policy_name(policy: Policy) -> str:
    """The name a policy has in results: a built-in policy's name, or a callable's name."""
    if isinstance(policy, (str, PolicySpec)):
        return parse_policy(policy).name  # an unknown name: UnknownPolicyError listing the valid names
    if callable(policy):
        return getattr(policy, "__name__", type(policy).__name__)
    raise ValueError(f"policies: expected a policy name {available_policies()} or a callable, got {policy!r}")


def seat_policies(policies: Policy | Sequence[Policy], players: int) -> list[PolicySpec | Callable[[State], AnyMove]]:
    """One policy per seat: one given for every seat, or a sequence of exactly `players`; each built-in
    name parsed once into its `PolicySpec` (UnknownPolicyError for an unknown one), a callable kept."""
    if isinstance(policies, (str, PolicySpec)) or callable(policies):
        policies = [policies] * players
    elif not isinstance(policies, Sequence) or len(policies) != players:
        raise ValueError(
            f"policies: give one policy for every seat or a list of exactly {players} (one per seat), got {policies!r}"
        )
    parsed: dict[str | PolicySpec, PolicySpec] = {}
    seats: list[PolicySpec | Callable[[State], AnyMove]] = []
    for policy in policies:
        if isinstance(policy, (str, PolicySpec)):
            if policy not in parsed:
                parsed[policy] = parse_policy(policy)
            seats.append(parsed[policy])
        elif callable(policy):
            seats.append(policy)
        else:
            raise ValueError(f"policies: expected a policy name {available_policies()} or a callable, got {policy!r}")
    return seats


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

    Parameters
    ----------
    players : int
        2, 3 or 4.
    policies : str, callable, or a sequence with one per seat
        As in `simulate`: built-in names (``"mcts:400"`` with a budget) or ``policy(state) -> Move``.
    seed : None, int or numpy.random.SeedSequence
        The game seed (a row's ``seed`` column replays that row); None: a random one.
    first_player : int
        Seat that moves first.
    max_rounds : int
        1..255: a game not finished after that many rounds stops there, truncated.
    check_invariants : bool
        Check the rules' invariants after every move (`InvariantError` names the move).
    variant : str
        ``"colored"`` or ``"gray"``.

    Returns
    -------
    GameRecord
        The seed, every move in notation, the final State, the scores and the winners.

    Raises
    ------
    TypeError, ValueError
        For an argument of the wrong type or a bad value (the message names it).
    IllegalMoveError
        If a Python policy returns an illegal move.

    Examples
    --------
    >>> record = play_game(players=2, policies="greedy", seed=12345)
    >>> record.moves[0], record.scores == play_game(2, "greedy", 12345).scores
    ('1W1', True)
    >>> gray = play_game(players=2, policies="greedy", seed=12345, variant="gray")
    >>> gray.variant, any(move.startswith("@") for move in gray.moves)
    ('gray', True)
    """
    players = check_players(players)
    seats = seat_policies(policies, players)
    names = [policy_name(p) for p in seats]
    game_seed = resolve_seed(seed)
    state = State.new(players, seed=game_seed, first_player=first_player, max_rounds=max_rounds,
                      variant=variant)
    moves = []
    while not state.is_game_over():
        policy = seats[state.current_player]
        move = state.choose(policy) if isinstance(policy, PolicySpec) else _ask(policy, state)
        state.play(move)
        moves.append(str(move))
        if check_invariants:
            try:
                state.check_invariants()
            except InvariantError as error:
                raise InvariantError(f"game seed {game_seed}, after move {len(moves)} ({move}): {error}") from None
    return GameRecord(seed=game_seed, moves=moves, state=state, policies=names)


def _ask(policy: Callable[[State], AnyMove], state: State) -> AnyMove:
    """A user policy sees a copy, so it cannot corrupt the game; its answer is checked."""
    move = policy(state.copy())
    if isinstance(move, str):
        move = parse_move(move)
    if not isinstance(move, (Move, Placement)) or move not in state.legal_moves:
        raise IllegalMoveError(f"policy {policy_name(policy)!r} returned {move!r}, not a legal move here")
    return move
