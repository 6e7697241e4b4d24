"""``python -m azul_fast.cli`` runs the `azul-fast` command."""

import sys

from azul_fast.cli import main

if __name__ == "__main__":
    sys.exit(main())
