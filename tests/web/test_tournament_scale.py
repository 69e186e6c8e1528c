"""A Preisskat of 1,001 players on SQLite (issue 24, item 1): registered through the services,
series 1 drawn; the desk, the ranking, its PDF and CSV, the seat list, table cards, a
standard list and the public board (page, TV, fragments) answer 200. No SQL statement
carries one parameter per player (SQLite's expression tree stops at a depth of 1,000), the
desk's queries do not grow with the field, and the desk stays under 300 kB: its entrants are
paged (50 a page) and searchable, its series folded to counts."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Club, RuleProfile, Table, Tournament
from scoring.presets import PRESETS
from scoring.views import board
from scoring.writes import tournament as tw

from .factories import make_club, make_user

pytestmark = pytest.mark.django_db

DESK_BYTES = 300_000
DESK_QUERIES = 25  # the desk's bound, the same at 41 and at 1,001 players


def big_tournament(club: Club, players: int) -> Tournament:
    """``players`` registered through the services (guests of three home clubs, every
    second paid, a tenth in a category), checked in, series 1 drawn."""
    profile = RuleProfile.objects.get(club=club, name=PRESETS["isko_tournament"]["name"])
    tournament = tw.tournament_create(
        club=club, name="Großer Preisskat", date=timezone.localdate(), profile=profile,
        series_count=3, series_rounds=1, entry_fee=Decimal("10.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=Decimal("1.00"),
                                     lost_fee_from=4, passed_fee=Decimal("0.50")),
        categories=["Damen", "Senioren"], team_fee=Decimal("20.00"),
        tandem_fee=Decimal("8.00"), reseat="draw", tie_rule="won",
        prizes=["50%", "30%", "10.00"], public=True)
    for index in range(players):
        tw.entrant_register(
            tournament=tournament, name=f"Spieler {index + 1:04d}",
            home_club=["SC Nord", "Herz Bube", "Grand Hand"][index % 3],
            category="Damen" if index % 10 == 0 else "",
            team=f"Team {index // 4 + 1}" if index < 40 else "",
            paid=index % 2 == 0, at_door=True)
    tw.series_draw(tournament=tournament, seed=1)
    return tournament


def tournament_urls(t: Tournament) -> list[str]:
    table = Table.objects.filter(evening=t.evening, series=1).order_by("number").first()
    assert table is not None
    key = t.board_key
    return [
        reverse("scoring:tournament", args=[t.pk]),
        reverse("scoring:tournament", args=[t.pk]) + "?page=21",
        reverse("scoring:tournament", args=[t.pk]) + "?q=Nord&page=2",
        reverse("scoring:tournament-seats", args=[t.pk, 1]),
        reverse("scoring:evening", args=[t.evening_id]),
        reverse("scoring:table", args=[table.pk]),
        reverse("scoring:tournament-results", args=[t.pk]),
        reverse("scoring:tournament-results-pdf", args=[t.pk]),
        reverse("scoring:tournament-results-csv", args=[t.pk]),
        reverse("scoring:tournament-seats-pdf", args=[t.pk, 1]),
        reverse("scoring:tournament-cards-pdf", args=[t.pk, 1]),
        reverse("scoring:tournament-list-pdf", args=[t.pk, 1, table.number]),
        reverse("scoring:board", args=[key]),
        reverse("scoring:board-tv", args=[key]),
        reverse("scoring:board-fragment", args=[key]),
        reverse("scoring:board-tv-fragment", args=[key]),
        reverse("scoring:board-version", args=[key]),
    ]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()


def test_every_page_of_a_1001_player_tournament_answers(
        client: Client, django_assert_max_num_queries: Any) -> None:
    club = make_club()
    admin = make_user(club, "admin")
    t = big_tournament(club, 1001)
    assert Table.objects.filter(evening=t.evening, series=1).count() == 251
    client.force_login(admin)
    failed = {}
    for url in tournament_urls(t):
        try:
            response = client.get(url)
            status: Any = response.status_code
        except Exception as err:  # noqa: BLE001
            status = repr(err)[:200]
        if status != 200:
            failed[url] = status
    assert failed == {}
    desk = reverse("scoring:tournament", args=[t.pk])
    client.get(desk)
    with django_assert_max_num_queries(DESK_QUERIES):
        page = client.get(desk)
    assert len(page.content) < DESK_BYTES, len(page.content)
    html = page.content.decode()
    assert len(_entrants(html)) == 50
    assert "Spieler 0001" in html and "Spieler 0051" not in html
    assert "251 Tische (248 Vierer-, 3 Dreiertische), 1001 Spieler" in html
    assert "Seite 1 von 21" in html
    last = client.get(desk + "?page=21").content.decode()
    assert _entrants(last) == ["1001"]
    # a start number finds that entrant; a name or club what contains it
    assert _entrants(client.get(desk + "?q=777").content.decode()) == ["777"]
    assert _entrants(client.get(desk + "?q=spieler 0123").content.decode()) == ["123"]
    nord = client.get(desk + "?q=nord").content.decode()
    assert "334 Teilnehmer gefunden." in nord and len(_entrants(nord)) == 50
    assert "Niemand gefunden." in client.get(desk + "?q=Xaver").content.decode()
    # bad input: a page beyond the last shows the last page, never a 500
    assert "Spieler 1001" in client.get(desk + "?page=99999").content.decode()
    assert client.get(desk + "?page=abc&q=" + "x" * 500).status_code == 200
    # marking an entrant goes back to the desk's page that shows him
    who = t.entrants.get(number=777)
    answer = client.post(reverse("scoring:tournament-entrant", args=[t.pk, who.pk]),
                         {"action": "unpaid"})
    assert answer["Location"] == f"{desk}?page=16#entrant-{who.pk}"
    assert f'id="entrant-{who.pk}"' in client.get(answer["Location"]).content.decode()
    seats = client.get(reverse("scoring:tournament-seats", args=[t.pk, 1])).content.decode()
    assert seats.count('<li id="table-') == 251
    assert client.get(reverse("scoring:tournament-seats", args=[t.pk, 2])).status_code == 404


def _entrants(html: str) -> list[str]:
    """The start numbers of the desk's entrant rows."""
    return re.findall(r'<tr id="entrant-\d+"[^>]*>\s*<td>(\d+)</td>', html)


