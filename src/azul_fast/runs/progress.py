"""The progress bar that runs show on a terminal (tqdm), or none."""

from __future__ import annotations

import sys
from typing import Protocol

__all__ = ["ProgressBar", "progress_bar"]


class ProgressBar(Protocol):
    """What the runners use of a tqdm bar."""

    def update(self, n: int) -> object: ...

    def close(self) -> None: ...


def progress_bar(total: int, progress: bool | None) -> ProgressBar | None:
    """A bar counting `total` games; with `progress` None, only when stderr is a terminal."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm.auto import tqdm

    bar: ProgressBar = tqdm(total=total, unit="game", unit_scale=True, smoothing=0.1)
    return bar
