"""The ranking page at 1,001 players (issue 24, item 2): paged 50 a page, searchable by start
number, name or club like the desk, a "my place" link to the page that shows the signed-in
member's own row; the full ranking stays in the CSV (and the PDF). Queries the same at 41
players as at 1,001; bad input gets the last page or nobody found, never a 500."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Tournament
from scoring.writes import tournament as tw
from tests.django_fixtures import kept_for_the_module

from .factories import make_club, make_user
from .test_tournament_scale import big_tournament
from .tournaments import fill_series

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

RESULTS_BYTES = 150_000


def _places(html: str) -> list[str]:
    """The start numbers of the paged ranking's rows."""
    return re.findall(r'<tr id="place-(\d+)"', html)


def played(players: int, slug: str) -> tuple[Tournament, Client, Any]:
    club = make_club(slug, f"Skatclub {slug}")
    t = big_tournament(club, players)
    fill_series(t, 1)
    client = Client()
    member = make_user(club, "member")
    client.force_login(member)
    return t, client, member


@pytest.fixture(scope="module")
def gross(django_db_setup: None, django_db_blocker: Any) -> Iterator[tuple[Tournament, Any]]:
    """The 1,001-player tournament with series 1 played, built once for the module's tests
    (each test's changes are rolled back): (tournament, a member who does not play)."""
    with kept_for_the_module(django_db_blocker):
        t, _client, member = played(1001, "gross")
        yield t, member


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def queries(client: Client, url: str) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_ranking_of_1001_players_is_paged_and_searchable(
        gross: tuple[Tournament, Any]) -> None:
    small, small_client, _ = played(41, "klein")
    t, member = gross
    client = signed_in(member)
    results = reverse("scoring:tournament-results", args=[t.pk])
    page = client.get(results)
    html = page.content.decode()
    assert len(page.content) < RESULTS_BYTES, len(page.content)
    assert len(_places(html)) == 50
    assert "Seite 1 von 21 (Spieler 1–50 von 1001)" in html
    # the same queries for 41 players as for 1,001
    assert queries(client, results) == queries(
        small_client, reverse("scoring:tournament-results", args=[small.pk]))
    last = client.get(results + "?page=21").content.decode()
    assert len(_places(last)) == 1
    assert client.get(results + "?page=99999").content.decode().count('<tr id="place-') == 1
    assert _places(client.get(results + "?q=777").content.decode()) == ["777"]
    assert _places(client.get(results + "?q=Spieler 0123").content.decode()) == ["123"]
    nord = client.get(results + "?q=nord").content.decode()
    assert "334 Spieler gefunden." in nord and len(_places(nord)) == 50
    assert "q=nord&amp;page=2" in nord
    assert "Niemand gefunden." in client.get(results + "?q=Xaver").content.decode()
    assert client.get(results + "?page=abc&q=" + "x" * 500).status_code == 200
    # the full ranking in the CSV
    csv = client.get(reverse("scoring:tournament-results-csv", args=[t.pk]))
    assert csv.content.decode("utf-8-sig").count("\n") == 1002


def test_my_place_leads_to_the_page_with_my_row() -> None:
    t, client, member = played(41, "klein")
    results = reverse("scoring:tournament-results", args=[t.pk])
    assert "Mein Platz" not in client.get(results).content.decode()  # he does not play
    rows = client.get(results).content.decode()
    entrant = t.entrants.get(number=int(_places(rows)[-1]))
    entrant.player.user = member
    entrant.player.save(update_fields=["user"])
    html = client.get(results).content.decode()
    found = re.search(r'<a class="my-place" href="\?page=(\d+)#place-(\d+)">Mein Platz '
                      r'\((\d+)\.\)</a>', html)
    assert found is not None, html
    assert found.group(2) == str(entrant.number)
    target = client.get(results + f"?page={found.group(1)}").content.decode()
    assert f'<tr id="place-{entrant.number}" class="me">' in target


def test_my_place_on_page_21_of_1001(gross: tuple[Tournament, Any]) -> None:
    t, member = gross
    client = signed_in(member)
    results = reverse("scoring:tournament-results", args=[t.pk])
    rows = client.get(results + "?page=21").content.decode()
    entrant = t.entrants.get(number=int(_places(rows)[0]))
    entrant.player.user = member
    entrant.player.save(update_fields=["user"])
    html = client.get(results).content.decode()
    assert f'href="?page=21#place-{entrant.number}">Mein Platz (' in html


def test_the_search_keeps_the_series_counted() -> None:
    t, client, _member = played(41, "klein")
    tw.series_draw(tournament=t, seed=2)
    results = reverse("scoring:tournament-results", args=[t.pk])
    after = client.get(results + "?after=1&q=nord").content.decode()
    assert 'name="after" value="1"' in after and 'href="?after=1&amp;#ranking-heading"' in after
    assert 'name="after"' not in client.get(results + "?q=nord").content.decode()