def test_the_desks_queries_do_not_grow_with_the_field(
        client: Client, django_assert_max_num_queries: Any) -> None:
    """The same bound at 41 players as the 1,001 above holds."""
    club = make_club()
    t = big_tournament(club, 41)
    client.force_login(make_user(club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    client.get(desk)
    with django_assert_max_num_queries(DESK_QUERIES):
        assert client.get(desk).status_code == 200


RESULTS_QUERIES = 20  # the results page with every prize list, the same at 41 and 1,001


@pytest.mark.parametrize("players", [41, 1001])
def test_the_prize_lists_and_the_unpaid_warning_at_1001_players(
        client: Client, django_assert_max_num_queries: Any, players: int) -> None:
    """Issue 24 item 4: the category, team and tandem prize lists on the results page, its
    PDF and CSVs, and the desk's unpaid warning (half the field has not paid), in a bounded
    number of queries whatever the field."""
    from scoring.writes import preisskat

    club = make_club()
    t = big_tournament(club, players)
    preisskat.tournament_list_prizes(tournament=t, list_prizes={
        "categories": {"Damen": ["20.00", "10%"]}, "team": ["50%", "25%"]})
    client.force_login(make_user(club, "admin"))
    results = reverse("scoring:tournament-results", args=[t.pk])
    client.get(results)
    with django_assert_max_num_queries(RESULTS_QUERIES):
        page = client.get(results)
    html = page.content.decode()
    assert 'class="prize-list-category"' in html and 'class="prize-list-team"' in html
    csv_url = reverse("scoring:tournament-results-csv", args=[t.pk])
    for key in ("c0", "c1", "team", "tandem"):
        assert client.get(f"{csv_url}?list={key}").status_code == 200, key
    assert client.get(reverse("scoring:tournament-results-pdf", args=[t.pk])).status_code \
        == 200
    desk = reverse("scoring:tournament", args=[t.pk])
    with django_assert_max_num_queries(DESK_QUERIES):
        page = client.get(desk)
    assert len(page.content) < DESK_BYTES, len(page.content)
    unpaid = re.search(r'<span class="unpaid-numbers">([^<]*)</span>', page.content.decode())
    assert unpaid is not None
    assert unpaid.group(1).split(", ")[:3] == ["2", "4", "6"]
    assert len(unpaid.group(1).split(", ")) == players // 2
