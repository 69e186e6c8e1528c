"""Test-wide settings for the whole suite (engine, web and browser tests).

Browser tests (marked ``browser``, in tests/web) use pytest-playwright's fixtures —
``browser``, ``new_context``, ``page`` — configured here once for every directory: Debian's
chromium (never Playwright's own download), a 1024×768 landscape tablet with touch and a
German locale. A test picks another viewport with
``@pytest.mark.browser_context_args(viewport={"width": 800, "height": 1280})``.
Screenshots go to ``screenshot_dir``: $SCREENSHOT_DIR, by default screenshots/ in the
project (gitignored), so that a person can look at them.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings
from playwright.sync_api import Playwright

# Playwright's sync API marks its event loop as running in the test thread between its calls
# (playwright/_impl/_greenlets.py, wait_for_future sets it again after every call), and its
# session-scoped `playwright` fixture keeps that loop for the rest of the session. While it is
# marked, Django refuses every ORM call in the test thread (SynchronousOnlyOperation) unless
# DJANGO_ALLOW_ASYNC_UNSAFE is set. So:
# - a browser test (marker `browser`) runs with DJANGO_ALLOW_ASYNC_UNSAFE set, from its setup
#   to the end of its teardown (its own queries, pytest-django's flush after it);
# - after it, the loop is put aside (no longer "running" in this thread), so every other test
#   runs as in a session without browsers: the variable unset and no running loop, so an ORM
#   call from a real async context still raises (tests/test_async_unsafe_scope.py);
# - the loop is put back before anything can call Playwright again: the next browser test's
#   setup, and the `playwright` fixture's teardown at the end of the session.
# Nothing calls Playwright while the loop is put aside: only browser tests use it.
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
_put_aside: list[asyncio.AbstractEventLoop] = []


def _put_loop_aside() -> None:
    loop = asyncio.events._get_running_loop()
    if loop is not None and not _put_aside:
        _put_aside.append(loop)
        asyncio.events._set_running_loop(None)


def _put_loop_back() -> None:
    if _put_aside:
        asyncio.events._set_running_loop(_put_aside.pop())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    if item.get_closest_marker("browser"):
        _put_loop_back()
        os.environ[ASYNC_UNSAFE] = "true"
    else:
        _put_loop_aside()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    try:
        return (yield)
    finally:
        if item.get_closest_marker("browser"):
            os.environ.pop(ASYNC_UNSAFE, None)
            _put_loop_aside()


CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
]
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(__file__).parents[1] / "screenshots")
TABLET = {"width": 1024, "height": 768}


@pytest.fixture(autouse=True, scope="session")
def _pdf_cache_in_memory() -> Iterator[None]:
    # Never the project's var/pdf-cache: a test database reuses primary keys and versions, so
    # a PDF cached by another run could answer for different deals.
    pdf = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pdf-tests"}
    with override_settings(CACHES={**settings.CACHES, "pdf": pdf}):
        yield


@pytest.fixture(autouse=True)
def _empty_pdf_cache() -> None:
    caches["pdf"].clear()


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher() -> Iterator[None]:
    # The default PBKDF2 costs ~0.2 s per hash; tests create users, they don't guard them.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


# ---------------------------------------------------------------- browser tests

@pytest.fixture(scope="session")
def _no_loop_left(django_db_setup: None) -> Iterator[None]:
    yield
    _put_loop_aside()  # whatever Playwright left marked, before the database is destroyed


@pytest.fixture(scope="session")
def playwright(_no_loop_left: None, playwright: Playwright) -> Iterator[Playwright]:
    """pytest-playwright's own, started after the test database exists (so that it stops
    before the database is destroyed), with its loop put back before it stops."""
    yield playwright
    _put_loop_back()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed (make system-test-deps)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": TABLET, "has_touch": True, "locale": "de-DE"}


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(autouse=True)
def _empty_results_cache() -> Iterator[None]:
    # Table results are cached across requests (scoring/reads/results.py); a test starts cold so
    # that the queries it counts do not depend on the tests before it.
    from django.core.cache import caches

    caches["results"].clear()
    yield
