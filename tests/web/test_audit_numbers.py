"""Issue 23, item 6: the audit log names a deal by its number on the score sheet. A deal's
stored position counts the deals deleted before it (two deleted: "Nr. 29" for the sheet's row
27); the audit page and a deal's history say the sheet's number, and a deleted deal is called
deleted, not given a number the sheet does not show."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring.models import Deal
from scoring.writes.services import Actor, deal_delete, deal_edit

from .factories import login, make_club, make_table
from .test_sheet_pages import plain_games, play

pytestmark = pytest.mark.django_db
ME = Actor(None, "anna")


def test_the_audit_says_the_sheets_number(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    table = make_table(club, players=3)
    deals = play(table, plain_games(table, 5))
    for gone in deals[1:3]:  # deals 2 and 3 deleted: deal 5 is the sheet's row 3
        table.refresh_from_db()
        deal_delete(deal=Deal.objects.get(pk=gone.pk), reason="falscher Tisch",
                    expected_version=table.version, actor=ME)
    table.refresh_from_db()
    last = Deal.objects.get(pk=deals[4].pk)
    assert last.position == 5
    deal_edit(deal=last, record={**last.record, "declarer_points": 80},
              reason="Augen falsch gezählt", expected_version=table.version, actor=ME)
    login(client, club, "viewer")
    sheet = client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert re.search(rf'<tr id="deal-{last.pk}"[^>]*>\s*<t[dh][^>]*>\s*3\b', sheet), \
        "the sheet shows it as row 3"
    with django_assert_max_num_queries(10):
        audit = client.get(reverse("scoring:evening-audit", args=[table.evening_id]))
    body = audit.content.decode().split("<tbody>", 1)[1]
    correction = re.search(r'<tr class="action-edit">.*?</tr>', body, re.S)
    assert correction is not None
    assert ">Nr. 3</a>" in correction[0] and "Nr. 5" not in correction[0]
    deletions = re.findall(r'<tr class="action-delete">.*?</tr>', body, re.S)
    assert len(deletions) == 2 and all("gelöschtes Spiel" in d for d in deletions)
    history = client.get(reverse("scoring:deal-history", args=[table.pk, last.pk]))
    assert "Verlauf von Spiel Nr. 3, Tisch 1" in history.content.decode()
    deleted = client.get(reverse("scoring:deal-history", args=[table.pk, deals[1].pk]))
    assert "Verlauf eines gelöschten Spiels, Tisch 1" in deleted.content.decode()
