"""The write services: atomic, checked, stale-safe, idempotent, and every change audited."""

from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from scoring.engine import SkatError, evaluate_table
from scoring.models import AuditEntry, Deal, RuleProfile, Table
from scoring.reads.sheet import ScoreSheet, table_document, table_sheet, tables_with_everything
from scoring.writes.services import (
    Actor,
    StaleTable,
    deal_delete,
    deal_edit,
    deal_record,
    deal_restore,
    evening_create,
    table_create,
)

from .factories import make_club, make_table, won

pytestmark = pytest.mark.django_db
ME = Actor(None, "test")


def sheet(table: Table) -> ScoreSheet:
    return table_sheet(tables_with_everything(Table.objects.filter(pk=table.pk)).get(), "en")


def test_a_deal_is_saved_and_scored() -> None:
    table = make_table(make_club())
    deal_record(table=table, record=won(1), expected_version=0, actor=ME)
    s = sheet(table)
    assert [r.entries for r in s.rows] == [[None, 24, None, None]]
    assert table.version == 1 and AuditEntry.objects.get().action == "create"


def test_an_invalid_deal_saves_nothing() -> None:
    table = make_table(make_club())
    with pytest.raises(SkatError) as refused:
        deal_record(table=table, record=won(0), expected_version=0, actor=ME)  # dealer sits out
    assert refused.value.field == "declarer" and refused.value.deal == 1
    table.refresh_from_db()
    assert (Deal.objects.count(), AuditEntry.objects.count(), table.version) == (0, 0, 0)


def test_a_stale_save_is_refused() -> None:
    table = make_table(make_club())
    deal_record(table=table, record=won(1), expected_version=0, actor=ME)
    with pytest.raises(StaleTable):  # another tablet still shows version 0
        deal_record(table=table, record=won(2), expected_version=0, actor=ME)
    assert Deal.objects.count() == 1


def test_a_retried_submit_does_not_duplicate() -> None:
    table = make_table(make_club())
    key = uuid.uuid4()
    first = deal_record(table=table, record=won(1), expected_version=0, actor=ME, request_id=key)
    again = deal_record(table=table, record=won(1), expected_version=0, actor=ME, request_id=key)
    assert first.pk == again.pk and Deal.objects.count() == 1


def test_corrections_recompute_and_keep_history() -> None:
    table = make_table(make_club())
    first = deal_record(table=table, record=won(1, 60), expected_version=0, actor=ME)  # 60:60
    deal_record(table=table, record=won(2), expected_version=1, actor=ME)
    assert [r.bock for r in sheet(table).rows] == [0, 1]
    edited = deal_edit(deal=first, record=won(1, 70), reason="was 70", expected_version=2,
                       actor=ME)
    assert [r.bock for r in sheet(table).rows] == [0, 0]  # the Bock round moved away
    deal_delete(deal=edited, reason="typo", expected_version=3, actor=ME)
    s = sheet(table)
    assert [r.number for r in s.rows] == [1]  # the second deal moves up
    assert [d.pk for d in s.deleted] == [first.pk]
    deal_restore(deal=Deal.objects.get(pk=first.pk), reason="was right", expected_version=4,
                 actor=ME)
    actions = list(AuditEntry.objects.filter(deal=first).values_list("action", "reason"))
    assert actions == [("create", ""), ("edit", "was 70"), ("delete", "typo"),
                       ("restore", "was right")]
    edit = AuditEntry.objects.get(deal=first, action="edit")
    assert edit.before is not None, "an edit's audit entry keeps the record before it"
    assert edit.before["declarer_points"] == 60


def test_a_correction_that_breaks_a_later_deal_is_refused() -> None:
    table = make_table(make_club())
    first = deal_record(table=table, record=won(1), expected_version=0, actor=ME)
    deal_record(table=table, record=won(0), expected_version=1, actor=ME)  # dealer 1: 2,3,0
    with pytest.raises(SkatError) as refused:  # without deal 1, seat 0 would deal and sit out
        deal_delete(deal=first, reason="x", expected_version=2, actor=ME)
    assert refused.value.deal == 1
    assert Deal.objects.filter(deleted=True).count() == 0


def test_a_correction_needs_a_reason() -> None:
    table = make_table(make_club())
    deal = deal_record(table=table, record=won(1), expected_version=0, actor=ME)
    with pytest.raises(SkatError):
        deal_edit(deal=deal, record=won(1, 80), reason=" ", expected_version=1, actor=ME)


def test_bock_set_by_hand_is_stored_as_given() -> None:
    """DECISIONS.md §9 bock.manual: deal_record and deal_edit keep a deal's own bock level and
    bock_round; the table is scored with them."""
    club = make_club()
    profile = RuleProfile.objects.create(
        club=club, name="Bock von Hand", rules="isko", scoring="classic", stake="0.05",
        options={"bock": {"manual": True, "triggers": []}})
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile)
    table = table_create(evening=evening, players=list(club.players.all()[:3]))
    first = deal_record(table=table, record={**won(1), "bock": 2}, expected_version=0,
                        actor=ME)
    deal_record(table=table, record={**won(2), "bock_round": True},
                expected_version=table.version, actor=ME)
    deal_record(table=table, record=won(0), expected_version=table.version, actor=ME)
    stored = [d.record for d in Deal.objects.order_by("position")]
    assert stored[0]["bock"] == 2 and stored[1]["bock_round"] is True

    def levels() -> list[int]:
        records = [d.record for d in Deal.objects.order_by("position")]
        return [row["bock"] for row in evaluate_table(table_document(table, records))["deals"]]

    assert levels() == [2, 0, 1]
    deal_edit(deal=first, record={**won(1), "bock": 1}, reason="one Bock only",
              expected_version=table.version, actor=ME)
    assert Deal.objects.get(pk=first.pk).record["bock"] == 1
    assert levels() == [1, 0, 1]
