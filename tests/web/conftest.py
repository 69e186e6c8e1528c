"""Fixtures shared by the table-screen tests: a 4-table under the "Club evening" preset and a
signed-in scorer of its club."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from scoring.models import Table

from .factories import make_club, make_table, make_user


@pytest.fixture
def table() -> Table:
    return make_table(make_club())


@pytest.fixture
def scorer(client: Client, table: Table) -> Client:
    client.force_login(make_user(table.evening.club, "scorer"))
    return client


@pytest.fixture(autouse=True)
def site_url_of_live_server(request: pytest.FixtureRequest) -> None:
    """Links in mails and invitations start with SITE_URL (never the request's Host): for a
    browser test that is the live server, as it would be the site's own address."""
    if "live_server" in request.fixturenames:
        settings = request.getfixturevalue("settings")
        settings.SITE_URL = request.getfixturevalue("live_server").url


@pytest.fixture
def contexts(browser: Any, browser_context_args: dict[str, Any]) -> Iterator[Any]:
    """Browser contexts made on demand (``contexts(locale=…)``), each closed at the end: a
    browser test with two people at once (an invitation, a registration)."""
    made: list[Any] = []

    def new(**extra: Any) -> Any:
        context = browser.new_context(**{**browser_context_args, **extra})
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()
