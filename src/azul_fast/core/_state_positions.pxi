# A position as data and back: the bodies of State.to_dict and State.from_dict, which convert between
# the packed Game struct and the JSON format of docs/engine-spec.md (section 9). Included by _state.pyx
# at module level.


cdef dict position_dict(State state):
    """`State.to_dict`: every field of the position (docs/engine-spec.md, section 9)."""
    boards = []
    for p in range(state.g.players):
        wall = ["".join("." if c is None else COLOR_LETTERS[c] for c in row) for row in state.wall_colors(p)]
        lines = []
        for r in range(5):
            color, count = state.pattern_line(p, r)
            lines.append([None if color is None else COLOR_LETTERS[color], count])
        floor = "".join("M" if x is MARKER else COLOR_LETTERS[x] for x in state.floor(p))
        boards.append({"score": state.g.boards[p].score, "wall": wall, "lines": lines, "floor": floor})
    return {
        "format": POSITION_FORMAT,
        "variant": state.variant,
        "players": state.g.players,
        "round": state.g.round,
        "max_rounds": state.g.max_rounds,
        "current_player": state.g.current_player,
        "start_player": state.g.start_player,
        "marker_holder": state.marker_holder,
        "game_over": bool(state.g.game_over),
        "truncated": bool(state.g.truncated),
        "tiling": None if not state.g.placing else {"player": state.g.tile_player, "line": state.g.tile_line},
        "factories": state.factories.tolist(),
        "center": state.center.tolist(),
        "center_has_marker": bool(state.g.center_has_marker),
        "bag": state.bag.tolist(),
        "lid": state.lid.tolist(),
        "boards": boards,
        "rng": {"bag": state.g.bag_rng, "policy": state.g.policy_rng},
    }


cdef set_position(Game *g, dict p):
    """Write the validated position `p` (`validate_position`'s output) into the zeroed game `g`."""
    cdef Board *b
    g.players = p["players"]
    g.variant = VARIANTS.index(p["variant"])
    if p["tiling"] is not None:
        g.placing = 1
        g.tile_player = p["tiling"]["player"]
        g.tile_line = p["tiling"]["line"]
    g.n_factories = 2 * g.players + 1
    g.round = p["round"]
    g.max_rounds = p["max_rounds"]
    g.current_player = p["current_player"]
    g.start_player = p["start_player"]
    g.marker_holder = NO_PLAYER if p["marker_holder"] is None else p["marker_holder"]
    g.center_has_marker = p["center_has_marker"]
    g.game_over = p["game_over"]
    g.truncated = p["truncated"]
    g.bag_rng = p["rng"]["bag"]
    g.policy_rng = p["rng"]["policy"]
    for c in range(N_COLORS):
        g.sources[CENTER][c] = p["center"][c]
        g.bag[c] = p["bag"][c]
        g.lid[c] = p["lid"][c]
        for f, counts in enumerate(p["factories"]):
            g.sources[f][c] = counts[c]
    for i, board in enumerate(p["boards"]):
        b = &g.boards[i]
        b.score = board["score"]
        b.wall = board["wall"]
        for c in range(N_COLORS):
            b.color_cells[c] = board["cells"][c]
        for r, (color, count) in enumerate(board["lines"]):
            b.line_color[r] = 0 if color is None else color
            b.line_count[r] = count
        b.floor_count = len(board["floor"])
        for slot, x in enumerate(board["floor"]):
            b.floor[slot] = MARKER_CODE if x is None else x
        refresh_accepts(b)
    refresh_source_masks(g)
    if not g.game_over and not g.placing and not any(g.source_mask[c] for c in range(N_COLORS)):
        raise ValueError("position: the game is not over but no tile is left on the table")
    if g.placing and invariant_violations(g) & BAD_TILING:
        raise ValueError("position field 'tiling': the gray tiling must wait for the current player's full "
                         "line with two or more legal columns, the table empty and the game not over")
