"""A sphinx-gallery image scraper for the SVG board diagrams that gallery examples write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx_gallery.scrapers import figure_rst


class SvgScraper:
    """Show the SVG files a gallery example wrote in its folder (board diagrams), then remove them.

    sphinx-gallery shows matplotlib figures by itself; `save_svg` writes a file, which this picks up
    after each code block and moves into the gallery's images.
    """

    def __call__(self, block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
        written = sorted(Path(block_vars["src_file"]).parent.glob("*.svg"))
        images = []
        for svg, image in zip(written, block_vars["image_path_iterator"]):
            target = Path(image).with_suffix(".svg")
            svg.replace(target)
            images.append(str(target))
        return figure_rst(images, gallery_conf["src_dir"])

    def __repr__(self) -> str:  # a stable value, so Sphinx does not rebuild every page
        return "SvgScraper"
