"""Test-wide settings for the whole suite (engine, web and, later, browser tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings

# Playwright's sync API keeps an asyncio loop running in the test thread; without this,
# live_server and any ORM call in a browser test raise SynchronousOnlyOperation.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


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
