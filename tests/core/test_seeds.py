"""One seeds module: fresh entropy in one place, spawning as numpy's SeedSequence does it."""

import numpy as np
import pytest

from azul_fast.core.rules.seeds import check_seed, resolve_seed, spawn_seed, spawn_words


def test_spawned_seeds_are_numpys_children_and_never_added():
    root = 2024
    children = np.random.SeedSequence(root).spawn(3)
    assert [spawn_seed(root, k) for k in range(3)] == [resolve_seed(c) for c in children]
    assert spawn_seed(root, 1) != spawn_seed(root + 1, 0)  # no overlap between neighbouring roots
    assert spawn_words(root, 2, 5, n=2).tolist() == np.random.SeedSequence(root, spawn_key=(2, 5)).generate_state(
        2, np.uint64).tolist()


def test_none_draws_fresh_seeds_and_bad_seeds_name_the_forms():
    assert resolve_seed(None) != resolve_seed(None)
    assert 0 <= check_seed(None) < 2**64
    with pytest.raises(TypeError, match="valid: None, an int"):
        resolve_seed(1.5)
    with pytest.raises(ValueError, match="0..2\\*\\*64-1"):
        resolve_seed(2**64)
