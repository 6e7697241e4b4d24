"""The game, by idea:

- `azul_fast.core.rules`: the rules over packed integer boards (`_board`), moves and their notation,
  argument checks, seeds, scoring kernels, and the pure-Python reference engine that checks them;
- `azul_fast.core.bots`: the policies, from `random` to the learned search, their evaluation and the
  exact solver of a final round;
- `azul_fast.core.formats`: a position as JSON and as one line of text, a board as text and as SVG;
- `State` (`azul_fast.core.state`), the position that joins them, and `play_game`/`PlayedGame`.

Nothing here imports from the other subpackages: `runs`, `training`, `studies` and `report` build on this.
"""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
