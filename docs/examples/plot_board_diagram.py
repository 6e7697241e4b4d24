"""
Board diagrams
==============

`azul_fast.render_svg` draws a position as SVG: the factories, the centre and every board, with a
legal move outlined if you give one. `azul_fast.save_svg` writes it to a file; in a notebook a
`State` shows itself as this diagram.
"""

# %%
# A position after a few greedy moves, with the next greedy move highlighted: the tiles it takes
# and the pattern line it fills.
import azul_fast as az

state = az.State.new(players=2, seed=2026)
for _ in range(6):
    state.play(state.choose("greedy"))
move = state.choose("greedy")
az.save_svg(state, "colored.svg", move=move, overwrite=True)
print(f"player {state.current_player} to move; greedy plays {move}")

# %%
# The gray wall: the player whose line is full picks the column. While the tiling waits,
# ``state.tiling`` names the seat and line, and the legal moves are placements (``@line.column``);
# the diagram marks the target cell of the one given.
gray = az.State.new(players=2, seed=3, variant="gray")
while gray.tiling is None:
    gray.play(gray.choose("greedy"))
placement = gray.choose("greedy")
az.save_svg(gray, "gray.svg", move=placement, overwrite=True)
print(f"tiling {gray.tiling}: columns {[str(m) for m in gray.legal_moves]}, greedy picks {placement}")
