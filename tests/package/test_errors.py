"""One error family: every exception class of the library derives from `azul_fast.AzulFastError` and from the
built-in exception of its kind, and docs/getting-started.md lists each one."""

import ast
import importlib
import re
from pathlib import Path

import pytest

import azul_fast
from azul_fast import AzulFastError

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "azul_fast"
#: Exceptions that are signals inside one module's callers, never raised to a user of the library.
INTERNAL = {"azul_fast.web.engine.Busy": "the board's engine tells its app a job runs (an HTTP answer)"}


def _error_classes() -> dict[str, type]:
    """Every public exception class defined in the package's Python modules, by its dotted path."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        names = [node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                 if isinstance(node, ast.ClassDef) and not node.name.startswith("_")]
        if not names or module.endswith("__main__"):
            continue
        loaded = importlib.import_module(module)
        for name in names:
            cls = getattr(loaded, name)
            # a warning class is not an error: it is never raised to a caller
            if isinstance(cls, type) and issubclass(cls, BaseException) and not issubclass(cls, Warning) \
                    and cls is not AzulFastError and f"{module}.{name}" not in INTERNAL:
                found[f"{module}.{name}"] = cls
    return found


ERRORS = _error_classes()


def test_every_exception_exported_by_azul_fast_derives_from_azul_fast_error():
    exported = [getattr(azul_fast, name) for name in azul_fast.__all__]
    errors = [cls for cls in exported if isinstance(cls, type) and issubclass(cls, BaseException)]
    assert AzulFastError in errors and len(errors) > 3
    assert all(issubclass(cls, AzulFastError) for cls in errors), errors


@pytest.mark.parametrize("path", sorted(ERRORS))
def test_every_error_of_the_package_is_an_azul_fast_error_and_a_built_in_one(path):
    cls = ERRORS[path]
    assert issubclass(cls, AzulFastError)
    assert any(base.__module__ == "builtins" and base is not Exception for base in cls.__mro__[1:]) or \
        path.endswith("UsageError"), f"{path} is not also the built-in exception of its kind"


def test_the_getting_started_page_lists_every_error():
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `azul_fast\.([\w.]+)` \|", page, re.M))
    public = {path.removeprefix("azul_fast.") for path in ERRORS if not path.startswith("azul_fast.cli.")}
    # the ones `import azul_fast` gives are listed by that name
    exported = {name for name in azul_fast.__all__ if name.endswith("Error")}
    assert {path.rsplit(".", 1)[-1] if path.rsplit(".", 1)[-1] in exported else path for path in public} == listed
