"""A closed evening is read-only for everybody, the services refuse it too, and only an admin
reopens it, with the audit log saying so (also when it is closed in the site administration)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from scoring.models import AuditEntry, Deal, Evening, Table

from .factories import make_club, make_table

pytestmark = pytest.mark.django_db


def _closed_table() -> tuple[Table, Deal, Deal]:
    from .factories import won
    from .test_sheet_pages import play as play_records

    table = make_table(make_club(), players=3)
    first, second = play_records(table, [won(1, 60), won(2)])
    Deal.objects.filter(pk=second.pk).update(deleted=True)
    Evening.objects.filter(pk=table.evening_id).update(closed=True)
    table.refresh_from_db()
    return table, first, second


def _state(table: Table) -> tuple[list[tuple[Any, bool]], int, int]:
    return (list(Deal.objects.filter(table=table).order_by("pk").values_list(
        "record", "deleted")), AuditEntry.objects.count(),
        Table.objects.get(pk=table.pk).version)


@pytest.mark.parametrize("role", ["scorer", "admin"])
def test_a_closed_evening_is_read_only_for_everybody(client: Client, role: str) -> None:
    from .factories import deal_form, make_user

    table, first, second = _closed_table()
    client.force_login(make_user(table.evening.club, role=role))
    before = _state(table)
    posts = [
        (reverse("scoring:deal-save", args=[table.pk]), deal_form(table)),
        (reverse("scoring:deal-preview", args=[table.pk]), deal_form(table)),
        (reverse("scoring:deal-edit", args=[table.pk, first.pk]),
         deal_form(table, declarer="2", reason="Typo")),
        (reverse("scoring:deal-delete", args=[table.pk, first.pk]),
         {"version": str(table.version), "reason": "Typo"}),
        (reverse("scoring:deal-restore", args=[table.pk, second.pk]),
         {"version": str(table.version), "reason": "Typo"}),
    ]
    for url, data in posts:
        response = client.post(url, data, headers={"accept-language": "en"})
        assert response.status_code == 403, url
        assert "This evening is closed" in response.content.decode(), url
    edit = client.get(reverse("scoring:deal-edit", args=[table.pk, first.pk]))
    assert edit.status_code == 403
    assert _state(table) == before
    screen = client.get(reverse("scoring:table", args=[table.pk]),
                        headers={"accept-language": "en"}).content.decode()
    assert "This evening is closed" in screen and 'name="declarer"' not in screen
    with translation.override("de"):
        german = client.post(posts[0][0], posts[0][1]).content.decode()
    assert "Dieser Abend ist abgeschlossen" in german


def test_the_services_refuse_a_closed_evening_too() -> None:
    from scoring.engine import SkatError
    from scoring.writes.services import Actor, deal_delete, deal_record

    from .factories import won

    table, first, _second = _closed_table()
    before = _state(table)
    actor = Actor(None, "test")
    with pytest.raises(SkatError, match="closed"):
        deal_record(table=table, record=won(1), expected_version=table.version, actor=actor)
    with pytest.raises(SkatError, match="closed"):
        deal_delete(deal=first, reason="x", expected_version=table.version, actor=actor)
    assert _state(table) == before


def test_only_an_admin_reopens_a_closed_evening_and_the_audit_log_says_so(
        client: Client) -> None:
    from .factories import deal_form, make_user

    table, _first, _second = _closed_table()
    club = table.evening.club
    reopen = reverse("scoring:evening-reopen", args=[table.evening_id])
    close = reverse("scoring:evening-close", args=[table.evening_id])
    for role in ("viewer", "scorer"):
        client.force_login(make_user(club, role=role))
        assert client.post(reopen, {"reason": "x"}).status_code == 403
        assert Evening.objects.get(pk=table.evening_id).closed
    admin = make_user(club, role="admin")
    client.force_login(admin)
    evening_page = client.get(reverse("scoring:evening", args=[table.evening_id]),
                              headers={"accept-language": "en"}).content.decode()
    assert reopen in evening_page
    response = client.post(reopen, {"reason": "Tisch 1 nachtragen"})
    assert response.status_code == 302
    assert not Evening.objects.get(pk=table.evening_id).closed
    entry = AuditEntry.objects.filter(evening_id=table.evening_id).latest("id")
    assert (entry.action, entry.user, entry.reason, entry.table_id, entry.deal_id) == (
        "reopen", admin, "Tisch 1 nachtragen", None, None)
    # open again: scorers record deals as before
    scorer = make_user(club, role="scorer", username="scorer-2")
    client.force_login(scorer)
    table.refresh_from_db()
    assert client.post(reverse("scoring:deal-save", args=[table.pk]),
                       deal_form(table)).status_code == 302
    assert client.post(close, {}).status_code == 403
    client.force_login(admin)
    assert client.post(close, {}).status_code == 302
    assert Evening.objects.get(pk=table.evening_id).closed
    assert AuditEntry.objects.filter(evening_id=table.evening_id).latest("id").action == "close"
    log = client.get(reverse("scoring:evening-audit", args=[table.evening_id]),
                     headers={"accept-language": "en"})
    assert log.status_code == 200
    body = log.content.decode()
    assert "reopened" in body and "closed" in body and "Tisch 1 nachtragen" in body


def test_closing_in_the_site_administration_is_in_the_audit_log_too(
        rf: RequestFactory) -> None:
    from types import SimpleNamespace

    from django.contrib.admin.sites import site

    from .factories import make_user

    table = make_table(make_club(), players=3)
    evening = table.evening
    request = rf.post("/")
    request.user = make_user(evening.club, role="admin")
    evening.closed = True
    site._registry[Evening].save_model(request, evening, SimpleNamespace(
        changed_data=["closed"]), change=True)
    entry = AuditEntry.objects.get(evening=evening)
    assert (entry.action, entry.user, entry.table_id) == ("close", request.user, None)
