"""Many games: a run plan, the native batch kernel, the frames it fills, and where they go
(`simulate`, `simulate_moves`, run folders with their lock and manifest, parquet files, Dask).

Imports only `azul_fast.core`.
"""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
