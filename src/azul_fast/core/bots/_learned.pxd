# The learned evaluation: a board between rounds described by a few counts (features), and a
# linear model per wall side, player count and game phase that predicts the points the board
# will still gain; and a small network, per wall side and player count, of what the tiles still
# on the table are worth to a seat when a search ends the round early. Both are trained by
# azul_fast.training.pipeline from games the core plays; see learned.py.
from azul_fast.core.rules._board cimport Board, Game

cdef enum:
    N_FEATURES = 31         # the features of board_features, in the order of learned.FEATURES
    N_PHASES = 5            # rounds left by the clock of _board.rounds_left: 1..5
    N_VARIANTS = 2
    N_PLAYER_COUNTS = 3     # 2, 3 and 4 players
    N_LEFTOVER_FEATURES = 17   # the features of leftover_features, in the order of learned.LEFTOVER_FEATURES
    LEFTOVER_UNITS = 4      # hidden units of the leftover network
    NET_INPUTS = N_FEATURES + N_PHASES + 50   # the value network: board_features, the phase, the wall, the lines
    NET_UNITS = 32          # hidden units of the value network

cdef void board_features(const Game *g, int seat, double *x) noexcept nogil
cdef double learned_value(const Game *g, int seat) noexcept nogil
cdef double learned_value_at(const Game *g, int seat, int left) noexcept nogil   # the same, rounds_left given
cdef void leftover_features(const Game *g, int seat, double *x) noexcept nogil
# a round cut short: what the table is worth to each seat
cdef void leftover_values(const Game *g, double *out) noexcept nogil
cdef bint weights_loaded() noexcept nogil
# the value network's estimate of a seat's final score (the strong searches' learned_value_at)
cdef void net_features(const Game *g, int seat, int left, double *x) noexcept nogil
cdef double net_value_at(const Game *g, int seat, int left) noexcept nogil
cdef bint net_used(const Game *g) noexcept nogil   # the network has weights for g's setting
