"""Who may print what: the sheet PDF like the sheet page (the club's members, and a device
holding that table's code); the settlement and the summary for the club's members only.
Other clubs and strangers get 404. The PDF views read in constant queries."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from scoring.models import Deal, Evening, Player, Table
from scoring.presets import PRESETS
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.writes.services import evening_create, table_create

from .factories import login, make_club
from .money_fixtures import money_evening
from .test_sheet_pages import grant_code, plain_games

pytestmark = pytest.mark.django_db


def pdf_urls(evening: Evening) -> dict[str, str]:
    first, second = evening.tables.order_by("number")
    return {"sheet": reverse("scoring:sheet-pdf", args=[first.pk]),
            "other sheet": reverse("scoring:sheet-pdf", args=[second.pk]),
            "settlement": reverse("scoring:settlement-pdf", args=[evening.pk]),
            "summary": reverse("scoring:summary-pdf", args=[evening.pk])}


def statuses(client: Client, evening: Evening) -> dict[str, int]:
    return {name: client.get(url).status_code for name, url in pdf_urls(evening).items()}


@pytest.mark.parametrize("role", ["viewer", "scorer", "admin"])
def test_members_print_everything(client: Client, role: str) -> None:
    club = make_club()
    evening = money_evening(club)
    login(client, club, role)
    assert set(statuses(client, evening).values()) == {200}


def test_strangers_and_other_clubs_get_404(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    assert set(statuses(client, evening).values()) == {404}
    login(client, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert set(statuses(client, evening).values()) == {404}


def test_a_table_code_prints_its_own_sheet_only(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    first = evening.tables.order_by("number").first()
    assert first is not None, "the evening has tables"
    grant_code(client, first)
    assert statuses(client, evening) == {"sheet": 200, "other sheet": 404, "settlement": 404,
                                         "summary": 404}


def test_an_expired_code_prints_nothing(client: Client) -> None:
    club = make_club()
    evening = money_evening(club)
    first = evening.tables.order_by("number").first()
    assert first is not None, "the evening has tables"
    grant_code(client, first)
    Evening.objects.filter(pk=evening.pk).update(closed=True)
    assert set(statuses(client, evening).values()) == {404}


def test_the_pdfs_read_in_constant_queries(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    profile = club.rule_profiles.get(name=PRESETS["club_evening"]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile)
    players = list(club.players.all())
    tables = [table_create(evening=evening, players=players[:4]),
              table_create(evening=evening, players=players[4:6] + [
                  Player.objects.create(club=club, name="Zoë")])]
    login(client, club)
    urls = pdf_urls(evening)
    for deals in (5, 150):
        for table in tables:
            table.deals.all().delete()
            Deal.objects.bulk_create(Deal(table=table, position=i + 1, record=record)
                                     for i, record in enumerate(plain_games(table, deals)))
        for name in ("sheet", "settlement", "summary"):
            with django_assert_max_num_queries(9):
                response = client.get(urls[name])
            assert response["X-PDF-Cache"] == "miss"  # rendered: reads the deals
            with django_assert_max_num_queries(5):
                assert client.get(urls[name])["X-PDF-Cache"] == "hit"  # no deals read
        sheet = table_sheet(tables_with_everything(Table.objects.filter(pk=tables[0].pk)).get(),
                            "en")
        assert sheet.error is None and len(sheet.rows) == deals
