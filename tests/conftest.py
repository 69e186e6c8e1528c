"""The suite's root conftest. It imports no Django, so that the pure engine tests run without
it: ``pytest -p no:django tests/engine`` (``make test-engine``).

With pytest-django on (every other run), tests/django_fixtures.py is loaded as a plugin: the
suite-wide settings and autouse fixtures of the Django tests (the shared cache, query counts
without the cache's own queries, the fast password hasher, PDFs rendered in process, and
Playwright's event loop put aside outside browser tests). The browser tests live in
tests/browser/ with their fixtures in tests/browser/conftest.py; the shared model fixtures
(``table``, ``scorer``, ``won`` …) in tests/web/fixtures.py, loaded by tests/web/conftest.py
and tests/browser/conftest.py.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Debian's chromium (never Playwright's own download) and how it is started; also used by
# bench/offline.py.
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
# --liftoff-only: V8 runs WebAssembly with its baseline compiler only. Each offline test's
# fresh context starts the Pyodide runtime (8.6 MB of wasm), and the optimising compiler's
# background work on it cost more processor than it saved in a test that short: the 24
# offline and engine tests took 92 s instead of 103 s on three processes (measured twice).
# What runs is the same code; only how V8 compiles it differs.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic", "--js-flags=--liftoff-only",
]
TABLET = {"width": 1024, "height": 768}
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).parents[1] / "screenshots")


@pytest.fixture
def screenshot_dir() -> Path:
    """Where a test saves what a person may want to look at (PDF pages, screenshots):
    $SCREENSHOT_DIR, by default screenshots/ in the project (gitignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all-tests", action="store_true", help=(
        "on PostgreSQL, also the tests that use no database (tests/django_fixtures.py "
        "leaves them out there: they ran on SQLite)"))


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.has_plugin("django"):
        config.pluginmanager.import_plugin("tests.django_fixtures")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked ``slow``) first, the rest in their order: on make test's two
    processes (pytest-xdist) the 1,001-player day then runs beside the many short tests
    instead of alone at the end, when they are done."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
