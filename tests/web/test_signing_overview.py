"""The players sign the list (issue 23): each table's state on the evening overview and the
tournament desk (playing / finished / signed, in constant queries at 2 and at many tables),
and the next tournament series drawn only when the previous one is signed at every table,
or by the director's override with a reason, in the audit log."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import AuditEntry, Club, Player, Table, TournamentSeries
from scoring.writes import tournament as tw
from scoring.writes.services import table_create
from scoring.writes.signing import sign

from . import pdfs
from .factories import make_club, make_user, won
from .pdfs import needs_poppler
from .signing_fixtures import SCORER, seated, short_table
from .tournaments import fill_series, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    cache.clear()
    with translation.override("en"):
        yield


def _states(html: str) -> list[str]:
    return re.findall(r'class="table-status status-(\w+)"', html)


def _evening_with(club: Club, tables: int) -> Any:
    """One finished and signed table, one finished, the rest playing (one deal each)."""
    from scoring.writes.services import deal_record

    first = short_table(club)
    evening = first.evening
    for n in range(1, tables):
        players = [Player.objects.create(club=club, name=f"P{n}-{k}") for k in range(4)]
        table = table_create(evening=evening, players=players)
        for d in range(4 if n == 1 else 1):
            fresh = Table.objects.get(pk=table.pk)
            deal_record(table=fresh, record=won((d + 1) % 4), expected_version=fresh.version,
                        actor=SCORER)
    first = Table.objects.select_related("evening__club").get(pk=first.pk)
    for player in seated(first):
        sign(table=first, player_id=player.pk, actor=SCORER)
    return evening


@pytest.mark.parametrize("tables", [2, 12])
def test_the_evening_overview_shows_each_tables_state_in_constant_queries(
        client: Client, django_assert_max_num_queries: Any, tables: int) -> None:
    club = make_club()
    evening = _evening_with(club, tables)
    client.force_login(make_user(club, "viewer"))
    url = reverse("scoring:evening", args=[evening.pk])
    with django_assert_max_num_queries(14):
        html = client.get(url).content.decode()
    assert _states(html) == ["signed", "finished"] + ["playing"] * (tables - 2)
    cache.clear()
    with django_assert_max_num_queries(9):
        client.get(reverse("scoring:evening-live", args=[evening.pk]),
                   headers={"HX-Request": "true"})


def test_a_signature_changes_the_polled_overview(client: Client) -> None:
    club = make_club()
    table = short_table(club)
    client.force_login(make_user(club, "viewer"))
    url = reverse("scoring:evening-live", args=[table.evening_id])
    first = client.get(url, headers={"HX-Request": "true"})
    assert _states(first.content.decode()) == ["finished"]
    etag = first["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    for player in seated(table):
        sign(table=table, player_id=player.pk, actor=SCORER)
    again = client.get(url, headers={"If-None-Match": etag, "HX-Request": "true"})
    assert again.status_code == 200 and _states(again.content.decode()) == ["signed"]


# ---------------------------------------------------------------- the tournament

def test_the_next_series_waits_for_the_signatures_and_the_override_is_logged() -> None:
    club = make_club()
    tournament = make_tournament(club)
    tw.series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1, sign=False)
    with pytest.raises(ValidationError, match="not signed at every table"):
        tw.series_draw(tournament=tournament, seed=2)
    tables = list(Table.objects.filter(evening=tournament.evening, series=1))
    for table in tables[:-1]:
        table = Table.objects.select_related("evening__club").get(pk=table.pk)
        for player in seated(table):
            sign(table=table, player_id=player.pk, actor=SCORER)
    with pytest.raises(ValidationError, match=f"table {tables[-1].number}"):
        tw.series_draw(tournament=tournament, seed=2)
    assert TournamentSeries.objects.filter(tournament=tournament).count() == 1
    drawn = tw.series_draw(tournament=tournament, seed=2,
                           unsigned_reason="Tisch 4 musste zum Zug")
    assert drawn.number == 2
    entry = AuditEntry.objects.get(action="drawunsign")
    assert entry.reason == "Tisch 4 musste zum Zug"
    assert entry.after == {"series": 2, "unsigned_tables": [tables[-1].number]}


def test_signed_everywhere_the_next_series_is_drawn_without_override() -> None:
    tournament = make_tournament(make_club())
    tw.series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1)  # every table signs
    assert tw.series_draw(tournament=tournament, seed=2).number == 2
    assert not AuditEntry.objects.filter(action="drawunsign").exists()


@pytest.mark.parametrize("players", [8, 40])
def test_the_desk_shows_each_tables_state_and_the_override(
        client: Client, django_assert_max_num_queries: Any, players: int) -> None:
    club = make_club()
    for n in range(players):
        Player.objects.create(club=club, name=f"Mitglied {n:02d}")
    tournament = make_tournament(club, players=players)
    tw.series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1, sign=False)
    first = Table.objects.select_related("evening__club").get(
        evening=tournament.evening, series=1, number=1)
    for player in seated(first):
        sign(table=first, player_id=player.pk, actor=SCORER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:tournament", args=[tournament.pk])
    seats = reverse("scoring:tournament-seats", args=[tournament.pk, 1])
    client.get(url)
    with django_assert_max_num_queries(27):
        html = client.get(seats).content.decode()
    states = _states(html)
    assert states[0] == "signed" and set(states[1:]) == {"finished"}
    tables = len(list(tournament.evening.tables.all()))
    assert len(states) == tables
    with django_assert_max_num_queries(27):
        desk = client.get(url).content.decode()  # the series folded to counts
    assert _states(desk) == ["finished", "signed"]
    assert f">{tables - 1} finished<" in desk and ">1 signed<" in desk
    draw = reverse("scoring:tournament-draw", args=[tournament.pk])
    answer = client.post(draw, {"seed": "2"}, follow=True)
    assert "not signed at every table" in answer.content.decode()
    answer = client.post(draw, {"seed": "2", "unsigned_ok": "on"}, follow=True)
    assert "Say why" in answer.content.decode()
    assert TournamentSeries.objects.filter(tournament=tournament).count() == 1
    client.post(draw, {"seed": "2", "unsigned_ok": "on", "unsigned_reason": "Zeitplan"})
    assert TournamentSeries.objects.filter(tournament=tournament).count() == 2
    assert AuditEntry.objects.get(action="drawunsign").actor == f"admin-{club.slug}"


@needs_poppler
def test_the_standard_list_shows_the_signatures(client: Client) -> None:
    club = make_club()
    tournament = make_tournament(club)
    tw.series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1, sign=False)
    table = Table.objects.select_related("evening__club").get(
        evening=tournament.evening, series=1, number=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:tournament-list-pdf", args=[tournament.pk, 1, 1])
    assert "unterschrieben" not in pdfs.text(client.get(url).content)
    for player in seated(table)[:2]:
        sign(table=table, player_id=player.pk, actor=SCORER)
    printed = pdfs.text(client.get(url).content)  # the signatures move the documents' key
    assert len(re.findall(r"unterschrieben \d\d:\d\d", printed)) == 2
    assert printed.count("Unterschrift") == len(seated(table))  # every line stays
    blank = pdfs.text(client.get(url + "?blank=1").content)
    assert "unterschrieben" not in blank
