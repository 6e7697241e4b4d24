"""`python -m azul_fast` runs the `azul-fast` command."""

import sys

from azul_fast.cli import main

sys.exit(main())
