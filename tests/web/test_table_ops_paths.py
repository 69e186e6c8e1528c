"""The table screen's form and the offline sync are one operation through one service
(issue 36): the same save, correction, deletion and restoration sent through either (the
form's POST at one table, /sync/ at its twin) stores the same record, writes the same audit
entry and gets the same kind of answer; sent again, each is done once and answered again.
Also: the form's edit, delete and restore carry a request ID, and a retried POST does not act
twice."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry, Club, Deal, Table
from scoring.reads.audit import actor_and_offline

from .factories import deal_form, make_table

pytestmark = pytest.mark.django_db

COMPARED = ("action", "user_id", "actor", "before", "after", "reason", "version")


def _entry(request_id: str, *, offline: bool) -> dict[str, Any]:
    """The audit entry of a request, the way it came taken off its actor: the one thing that
    differs, and it must be there exactly for the sync (the audit log's "sent offline")."""
    [entry] = AuditEntry.objects.filter(request_id=request_id).values(*COMPARED)
    actor, sent_offline = actor_and_offline(entry["actor"])
    assert sent_offline is offline
    return {**entry, "actor": actor}


def _form(client: Client, url: str, data: dict[str, str]) -> tuple[str, Any]:
    response = client.post(url, data)
    kind = {302: "stored", 409: "conflict", 422: "refused"}[response.status_code]
    return kind, response.get("Location")


def _sync(client: Client, table: Table, body: dict[str, Any]) -> tuple[str, Any]:
    response = client.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(body),
                           content_type="application/json")
    return response.json()["status"], response.json()


def test_the_same_operation_through_the_form_and_the_sync(club: Club, scorer: Client) -> None:
    by_form, by_sync = make_table(club), make_table(club)
    # save
    data = deal_form(by_form)
    answer = _form(scorer, reverse("scoring:deal-save", args=[by_form.pk]), data)
    form_deal = Deal.objects.get(table=by_form)
    body = {"op": "save", "request_id": str(uuid.uuid4()), "base_version": 0,
            "record": form_deal.record}
    stored = _sync(scorer, by_sync, body)
    sync_deal = Deal.objects.get(table=by_sync)
    assert answer[0] == stored[0] == "stored"
    assert sync_deal.record == form_deal.record
    assert _entry(data["request_id"], offline=False) == _entry(body["request_id"], offline=True)
    # the same requests again: answered again, nothing twice
    assert _form(scorer, reverse("scoring:deal-save", args=[by_form.pk]), data) == answer
    assert _sync(scorer, by_sync, body) == stored
    steps = [("edit", {"matadors": "2", "reason": "Tippfehler"}),
             ("delete", {"reason": "doppelt"}), ("restore", {"reason": "doch gespielt"})]
    for version, (kind, extra) in enumerate(steps, start=1):
        url = reverse(f"scoring:deal-{kind}", args=[by_form.pk, form_deal.pk])
        if kind == "edit":
            by_form.refresh_from_db()
            data = {**deal_form(by_form), **extra}
        else:
            data = {"version": str(version), "request_id": str(uuid.uuid4()), **extra}
        answer = _form(scorer, url, data)
        form_deal.refresh_from_db()
        body = {"op": kind, "request_id": str(uuid.uuid4()), "base_version": version,
                "deal": sync_deal.pk, "reason": extra["reason"]}
        if kind == "edit":
            body["record"] = form_deal.record
        stored = _sync(scorer, by_sync, body)
        sync_deal.refresh_from_db()
        assert answer[0] == stored[0] == "stored", (kind, answer, stored)
        assert (sync_deal.record, sync_deal.deleted) == (form_deal.record, form_deal.deleted)
        assert (_entry(data["request_id"], offline=False)
                == _entry(body["request_id"], offline=True)), kind
        assert _form(scorer, url, data) == answer, kind  # replayed: the same confirmation
        assert _sync(scorer, by_sync, body) == stored, kind
    assert AuditEntry.objects.filter(table=by_form).count() == 4
    assert AuditEntry.objects.filter(table=by_sync).count() == 4
    by_form.refresh_from_db()
    by_sync.refresh_from_db()
    assert by_form.version == by_sync.version == 4


@pytest.mark.parametrize("kind", ["delete", "restore"])
def test_a_retried_delete_or_restore_acts_once(table: Table, scorer: Client,
                                              kind: str) -> None:
    """The Undo toast's (the edit page's) form posted twice with its request ID: done once,
    the same confirmation twice; even after another device saved in between."""
    scorer.post(reverse("scoring:deal-save", args=[table.pk]), deal_form(table))
    deal = Deal.objects.get(table=table)
    version = 1
    if kind == "restore":
        scorer.post(reverse("scoring:deal-delete", args=[table.pk, deal.pk]),
                    {"version": "1", "request_id": str(uuid.uuid4()), "reason": "weg"})
        version = 2
    url = reverse(f"scoring:deal-{kind}", args=[table.pk, deal.pk])
    data = {"version": str(version), "request_id": str(uuid.uuid4()), "reason": "Tippfehler"}
    first = scorer.post(url, data)
    table.refresh_from_db()
    scorer.post(reverse("scoring:deal-save", args=[table.pk]), deal_form(table, declarer="2"))
    again = scorer.post(url, data)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert AuditEntry.objects.filter(deal=deal, action=kind).count() == 1
    # Another post (another request ID) at that old version is a conflict, not a second act.
    other = scorer.post(url, {**data, "request_id": str(uuid.uuid4())})
    assert other.status_code == 409
    assert AuditEntry.objects.filter(deal=deal, action=kind).count() == 1


def test_the_forms_carry_a_request_id_each(table: Table, scorer: Client) -> None:
    """The edit page's correction and its delete form, and the Undo toast, each post a
    request ID of their own (one ID for two forms would answer one with the other's)."""
    scorer.post(reverse("scoring:deal-save", args=[table.pk]), deal_form(table))
    deal = Deal.objects.get(table=table)
    html = scorer.get(reverse("scoring:deal-edit", args=[table.pk, deal.pk])).content.decode()
    ids = [part.split('"', 1)[0] for part in html.split('name="request_id" value="')[1:]]
    assert len(ids) == 2 and len(set(ids)) == 2 and all(uuid.UUID(i) for i in ids)
    toast = scorer.get(reverse("scoring:table", args=[table.pk]) + f"?saved={deal.pk}")
    undo = toast.content.decode().split('class="notice notice-saved toast"')[1]
    assert 'name="request_id" value="' in undo.split("</form>")[0]
