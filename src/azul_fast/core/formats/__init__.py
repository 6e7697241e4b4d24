"""A position's representations, each module named for its format: `position_json` (the JSON position
format and its validation), `position_text` (one line of text, what FEN is to chess), `board_text` (a
plain-text picture) and `board_svg` (an SVG diagram)."""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
