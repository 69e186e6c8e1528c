"""DJANGO_ALLOW_ASYNC_UNSAFE is set for browser tests only (tests/django_fixtures.py): a browser
test runs with it, and every other test, also one that runs after a browser test, runs
without it and without Playwright's event loop marked as running, so that Django's guard
against ORM calls from an async context still works there.

The browser test comes first in this file: run with ``-p no:randomly``, the DB tests after
it prove the guard is back once a browser test has run.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import SynchronousOnlyOperation
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

FLAG = "DJANGO_ALLOW_ASYNC_UNSAFE"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_browser_test_may_query_between_playwright_calls(page: Page,
                                                           live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    assert asyncio.events._get_running_loop() is not None  # Playwright's, marked running
    assert os.environ.get(FLAG) == "true"
    User.objects.create(username="between-calls")
    assert User.objects.filter(username="between-calls").exists()
    page.goto(live_server.url + "/")  # Playwright still works after the query


@pytest.mark.django_db
def test_a_db_test_runs_without_the_flag_and_without_a_running_loop() -> None:
    assert FLAG not in os.environ
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()
    User.objects.create(username="plain")
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_an_orm_call_from_an_async_context_raises_outside_browser_tests() -> None:
    async def query() -> int:
        return User.objects.count()

    with pytest.raises(SynchronousOnlyOperation):
        asyncio.run(query())


def test_a_test_without_the_database_runs_without_the_flag_too() -> None:
    assert FLAG not in os.environ
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()
