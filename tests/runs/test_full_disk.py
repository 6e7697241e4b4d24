"""A disk that fills while a parquet file is written: the write fails naming the cause, and leaves
neither the file nor its draft behind (the last buffered bytes are written as the file closes)."""

from __future__ import annotations

import builtins
import errno
import io

import pytest

from azul_fast import save, simulate
from azul_fast.runs import files
from azul_fast.runs.folders import run_to_folder


class _FullAtClose(io.BufferedWriter):
    """A file whose last flush, as it closes, finds the disk full (its bytes so far are on disk)."""

    def close(self) -> None:
        if self.closed:
            return
        super().close()
        raise OSError(errno.ENOSPC, "No space left on device")


class _FullOnWrite(io.BufferedWriter):
    """A file on a disk that fills after its first bytes."""

    def write(self, data) -> int:
        if self.tell() > 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(data)


def _fill_the_disk(monkeypatch, kind: type[io.BufferedWriter]) -> None:
    """Every file that the parquet writer creates (mode "x") fills the disk as `kind` says."""

    def fake_open(file, mode="r", *args, **kwargs):
        if "x" not in mode:
            return builtins.open(file, mode, *args, **kwargs)
        return kind(io.FileIO(file, "x"))

    monkeypatch.setattr(files, "open", fake_open, raising=False)


@pytest.mark.parametrize("kind", [_FullAtClose, _FullOnWrite], ids=["at-close", "on-write"])
def test_a_full_disk_leaves_no_draft_of_a_saved_file(tmp_path, monkeypatch, kind):
    _fill_the_disk(monkeypatch, kind)
    path = tmp_path / "games.parquet"
    with pytest.raises(OSError) as failed:
        save(simulate(200, seed=1, workers=1), path)
    assert failed.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_at_the_last_flush_leaves_no_draft_of_a_run_part(tmp_path, monkeypatch):
    _fill_the_disk(monkeypatch, _FullAtClose)
    folder = tmp_path / "run"
    with pytest.raises(OSError) as failed:
        run_to_folder(folder, 100, seed=1, workers=1)
    assert failed.value.errno == errno.ENOSPC
    left = sorted(path.name for path in folder.iterdir())
    assert not [name for name in left if name.endswith(".tmp")], left
    assert not [name for name in left if name.startswith("part-")], left
