"""The files of one game for people to look at: a replay's diagrams, a review's folder.

Both follow the project's output rule (`azul_fast.core.output`): every file is written new, so a
file of the user's is never replaced; the replay diagrams of an earlier call are replaced only
because, and only as far as, the folder's manifest proves that call wrote them
(`azul_fast.report.folder`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from azul_fast.core.formats.board_svg import save_svg
from azul_fast.core.output import check_not_link
from azul_fast.report.folder import REPLAY_MANIFEST, record_files, written_files

if TYPE_CHECKING:
    import pandas as pd

    from azul_fast.core.game import GameRecord
    from azul_fast.core.state import State

__all__ = ["replay_diagram_names", "replay_positions", "write_replay_diagrams", "write_review"]

#: A file that appeared in the replay's folder while the diagrams were written is not replaced.
_REPLAY_HINT = "replay replaces only the diagrams it wrote; move it, or name another folder"
#: A file that appeared in a review's new folder while it ran is not replaced.
_REVIEW_HINT = "review writes only into a new folder; remove what appeared there or name another"


def replay_positions(record: GameRecord, first_player: int = 0,
                     max_rounds: int = 100) -> Iterator[tuple[State, str | None]]:
    """Replay `record` (`azul_fast.play_game`'s, with the same `first_player` and `max_rounds`): the
    position before each move with that move, then the final position with None.

    Examples
    --------
    >>> from azul_fast import play_game
    >>> record = play_game(2, "greedy", seed=12345)
    >>> positions = list(replay_positions(record))
    >>> len(positions) == record.turns + 1, positions[0][1] == record.moves[0], positions[-1][1]
    (True, True, None)
    """
    from azul_fast.core.state import State

    state = State.new(len(record.policies), seed=record.seed, first_player=first_player, max_rounds=max_rounds,
                      variant=record.variant)
    for move in record.moves:
        yield state, move
        state.play(move)
    yield state, None


def replay_diagram_names(turns: int) -> list[str]:
    """The diagrams of a game of `turns` moves: ``move-001.svg`` ... then ``final.svg``.

    >>> replay_diagram_names(2)
    ['move-001.svg', 'move-002.svg', 'final.svg']
    """
    return [f"move-{number:03d}.svg" for number in range(1, turns + 1)] + ["final.svg"]


def write_replay_diagrams(record: GameRecord, folder: str | os.PathLike[str], first_player: int = 0,
                          max_rounds: int = 100) -> list[Path]:
    """Draw the game `record` into `folder`: one diagram a move, before it is played and with it
    highlighted, then the final position (`replay_diagram_names`); return the files written.

    `folder` is created if needed. The diagrams an earlier call wrote there (listed, unchanged, in
    its manifest `REPLAY_MANIFEST`) are removed first, so none of a longer game is left over; no
    other file is touched. The manifest lists what was written, also when the drawing is cut short.

    Parameters
    ----------
    record : GameRecord
        The game (`azul_fast.play_game`).
    folder : path-like
        Where the diagrams go.
    first_player, max_rounds : int
        As given to `play_game` for `record`.

    Returns
    -------
    list of pathlib.Path
        The diagrams, in the order of the game.

    Raises
    ------
    ValueError
        Before anything is written, if `folder` holds a file of one of the diagrams' names that an
        earlier call did not write (or that changed since).
    FileExistsError
        If such a file appears while the diagrams are written (it is kept).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from azul_fast import play_game
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "notes.txt").write_text("mine")
    >>> record = play_game(2, "greedy", seed=12345)
    >>> len(write_replay_diagrams(record, folder)) == record.turns + 1
    True
    >>> _ = write_replay_diagrams(record, folder)   # again: its own diagrams are replaced
    >>> (folder / "notes.txt").read_text(), (folder / "final.svg").exists()
    ('mine', True)
    >>> _ = (folder / "final.svg").write_text("edited")   # changed since: the user's now
    >>> write_replay_diagrams(record, folder)
    Traceback (most recent call last):
    ...
    ValueError: ... holds final.svg, not written by an earlier replay (or changed since): move it, ...
    """
    folder = check_not_link(folder, "replay folder")
    names = replay_diagram_names(record.turns)
    _clear_earlier_diagrams(folder, names)
    written: list[Path] = []
    try:
        for name, (state, move) in zip(names, replay_positions(record, first_player, max_rounds)):
            written.append(save_svg(state, folder / name, move=move, hint=_REPLAY_HINT))
    finally:  # also when cut short: what was written is this call's to replace next time
        record_files(folder, [path.name for path in written], REPLAY_MANIFEST)
    return written


def _clear_earlier_diagrams(folder: Path, names: list[str]) -> None:
    """Create `folder` if needed and remove the diagrams an earlier replay wrote there; refuse (ValueError)
    a file of one of `names` that a replay did not write (a user's ``move-001.svg``), before removing any."""
    folder.mkdir(parents=True, exist_ok=True)
    ours = written_files(folder, REPLAY_MANIFEST)
    theirs = [name for name in names if os.path.lexists(folder / name) and name not in ours]
    if theirs:
        raise ValueError(f"{folder} holds {', '.join(theirs[:3])}, not written by an earlier replay (or changed "
                         f"since): move it, or name another folder")
    for name in ours:
        (folder / name).unlink()


def write_review(out: str | os.PathLike[str], table: pd.DataFrame,
                 document: dict[str, Any] | None = None) -> list[Path]:
    """Write the review `table` (`azul_fast.studies.analyse.review_game`) into the folder `out`; return
    the files written.

    The folder (created if needed) gets ``review.csv`` (the table, shares as 0-1 fractions), the
    chart of the first player's win share (``first_player_share.png`` and ``.svg``,
    `azul_fast.report.review_chart`) and the board before every flagged move, that move marked
    (``move-NNN.svg``, numbered from 1). Every file is new: one already there is kept and
    FileExistsError raised, naming it.

    Parameters
    ----------
    out : path-like
        The folder.
    table : pandas.DataFrame
        `review_game`'s table, with its ``attrs`` (the game's players, seed and wall).
    document : dict or None
        The game document the review was of, if it was a game people played (its deals are not the
        seed's); None for a simulated game.

    Returns
    -------
    list of pathlib.Path
        The CSV, the chart's two files, then the boards.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from azul_fast.studies.analyse import review_game
    >>> table = review_game(seed=3, policy="greedy", rollouts=20, paired=2, max_nodes=0,
    ...                     progress=lambda rows: len(rows) == 3)
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "review"
    >>> [path.name for path in write_review(out, table)][:3]
    ['review.csv', 'first_player_share.png', 'first_player_share.svg']
    >>> write_review(out, table)
    Traceback (most recent call last):
    ...
    FileExistsError: [Errno 17] exists, and is not replaced (review writes only into a new folder; ...
    """
    import matplotlib.pyplot as plt

    from azul_fast.core.output import write_new
    from azul_fast.report import charts
    from azul_fast.report.review_chart import plot_first_player_share

    out = check_not_link(out, "review folder")
    positions = _reviewed_positions(table, document)
    out.mkdir(parents=True, exist_ok=True)
    written = [write_new(out / "review.csv", lambda tmp: table.to_csv(tmp, index=False), hint=_REVIEW_HINT)]
    with charts.azul_style():
        fig, ax = plt.subplots(figsize=(8, 3.5))
        plot_first_player_share(table, ax=ax)
        written += charts.save_figure(fig, out / "first_player_share", hint=_REVIEW_HINT)
        plt.close(fig)
    for ply, move, flag in zip(table.ply.tolist(), table.move.tolist(), table.flag.tolist()):
        if flag:
            written.append(save_svg(positions[ply], out / f"move-{ply + 1:03d}.svg", move=str(move),
                                    hint=_REVIEW_HINT))
    return written


def _reviewed_positions(table: pd.DataFrame, document: dict[str, Any] | None) -> list[State]:
    """The position before every move of the reviewed game (a document's own deals, or the replay)."""
    from azul_fast.core.played_game import replay_document
    from azul_fast.core.state import State

    if document is not None:
        return [state for state, _move in replay_document(document)]
    state = State.new(table.attrs["players"], seed=table.attrs["seed"], variant=table.attrs["variant"])
    positions = []
    for move in table.move.tolist():
        positions.append(state.copy())
        state.play(str(move))
    return positions
