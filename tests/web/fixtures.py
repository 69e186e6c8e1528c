"""The model fixtures the web and browser tests share, in one place (loaded by
tests/web/conftest.py and tests/browser/conftest.py): a club, a table of its evening under
the "Club evening" preset and a signed-in scorer of that club.

A file that needs a table of three overrides ``table_players``::

    @pytest.fixture
    def table_players() -> int:
        return 3

Plain helpers (``won``, ``login``, ``make_table`` …) are in tests/web/factories.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation

from scoring.models import Club, Table

from .factories import make_club, make_table, make_user


@pytest.fixture
def club() -> Club:
    return make_club()


@pytest.fixture
def table_players() -> int:
    return 4


@pytest.fixture
def table(club: Club, table_players: int) -> Table:
    return make_table(club, players=table_players)


@pytest.fixture
def scorer(client: Client, table: Table) -> Client:
    client.force_login(make_user(table.evening.club, "scorer"))
    return client


@pytest.fixture
def in_english(client: Client) -> Iterator[None]:
    """The pages (the test client asks for English) and the code under test in English:
    the site's own language is German. A file uses it with
    ``pytestmark = [..., pytest.mark.usefixtures("in_english")]``."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield
