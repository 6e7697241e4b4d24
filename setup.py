"""Build the native core: every .pyx under src/azul_fast (its subpackages), with ONE set of compiler directives.

AZUL_FAST_DEBUG=1 turns bounds checking (and wraparound, initialised-variable checks) back on for
tests; AZUL_FAST_TRACE=1 adds line tracing so coverage tools can see into the Cython code.
"""

import os
import sys
import threading

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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



def tell(line: str) -> None:
    """A line for the person waiting: pip shows none of a build's output (without -v), so a two-minute
    compile would look hung. The terminal gets it directly where there is one, else stderr (the log)."""
    try:
        with open("/dev/tty", "w") as terminal:
            terminal.write(f"azul_fast: {line}\n")
    except OSError:
        print(f"azul_fast: {line}", file=sys.stderr, flush=True)


class TellingBuildExt(build_ext):
    """build_ext that says which extension it compiles, one line each."""

    def build_extensions(self) -> None:
        self._count, self._done, self._lock = len(self.extensions), 0, threading.Lock()
        tell(f"compiling {self._count} native modules with the C compiler")
        super().build_extensions()

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)
        with self._lock:   # the extensions compile on several threads (parallel below)
            self._done += 1
            tell(f"compiled {ext.name} ({self._done}/{self._count})")


# A switch changes the directives, which Cython's timestamp check does not see: regenerate then. Both
# steps use every core (Cython's translation and the C compiler's jobs; `build_ext -j N` still overrides).
CORES = os.cpu_count() or 1
# pip runs this file once for the metadata and once for the build: only the build speaks.
BUILDING = any(command in sys.argv for command in ("bdist_wheel", "build_ext", "editable_wheel", "build"))
if BUILDING:
    tell("translating the Cython sources to C")
setup(
    cmdclass={"build_ext": TellingBuildExt},
    ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"], force=DEBUG or TRACE,
                          nthreads=CORES),
    options={"build_ext": {"parallel": CORES}},
)
