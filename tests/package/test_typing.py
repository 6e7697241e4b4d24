"""The package type-checks under mypy --strict, and the .pyi stubs match the compiled modules."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
#: Compiled modules with Python-visible names (_policies exposes only C-level ones besides its enums).
STUBBED = ("azul_fast.core._state", "azul_fast.core.rules._board", "azul_fast.runs._simulate",
           "azul_fast.core.bots._learned", "azul_fast.training._training", "azul_fast.core.bots._search",
           "azul_fast.core.bots._solve", "azul_fast.runs._rollouts")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy")
    return subprocess.run([sys.executable, "-m", *args], cwd=SRC, capture_output=True, text=True)


def test_mypy_strict_passes():
    done = _run("mypy", "--strict", "-p", "azul_fast")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_passes_without_the_dask_and_board_extras(tmp_path):
    """`pip install -e ".[test]" && pytest` (no dask, no board) must pass too: with an extra missing
    mypy sees its modules as Any. Skipping their imports reproduces that when they are installed."""
    config = tmp_path / "pyproject.toml"
    config.write_text((ROOT / "pyproject.toml").read_text() + "\n[[tool.mypy.overrides]]\n"
                      'module = ["dask", "dask.*", "distributed", "distributed.*", "starlette", "starlette.*", '
                      '"uvicorn", "uvicorn.*"]\nfollow_imports = "skip"\n')
    done = _run("mypy", "--config-file", str(config), "--strict", "-p", "azul_fast")
    assert done.returncode == 0, done.stdout + done.stderr


def test_stubs_match_the_compiled_modules():
    """stubtest imports each module and compares every name, signature and property with its .pyi."""
    done = _run("mypy.stubtest", "--mypy-config-file", str(ROOT / "pyproject.toml"),
                "--allowlist", str(ROOT / "tests" / "stubtest_allowlist.txt"), *STUBBED)
    assert done.returncode == 0, done.stdout + done.stderr


def test_marker_and_stubs_ship_with_the_package():
    package = SRC / "azul_fast"
    assert (package / "py.typed").exists()
    for module in STUBBED:
        assert (SRC.joinpath(*module.split(".")).with_suffix(".pyi")).exists(), module
