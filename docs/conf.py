"""Sphinx configuration of the azul_fast documentation site.

Build it (warnings are errors; every internal reference must resolve):

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

The pages are MyST Markdown; the API reference comes from the docstrings (numpydoc style, read by
napoleon), so the installed package must be importable: ``pip install -e ".[docs]"``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from sphinx.errors import ExtensionError

import azul_fast

project = "azul_fast"
author = "the azul_fast developers"
copyright = "2026, the azul_fast developers"
version = release = azul_fast.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "examples", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.md5", "auto_examples/*.json"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # "page.md#a-heading" links resolve (and are checked)

# Every cross-reference must resolve (-n): links between pages and API names are checked at build.
# The only ones let through are types of other libraries, which this site does not document.
nitpicky = True
nitpick_ignore_regex = [
    ("py:.*", r"(np|npt|numpy|pd|pandas|pa|pyarrow|matplotlib|mpl|Axes|Figure|Artist|distributed|dask)(\..*)?"),
    ("py:.*", r"(os|pathlib|collections\.abc|typing|types|enum|contextlib)\..*"),
    ("py:.*", r"(Path|Sequence|Iterable|Iterator|Callable|Mapping|Any|Union|Optional|Final|Literal|TypeAlias)"),
    ("py:.*", r"(Client|Future|ModuleType|SeedSequence|Generator|DataFrame|Series|ndarray|ArrayLike)"),
]

autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False

html_theme = "furo"
html_title = f"azul_fast {release}"
html_static_path = ["_static"]
html_css_files = ["azul.css"]

class SvgScraper:
    """Show the SVG files a gallery example wrote in its folder (board diagrams), then remove them.

    sphinx-gallery shows matplotlib figures by itself; `save_svg` writes a file, which this picks up
    after each code block and moves into the gallery's images.
    """

    def __call__(self, block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
        from sphinx_gallery.scrapers import figure_rst

        written = sorted(Path(block_vars["src_file"]).parent.glob("*.svg"))
        images = []
        for svg, image in zip(written, block_vars["image_path_iterator"]):
            target = Path(image).with_suffix(".svg")
            svg.replace(target)
            images.append(str(target))
        return figure_rst(images, gallery_conf["src_dir"])

    def __repr__(self) -> str:  # a stable value, so Sphinx does not rebuild every page
        return "SvgScraper"


sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "image_scrapers": ("matplotlib", SvgScraper()),
    "matplotlib_animations": False,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "min_reported_time": 1,
}


# The API reference: one page per module, generated at build time from each module's __all__ (so a
# new public name appears without editing the docs). A name that `azul_fast` re-exports (Move,
# simulate, ...) is documented once, on the azul_fast page, where users import it from.
API_SECTIONS = {
    "Playing games": ["moves", "kernels", "policies", "position", "render", "text", "reference"],
    "Running many games": ["simulate", "runs", "distributed", "storage", "results"],
    "Studies and charts": ["analysis", "plotting", "ladder", "report"],
    "Command line": ["cli"],
}
API_DIR = Path(__file__).parent / "api"


def _public_modules() -> set[str]:
    """Every module of the package that declares a public API (an __all__)."""
    names = (info.name for info in pkgutil.iter_modules(azul_fast.__path__) if not info.name.startswith("_"))
    return {name for name in names if hasattr(importlib.import_module(f"azul_fast.{name}"), "__all__")}


def _reexported(module: ModuleType, name: str) -> bool:
    return name in azul_fast.__all__ and getattr(azul_fast, name) is getattr(module, name)


def _module_page(name: str) -> str:
    module = importlib.import_module(f"azul_fast.{name}")
    own = [n for n in module.__all__ if not _reexported(module, n)]
    shared = [n for n in module.__all__ if _reexported(module, n)]
    title = f"azul_fast.{name}"
    lines = [title, "=" * len(title), "", f".. automodule:: {title}"]
    lines += [f"   :members: {', '.join(own)}", "   :undoc-members:"] if own else ["   :no-members:"]
    if shared:
        links = ", ".join(f":py:obj:`~azul_fast.{n}`" for n in shared)
        lines += ["", f"Defined here and documented with the package's top-level names: {links}."]
    return "\n".join(lines) + "\n"


def _index_page() -> str:
    lines = ["API reference", "=============", "",
             "Every public name, from the docstrings. Start with :doc:`azul_fast`: what",
             "``import azul_fast`` gives. The modules below hold the rest.", "",
             ".. toctree::", "   :maxdepth: 1", "", "   azul_fast", ""]
    for section, modules in API_SECTIONS.items():
        lines += [section, "-" * len(section), "", ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {name}" for name in modules] + [""]
    return "\n".join(lines)


def write_api_pages(app: Any) -> None:
    """Write docs/api/*.rst from the package's __all__ lists, refusing a module left out of the index."""
    listed = {name for modules in API_SECTIONS.values() for name in modules}
    missing = _public_modules() - listed
    if missing:
        raise ExtensionError(f"conf.py API_SECTIONS leaves out public module(s): {', '.join(sorted(missing))}")
    API_DIR.mkdir(exist_ok=True)
    pages = {"index": _index_page(), "azul_fast": TOP_PAGE}
    pages.update({name: _module_page(name) for name in listed})
    for name, text in pages.items():
        path = API_DIR / f"{name}.rst"
        if not path.exists() or path.read_text() != text:  # unchanged pages keep Sphinx's cache
            path.write_text(text)


TOP_PAGE = """azul_fast
=========

.. automodule:: azul_fast
   :members:
   :undoc-members:
   :imported-members:
"""

_HOME = re.compile(r"^azul_fast\.[_a-z]+\.([A-Za-z_][A-Za-z0-9_]*)$")


def _resolve_to_top_level(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    # Signatures name a type by its home module (azul_fast.moves.Move, azul_fast._state.State);
    # it is documented as azul_fast.Move, so point the reference there.
    match = _HOME.match(node.get("reftarget", ""))
    if node.get("refdomain") != "py" or not match or match.group(1) not in azul_fast.__all__:
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                               f"azul_fast.{match.group(1)}", node, contnode)


def setup(app: Any) -> None:
    app.connect("builder-inited", write_api_pages)
    app.connect("missing-reference", _resolve_to_top_level)
