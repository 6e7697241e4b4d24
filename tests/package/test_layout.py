"""The package's layers: core <- runs <- training <- studies <- report <- web <- cli, imports only ever
pointing down.

Every import of every module (Python and Cython, at the top or inside a function) is read from the
source, so an upward import or a cycle fails here before anyone has to notice it in review.
"""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "azul_fast"
#: Each subpackage and top-level module, by floor: a module may import its own floor and those below.
LAYERS = {"_version": 0, "core": 1, "runs": 2, "training": 3, "studies": 4, "report": 5, "web": 6, "board": 6, "cli": 7,
          "__main__": 8}
#: What `import azul_fast` itself may load: the game and the runs, never scipy/matplotlib's floors.
FACADE_FLOOR = LAYERS["runs"]
_CYTHON_IMPORT = re.compile(
    r"^\s*(?:from\s+(azul_fast[\w.]*)\s+c?import\s+([\w, ]+)|c?import\s+(azul_fast[\w.]*))", re.M)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(base: str, names: list[str]) -> set[str]:
    """`from base import a, b`: a name that is a module of the package counts as that module."""
    found = set()
    for name in names:
        child = f"{base}.{name}"
        relative = Path(*child.split(".")[1:])
        is_module = (PACKAGE / relative).is_dir() or any((PACKAGE / relative).with_suffix(s).exists()
                                                         for s in (".py", ".pyx", ".pxd"))
        found.add(child if is_module else base)
    return found


def _runtime_nodes(tree: ast.AST):
    """Every node but those under ``if TYPE_CHECKING:`` (annotations only: no import at run time)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", "")) == "TYPE_CHECKING":
            continue
        yield node
        yield from _runtime_nodes(node)


def imports_of(path: Path, at_load: bool = False) -> set[str]:
    """Every azul_fast module that the file at `path` imports (with `at_load`, only those its loading
    imports: not those inside a function, which run when the function is called)."""
    text = path.read_text()
    found: set[str] = set()
    if path.suffix == ".py":
        tree = ast.parse(text)
        nodes = [n for n in tree.body if not isinstance(n, ast.If)] if at_load else _runtime_nodes(tree)
        for node in nodes:
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.split(".")[0] == "azul_fast"}
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "azul_fast":
                found |= _resolve(node.module, [a.name for a in node.names])
    else:
        if at_load:  # a cimport and an import at the top of a .pyx are not indented
            text = "\n".join(line for line in text.splitlines() if not line[:1].isspace())
        for base, names, plain in _CYTHON_IMPORT.findall(text):
            found |= _resolve(base, [n.strip() for n in names.split(",")]) if base else {plain}
    return found


def floor(module: str) -> int:
    parts = module.split(".")
    return -1 if len(parts) == 1 else LAYERS[parts[1]]


def graph(at_load: bool = False) -> dict[str, set[str]]:
    sources = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in p.parts]
    edges: dict[str, set[str]] = {}
    for path in sources:
        edges.setdefault(module_name(path), set()).update(imports_of(path, at_load))
    return edges


def test_every_module_belongs_to_a_floor():
    strays = sorted(m for m in graph() if m != "azul_fast" and m.split(".")[1] not in LAYERS)
    assert not strays, f"modules outside the layers of LAYERS: {strays}"


def test_imports_only_point_down():
    upward = sorted(f"{module} imports {target}" for module, targets in graph().items() if module != "azul_fast"
                    for target in targets if target != "azul_fast" and floor(target) > floor(module))
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_the_package_facade_stays_light():
    heavy = sorted(t for t in graph()["azul_fast"] if t != "azul_fast" and floor(t) > FACADE_FLOOR)
    assert not heavy, f"`import azul_fast` would load {heavy}"


def test_no_import_cycle():
    """No cycle among the imports that run when a module loads. (A function may import a module that
    imports its own: `State._repr_svg_` draws with render_svg, which checks for a State.)"""
    edges = {m: {t for t in ts if t != m and t != "azul_fast" and t.count(".") > 1}
             for m, ts in graph(at_load=True).items()}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                pytest.fail("import cycle: " + " -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path
                            else f"import cycle through {nxt}")
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])


def test_the_checker_sees_an_upward_import(tmp_path):
    """The reader itself: a core module importing the report is caught."""
    fake = tmp_path / "bad.py"
    fake.write_text("from azul_fast.report import charts\nimport azul_fast.runs.plan\n"
                    "if TYPE_CHECKING:\n    from azul_fast.studies import seats\n")
    assert imports_of(fake) == {"azul_fast.report.charts", "azul_fast.runs.plan"}
    assert floor("azul_fast.report.charts") > floor("azul_fast.core.rules.moves")


def test_an_old_module_name_says_where_it_moved():
    """Every module of the changelog's 0.1.0 -> 0.2.0 table that is gone from the top level names
    its new home when asked for as an attribute, and that home exists."""
    import importlib

    import azul_fast

    changelog = (PACKAGE.parents[1] / "docs" / "changelog.md").read_text()
    table = changelog.split("| 0.1.0 | 0.2.0 |", 1)[1].split("\n\n", 1)[0]
    old = {name for row in table.splitlines()[2:] for name in re.findall(r"`azul_fast\.(\w+)`|`\.(\w+)`",
                                                                         row.split("|")[1]) for name in name if name}
    packages = ("report", "runs", "studies", "simulate", "training")
    gone = {name for name in old if not name.startswith("_") and name not in packages}
    assert gone == set(azul_fast._MOVED)
    for name, home in azul_fast._MOVED.items():
        with pytest.raises(AttributeError, match=f"it is now {re.escape(home)}"):
            getattr(azul_fast, name)
        importlib.import_module(home.split(" ")[0])
