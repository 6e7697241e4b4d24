"""Sphinx configuration of the azul_fast documentation site.

Build it (warnings are errors; every internal reference must resolve):

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

The pages are MyST Markdown; the API reference comes from the docstrings (numpydoc style, read by
napoleon), so the installed package must be importable: ``pip install -e ".[docs]"``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import azul_fast

sys.path.insert(0, str(Path(__file__).parent / "_ext"))
from svg_scraper import SvgScraper  # noqa: E402  (importable: Sphinx pickles the config)

project = "azul_fast"
author = "the azul_fast developers"
copyright = "2026, the azul_fast developers"
version = release = azul_fast.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_gallery.gen_gallery",
    "sphinx_copybutton",  # a copy button on every code block
    "api_pages",  # docs/_ext: the API reference pages, generated from __all__
    "stub_signatures",  # docs/_ext: typed signatures of the compiled modules, from their .pyi
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
    ("py:.*", r"(argparse|io|json|subprocess|signal|threading|concurrent|multiprocessing)\..*"),
    ("py:.*", r"(starlette|uvicorn)(\..*)?|Starlette"),   # the board extra's web framework
    # Type variables and the progress hook's alias, named in signatures only.
    ("py:class", r"(azul_fast\.[\w.]+\.)?(T|Progress)"),
    # The core's enums of policy ids and searches (compiled, private): the table of families names them
    # and documents what each row plays (azul_fast.core.bots.families).
    ("py:class", r"(azul_fast\.core\.bots\._\w+\.)?(PolicyId|SearchId)"),
    # Private types (the marker's class): named in a signature, deliberately undocumented.
    ("py:class", r"_[A-Za-z]\w*"),
    # numpydoc's words in a parameter's type ("int, optional", "str or callable", "path-like",
    # "5x5 array-like").
    ("py:class", r"[a-z0-9][a-z0-9 -]*"),
]

autodoc_default_options = {"members": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
# The doctest builder runs the pages' {doctest} blocks; the docstrings' examples run in pytest
# (--doctest-modules), with their module's names in scope.
doctest_test_doctest_blocks = ""

napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False

# The copy button copies what a reader types: the >>> / ... and $ prompts and the output lines
# are left out (a block without a prompt is copied whole), so a doctest pastes into a shell.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_remove_prompts = True
copybutton_exclude = ".linenos, .gp, .go"

html_theme = "furo"
html_title = f"azul_fast {release}"
html_static_path = ["_static"]
html_css_files = ["azul.css"]

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
