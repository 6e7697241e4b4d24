# The value network: the learned evaluation of the `strong` searches (included by _learned.pyx).
#
# It reads the same board as learned_value (board_features, the seat's own board between rounds)
# and the phase, one input per rounds left, and estimates the points the board will still gain
# through NET_UNITS rectified units: a linear model per phase values each count alone, where the
# worth of a wall tile depends on its row, its column and its colour together. One network per
# wall side and player count, fitted by azul_fast.training.value_net to the games of the strongest
# search. A board's value is its score plus the network's output, as learned_value_at's. A setting
# whose network is all zeros has none: its searches value boards by the linear model, as learned's.
#
# Like WEIGHTS, the arrays are installed once from Python (install_net) and only read by the searches.

# The hidden layer input by input (the units innermost: an input that is not zero updates one
# contiguous row), and the output layer: the units' weights, then the bias.
cdef double NET_HIDDEN[N_VARIANTS][N_PLAYER_COUNTS][NET_INPUTS][NET_UNITS]
cdef double NET_OUTPUT[N_VARIANTS][N_PLAYER_COUNTS][NET_UNITS + 1]
cdef bint NET_USED[N_VARIANTS][N_PLAYER_COUNTS]   # any of a setting's weights is not zero

#: Shape of the value network's hidden layer: wall side, player count (2..4), input, unit.
NET_HIDDEN_SHAPE = (N_VARIANTS, N_PLAYER_COUNTS, NET_INPUTS, NET_UNITS)
#: Shape of its output layer: wall side, player count, the units' weights and then the bias.
NET_OUTPUT_SHAPE = (N_VARIANTS, N_PLAYER_COUNTS, NET_UNITS + 1)


# Input layout after board_features' N_FEATURES counts.
cdef enum:
    I_PHASE = N_FEATURES                # + left - 1: one input per rounds left
    I_WALL = I_PHASE + N_PHASES         # + cell (row * 5 + column): the wall's tiles
    I_LINES = I_WALL + 25               # + row * 5 + colour: a partly filled line's fill (tiles / length)


cdef void net_features(const Game *g, int seat, int left, double *x) noexcept nogil:
    """The value network's inputs for seat `seat` (`left`: its game's rounds_left) into x[0 .. NET_INPUTS - 1]."""
    cdef const Board *b = &g.boards[seat]
    cdef int i, r
    board_features(g, seat, x)
    memset(&x[N_FEATURES], 0, (NET_INPUTS - N_FEATURES) * sizeof(double))
    x[I_PHASE + left - 1] = 1
    for i in range(25):
        if (b.wall >> i) & 1:
            x[I_WALL + i] = 1
    for r in range(N_LINES):
        if b.line_count[r]:
            x[I_LINES + r * 5 + b.line_color[r]] = b.line_count[r] / (r + 1.0)


cdef double net_value_at(const Game *g, int seat, int left) noexcept nogil:
    """The value network's estimate of `seat`'s final score in a game not over whose rounds_left is `left`."""
    cdef double x[NET_INPUTS]
    cdef double units[NET_UNITS]
    cdef double v
    cdef int i, u
    net_features(g, seat, left, x)
    cdef const double *hidden = &NET_HIDDEN[g.variant][g.players - 2][0][0]   # [input][unit]
    cdef const double *output = NET_OUTPUT[g.variant][g.players - 2]
    memset(units, 0, sizeof(units))
    for i in range(NET_INPUTS):
        if x[i] != 0:   # most counts are zero at any one time
            for u in range(NET_UNITS):
                units[u] += hidden[i * NET_UNITS + u] * x[i]
    v = g.boards[seat].score + output[NET_UNITS]
    for u in range(NET_UNITS):
        if units[u] > 0:
            v += output[u] * units[u]
    return v


cdef bint net_used(const Game *g) noexcept nogil:
    """Whether the value network has weights for `g`'s wall side and player count."""
    return NET_USED[g.variant][g.players - 2]


def install_net(hidden, output):
    """Install the value network's `hidden` (NET_HIDDEN_SHAPE) and `output` (NET_OUTPUT_SHAPE) layers,
    validated by value_net.py, for every later game (never while games run)."""
    arrays = []
    for name, a, shape in (("hidden layer", hidden, NET_HIDDEN_SHAPE), ("output layer", output, NET_OUTPUT_SHAPE)):
        a = np.ascontiguousarray(a, dtype=np.float64)
        if a.shape != shape:
            raise ValueError(f"the value network's {name} has shape {a.shape}, expected {shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"the value network's {name} must be finite")
        arrays.append(a)
    cdef double[:, :, :, ::1] h = arrays[0]
    cdef double[:, :, ::1] o = arrays[1]
    memcpy(&NET_HIDDEN[0][0][0][0], &h[0, 0, 0, 0], sizeof(NET_HIDDEN))
    memcpy(&NET_OUTPUT[0][0][0], &o[0, 0, 0], sizeof(NET_OUTPUT))
    cdef int v, p
    for v in range(N_VARIANTS):
        for p in range(N_PLAYER_COUNTS):
            NET_USED[v][p] = bool(arrays[0][v, p].any() or arrays[1][v, p].any())


def installed_net():
    """Copies of the value network in use, (hidden layer, output layer): zeros before one is installed."""
    hidden = np.empty(NET_HIDDEN_SHAPE, dtype=np.float64)
    output = np.empty(NET_OUTPUT_SHAPE, dtype=np.float64)
    cdef double[:, :, :, ::1] hidden_view = hidden
    cdef double[:, :, ::1] output_view = output
    memcpy(&hidden_view[0, 0, 0, 0], &NET_HIDDEN[0][0][0][0], sizeof(NET_HIDDEN))
    memcpy(&output_view[0, 0, 0], &NET_OUTPUT[0][0][0], sizeof(NET_OUTPUT))
    return hidden, output
