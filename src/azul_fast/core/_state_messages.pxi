# The texts the State shows for the core's codes: which invariants a position breaks, and why a move
# is illegal. Included by _state.pyx at module level (the codes are cimported there from _board.pxd).

#: What each bit of _board.Invariant means (keyed by the bits of _board.pxd).
INVARIANT_TEXT = {
    BAD_TILE_COUNT: "a colour is not accounted for exactly 20 times",
    NEGATIVE_SCORE: "a score is negative",
    FLOOR_OVERFULL: "a floor holds more than 7 slots",
    BAD_PATTERN_LINE: "a pattern line is over capacity or holds a colour its wall row has",
    STALE_DERIVED: "derived masks (sources, accepting lines) disagree with the position",
    UNMARKED_TRUNCATION: "the game ended without a complete row and is not marked truncated",
    BAD_WALL_COLORS: "wall colours repeat in a row or column, leave their printed cell, or disagree with the wall",
    BAD_TILING: "a paused wall tiling does not await a real choice of its player",
}


cdef str _why_illegal(MoveError error, move, const Game *g):
    if error == ERR_GAME_OVER:
        return "the game is over"
    if error == ERR_PLACEMENT_PENDING:
        return (f"the wall tiling waits for the column of pattern line {g.tile_line + 1}: "
                f"play a placement (@{g.tile_line + 1}.<column>)")
    if error == ERR_NO_PLACEMENT:
        return "no wall placement is awaited (only the gray wall tiling asks for one)"
    if error == ERR_CELL_TAKEN:
        return f"wall row {move.line + 1} already has a tile in column {move.column + 1}"
    if error == ERR_COLUMN_HAS_COLOR:
        color = Color(g.boards[g.tile_player].line_color[g.tile_line]).name.lower()
        return f"wall column {move.column + 1} already has {color}"
    color = Color(move.color).name.lower()
    line = f"line {move.line + 1}"
    if error == ERR_BAD_SOURCE:
        return f"factory {move.source + 1} does not exist in this game"
    if error == ERR_NO_TILES:
        where = "the centre" if move.source == PY_CENTER else f"factory {move.source + 1}"
        return f"{where} holds no {color} tile"
    if error == ERR_LINE_FULL:
        return f"pattern {line} is full"
    if error == ERR_LINE_OTHER_COLOR:
        return f"pattern {line} already holds another colour"
    if error == ERR_WALL_HAS_COLOR:
        return f"wall row {move.line + 1} already has {color}"
    return "unknown reason"
