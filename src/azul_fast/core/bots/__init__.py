"""The policies: from `random` and `greedy` to the Monte Carlo tree searches (`_search`), the learned
evaluation they use (`_learned`, `learned`), and the exact solver of a game's final round (`_solve`, `solve`).
`policies` names them and parses a policy string."""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
