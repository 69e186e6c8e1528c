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

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings

# Playwright's sync API marks its event loop as running in the test thread between its calls
# (playwright/_impl/_greenlets.py, wait_for_future), and its session-scoped `playwright`
# fixture keeps that loop for the rest of the session. From the first browser test on, every
# ORM call in the test thread would raise SynchronousOnlyOperation: the browser test's own
# queries, pytest-django's flush after a transactional test, and the queries of every test
# that runs later, browser or not. So the switch has to be process-wide and set before any
# test runs, which is why it lives here and not in a fixture or a sub-directory's conftest.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

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
    # Table results are cached across requests (scoring/results.py); a test starts cold so
    # that the queries it counts do not depend on the tests before it.
    from django.core.cache import caches

    caches["results"].clear()
    yield
