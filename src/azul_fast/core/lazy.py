"""Submodules as attributes, imported on first use: ``azul_fast.studies.seats`` without an import
statement, while ``import azul_fast`` stays light (no scipy, statsmodels or matplotlib until a
study or a chart is asked for).

>>> import azul_fast
>>> azul_fast.studies.seats.__name__
'azul_fast.studies.seats'
>>> azul_fast.studies.nonexistent
Traceback (most recent call last):
AttributeError: module 'azul_fast.studies' has no attribute 'nonexistent'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from types import ModuleType

__all__ = ["lazy_submodules"]


def lazy_submodules(package: str, path: Iterable[str], public: Iterable[str] = (), old: Iterable[str] = ()
                    ) -> tuple[Callable[[str], ModuleType], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__``: its public submodules (no leading ``_``) import on
    first access; ``dir()`` lists them beside the names in `public`, but not the `old` names kept for
    a release (they still import, and warn)."""
    names = sorted(info.name for info in pkgutil.iter_modules(list(path)) if not info.name.startswith("_"))
    listed = sorted({*public, *names} - set(old))

    def __getattr__(name: str) -> ModuleType:
        if name in names:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return list(listed)

    return __getattr__, __dir__
