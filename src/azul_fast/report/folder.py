"""The report folder: built beside the target and swapped in whole, never deleting a file a report
did not write.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

# The report's sizes and defaults (SETTINGS, default_policy, ...) live in azul_fast.studies.settings.



#: What a report folder holds: the page, the summary, tables, charts and the games.
REPORT_SUFFIXES = (".html", ".md", ".csv", ".png", ".svg", ".parquet")


def check_out_folder(out: Path) -> None:
    """A report goes into a new or empty folder, or replaces an earlier report whole; a folder with
    anything a report does not write is refused, so no other file is ever deleted."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file; a report is a folder")
    entries = list(out.iterdir()) if out.is_dir() else []
    if entries and not (out / "index.html").is_file():
        raise ValueError(f"--out {out} holds files but no report (index.html): name a new or empty folder")
    foreign = sorted(p.name for p in entries if p.is_dir() or p.suffix not in REPORT_SUFFIXES)
    if foreign:
        raise ValueError(f"--out {out} holds files a report does not write ({', '.join(foreign[:3])}): "
                         "move them, or name another folder")


def swap_in(staging: Path, out: Path) -> None:
    """Replace `out` (an earlier report, or nothing) with the finished `staging` folder."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.replace(out, old)
    os.replace(staging, out)
    shutil.rmtree(old, ignore_errors=True)
