"""What people read: tables formatted for print, publication charts, and the HTML report that runs
the studies and writes them up (`azul-fast report`).

The top layer of the library: imports `core`, `runs` and `studies`; only the command line imports it.
"""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
