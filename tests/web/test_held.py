"""Held operations (issue 13): what a tablet sent after the evening was closed or its code
ran out waits for the club admin, who sees the deal as the sheet would show it and accepts
(through the services, at the table's current version) or discards it with a reason. Both
decisions are in the audit log; only the club's admins see the page."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import AuditEntry, Deal, HeldOperation, Table
from scoring.writes.services import Actor, deal_record, evening_close, evening_reopen

from .factories import make_club, make_table, make_user
from .test_sync import WON, op, send

pytestmark = pytest.mark.django_db

OTHER = Actor(None, "other tablet")


@pytest.fixture
def site() -> dict[str, Any]:
    table = make_table(make_club())
    club = table.evening.club
    scorer, admin = Client(), Client()
    scorer.force_login(make_user(club, "scorer"))
    admin.force_login(make_user(club, "admin"))
    return {"table": table, "scorer": scorer, "admin": admin,
            "url": reverse("scoring:held", args=[table.evening_id])}


def hold(site: dict[str, Any], body: dict[str, Any] | None = None) -> HeldOperation:
    table = site["table"]
    if not Table.objects.get(pk=table.pk).evening.closed:
        evening_close(evening=table.evening, actor=OTHER)
    body = body or op(record={**WON, "declarer_points": 88})
    response = send(site["scorer"], table, body)
    assert response.status_code == 202
    return HeldOperation.objects.get(pk=response.json()["held"])


def test_the_admin_sees_the_held_deal_as_the_sheet_would_show_it(site: dict[str, Any],
                                                                 ) -> None:
    held = hold(site)
    page = site["admin"].get(site["url"])
    assert page.status_code == 200
    html = page.content.decode()
    assert f'id="held-{held.pk}"' in html and "scorer-altenburg" in html
    [view] = page.context["waiting"]
    assert view.row is not None and view.row.number == 1 and view.error == ""
    assert view.entries and view.entries[0][1] != 0
    # Linked from the evening page, with how many wait.
    evening = site["admin"].get(reverse("scoring:evening", args=[site["table"].evening_id]))
    assert site["url"] in evening.content.decode()
    assert evening.context["held_waiting"] == 1


def test_accepting_into_a_closed_evening_needs_a_reason(site: dict[str, Any]) -> None:
    held = hold(site)
    accept = reverse("scoring:held-accept", args=[site["table"].evening_id])
    refused = site["admin"].post(accept, {"held": held.pk})
    assert refused.status_code == 422 and refused.context["error_for"] == held.pk
    assert not Deal.objects.exists()
    done = site["admin"].post(accept, {"held": held.pk, "reason": "Tisch 1 war offline"})
    assert done.status_code == 302
    deal = Deal.objects.get()
    assert deal.record == held.record and deal.request_id == held.request_id
    assert Table.objects.get(pk=site["table"].pk).version == 1
    held.refresh_from_db()
    assert held.state == "accepted" and held.resolved_by == "admin-altenburg"
    actions = list(AuditEntry.objects.filter(table=site["table"]).order_by("id").values_list(
        "action", "actor"))
    assert actions == [("held", "scorer-altenburg"), ("create", "admin-altenburg"),
                       ("accept", "admin-altenburg")]
    assert "Tisch 1 war offline" in AuditEntry.objects.get(action="accept").reason
    # The tablet sends it again: stored, once.
    again = send(site["scorer"], site["table"], {
        "op": "save", "request_id": str(held.request_id), "base_version": 0,
        "record": held.record})
    assert again.status_code == 200 and again.json()["deal"] == deal.pk
    # Decided is decided.
    assert site["admin"].post(accept, {"held": held.pk, "reason": "x"}).status_code == 422
    assert Deal.objects.count() == 1


def test_accepting_after_reopening_applies_at_the_current_version(site: dict[str, Any],
                                                                   ) -> None:
    held = hold(site)
    evening_reopen(evening=site["table"].evening, actor=OTHER)
    deal_record(table=site["table"], record=WON, expected_version=0, actor=OTHER)
    # The held deal now comes second: seat 2 declares it (seat 1 deals and sits out).
    HeldOperation.objects.filter(pk=held.pk).update(record={**WON, "declarer": 2})
    accept = reverse("scoring:held-accept", args=[site["table"].evening_id])
    assert site["admin"].post(accept, {"held": held.pk}).status_code == 302
    assert list(Deal.objects.order_by("position").values_list("record__declarer", flat=True)
                ) == [1, 2]


def test_a_deal_the_engine_refuses_now_is_shown_and_not_accepted(site: dict[str, Any],
                                                                 ) -> None:
    held = hold(site, op(record={**WON, "declarer": 0}))  # the first dealer sits out
    page = site["admin"].get(site["url"])
    assert page.context["waiting"][0].error
    accept = reverse("scoring:held-accept", args=[site["table"].evening_id])
    response = site["admin"].post(accept, {"held": held.pk, "reason": "trotzdem"})
    assert response.status_code == 422 and not Deal.objects.exists()
    held.refresh_from_db()
    assert held.state == "waiting"


def test_discarding_needs_a_reason_and_stays_in_the_audit_log(site: dict[str, Any]) -> None:
    held = hold(site)
    discard = reverse("scoring:held-discard", args=[site["table"].evening_id])
    assert site["admin"].post(discard, {"held": held.pk}).status_code == 422
    assert site["admin"].post(discard, {"held": held.pk, "reason": "doppelt"}
                              ).status_code == 302
    held.refresh_from_db()
    assert held.state == "discarded" and held.resolution == "doppelt"
    entry = AuditEntry.objects.get(action="discard")
    assert "doppelt" in entry.reason and entry.after == held.record
    assert not Deal.objects.exists()
    # The tablet asks again: it learns it was discarded, and why.
    answer = send(site["scorer"], site["table"], {
        "op": "save", "request_id": str(held.request_id), "base_version": 0,
        "record": held.record}).json()
    assert answer["status"] == "held" and answer["state"] == "discarded"
    assert "doppelt" in answer["message"]
    page = site["admin"].get(site["url"])
    assert not page.context["waiting"] and page.context["decided"] == [held]
    audit = site["admin"].get(reverse("scoring:evening-audit", args=[site["table"].evening_id]))
    assert audit.status_code == 200 and "doppelt" in audit.content.decode()


def test_a_held_edit_of_a_held_deal_waits_for_its_deal(site: dict[str, Any]) -> None:
    save = op()
    held_save = hold(site, save)
    held_edit = hold(site, op("edit", deal_request_id=save["request_id"],
                              record={**WON, "declarer_points": 95}))
    accept = reverse("scoring:held-accept", args=[site["table"].evening_id])
    first = site["admin"].post(accept, {"held": held_edit.pk, "reason": "r"})
    assert first.status_code == 422 and not Deal.objects.exists()
    for held in (held_save, held_edit):
        assert site["admin"].post(accept, {"held": held.pk, "reason": "r"}).status_code == 302
    deal = Deal.objects.get()
    assert deal.record["declarer_points"] == 95
    assert list(deal.audit.order_by("id").values_list("action", flat=True)) == [
        "create", "edit"]


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_only_the_clubs_admins_see_and_decide(site: dict[str, Any], role: str) -> None:
    held = hold(site)
    client = Client()
    client.force_login(make_user(site["table"].evening.club, role, username=f"x-{role}"))
    assert client.get(site["url"]).status_code == 403
    for name in ("held-accept", "held-discard"):
        url = reverse(f"scoring:{name}", args=[site["table"].evening_id])
        assert client.post(url, {"held": held.pk, "reason": "r"}).status_code == 403
    assert HeldOperation.objects.get().state == "waiting" and not Deal.objects.exists()


def test_another_clubs_held_operations_are_invisible(site: dict[str, Any]) -> None:
    held = hold(site)
    other_table = make_table(make_club("other", "Other"))
    other = Client()
    other.force_login(make_user(other_table.evening.club, "admin"))
    assert other.get(site["url"]).status_code == 404
    # Its own page does not list them, and the id does not work through it either.
    page = other.get(reverse("scoring:held", args=[other_table.evening_id]))
    assert page.status_code == 200 and not page.context["waiting"]
    accept = reverse("scoring:held-accept", args=[other_table.evening_id])
    assert other.post(accept, {"held": held.pk, "reason": "r"}).status_code == 404
    assert HeldOperation.objects.get().state == "waiting"
    assert site["admin"].post(accept, {"held": "abc"}).status_code == 404


def test_the_page_reads_a_constant_number_of_queries(site: dict[str, Any]) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert site["admin"].get(site["url"]).status_code == 200
        return len(queries)

    hold(site)
    one = count()
    for _n in range(5):
        hold(site, op(request_id=str(uuid.uuid4())))
    held = HeldOperation.objects.first()
    assert held is not None, "an operation is held"
    site["admin"].post(reverse("scoring:held-discard", args=[site["table"].evening_id]),
                       {"held": held.pk, "reason": "r"})
    assert count() == one
