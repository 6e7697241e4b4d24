"""Build the native core: every .pyx under src/azul_fast (its subpackages), with ONE set of compiler directives.

AZUL_FAST_DEBUG=1 turns bounds checking (and wraparound, initialised-variable checks) back on for
tests; AZUL_FAST_TRACE=1 adds line tracing so coverage tools can see into the Cython code.
"""

import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("AZUL_FAST_DEBUG") == "1"
TRACE = os.environ.get("AZUL_FAST_TRACE") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "linetrace": TRACE,
}
macros = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
if TRACE:
    macros.append(("CYTHON_TRACE_NOGIL", "1"))

# One extension a .pyx, named by its place: src/azul_fast/core/rules/_board.pyx is
# azul_fast.core.rules._board (the .pyx files lie one or two folders below the package).
extensions = [
    Extension(
        name,
        [pattern],
        include_dirs=[numpy.get_include()],
        define_macros=macros,
        extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
    )
    for name, pattern in (("azul_fast.*.*", "src/azul_fast/*/*.pyx"), ("azul_fast.*.*.*", "src/azul_fast/*/*/*.pyx"))
]

# A switch changes the directives, which Cython's timestamp check does not see: regenerate then. Both
# steps use every core (Cython's translation and the C compiler's jobs; `build_ext -j N` still overrides).
CORES = os.cpu_count() or 1
setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"], force=DEBUG or TRACE,
                          nthreads=CORES),
    options={"build_ext": {"parallel": CORES}},
)
