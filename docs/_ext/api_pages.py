"""The API reference, generated at build time from the package's ``__all__`` lists.

One page per public module (a module with an ``__all__``), and one for what ``import azul_fast``
gives. A name the package re-exports (``Move``, ``simulate``, ...) is documented once, as
``azul_fast.Move``, where users import it from; its home module's page links there. So a new
public name appears in the reference without editing the docs, and a new public module that
``API_SECTIONS`` leaves out stops the build.

The hooks below adapt the docstrings to Sphinx without editing them: numpydoc sections are read
by napoleon, a constant's ``#:`` comment is found in its home module, and a type named by its
home module (``azul_fast.core.rules.moves.Move``) links to its documented place (``azul_fast.Move``).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from sphinx.errors import ExtensionError
from sphinx.pycode import ModuleAnalyzer

import azul_fast

#: The reference's table of contents: every public module, in sections.
API_SECTIONS = {
    "The rules (azul_fast.core.rules)": [
        "core.rules.moves", "core.rules.table", "core.rules.kernels", "core.rules.checks", "core.rules.seeds",
        "core.rules.reference"],
    "A position and a game (azul_fast.core)": [
        "core.state", "core.legal_moves", "core.game", "core.played_game", "core.lazy", "core.errors"],
    "The policies (azul_fast.core.bots)": [
        "core.bots.policies", "core.bots.families", "core.bots.learned", "core.bots.value_net",
        "core.bots.weights_file", "core.bots.solve"],
    "Position formats (azul_fast.core.formats)": [
        "core.formats.position_json", "core.formats.position_text", "core.formats.board_text",
        "core.formats.board_svg"],
    "Writing files (azul_fast.core.output)": ["core.output"],
    "Running many games (azul_fast.runs)": [
        "runs.simulate", "runs.simulate_moves", "runs.move_records", "runs.plan", "runs.folders", "runs.manifest",
        "runs.signals", "runs.files", "runs.lock", "runs.tasks",
        "runs.cluster", "runs.storage", "runs.frames", "runs.pool", "runs.timing", "runs.progress",
        "runs.heartbeat", "runs.rollouts", "runs.where", "runs.dask_client"],
    "Studies (azul_fast.studies)": [
        "studies.seats", "studies.strength", "studies.openings", "studies.opening_types", "studies.in_game",
        "studies.ladder", "studies.intervals", "studies.settings", "studies.analyse",
        "studies.policy_results", "studies.published", "studies.margin"],
    "Training the learned evaluation and the value network (azul_fast.training)": ["training.pipeline",
                                                                                   "training.value_net",
                                                                                   "training.small_network"],
    "The report and charts (azul_fast.report)": [
        "report.charts", "report.move_charts", "report.formatting", "report.exports", "report.build", "report.config",
        "report.move_section", "report.folder", "report.game_files", "report.review_chart", "report.timing",
        "report.settings"],
    "The analysis board (azul_fast.web)": [
        "web", "web.app", "web.engine", "web.work", "web.positions", "web.server"],
    "Command line": ["cli"],
}
KIND_TITLES = {"class": "Classes", "exception": "Exceptions", "function": "Functions", "data": "Constants and types"}


#: Packages kept under an old name for one release (they warn when imported): documented under the new one.
OLD_NAMES = {"board"}


def public_modules() -> set[str]:
    """Every module of the package that declares a public API (an __all__), named below azul_fast
    (``core.rules.moves``)."""
    found = (info.name.removeprefix("azul_fast.") for info in pkgutil.walk_packages(azul_fast.__path__, "azul_fast."))
    names = (name for name in found if not any(part.startswith("_") for part in name.split("."))
             and name.split(".")[0] not in OLD_NAMES)
    return {name for name in names if hasattr(importlib.import_module(f"azul_fast.{name}"), "__all__")}


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"azul_fast.{name}")


def _reexported(module: ModuleType, name: str) -> bool:
    return name in azul_fast.__all__ and getattr(azul_fast, name) is getattr(module, name)


def _kind(obj: Any) -> str:
    if isinstance(obj, type):
        return "exception" if issubclass(obj, BaseException) else "class"
    return "function" if inspect.isroutine(obj) else "data"


def _entries(qualified: str, module: ModuleType, names: list[str]) -> list[str]:
    """autodoc directives for `names` of `module`, documented as `qualified`.NAME, grouped by kind."""
    lines: list[str] = []
    for kind, title in KIND_TITLES.items():
        chosen = [n for n in names if _kind(getattr(module, n)) == kind]
        if chosen:
            lines += [title, "-" * len(title), ""]
            lines += [line for n in chosen for line in _directive(kind, f"{qualified}.{n}", getattr(module, n))]
    return lines


def _directive(kind: str, qualified: str, obj: Any) -> list[str]:
    lines = [f".. auto{kind}:: {qualified}"]
    if isinstance(obj, type) and obj.__bases__ != (object,):  # "Bases: object" would say nothing
        lines.append("   :show-inheritance:")
    return lines + [""]


def _header(title: str, module: str, index: bool) -> list[str]:
    lines = [title, "=" * len(title), "", f".. automodule:: {module}", "   :no-members:"]
    # azul_fast.simulate is the function users call: the module of that name stays out of the index.
    return lines + ([] if index else ["   :no-index:"]) + [""]


def module_page(name: str) -> str:
    module = _module(name)
    qualified = f"azul_fast.{name}"
    own = [n for n in module.__all__ if not _reexported(module, n)]
    shared = [n for n in module.__all__ if _reexported(module, n)]
    indexed = not hasattr(azul_fast, name) or inspect.ismodule(getattr(azul_fast, name))
    lines = _header(qualified, qualified, index=indexed)
    if shared:
        links = ", ".join(f":py:obj:`~azul_fast.{n}`" for n in shared)
        lines += [f"Also defined here, documented with the package's top-level names: {links}.", ""]
    # The function a module is named after (runs.simulate: simulate) is what its page is read for:
    # shown in full here too, unindexed, so every link still goes to its top-level entry.
    namesake = [n for n in shared if n == name.rpartition(".")[2]]
    for n in namesake:
        lines += _directive(_kind(getattr(module, n)), f"{qualified}.{n}", getattr(module, n))[:1]
        lines += ["   :no-index:", ""]
    return "\n".join(lines + _entries(qualified, module, own))


def top_page() -> str:
    lines = _header("azul_fast", "azul_fast", index=True)
    return "\n".join(lines + _entries("azul_fast", azul_fast, list(azul_fast.__all__)))


def _summary(module: ModuleType) -> str:
    """The first paragraph of a module's docstring (its one-line summary), for the index."""
    return inspect.cleandoc(module.__doc__ or "").split("\n\n")[0].replace("\n", " ")


