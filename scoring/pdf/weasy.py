"""WeasyPrint, set up once per process: one font configuration, the print stylesheet parsed
once, no fetching of anything (every PDF is self-contained HTML with inline SVG), and the
time split into layout and PDF writing so that the benchmark can report both."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

STYLESHEET = Path(__file__).with_name("print.css")

# Pango and fontconfig are not safe to share between threads (runserver is threaded); a PDF is
# CPU-bound under the GIL anyway, so rendering one at a time per process costs nothing.
_lock = threading.Lock()


@dataclass(frozen=True)
class Rendered:
    pdf: bytes
    pages: int
    layout_s: float  # HTML → laid-out pages
    write_s: float  # pages → PDF bytes


@cache
def _setup() -> tuple[Any, Any, Any]:
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher

    fonts = FontConfiguration()
    stylesheet = CSS(string=STYLESHEET.read_text(encoding="utf-8"), font_config=fonts)
    # data: URIs only; nothing on disk or on the network is ever read while printing.
    fetcher = URLFetcher(allowed_protocols=("data",))
    return fonts, stylesheet, fetcher


def render(html: str, *, house_style: bool = True) -> Rendered:
    """``house_style=False`` for a document that brings its whole style with it (the season
    table): print.css would override its own page size and margins."""
    from weasyprint import HTML

    with _lock:
        fonts, stylesheet, fetcher = _setup()
        start = time.perf_counter()
        document = HTML(string=html, url_fetcher=fetcher).render(
            stylesheets=[stylesheet] if house_style else [], font_config=fonts)
        laid_out = time.perf_counter()
        pdf = document.write_pdf()
        written = time.perf_counter()
    return Rendered(pdf, len(document.pages), laid_out - start, written - laid_out)
