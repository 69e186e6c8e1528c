"""Helpers of the browser tests (Playwright): what a page logged as errors, and whether it
fits the screen's width."""

from __future__ import annotations

from typing import Any


def console_errors(page: Any) -> list[str]:
    """The page's console errors and uncaught exceptions, collected from now on."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def fits(page: Any) -> None:
    """No sideways scrolling: the document is no wider than the window."""
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, (page.url, scroll, inner)