def index_page() -> str:
    lines = ["API reference", "=============", "",
             "Every public name, from the docstrings.", "",
             "- :doc:`azul_fast`: what ``import azul_fast`` gives: positions, moves, simulation, diagrams.", ""]
    for section, modules in API_SECTIONS.items():
        lines += [section, "-" * len(section), ""]
        lines += [f"- :doc:`azul_fast.{name} <{name}>`: {_summary(_module(name))}" for name in modules] + [""]
    toc = ["azul_fast"] + [name for modules in API_SECTIONS.values() for name in modules]
    return "\n".join(lines + [".. toctree::", "   :hidden:", ""] + [f"   {name}" for name in toc]) + "\n"


def write_api_pages(app: Any) -> None:
    """Write docs/api/*.rst, refusing a public module that API_SECTIONS leaves out."""
    listed = {name for modules in API_SECTIONS.values() for name in modules}
    missing = public_modules() - listed
    if missing:
        raise ExtensionError(f"API_SECTIONS in docs/_ext/api_pages.py leaves out public module(s): "
                             f"{', '.join(sorted(missing))}")
    folder = Path(app.srcdir) / "api"
    folder.mkdir(exist_ok=True)
    pages = {"index": index_page(), "azul_fast": top_page()} | {name: module_page(name) for name in listed}
    for name, text in pages.items():
        path = folder / f"{name}.rst"
        if not path.exists() or path.read_text() != text:  # unchanged pages keep Sphinx's cache
            path.write_text(text)


def _home_doc(name: str) -> list[str]:
    """The ``#:`` comment of a constant azul_fast re-exports, from the module that defines it."""
    short = name.rpartition(".")[2]
    for module_name in sorted(public_modules()):
        module = _module(module_name)
        if short in getattr(module, "__all__", ()) and _reexported(module, short):
            docs = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
            return list(docs.get(("", short), []))
    return []


def _is_type_doc(obj: Any, lines: list[str]) -> bool:
    doc = inspect.getdoc(type(obj))
    return bool(lines) and doc is not None and "\n".join(lines).strip() == inspect.cleandoc(doc).strip()


_SECTION = re.compile(r"^\s*-{3,}\s*$")


def _before_napoleon(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    if what in ("data", "attribute", "property"):
        if what == "data" and _is_type_doc(obj, lines):
            lines[:] = []  # autodoc fell back to the docstring of int, dict...: the constant has none
        if what == "data" and not lines and name.startswith("azul_fast.") and name.count(".") == 1:
            lines[:] = _home_doc(name)
        # Prose, not numpydoc: napoleon would read "Games per task: big enough..." as a type.
        app.env.temp_data["azul_prose"] = list(lines)
        return
    # A doctest right after a numpydoc section (Raises, Parameters) belongs to Examples.
    first = next((i for i, line in enumerate(lines) if line.lstrip().startswith(">>>")), None)
    has_sections = any(_SECTION.match(line) for line in lines[:first])
    if first is not None and has_sections and not any(line.strip() == "Examples" for line in lines):
        lines[first:first] = ["Examples", "--------", ""]


def _after_napoleon(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    prose = app.env.temp_data.pop("azul_prose", None)
    if prose is not None:
        lines[:] = prose


_HOME = re.compile(r"^azul_fast(?:\.[_a-z]+)+\.([A-Za-z_][A-Za-z0-9_]*)$")


def resolve_to_top_level(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Point a reference to azul_fast.core.rules.moves.Move (how a signature names it) at azul_fast.Move."""
    match = _HOME.match(node.get("reftarget", ""))
    if node.get("refdomain") != "py" or not match or match.group(1) not in azul_fast.__all__:
        return None
    return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                             f"azul_fast.{match.group(1)}", node, contnode)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", write_api_pages)
    app.connect("autodoc-process-docstring", _before_napoleon, priority=400)  # napoleon runs at 500
    app.connect("autodoc-process-docstring", _after_napoleon, priority=600)
    app.connect("missing-reference", resolve_to_top_level)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
