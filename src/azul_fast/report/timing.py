"""How long a report takes: the measured running times `azul-fast report --help` and the progress header quote.

A module of its own, importing nothing, so that ``--help`` stays fast.
"""

from __future__ import annotations

__all__ = ["MEASURED_SECONDS", "running_time"]

#: Wall-clock seconds `azul-fast report` took on this project's 2-core machine, least and most measured.
#: The machine is shared, so each is a range and a busier machine takes longer: the default took 232 s,
#: 310 s (load average about 5) and 593 s (load average about 13) beside other work, each about 197 s of
#: CPU (so about 2 minutes if both cores were free, not measured);
#: --quick 24 s and 35 s on free cores, 99 s beside other work (30 s of CPU); --thorough 553 s on 2
#: idle cores (one run).
MEASURED_SECONDS = {"quick": (24.0, 99.0), "default": (232.0, 593.0), "thorough": (553.0, 553.0)}


def running_time(setting: str) -> str:
    """How long a report of `setting` took on 2 cores, as measured: '3.9 to 9.9 min', or one figure.

    >>> running_time("default"), running_time("thorough")
    ('3.9 to 9.9 min', '9.2 min')
    """
    least, most = (seconds / 60 for seconds in MEASURED_SECONDS[setting])
    return f"{least:.1f} min" if least == most else f"{least:.1f} to {most:.1f} min"
