# Stubs for the Python-visible names of _policies.pyx: the cpdef enums of _policies.pxd.
import enum

class PolicyId(enum.IntEnum):
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_HEURISTIC = 2
    POLICY_MCTS = 3
    POLICY_LEARNED = 4
    POLICY_FAST = 5
    POLICY_TRAINING = 6
    POLICY_LEFTOVER_TRAINING = 7
    POLICY_LEARNED_OWN = 8
    POLICY_LEARNED_MARGIN = 9
    POLICY_LEARNED_HALF = 10
    POLICY_STRONG = 11
    N_POLICIES = 12

POLICY_ID_MASK: int
POLICY_BUDGET_SHIFT: int

def install_family(policy: int, cut: int, full: int) -> None: ...
def family_searches(policy: int) -> tuple[int, int]: ...
