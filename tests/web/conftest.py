"""Fixtures shared by the table-screen tests: a 4-table under the "Club evening" preset and a
signed-in scorer of its club."""

from __future__ import annotations

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
