"""The offline sync decides holding inside the transaction that claims the table's version
(issue 36): a list signed, or an evening closed, after the request came in but before its
operation is applied answers a queued save 202 held (the sync contract), never a 422 refusal
and never a deal stored into a closed evening. The race is played by signing (closing) from
inside the access check every request makes first."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import access
from scoring.models import AuditEntry, Deal, Evening, HeldOperation, Table
from scoring.writes.services import Actor, deal_record

pytestmark = pytest.mark.django_db

WON = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
       "declarer_points": 70}
OTHER = Actor(None, "other tablet")


def _send(client: Client, table: Table, body: dict[str, Any]) -> Any:
    return client.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(body),
                       content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")


def _meanwhile(monkeypatch: pytest.MonkeyPatch, change: Callable[[], object]) -> None:
    """``change`` happens once, right after the request's access check read the table."""
    real = access.member_of
    done: list[bool] = []

    def racing(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        if not done:
            done.append(True)
            change()
        return found

    monkeypatch.setattr(access, "member_of", racing)


def _save(version: int = 0, **extra: Any) -> dict[str, Any]:
    return {"op": "save", "request_id": str(uuid.uuid4()), "base_version": version,
            "record": dict(WON), **extra}


def test_a_list_signed_while_the_save_was_on_its_way_holds_it(
        table: Table, scorer: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    _meanwhile(monkeypatch, lambda: Table.objects.filter(pk=table.pk).update(
        signed_at=timezone.now()))
    body = _save()
    response = _send(scorer, table, body)
    assert response.status_code == 202, response.json()
    answer = response.json()
    assert answer["status"] == "held" and answer["state"] == "waiting"
    held = HeldOperation.objects.get(table=table)
    assert held.why == HeldOperation.Why.SIGNED and str(held.request_id) == body["request_id"]
    assert not Deal.objects.filter(table=table).exists()
    assert list(AuditEntry.objects.filter(table=table).values_list("action", flat=True)) == [
        "held"]
    table.refresh_from_db()
    assert table.version == 0


def test_an_evening_closed_while_the_save_was_on_its_way_holds_it(
        table: Table, scorer: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    _meanwhile(monkeypatch, lambda: Evening.objects.filter(pk=table.evening_id).update(
        closed=True))
    response = _send(scorer, table, _save())
    assert response.status_code == 202, response.json()
    assert HeldOperation.objects.get(table=table).why == HeldOperation.Why.CLOSED
    assert not Deal.objects.filter(table=table).exists()


def test_append_stores_after_a_save_that_came_in_between(
        table: Table, scorer: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Append mine after theirs" is applied at the version the lock finds: another
    tablet's save between the request's start and the claim is no conflict."""
    _meanwhile(monkeypatch, lambda: deal_record(
        table=Table.objects.select_related("evening").get(pk=table.pk), record=WON,
        expected_version=0, actor=OTHER))
    response = _send(scorer, table, _save(mode="append", record={**WON, "declarer": 2}))
    assert response.status_code == 200, response.json()
    assert response.json()["version"] == 2 and response.json()["number"] == 2
    assert Deal.objects.filter(table=table).count() == 2
