"""The package type-checks under mypy --strict (the compiled modules through their .pyi stubs)."""

import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def test_mypy_strict_passes():
    pytest.importorskip("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "-p", "azul_fast"],
        cwd=SRC, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_stubs_and_marker_ship_with_the_package():
    package = SRC / "azul_fast"
    assert (package / "py.typed").exists()
    for module in ("_state", "_board", "_simulate"):
        assert (package / f"{module}.pyi").exists(), module
