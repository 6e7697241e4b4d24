# The named searches: each one's parameters (Params, _search_params.pxi), and SEARCH_PARAMS by SEARCH_
# code (_search.pxd). A per-player-count table lists 2, 3 and 4 players. Every value was chosen by
# head-to-head matches (benchmarks/bench_strength.py measures the result); docs/history.md has
# the figures.

# mcts: the static evaluation at the leaves and full rollouts.
cdef Params MCTS = Params(
    # Half the strongest opponent's value: at 1 two such searchers race to end the game and force
    # penalties on each other, scoring about 30 points less each for a little more strength.
    opp_w=0.5,
    # The static evaluation's values are coarse: exploring widely pays.
    uct_c=[0.7, 0.7, 0.7],
    # 12 moves at the root and 8 below cover every sensible take of a round's position.
    k_root=12, k_inner=8, k_reply=[8, 8, 8],
    # Rollouts play the round out: the static evaluation values only the boards after the tiling.
    rollout_replies=INT_MAX,
    # The exact stop: it changes no move.
    stop_share=[1, 1, 1], extend=0,
    deny_w=0, win_tiles=0, win_nodes=0, rollout_w=1, net=False,
)

# The board weights' training games (policy code POLICY_TRAINING, training.TRAINING_SEARCH): the learned
# evaluation with full rollouts in mcts's tree. It stays as it is so that the shipped weights are
# reproducible from their seed: weights fitted to games of a cut-rollout search play worse.
cdef Params TRAINING = Params(
    # The learned values estimate final scores, so a seat plays for its margin over the strongest opponent.
    opp_w=1.0,
    # Its values are sharper than the static evaluation's: it explores less.
    uct_c=[0.5, 0.5, 0.5],
    k_root=12, k_inner=8, k_reply=[8, 8, 8],
    rollout_replies=INT_MAX,
    stop_share=[1, 1, 1], extend=0,
    deny_w=0, win_tiles=0, win_nodes=0, rollout_w=1, net=False,
)

# The leftover model's training games (policy code POLICY_LEFTOVER_TRAINING, training.LEFTOVER_SEARCH):
# rollouts cut short after every opponent's answer in a wide root and a narrow inside. It stays as it
# is so that the shipped leftover weights are reproducible from their seed.
cdef Params LEFTOVER_TRAINING = Params(
    opp_w=1.0,
    uct_c=[0.4, 0.4, 0.4],
    # Cut rollouts make an iteration cheap, so the tree does the work: a wide root, a narrow inside.
    k_root=16, k_inner=4, k_reply=[4, 4, 4],
    # One answer per opponent, then the round is ended where it stands.
    rollout_replies=1,
    stop_share=[1, 1, 1], extend=0,
    deny_w=0, win_tiles=0, win_nodes=0, rollout_w=1, net=False,
)

# learned below FULL_ROLLOUTS_FROM iterations: the learned evaluation with rollouts cut short, the
# leftover model valuing the tiles they leave on the table.
cdef Params LEARNED = Params(
    opp_w=1.0,
    # Exploring little gathers the visits on the leading move sooner, so the relaxed stop comes sooner.
    uct_c=[0.25, 0.25, 0.25],
    # A wide root; at 2 players more of the opponent's answers than of its own moves, since the move
    # heuristic values only what a move gives its mover and would leave out the answer that spoils the
    # seat's plan (at 3 and 4 players, where every opponent's level would widen, that played worse).
    k_root=20, k_inner=4, k_reply=[6, 4, 4],
    # Cut rollouts buy iterations: at this budget they play stronger than full ones for the time.
    rollout_replies=1,
    # The relaxed stop (a rival credited half the iterations left) is a guess that pays for more iterations.
    stop_share=[0.5, 0.5, 0.5],
    # While the most visited move is not the one of highest mean value, up to 60 more iterations settle it.
    extend=60,
    # Denial at 2 players: a take that spoils the opponent's lines is worth playing first.
    deny_w=0.4,
    # In the last round a proof of a forced win beats the sampled tree; a small budget keeps it cheap.
    win_tiles=12, win_nodes=2000,
    rollout_w=1, net=False,
)

# fast: the learned search tuned for budgets of a few dozen iterations.
cdef Params FAST = Params(
    opp_w=1.0,
    uct_c=[0.4, 0.4, 0.4],
    # With a dozen iterations the tree barely grows below the root: two moves a node there.
    k_root=12, k_inner=2, k_reply=[2, 2, 2],
    rollout_replies=1,
    stop_share=[1, 1, 1], extend=0,
    # Denial as in learned.
    deny_w=0.4,
    # A proof would cost a large share of its small budget; its strength target is met without.
    win_tiles=0, win_nodes=0,
    rollout_w=1, net=False,
)

