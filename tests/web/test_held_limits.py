"""Issue 26, item 7: held operations have bounds. One device once sent 1,000 operations to a
closed evening (each answered 202 and kept) and a 60 KB record; the held page grew to 1.8 MB
and took 1.5 s, with one accept or discard button each. Now: at most HELD_PER_DEVICE wait per
device and evening (then /sync/ answers its JSON 429 and the tablet keeps the operation), one
held record is at most HELD_RECORD_BYTES, the list is paged in constant queries, and the admin
discards in bulk (all of one device, or all shown), confirmed, each in the audit log."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from scoring.models import AuditEntry, HeldOperation, Table
from scoring.reads.sheet import HELD_PAGE
from scoring.writes.services import Actor, evening_close

from .factories import make_club, make_table, make_user
from .test_sync import WON, op, send

pytestmark = pytest.mark.django_db

OTHER = Actor(None, "other tablet")


@pytest.fixture
def site() -> dict[str, Any]:
    table = make_table(make_club())
    club = table.evening.club
    scorer, admin = Client(), Client()
    scorer_user = make_user(club, "scorer")
    scorer.force_login(scorer_user)
    admin.force_login(make_user(club, "admin"))
    evening_close(evening=table.evening, actor=OTHER)
    return {"table": Table.objects.get(pk=table.pk), "scorer": scorer, "admin": admin,
            "scorer_user": scorer_user,
            "url": reverse("scoring:held", args=[table.evening_id])}


def bulk_held(table: Table, count: int, *, user: Any = None, actor: str = "Tisch 1") -> None:
    """``count`` held operations as a device would have left them (straight into the
    database: 1,000 through /sync/ would take long)."""
    now = timezone.now()
    HeldOperation.objects.bulk_create([HeldOperation(
        table=table, op="save", request_id=uuid.uuid4(),
        record={**WON, "declarer_points": 61 + n % 59}, base_version=0,
        why=HeldOperation.Why.CLOSED, user=user, actor=actor, at=now) for n in range(count)])


def test_a_device_beyond_the_cap_gets_its_json_429_and_nothing_is_held(
        site: dict[str, Any], settings: Any) -> None:
    settings.HELD_PER_DEVICE = 3
    table = site["table"]
    for _n in range(3):
        assert send(site["scorer"], table, op()).status_code == 202
    body = op()
    answer = send(site["scorer"], table, body)
    assert answer.status_code == 429 and answer["Content-Type"] == "application/json"
    data = answer.json()
    assert data["status"] == "held-full" and data["limit"] == 3 and "3" in data["message"]
    assert not HeldOperation.objects.filter(request_id=body["request_id"]).exists()
    assert HeldOperation.objects.count() == 3
    # another device (another account) still gets its own
    other = Client()
    other.force_login(make_user(table.evening.club, "scorer", username="zweiter"))
    assert send(other, table, op()).status_code == 202
    # once the admin decided, the device's operation goes through when sent again
    first = HeldOperation.objects.filter(user=site["scorer_user"]).first()
    assert first is not None
    site["admin"].post(reverse("scoring:held-discard", args=[table.evening_id]),
                       {"held": first.pk, "reason": "doppelt"})
    assert send(site["scorer"], table, body).status_code == 202


def test_a_repeated_request_of_a_held_operation_is_answered_beyond_the_cap(
        site: dict[str, Any], settings: Any) -> None:
    settings.HELD_PER_DEVICE = 1
    body = op()
    assert send(site["scorer"], site["table"], body).status_code == 202
    assert send(site["scorer"], site["table"], body).status_code == 202  # the same, again


def test_a_huge_record_is_refused_not_held(site: dict[str, Any]) -> None:
    record = {**WON, "note": "x" * 60_000}
    answer = send(site["scorer"], site["table"], op(record=record))
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == "record"
    assert not HeldOperation.objects.exists()


def test_the_held_page_at_1000_operations_is_paged_in_constant_queries(
        site: dict[str, Any],
        django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    table = site["table"]
    bulk_held(table, 30)
    site["admin"].get(site["url"])  # warm the caches
    with django_assert_max_num_queries(40) as small:
        site["admin"].get(site["url"])
    bulk_held(table, 970, actor="Tisch 1 (Code)")
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = site["admin"].get(site["url"])
    assert page.status_code == 200
    assert len(page.context["waiting"]) == HELD_PAGE
    held_page = page.context["held_page"]
    assert held_page.waiting == 1000 and held_page.pages == 40
    assert len(page.content) < 300_000
    last = site["admin"].get(site["url"] + "?page=40")
    assert len(last.context["waiting"]) == 1000 - 39 * HELD_PAGE
    german = site["admin"].get(site["url"] + "?page=2", HTTP_ACCEPT_LANGUAGE="de")
    text = german.content.decode()
    assert "1000 Änderungen warten." in text and "Seite 2 von 40." in text
    assert "Mehrere auf einmal verwerfen" in text
    assert site["admin"].get(site["url"] + "?page=x").status_code == 200
    assert site["admin"].get(site["url"] + "?page=99999").context["held_page"].page == 40


def test_the_admin_discards_all_of_one_device_with_a_confirmation(
        site: dict[str, Any]) -> None:
    table = site["table"]
    bulk_held(table, 60, actor="Tisch 1 (Code)")
    bulk_held(table, 5, actor="Tisch 2 (Code)")
    url = reverse("scoring:held-discard-bulk", args=[table.evening_id])
    data = {"scope": "device", "device": "a:Tisch 1 (Code)", "reason": "Testlauf"}
    refused = site["admin"].post(url, data)  # not confirmed
    assert refused.status_code == 422 and "confirm" in refused.content.decode()
    assert refused.context["bulk_error"]
    assert not HeldOperation.objects.exclude(state="waiting").exists()
    no_reason = site["admin"].post(url, {**data, "reason": " ", "confirm": "yes"})
    assert no_reason.status_code == 422
    done = site["admin"].post(url, {**data, "confirm": "yes"})
    assert done.status_code == 302
    assert HeldOperation.objects.filter(state="discarded").count() == 60
    assert HeldOperation.objects.filter(state="waiting", actor="Tisch 2 (Code)").count() == 5
    entries = AuditEntry.objects.filter(action=AuditEntry.Action.DISCARD)
    assert entries.count() == 60 and all("Testlauf" in e.reason for e in entries)


def test_the_admin_discards_all_shown_and_only_those(site: dict[str, Any]) -> None:
    table = site["table"]
    bulk_held(table, 30)
    page = site["admin"].get(site["url"])
    shown = page.context["shown_ids"]
    assert len(shown.split(",")) == HELD_PAGE
    url = reverse("scoring:held-discard-bulk", args=[table.evening_id])
    done = site["admin"].post(url, {"scope": "shown", "shown": shown, "reason": "alt",
                                    "confirm": "yes"})
    assert done.status_code == 302
    assert HeldOperation.objects.filter(state="waiting").count() == 30 - HELD_PAGE
    # ids of another evening's operations or of decided ones change nothing
    other = make_table(make_club("b", "Other"))
    bulk_held(other, 2)
    ids = ",".join(str(h.pk) for h in HeldOperation.objects.filter(table=other))
    site["admin"].post(url, {"scope": "shown", "shown": ids, "reason": "x", "confirm": "yes"})
    assert HeldOperation.objects.filter(table=other, state="waiting").count() == 2


def test_only_the_clubs_admin_discards_in_bulk(site: dict[str, Any]) -> None:
    table = site["table"]
    bulk_held(table, 3)
    url = reverse("scoring:held-discard-bulk", args=[table.evening_id])
    data = {"scope": "device", "device": "a:Tisch 1", "reason": "x", "confirm": "yes"}
    assert site["scorer"].post(url, data).status_code == 403
    stranger = Client()
    stranger.force_login(make_user(make_club("c", "C"), "admin"))
    assert stranger.post(url, data).status_code == 404
    assert site["admin"].post(url, {**data, "scope": "?"}).status_code == 404
    assert HeldOperation.objects.filter(state="waiting").count() == 3
