"""Helpers of the browser tests (Playwright): what a page logged as errors, and whether it
fits the screen's width, and a wait for a condition instead of a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable
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


def wait_until(page: Any, condition: Callable[[], object], timeout: float = 15.0,
               what: str = "the condition") -> None:
    """Wait until ``condition()`` (a check in Python, e.g. on responses a handler collected)
    holds, at most ``timeout`` seconds; fail otherwise. Between checks Playwright gets control
    for a moment, so that its event handlers (``page.on(...)``) run: a fixed sleep that hopes
    the awaited thing has happened becomes a wait for that very thing."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what} in vain ({page.url})")
        page.wait_for_timeout(25)
