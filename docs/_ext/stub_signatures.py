"""Signatures of the compiled modules' classes and functions, read from their .pyi stubs.

Cython gives autodoc the names and defaults of a method's arguments but not their types; the
stubs that ship for mypy have them. So a documented object of a compiled module (``State.play``)
gets its signature from ``_state.pyi``: one source for the types, checked by ``stubtest``.
"""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path
from typing import Any

_STATIC = "staticmethod"


@functools.cache
def stub_signatures(module_name: str) -> dict[str, tuple[str, str]]:
    """(arguments, return annotation) by qualified name ("State.play") in a module's .pyi, if any."""
    stub = Path(importlib.import_module(module_name).__file__ or "").with_name(module_name.rpartition(".")[2] + ".pyi")
    if not stub.exists():
        return {}
    found: dict[str, tuple[str, str]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.FunctionDef) and f"{prefix}{node.name}" not in found:  # first overload
                args = node.args
                is_static = any(isinstance(d, ast.Name) and d.id == _STATIC for d in node.decorator_list)
                if prefix and not is_static and args.args:
                    args = ast.arguments(posonlyargs=args.posonlyargs, args=args.args[1:], vararg=args.vararg,
                                         kwonlyargs=args.kwonlyargs, kw_defaults=args.kw_defaults,
                                         kwarg=args.kwarg, defaults=args.defaults)
                returns = ast.unparse(node.returns) if node.returns else ""
                found[f"{prefix}{node.name}"] = (f"({ast.unparse(args)})", returns)

    visit(ast.parse(stub.read_text()).body, "")
    return found


def from_stub(app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None,
              return_annotation: str | None) -> tuple[str, str] | None:
    if what not in ("function", "method", "class") or signature is None:
        return None
    module = getattr(obj, "__module__", None) or ""
    qualname = getattr(obj, "__qualname__", "")
    if what == "class":
        qualname += ".__init__"
    if not module.startswith("azul_fast._"):
        return None
    found = stub_signatures(module).get(qualname)
    return (found[0], found[1] if what != "class" else "") if found else None


def setup(app: Any) -> dict[str, Any]:
    app.connect("autodoc-process-signature", from_stub)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
