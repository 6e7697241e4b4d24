"""The run folder that the membership and tampering tests (test_run_membership.py, test_run_tampering.py) share."""

import pytest

from azul_fast.runs.folders import run_to_folder


@pytest.fixture
def finished(tmp_path):
    """A finished 2-player run of 3 parts, and a finished 3-player run with the same part names."""
    run_to_folder(tmp_path / "three", 300, players=3, seed=8, chunk_size=100, workers=1)
    return run_to_folder(tmp_path / "run", 300, seed=7, chunk_size=100, workers=1)
