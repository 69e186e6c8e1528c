"""Correcting, deleting and restoring deals from the table screen (reasons required)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry, Deal, Table
from scoring.writes.services import Actor, deal_record

from .factories import make_table, make_user

pytestmark = pytest.mark.django_db
OTHER = Actor(None, "other tablet")
WON = {"kind": "game", "declarer": 1, "game": "clubs", "hand": False, "ouvert": False,
       "schneider_announced": False, "schwarz_announced": False, "matadors": 1, "bid": 18,
       "result": "won"}


@pytest.fixture
def deal(table: Table) -> Deal:
    return deal_record(table=table, record=dict(WON), expected_version=0, actor=OTHER)


def edit_url(table: Table, deal: Deal, action: str = "edit") -> str:
    return reverse(f"scoring:deal-{action}", args=[table.pk, deal.pk])


def edit_data(table: Table, **extra: str) -> dict[str, str]:
    table.refresh_from_db()
    return {"version": str(table.version), "kind": "game", "declarer": "1", "game": "clubs",
            "matadors": "2", "bid": "18", "result": "won", "reason": "Tippfehler", **extra}


def test_the_edit_form_is_prefilled(scorer: Client, table: Table, deal: Deal) -> None:
    response = scorer.get(edit_url(table, deal))
    assert response.status_code == 200
    html = response.content.decode()
    for checked in ('value="clubs" checked', 'id="matadors-1" name="matadors" value="1" checked',
                    'value="18" checked', 'value="won" checked'):
        assert checked in html, checked
    assert 'name="reason"' in html and f'name="deal" value="{deal.pk}"' in html


def deleted_now(deal: Deal) -> bool:
    """Whether the deal is deleted in the database now."""
    deal.refresh_from_db()
    return deal.deleted


def test_an_edit_with_a_reason_is_saved_and_recomputed(scorer: Client, table: Table,
                                                        deal: Deal) -> None:
    response = scorer.post(edit_url(table, deal), edit_data(table))
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.record["matadors"] == 2
    audit = AuditEntry.objects.get(action="edit")
    assert audit.before is not None, "an edit's audit entry keeps the record before it"
    assert audit.reason == "Tippfehler" and audit.before["matadors"] == 1
    html = scorer.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "+36" in html  # with 2, game 3 × 12


def test_an_edit_without_a_reason_is_refused(scorer: Client, table: Table, deal: Deal) -> None:
    response = scorer.post(edit_url(table, deal), edit_data(table, reason="  "))
    assert response.status_code == 422
    assert 'class="error-summary"' in response.content.decode()
    deal.refresh_from_db()
    assert deal.record["matadors"] == 1
    assert not AuditEntry.objects.filter(action="edit").exists()


def test_an_edit_the_engine_refuses_changes_nothing(scorer: Client, table: Table,
                                                    deal: Deal) -> None:
    response = scorer.post(edit_url(table, deal), edit_data(table, bid="19"))
    assert response.status_code == 422
    assert "19 kann nach der Internationalen Skatordnung nicht gereizt werden" in (
        response.content.decode())
    deal.refresh_from_db()
    assert deal.record == WON


def test_a_stale_edit_is_refused(scorer: Client, table: Table, deal: Deal) -> None:
    data = edit_data(table)
    deal_record(table=table, record={"kind": "passed"}, expected_version=1, actor=OTHER)
    response = scorer.post(edit_url(table, deal), data)
    assert response.status_code == 409
    html = response.content.decode()
    # Said once, by the conflict panel with both versions (not by the old notice above it).
    assert 'id="conflict"' in html and "Zwei Fassungen dieses Spiels" in html
    assert "notice-stale" not in html
    deal.refresh_from_db()
    assert deal.record == WON


def test_edit_preview_replaces_the_deal(scorer: Client, table: Table, deal: Deal) -> None:
    data = edit_data(table, deal=str(deal.pk))
    html = scorer.post(reverse("scoring:deal-preview", args=[table.pk]), data,
                       headers={"accept-language": "en"}).content.decode()
    assert "with 2, game 3 × Clubs 12 = 36" in html


def test_delete_and_restore_need_a_reason(scorer: Client, table: Table, deal: Deal) -> None:
    refused = scorer.post(edit_url(table, deal, "delete"), {"version": "1", "reason": ""})
    assert refused.status_code == 422
    assert not deleted_now(deal)

    done = scorer.post(edit_url(table, deal, "delete"), {"version": "1", "reason": "doppelt"})
    assert done.status_code == 302
    assert deleted_now(deal)
    html = scorer.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert edit_url(table, deal) in html  # listed as deleted, with a way back

    page = scorer.get(edit_url(table, deal))
    assert page.status_code == 200 and edit_url(table, deal, "restore") in page.content.decode()
    assert scorer.post(edit_url(table, deal, "restore"),
                       {"version": "2", "reason": ""}).status_code == 422
    restored = scorer.post(edit_url(table, deal, "restore"),
                           {"version": "2", "reason": "doch gespielt"})
    assert restored.status_code == 302
    assert not deleted_now(deal)
    assert [a.action for a in AuditEntry.objects.all()] == ["create", "delete", "restore"]


def test_a_stale_delete_is_refused(scorer: Client, table: Table, deal: Deal) -> None:
    response = scorer.post(edit_url(table, deal, "delete"), {"version": "0", "reason": "x"})
    assert response.status_code == 409
    html = response.content.decode()
    # Shown at version 0, before the deal existed: it is not offered to delete "anyway".
    assert 'id="conflict"' in html and "notice-stale" not in html
    assert 'data-tap="conflict-delete"' not in html and 'data-tap="conflict-theirs"' in html
    assert not deleted_now(deal)


def test_undo_after_saving(scorer: Client, table: Table) -> None:
    html = scorer.get(reverse("scoring:table", args=[table.pk]) + "?saved=999").content.decode()
    assert "Undo" not in html and "Rückgängig" not in html
    deal = deal_record(table=table, record=dict(WON), expected_version=0, actor=OTHER)
    html = scorer.get(reverse("scoring:table", args=[table.pk]) + f"?saved={deal.pk}"
                      ).content.decode()
    assert edit_url(table, deal, "delete") in html


def test_viewers_cannot_correct(client: Client, table: Table, deal: Deal) -> None:
    client.force_login(make_user(table.evening.club, "viewer"))
    assert client.get(edit_url(table, deal)).status_code == 403
    assert client.post(edit_url(table, deal), edit_data(table)).status_code == 403
    assert client.post(edit_url(table, deal, "delete"),
                       {"version": "1", "reason": "x"}).status_code == 403


def test_a_deal_of_another_table_is_not_found(scorer: Client, table: Table, deal: Deal) -> None:
    other = make_table(table.evening.club)
    assert scorer.get(reverse("scoring:deal-edit", args=[other.pk, deal.pk])).status_code == 404
