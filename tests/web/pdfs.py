"""Reading PDFs back for tests with Debian's poppler-utils (pdftotext, pdfinfo, pdftoppm)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

MINUS = "\u2212"

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None,
    reason="poppler-utils (pdftotext, pdfinfo) missing: make test installs them")


def _run(args: list[str], pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF-"), pdf[:40]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "doc.pdf"
        path.write_bytes(pdf)
        result = subprocess.run([*args, str(path), "-"], capture_output=True, check=True,
                                timeout=60)
    return result.stdout.decode("utf-8")


def text(pdf: bytes, page: int | None = None) -> str:
    """The text in reading layout: one printed line per text line, columns kept."""
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return _run(["pdftotext", "-layout", "-enc", "UTF-8", *pages], pdf)


def info(pdf: bytes) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "doc.pdf"
        path.write_bytes(pdf)
        out = subprocess.run(["pdfinfo", "-enc", "UTF-8", str(path)], capture_output=True,
                             check=True, timeout=60).stdout.decode("utf-8")
    pairs = (line.split(":", 1) for line in out.splitlines() if ":" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def pages(pdf: bytes) -> int:
    return int(info(pdf)["Pages"])


def numbers(line: str) -> list[str]:
    """The whitespace-separated tokens of a line that are numbers (minus signs as "-")."""
    tokens = line.replace(MINUS, "-").split()
    return [t for t in tokens if re.fullmatch(r"[+-]?\d+(?:[.,]\d+)?", t)]


def line_starting(page_text: str, start: str) -> str:
    """The first line whose text starts with ``start`` (after leading blanks)."""
    for line in page_text.splitlines():
        if line.strip().startswith(start):
            return line
    raise AssertionError(f"no line starts with {start!r} in:\n{page_text}")


def words(pdf: bytes, page: int = 1) -> list[tuple[str, float, float, float, float]]:
    """The words of a page with their boxes (text, xMin, yMin, xMax, yMax), in points."""
    import html as _html

    markup = _run(["pdftotext", "-bbox", "-enc", "UTF-8", "-f", str(page), "-l", str(page)],
                  pdf)
    pattern = (r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
               r"(.*?)</word>")
    return [(_html.unescape(m[5]), float(m[1]), float(m[2]), float(m[3]), float(m[4]))
            for m in re.finditer(pattern, markup)]


def overlapping_words(pdf: bytes, page: int = 1) -> list[tuple[str, str]]:
    """Pairs of words printed over each other (text running into text)."""
    boxes = words(pdf, page)
    clashes = []
    for i, (a, ax0, ay0, ax1, ay1) in enumerate(boxes):
        for b, bx0, by0, bx1, by1 in boxes[i + 1:]:
            dx = min(ax1, bx1) - max(ax0, bx0)
            dy = min(ay1, by1) - max(ay0, by0)
            if dx > 0.5 and dy > 0.5 * min(ay1 - ay0, by1 - by0):
                clashes.append((a, b))
    return clashes
