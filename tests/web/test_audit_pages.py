"""The audit log of an evening and the history of one deal, after corrections."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring.models import Deal, Table
from scoring.writes.services import Actor, deal_delete, deal_edit, deal_restore

from .factories import login, make_club, make_table, won
from .test_sheet_pages import EN, grant_code, play

pytestmark = pytest.mark.django_db


def corrected_table(user: User | None = None) -> tuple[Table, Deal]:
    club = make_club()
    table = make_table(club, players=3)
    actor = Actor(user, "anna") if user else Actor(None, "table code, table 1")
    first, _second = play(table, [won(1, 60), won(2)])
    deal_edit(deal=first, record=won(1, 70), reason="Augen falsch gezählt",
              expected_version=table.version, actor=actor)
    table.refresh_from_db()
    deal_delete(deal=Deal.objects.get(pk=first.pk), reason="falscher Tisch",
                expected_version=table.version, actor=actor)
    table.refresh_from_db()
    deal_restore(deal=Deal.objects.get(pk=first.pk), reason="doch richtig",
                 expected_version=table.version, actor=actor)
    return table, first


def test_the_evening_audit_shows_who_what_and_why(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    table, first = corrected_table()
    login(client, table.evening.club, "viewer")
    url = reverse("scoring:evening-audit", args=[table.evening_id])
    with django_assert_max_num_queries(9):
        response = client.get(url, headers=EN)
    assert response.status_code == 200
    html = response.content.decode()
    body = html.split("<tbody>", 1)[1]
    # newest first: restored, deleted, corrected, then the two recordings
    order = [body.index(word) for word in ("restored", "deleted", "corrected", "recorded")]
    assert order == sorted(order)
    for reason in ("Augen falsch gezählt", "falscher Tisch", "doch richtig"):
        assert reason in body
    assert "table code, table 1" in body
    # the correction, readably: before → after, and the field that changed
    assert "<del>Bernd Altenburg: ♣ Clubs · with 1 · bid 18 · 60</del>" in body
    assert "<ins>Bernd Altenburg: ♣ Clubs · with 1 · bid 18 · 70</ins>" in body
    assert '<span class="field">Card points</span>: 60 → 70' in body
    assert reverse("scoring:deal-history", args=[table.pk, first.pk]) in body


def test_the_deal_history_is_oldest_first(client: Client) -> None:
    table, first = corrected_table()
    login(client, table.evening.club, "viewer")
    response = client.get(reverse("scoring:deal-history", args=[table.pk, first.pk]),
                          headers=EN)
    assert response.status_code == 200
    body = response.content.decode().split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert body.count("<tr") == 4
    order = [body.index(word) for word in ("recorded", "corrected", "deleted", "restored")]
    assert order == sorted(order)
    assert "falscher Tisch" in body


def test_a_code_device_sees_the_history_of_its_table(client: Client) -> None:
    table, first = corrected_table()
    grant_code(client, table)
    url = reverse("scoring:deal-history", args=[table.pk, first.pk])
    assert client.get(url).status_code == 200
    assert client.get(
        reverse("scoring:evening-audit", args=[table.evening_id])).status_code == 404


def test_the_audit_is_german_by_default(client: Client) -> None:
    table, first = corrected_table()
    login(client, table.evening.club, "viewer")
    html = client.get(reverse("scoring:deal-history", args=[table.pk, first.pk])).content.decode()
    assert '<html lang="de">' in html and "Kreuz" in html
