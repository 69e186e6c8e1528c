"""Sphinx configuration of Skatclub's documentation (`make docs`).

The pages are Markdown (MyST). The site is built offline: Sphinx's own theme (alabaster) with
its static files, no external assets, no link checking. `make docs` runs sphinx-build with
``-W --keep-going -n``: every warning (a broken internal link, a missing image, a page in no
toctree) fails the build.
"""

from __future__ import annotations

project = "Skatclub"
author = "the Skatclub authors"
copyright = "the Skatclub authors"  # noqa: A001  # Sphinx reads this name

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
language = "en"  # one per Sphinx project: the chrome is English, the Handbuch German text
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# Headings up to level 3 get anchors, so that [text](page.md#a-heading) is checked too.
myst_heading_anchors = 3
myst_enable_extensions = ["deflist", "colon_fence"]
# Every internal link must resolve: a link to a missing page or anchor is a warning (an error
# under -W). Links with a scheme (http:, mailto:) are left alone and never fetched.
nitpicky = True
suppress_warnings: list[str] = []

html_theme = "alabaster"
html_title = "Skatclub"
html_theme_options = {
    "description": "Skat lists for clubs",
    "fixed_sidebar": False,
    "show_powered_by": False,
    # alabaster's defaults name no web font; keep it that way (no CDN, no Google Fonts).
    "font_family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "head_font_family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "code_font_family": "ui-monospace, 'DejaVu Sans Mono', monospace",
}
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
