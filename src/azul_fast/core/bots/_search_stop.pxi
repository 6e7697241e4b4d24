# When a search stops: its move decided, a test's limits, an interrupted run (included by _search.pyx).

# Whether a search stops once its move is decided (decided_after): always, except where a test
# turns it off to show that the full budget plays the same moves as the exact stop (set_early_stop).
cdef bint early_stop = True


def set_early_stop(enabled):
    """Let searches stop once their move is decided (True, the default) or run their whole
    budget (False). For the test that the exact early stop changes no move."""
    global early_stop
    early_stop = bool(enabled)


cdef bint unsettled(const Node *nodes) noexcept nogil:
    """Whether the root's most visited child is not also its visited child of highest mean value
    (the first of either in the root's order): the iterations so far disagree about the move."""
    cdef const Node *root = &nodes[0]
    cdef int i, top = root.first_child, good = root.first_child
    for i in range(root.first_child, root.first_child + root.n_children):
        if nodes[i].visits > nodes[top].visits:
            top = i
        if nodes[i].visits > 0 and (nodes[good].visits == 0 or nodes[i].mean > nodes[good].mean):
            good = i
    return top != good


cdef int decided_after(const Node *nodes, int done, int budget, double share) noexcept nogil:
    """-1 when the root's most visited child can no longer be overtaken after `done` of `budget`
    iterations (the move played is then already known: the exact early stop), else the iteration
    at which that could first be true.

    Every iteration visits one root child, so in the `budget - done` left a rival gains at most
    that many visits. The leader must stay strictly ahead of every rival (a tie is broken by the
    totals, which the iterations left could still change). The gap to the runner-up grows by at
    most one an iteration while the iterations left shrink by one, so the shortfall closes by at
    most two an iteration: checking again before then would only cost time.

    With `share` below 1 (Params.stop_share at the player count) a rival is credited only
    that share of the iterations left, rounded up: the relaxed stop, checked every iteration (its
    shortfall closes unevenly).
    """
    cdef const Node *root = &nodes[0]
    cdef uint32_t top = 0, second = 0, v
    cdef int i, shortfall, credit
    for i in range(root.first_child, root.first_child + root.n_children):
        v = nodes[i].visits
        if v > top:
            second = top
            top = v
        elif v > second:
            second = v
    credit = budget - done if share >= 1 else <int>ceil((budget - done) * share)
    shortfall = credit - <int>(top - second) + 1
    if shortfall <= 0:
        return -1
    return done + (shortfall + 1) // 2 if share >= 1 else done + 1


# The most nodes a search tree may have: no limit, except where a test lowers it to make the
# allocation fail as it would on a machine out of memory (set_tree_limit).
cdef int tree_limit = INT_MAX


# Set by `request_stop` (the run loops call it on Ctrl-C or SIGTERM, from Python with the GIL) and
# read by every search without the GIL: volatile, so a search spinning in its loop sees the store.
# A search checks it every STOP_CHECK iterations (some milliseconds), which costs nothing that counts.
cdef extern from *:
    """
    static volatile int azul_fast_stop_requested = 0;
    """
    int stop_requested "azul_fast_stop_requested"

cdef enum:
    STOP_CHECK = 1024   # a power of two: iterations between two looks at stop_requested


def request_stop(bint stop=True):
    """Make every search in the process (True) raise KeyboardInterrupt within some milliseconds,
    or let them run again (False). The run loops call it when Ctrl-C or SIGTERM stops a run, so
    that a thread in the middle of a long search does not finish its game first."""
    global stop_requested
    stop_requested = stop


def set_tree_limit(limit):
    """Make every search whose tree would need more than `limit` nodes fail its allocation
    (MemoryError); None lifts the limit. For tests of the out-of-memory path."""
    global tree_limit
    tree_limit = INT_MAX if limit is None else limit


# A search in the main thread (State.choose, a study's rollouts on one worker) also runs the
# process's signal handlers at each look, as the interpreter would between bytecodes: Ctrl-C, or
# SIGTERM turned into KeyboardInterrupt, stops it at once. Other threads cannot run them.
cdef extern from "pythread.h":
    unsigned long PyThread_get_thread_ident() nogil   # safe without the GIL: it reads the OS thread id

cdef unsigned long main_thread = PyThread_get_thread_ident()
