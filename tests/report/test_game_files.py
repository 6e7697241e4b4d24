"""One game's files from the library: a replay's diagrams and a review's folder (report/game_files.py)."""

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from azul_fast import State, play_game, render_svg  # noqa: E402
from azul_fast.core.played_game import game_document, replay_document  # noqa: E402
from azul_fast.report.folder import REPLAY_MANIFEST, written_files  # noqa: E402
from azul_fast.report.game_files import replay_positions, write_replay_diagrams, write_review  # noqa: E402


def _review_table(moves, flags, players, seed, variant="colored"):
    """A review table as `review_game` returns it, with only what the folder's files read."""
    table = pd.DataFrame({"ply": range(len(moves)), "seat": [ply % players for ply in range(len(moves))],
                          "move": [str(move) for move in moves], "flag": flags,
                          "first_player_share": [0.5] * len(moves)})
    table.attrs.update(players=players, seed=seed, variant=variant)
    return table


def test_a_review_of_a_game_people_played_draws_its_own_deals(tmp_path):
    """The boards of a document's review are of the document's deals, not of the seed in the table."""
    positions = replay_document(game_document(players=2, policy="greedy", seed=12345))
    moves = [move for _state, move in positions[:3]]
    table = _review_table(moves, ["", "mistake", "blunder"], players=2, seed=0)
    written = write_review(tmp_path / "review", table, game_document(players=2, policy="greedy", seed=12345))
    assert [path.name for path in written] == ["review.csv", "first_player_share.png", "first_player_share.svg",
                                               "move-002.svg", "move-003.svg"]
    for ply in (1, 2):
        board = (tmp_path / "review" / f"move-{ply + 1:03d}.svg").read_text(encoding="utf-8")
        assert board == render_svg(positions[ply][0], move=str(moves[ply]))
    assert pd.read_csv(tmp_path / "review" / "review.csv").move.tolist() == [str(move) for move in moves]


def test_a_review_of_a_simulated_game_replays_its_seed(tmp_path):
    record = play_game(3, "greedy", seed=7, variant="gray")
    table = _review_table(record.moves[:4], ["blunder", "", "", "mistake"], players=3, seed=7, variant="gray")
    write_review(tmp_path / "review", table)
    state = State.new(3, seed=7, variant="gray")
    assert (tmp_path / "review" / "move-001.svg").read_text(encoding="utf-8") == render_svg(state, move=record.moves[0])


def test_a_review_folder_keeps_a_file_already_there(tmp_path):
    record = play_game(2, "greedy", seed=7)
    (tmp_path / "first_player_share.svg").write_text("the user's")
    with pytest.raises(FileExistsError, match="review writes only into a new folder"):
        write_review(tmp_path, _review_table(record.moves[:2], ["", ""], players=2, seed=7))
    assert (tmp_path / "first_player_share.svg").read_text() == "the user's"


def test_replay_diagrams_cut_short_are_listed_as_written(tmp_path, monkeypatch):
    """A drawing stopped midway lists what it wrote, so the next replay replaces exactly those."""
    from azul_fast.report import game_files

    record = play_game(2, "greedy", seed=12345)
    real, drawn = game_files.save_svg, []

    def stop_after_three(state, path, **kwargs):
        if len(drawn) == 3:
            raise KeyboardInterrupt
        drawn.append(real(state, path, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(game_files, "save_svg", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        write_replay_diagrams(record, tmp_path)
    assert written_files(tmp_path, REPLAY_MANIFEST) == {"move-001.svg", "move-002.svg", "move-003.svg"}
    monkeypatch.setattr(game_files, "save_svg", real)
    assert len(write_replay_diagrams(record, tmp_path)) == record.turns + 1
    assert len(written_files(tmp_path, REPLAY_MANIFEST)) == record.turns + 1


def test_the_replayed_positions_end_where_the_game_ended():
    record = play_game(2, ["greedy", "random"], seed=5, max_rounds=2)
    positions = list(replay_positions(record, max_rounds=2))
    assert [move for _state, move in positions] == [*record.moves, None]
    assert positions[-1][0].to_text() == record.state.to_text()
