"""QR codes for table codes, drawn on the server as inline SVG (segno, pure Python), and as a
PNG data: URI for the printed table cards.

No image files, no JavaScript, no third-party service: the page prints as it is shown."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.safestring import SafeString, mark_safe


# The same code is drawn again on every poll of a signing panel and every print of the
# table cards (~8 ms each): kept per process by its data and title, both plain strings.
@lru_cache(maxsize=1024)
def qr_svg(data: str, *, title: str) -> SafeString:
    """An inline <svg> encoding ``data``; ``title`` is its accessible name (escaped by segno).

    Error correction "M" survives a crumpled print-out; the size comes from CSS (viewBox)."""
    code = segno.make(data, error="m", micro=False)
    svg = code.svg_inline(scale=4, border=4, title=title, svgclass="qr", lineclass=None,
                          omitsize=True, dark="#000", light="#fff")
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # segno escapes the title


@lru_cache(maxsize=1024)
def qr_png_uri(data: str) -> str:
    """``data`` as a QR code in a PNG ``data:`` URI, for the printed table cards: WeasyPrint
    places an image at once, where it parses and fills an SVG path of some hundred segments
    per card (2-3 s of the 251 cards of a 1,000-player series). One pixel a module (a few
    hundred bytes; WeasyPrint re-encodes every PNG), printed with ``image-rendering:
    pixelated``: the PDF tells the viewer not to smooth it, so it stays sharp at any size."""
    code = segno.make(data, error="m", micro=False)
    uri: str = code.png_data_uri(scale=4, border=4, dark="#000", light="#fff")
    return uri
