"""The registry of built-in policies (they run inside the native core)."""

from __future__ import annotations

__all__ = ["available_policies", "native_policy_id"]

# Name -> id in _policies.pxd (PolicyId). Order is part of the rules version.
_NATIVE = {"random": 0, "greedy": 1}


def available_policies() -> list[str]:
    """Names of the built-in policies.

    >>> available_policies()
    ['random', 'greedy']
    """
    return list(_NATIVE)


def native_policy_id(name: str) -> int:
    """The core's id for a built-in policy; an unknown name lists the valid ones."""
    try:
        return _NATIVE[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown policy {name!r}; valid policies: {', '.join(_NATIVE)}") from None
