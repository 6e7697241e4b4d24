"""SVG diagrams: well-formed, one drawn tile per tile of the position, the right highlight."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from positions import make_position, wall_rows

from azul_fast import CENTER, FLOOR, MARKER, Color, IllegalMoveError, Move, State
from azul_fast.core.formats.board_svg import render_svg, save_svg

SVG = "{http://www.w3.org/2000/svg}"
COLOR_NAMES = [c.name.lower() for c in Color]


def classes(element: ET.Element) -> list[str]:
    return element.get("class", "").split()


def tagged(element: ET.Element, name: str) -> list[ET.Element]:
    """Descendants (and `element` itself) with class `name`."""
    return [e for e in element.iter() if name in classes(e)]


def tile_colors(element: ET.Element) -> list[int]:
    """Per-colour counts of the tiles drawn inside `element`."""
    counts = [0] * 5
    for tile in tagged(element, "tile"):
        (name,) = [c[len("tile-"):] for c in classes(tile) if c.startswith("tile-")]
        counts[COLOR_NAMES.index(name)] += 1
    return counts


def by_id(root: ET.Element, ident: str) -> ET.Element:
    (found,) = [e for e in root.iter() if e.get("id") == ident]
    return found


def played(players: int, seed: int, turns: int) -> State:
    state = State.new(players=players, seed=seed)
    for _ in range(turns):
        if state.is_game_over():
            break
        state.play(state.choose("random"))
    return state


def check_counts(state: State, root: ET.Element) -> None:
    """Every area shows exactly the tiles the position holds there, colour by colour."""
    for f, counts in enumerate(state.factories):
        assert tile_colors(by_id(root, f"factory-{f + 1}")) == counts.tolist()
    centre = by_id(root, "centre")
    assert tile_colors(centre) == state.center.tolist()
    assert len(tagged(centre, "marker")) == state.center_has_marker
    for p in range(state.players):
        for r in range(5):
            color, count = state.pattern_line(p, r)
            line = by_id(root, f"player-{p}-line-{r + 1}")
            expected = [0] * 5
            if color is not None:
                expected[color] = count
            assert tile_colors(line) == expected
            assert len(tagged(line, "slot")) == r + 1 - count
        wall = by_id(root, f"player-{p}-wall")
        placed = state.wall(p)
        assert len(tagged(wall, "tile")) == placed.sum()
        assert len(tagged(wall, "wall-empty")) == 25 - placed.sum()
        floor = by_id(root, f"player-{p}-floor")
        contents = state.floor(p)
        expected = [0] * 5
        for x in contents:
            if x is not MARKER:
                expected[x] += 1
        assert tile_colors(floor) == expected
        assert len(tagged(floor, "marker")) == contents.count(MARKER)
        assert len(tagged(floor, "slot")) == 7 - len(contents)
    # Nothing drawn twice or lost: the picture plus bag and lid hold all 20 tiles of each colour.
    drawn = tile_colors(root)
    assert [d + b + lid for d, b, lid in zip(drawn, state.bag, state.lid)] == [20] * 5


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("turns", [0, 3, 11, 40, 10_000])
def test_well_formed_and_counts_through_a_game(players: int, turns: int) -> None:
    state = played(players, seed=100 * players + turns, turns=turns)
    root = ET.fromstring(render_svg(state))
    assert root.tag == f"{SVG}svg"
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}" and width > 0 and height > 0
    title = root.find(f"{SVG}title")
    assert title is not None and title.text.startswith("Azul position: ")
    assert len(tagged(root, "board")) == players
    assert len(tagged(root, "to-move")) == (0 if state.is_game_over() else 1)
    check_counts(state, root)


def test_a_known_position() -> None:
    state = State.from_dict(make_position(
        3,
        factories=[[1, 1, 1, 1, 0], [0, 0, 4, 0, 0]],
        center=[3, 0, 0, 2, 1],
        center_has_marker=False,
        marker_holder=1,
        boards={
            0: {
                "wall": wall_rows((0, 1), (1, 4), (4, 4)),
                "lines": [["B", 1], [None, 0], ["R", 2], [None, 0], ["W", 4]],
                "floor": "KK",
                "score": 12,
            },
            1: {"floor": "MY"},
        },
    ), reachable=False)
    root = ET.fromstring(render_svg(state))
    assert len(tagged(root, "tile")) == 4 + 4 + 6 + (1 + 2 + 4) + 3 + 2 + 1
    assert len(tagged(root, "wall-empty")) == 22 + 25 + 25
    assert len(tagged(root, "marker")) == 1
    assert tile_colors(by_id(root, "factory-2")) == [0, 0, 4, 0, 0]
    assert tile_colors(by_id(root, "centre")) == [3, 0, 0, 2, 1]
    assert tile_colors(by_id(root, "player-0-line-5")) == [0, 0, 0, 0, 4]
    assert tile_colors(by_id(root, "player-1-floor")) == [0, 1, 0, 0, 0]
    (badge,) = tagged(root, "marker-badge")
    assert badge in by_id(root, "player-1").iter()
    assert "12 points" in "".join(by_id(root, "player-0").itertext())
    # The placed wall tiles sit where the colored wall prints their colour.
    wall = by_id(root, "player-0-wall")
    assert tile_colors(wall) == [1, 1, 0, 1, 0]  # (0, 1) yellow, (1, 4) black, (4, 4) blue
    check_counts(state, root)


def test_only_one_player() -> None:
    state = played(4, seed=5, turns=6)
    root = ET.fromstring(render_svg(state, player=2))
    assert [b.get("id") for b in tagged(root, "board")] == ["player-2"]
    assert render_svg(state, player=np.int64(2)) == render_svg(state, player=2)
    assert len(tagged(root, "factory")) == 9


@pytest.mark.parametrize("players", [2, 4])
def test_highlight_marks_the_source_tiles_and_the_destination(players: int) -> None:
    state = played(players, seed=3, turns=5)
    me = state.current_player
    for move in list(state.legal_moves)[::7]:
        root = ET.fromstring(render_svg(state, move=move))
        source = by_id(root, "centre" if move.source == CENTER else f"factory-{move.source + 1}")
        taken = state.center if move.source == CENTER else state.factories[move.source]
        lit = tagged(root, "highlight")
        lit_tiles = [e for e in lit if "tile" in classes(e)]
        assert len(lit_tiles) == taken[move.color]
        assert all(f"tile-{move.color.name.lower()}" in classes(t) for t in lit_tiles)
        assert all(t in list(source.iter()) for t in lit_tiles)
        target = f"player-{me}-floor" if move.line == FLOOR else f"player-{me}-line-{move.line + 1}"
        assert [e.get("id") for e in lit if "tile" not in classes(e)] == [target]
        assert str(move) in "".join(root.itertext())


def test_highlight_by_notation_and_on_another_players_board() -> None:
    state = State.new(players=2, seed=7)
    move = next(iter(state.legal_moves))
    assert render_svg(state, move=str(move)) == render_svg(state, move=move)
    other = ET.fromstring(render_svg(state, player=1, move=move))
    # Player 0 moves; player 1's board is drawn alone, so only the source tiles light up.
    assert all("tile" in classes(e) for e in tagged(other, "highlight"))


def test_a_gray_wall_placement_lights_the_line_and_the_chosen_cell() -> None:
    state = State.new(players=2, seed=3, variant="gray")
    while state.tiling is None:
        state.play(state.choose("greedy"))
    seat, line = state.tiling
    color = state.pattern_line(seat, line)[0]
    assert color is not None
    for placement in state.legal_moves:
        root = ET.fromstring(render_svg(state, move=placement))
        lit = tagged(root, "highlight")
        assert [e.get("id") for e in lit if e.get("id")] == [f"player-{seat}-line-{line + 1}"]
        (target,) = [e for e in lit if "wall-target" in classes(e)]
        assert target in list(by_id(root, f"player-{seat}-wall").iter())
        assert f"wall-{color.name.lower()}" in [c for e in target.iter() for c in classes(e)]  # the tile, faint
        text = "".join(root.itertext())
        assert f"gray wall \u00b7 wall tiling: player {seat} picks the column of line {line + 1}" in text
        assert f"wall column {placement.column + 1}" in text
    # The chosen cell differs between placements: the x of the outlined cell moves with the column.
    xs = {float(next(e for e in tagged(ET.fromstring(render_svg(state, move=m)), "wall-target")[0].iter()
                     if e.tag == f"{SVG}rect").get("x")) for m in state.legal_moves}
    assert len(xs) == len(state.legal_moves)


def test_each_colour_has_its_own_mark() -> None:
    root = ET.fromstring(render_svg(played(2, seed=1, turns=0)))
    shapes = {}
    for cell in tagged(root, "wall-empty"):
        name = classes(cell)[1]
        mark = list(cell)[1]
        shapes[name] = (mark.tag, len(mark.get("points", "").split()))
    assert len(shapes) == 5 and len(set(shapes.values())) == 5


def test_bad_arguments() -> None:
    state = State.new(players=2, seed=7)
    with pytest.raises(TypeError, match="draws an azul_fast.State"):
        render_svg(state.to_dict())
    with pytest.raises(ValueError, match="player must be in 0..1"):
        render_svg(state, player=2)
    with pytest.raises(ValueError, match="player must be in 0..1"):
        render_svg(state, player=-1)
    with pytest.raises(TypeError, match="player must be an int"):
        render_svg(state, player=True)
    with pytest.raises(TypeError, match="move must be a Move"):
        render_svg(state, move=17)
    with pytest.raises(ValueError, match="bad move notation"):
        render_svg(state, move="9Z9")
    empty = next(f for f in range(state.n_factories) if state.factories[f][Color.RED] == 0)
    with pytest.raises(IllegalMoveError, match="holds no red tile"):
        render_svg(state, move=Move(empty, Color.RED, 0))
    with pytest.raises(IllegalMoveError, match="does not exist"):
        render_svg(state, move=Move(7, Color.RED, 0))
    over = played(2, seed=9, turns=10_000)
    with pytest.raises(IllegalMoveError, match="game is over"):
        render_svg(over, move="CBF")


def test_save_svg_replaces_a_file_only_when_told_and_atomically(tmp_path) -> None:
    state = played(3, seed=2, turns=4)
    path = tmp_path / "position.svg"
    path.write_text("old")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        save_svg(state, path, player=0)
    assert path.read_text() == "old"
    assert save_svg(state, path, player=0, overwrite=True) == path
    assert path.read_text(encoding="utf-8") == render_svg(state, player=0)
    with pytest.raises(ValueError):
        save_svg(state, str(path), player=9, overwrite=True)
    assert path.read_text(encoding="utf-8") == render_svg(state, player=0)
    assert [p.name for p in tmp_path.iterdir()] == ["position.svg"]
