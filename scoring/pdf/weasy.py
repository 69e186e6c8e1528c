"""WeasyPrint, set up once per process: one font configuration, the print stylesheet parsed
once, no fetching of anything (every PDF is self-contained HTML with inline SVG), and the
time split into layout and PDF writing so that the benchmark can report both."""

from __future__ import annotations

import os
import pickle
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


def render_niced(html: str, *, house_style: bool = True, nice: int = 0) -> Rendered:
    """``render`` in a forked child at a lower CPU priority (``nice`` added to the worker's),
    so that a long PDF on a busy machine yields the processor to the requests of the other
    workers (a tablet's deal save) instead of sharing it equally. The child inherits
    WeasyPrint's set-up, reads nothing from the database or the cache, and hands back the
    result through a pipe; the worker waits for it, as it waited for its own render.

    In-process when ``nice`` is 0, where the platform cannot fork, or when the process runs
    other threads (a forked child of a threaded server would copy locks held elsewhere)."""
    if nice <= 0 or not hasattr(os, "fork") or threading.active_count() > 1:
        return render(html, house_style=house_style)
    _setup()  # once in the worker, so that every child starts with fonts and style ready
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: render, send, and leave without running any clean-up
        status = 1
        try:
            os.close(read_end)
            os.nice(nice)
            try:
                answer: tuple[str, Any] = ("ok", render(html, house_style=house_style))
            except Exception as err:  # noqa: BLE001 - sent to the worker, raised there
                answer = ("error", f"{type(err).__name__}: {err}")
            with os.fdopen(write_end, "wb") as pipe:
                pickle.dump(answer, pipe, protocol=pickle.HIGHEST_PROTOCOL)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _pid, status = os.waitpid(pid, 0)
    if not data or os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"the PDF render process ended without a result ({status})")
    kind, value = pickle.loads(data)  # noqa: S301 (our own child's answer)
    if kind != "ok":
        raise RuntimeError(f"the PDF render process failed: {value}")
    assert isinstance(value, Rendered)
    return value
