"""`State`, one Azul position, and `LegalMoves`, its moves: the public face of the compiled `_state`
module, which joins the rules (`azul_fast.core.rules`), the policies (`State.choose`) and the position
formats (`State.to_dict`, `State.to_text`).

>>> from azul_fast.core.state import State
>>> State.new(players=3, seed=2)
<State 3 players, round 1, player 0 to move, scores (0, 0, 0)>
"""

from azul_fast.core._state import State
from azul_fast.core.legal_moves import LegalMoves

__all__ = ["LegalMoves", "State"]
