"""Test-wide settings for the whole suite (engine, web and, later, browser tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.test import override_settings

# Playwright's sync API keeps an asyncio loop running in the test thread; without this,
# live_server and any ORM call in a browser test raise SynchronousOnlyOperation.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher() -> Iterator[None]:
    # The default PBKDF2 costs ~0.2 s per hash; tests create users, they don't guard them.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield
