"""What the command-line tests share: running `azul-fast` in-process or as a real process."""

import os
import subprocess
import sys
from pathlib import Path

from azul_fast import cli

SRC = Path(__file__).resolve().parents[1] / "src"


COMMANDS = ["simulate", "seats", "openings", "replay", "report", "bench", "ladder", "strength"]


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_subprocess(*argv, cwd=None, module="azul_fast"):
    env = dict(os.environ, PYTHONPATH=str(SRC), MPLBACKEND="Agg")
    return subprocess.run([sys.executable, "-m", module, *map(str, argv)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)