# learned from FULL_ROLLOUTS_FROM iterations on: full rollouts (which keep gaining strength where cut
# ones stop) in a wider tree than the training search's.
cdef Params LEARNED_FULL = Params(
    opp_w=1.0,
    # At 2 players its relaxed stop turns exploring less into time, which buys iterations; at 3 and 4
    # players, where it keeps the exact stop, the training search's exploration.
    uct_c=[0.25, 0.5, 0.5],
    # A wider root and, at 2 players, more answers than moves of its own, as learned.
    k_root=16, k_inner=8, k_reply=[12, 8, 8],
    rollout_replies=INT_MAX,
    # The relaxed stop pays at 2 players; at 3 and 4 it played no better (at 4 worse).
    stop_share=[0.5, 1, 1], extend=0,
    deny_w=0.4,
    # Its larger budget affords a larger proof.
    win_tiles=15, win_nodes=30000,
    # At 2 players a leaf's rollout (noisy) blended with the leaf's own cut value (biased, not noisy):
    # worth about a doubling of the budget. Elsewhere the leftover model has no weights to blend with.
    rollout_w=0.6, net=False,
)

# Styles of the learned search: learned's two searches (cut and full rollouts) with another objective, so
# that the first player's edge can be measured under more than one way of playing (docs/first-player-style.md).
# learned plays for its margin over the strongest opponent (opp_w 1) and, at 2 players, credits denial
# (deny_w) and plays a proved outright win (win_tiles). learned-own plays for its own score alone, as most
# people play: no opponent in its value, no denial, no proof (opp_w, deny_w and win_tiles 0). learned-half
# plays for its score less half the strongest opponent's (opp_w 0.5, mcts's objective), without denial.
# learned-margin plays for the margin as learned does, without denial: beside learned it isolates what
# denial changes, beside learned-half and learned-own what the opponent's weight changes. At 3 and 4
# players, where no search credits denial, learned-margin plays learned's games.
cdef Params LEARNED_OWN = LEARNED
LEARNED_OWN.opp_w = 0
LEARNED_OWN.deny_w = 0
LEARNED_OWN.win_tiles = 0
cdef Params LEARNED_FULL_OWN = LEARNED_FULL
LEARNED_FULL_OWN.opp_w = 0
LEARNED_FULL_OWN.deny_w = 0
LEARNED_FULL_OWN.win_tiles = 0
cdef Params LEARNED_MARGIN = LEARNED
LEARNED_MARGIN.deny_w = 0
cdef Params LEARNED_FULL_MARGIN = LEARNED_FULL
LEARNED_FULL_MARGIN.deny_w = 0
cdef Params LEARNED_HALF = LEARNED_MARGIN
LEARNED_HALF.opp_w = 0.5
cdef Params LEARNED_FULL_HALF = LEARNED_FULL_MARGIN
LEARNED_FULL_HALF.opp_w = 0.5

# strong: learned's two searches with the value network at the leaves (the same trees, the same rollouts).
cdef Params STRONG = LEARNED
STRONG.net = True
cdef Params STRONG_FULL = LEARNED_FULL
STRONG_FULL.net = True

# Each search's parameters, by SEARCH_ code (a cpdef enum indexes a C array only as an int).
cdef const Params *SEARCH_PARAMS[N_SEARCHES]
SEARCH_PARAMS[<int> SEARCH_MCTS] = &MCTS
SEARCH_PARAMS[<int> SEARCH_LEARNED] = &LEARNED
SEARCH_PARAMS[<int> SEARCH_FAST] = &FAST
SEARCH_PARAMS[<int> SEARCH_TRAINING] = &TRAINING
SEARCH_PARAMS[<int> SEARCH_LEFTOVER_TRAINING] = &LEFTOVER_TRAINING
SEARCH_PARAMS[<int> SEARCH_LEARNED_FULL] = &LEARNED_FULL
SEARCH_PARAMS[<int> SEARCH_LEARNED_OWN] = &LEARNED_OWN
SEARCH_PARAMS[<int> SEARCH_LEARNED_FULL_OWN] = &LEARNED_FULL_OWN
SEARCH_PARAMS[<int> SEARCH_LEARNED_MARGIN] = &LEARNED_MARGIN
SEARCH_PARAMS[<int> SEARCH_LEARNED_FULL_MARGIN] = &LEARNED_FULL_MARGIN
SEARCH_PARAMS[<int> SEARCH_LEARNED_HALF] = &LEARNED_HALF
SEARCH_PARAMS[<int> SEARCH_LEARNED_FULL_HALF] = &LEARNED_FULL_HALF
SEARCH_PARAMS[<int> SEARCH_STRONG] = &STRONG
SEARCH_PARAMS[<int> SEARCH_STRONG_FULL] = &STRONG_FULL
# Each search's name for its errors: its family's (installed from azul_fast.core.bots.families).
cdef list SEARCH_NAMES = [f"search {code}" for code in range(N_SEARCHES)]


def name_search(int search, str name):
    """Name the search with SearchId code `search` `name` in its errors (its family's name)."""
    if not 0 <= search < N_SEARCHES:
        raise ValueError(f"name_search({search}, {name!r}): a SearchId code expected")
    SEARCH_NAMES[search] = name
