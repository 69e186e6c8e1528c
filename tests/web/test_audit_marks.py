"""The audit log's loose ends (issue 36, build item 5): what concerns no deal reads as words
(never "None" before → after), and a deal stored through the offline sync carries the "sent
offline" mark that a deal saved through the table screen's form does not."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry
from scoring.writes.services import Actor, evening_audit, sync_outcome

from .factories import make_club, make_user, won
from .signing_fixtures import short_table
from .test_signing_pages import code_client, sign_everybody

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]



def rows_of(client: Client, evening_id: int) -> list[str]:
    html = client.get(reverse("scoring:evening-audit", args=[evening_id])).content.decode()
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return body.split("<tr")[1:]


def test_entries_of_no_deal_read_as_words_never_none() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    sign_everybody(tablet, table)
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(make_user(table.evening.club, "admin"))
    deal = table.deals.order_by("position").first()
    assert deal is not None
    answer = admin.post(reverse("scoring:deal-edit", args=[table.pk, deal.pk]), {
        "version": str(table.version), "kind": "game", "declarer": "1", "game": "clubs",
        "matadors": "1", "bid": "18", "declarer_points": "80", "reason": "Augen"})
    assert answer.status_code == 302
    who = Actor(None, "director", admin=True)
    evening_audit(table.evening, AuditEntry.Action.DRAW_UNSIGNED, who, "Zeitplan",
                  after={"series": 2, "unsigned_tables": [1, 3]})
    evening_audit(table.evening, AuditEntry.Action.IMPORT, who, "Datei",
                  after={"file": "abend.json", "added": True, "tables": 2, "deals": 48})
    sync_outcome(table=table, action=AuditEntry.Action.REFUSE, actor=who,
                 request_id=uuid.uuid4(), record={"op": "save"}, reason="kaputt")
    rows = rows_of(admin, table.evening_id)
    text = "".join(rows)
    assert ">None<" not in text and "None" not in text
    by_action = {row.split('"', 2)[1]: row for row in reversed(rows)}
    assert "the signatures" in by_action["action-sign"]
    assert "the signatures" in by_action["action-unsign"]
    assert "sent offline" not in by_action["action-sign"]
    assert "sent offline" not in by_action["action-unsign"]
    assert "signatures cleared" in by_action["action-unsign"]
    assert "series 2" in by_action["action-drawunsign"]
    assert "not signed: tables 1, 3" in by_action["action-drawunsign"]
    assert "abend.json" in by_action["action-import"]
    assert "2 tables, 48 deals" in by_action["action-import"]


def test_a_deal_sent_offline_is_marked_and_a_form_save_is_not() -> None:
    table = short_table(make_club(), play=0)
    tablet = code_client(table)
    sent = {"op": "save", "request_id": str(uuid.uuid4()), "base_version": table.version,
            "record": won(1)}
    answer = tablet.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(sent),
                         content_type="application/json")
    assert answer.status_code == 200, answer.content
    table.refresh_from_db()
    answer = tablet.post(reverse("scoring:deal-save", args=[table.pk]), {
        "version": str(table.version), "request_id": str(uuid.uuid4()), "kind": "game",
        "declarer": "2", "game": "clubs", "matadors": "1", "bid": "18", "result": "won"})
    assert answer.status_code == 302
    offline, form = table.deals.order_by("position")
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(make_user(table.evening.club, "admin"))
    rows = rows_of(admin, table.evening_id)
    assert len(rows) == 2
    stored, typed = (next(r for r in rows if f"/deals/{d.pk}/history/" in r)
                   for d in (offline, form))
    assert "sent offline" in stored and "sent offline" not in typed
    # the deal's own history says it too, and the actor reads as before
    for deal, marked in ((offline, True), (form, False)):
        html = admin.get(reverse("scoring:deal-history", args=[table.pk, deal.pk])
                         ).content.decode()
        history = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
        assert ("sent offline" in history) is marked
        assert "table code, table 1<" in history
