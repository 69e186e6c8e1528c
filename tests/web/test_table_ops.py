"""The one operation service (writes/table_ops.py, issue 36): each outcome of
``table_op_apply`` at the service level, and what it writes (or does not). The HTTP tests
(test_sync.py, test_table_live.py, test_entry_*.py) check how the two views translate them."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import AuditEntry, Deal, Evening, HeldOperation, Table
from scoring.writes.services import Actor, locked_message
from scoring.writes.table_ops import (
    SYNC,
    Conflict,
    Dropped,
    DroppedOp,
    Held,
    HeldFull,
    Refused,
    Stored,
    TableOp,
    table_op_apply,
)

from .factories import won

pytestmark = pytest.mark.django_db

SCORER = Actor(None, "table code, table 1")
ADMIN = Actor(None, "the club admin", admin=True)


def save(table: Table, version: int = 0, **extra: Any) -> TableOp:
    fields: dict[str, Any] = {"table": table, "actor": SCORER, "kind": "save",
                              "request_id": uuid.uuid4(), "base_version": version,
                              "record": won(1), "lang": "en", **extra}
    return TableOp(**fields)


def change(table: Table, kind: str, deal: Deal, version: int, **extra: Any) -> TableOp:
    fields: dict[str, Any] = {"table": table, "actor": SCORER, "kind": kind,
                              "request_id": uuid.uuid4(), "base_version": version,
                              "deal_id": deal.pk, "reason": "Tippfehler", "lang": "en",
                              **extra}
    return TableOp(**fields)


def written(table: Table) -> tuple[int, int, int, int]:
    """Deals, audit entries, held operations and the version: what an outcome wrote."""
    table.refresh_from_db()
    return (Deal.objects.filter(table=table).count(),
            AuditEntry.objects.filter(table=table).count(),
            HeldOperation.objects.filter(table=table).count(), table.version)


def test_stored_then_replayed(table: Table) -> None:
    op = save(table)
    first = table_op_apply(op=op)
    assert isinstance(first, Stored) and not first.replayed
    deal = Deal.objects.get(table=table)
    assert (first.deal_id, first.position, first.number, first.version) == (deal.pk, 1, 1, 1)
    entry = AuditEntry.objects.get(table=table)
    assert (entry.action, entry.deal_id, entry.request_id, entry.version, entry.after) == (
        "create", deal.pk, op.request_id, 1, won(1))
    # Another device saves meanwhile; the same request again is answered as the first time.
    table_op_apply(op=save(table, 1, record=won(2)))
    before = written(table)
    again = table_op_apply(op=op)
    assert again == Stored(deal.pk, 1, 1, 1, replayed=True)
    assert written(table) == before


@pytest.mark.parametrize("kind", ["edit", "delete", "restore"])
def test_each_change_is_stored_once_with_its_audit_entry(table: Table, kind: str) -> None:
    table_op_apply(op=save(table))
    deal = Deal.objects.get(table=table)
    version = 1
    if kind == "restore":
        assert isinstance(table_op_apply(op=change(table, "delete", deal, 1)), Stored)
        version = 2
    op = change(table, kind, deal, version,
                record=won(1, matadors=2) if kind == "edit" else None)
    outcome = table_op_apply(op=op)
    assert isinstance(outcome, Stored) and outcome.version == version + 1
    assert outcome.number == (None if kind == "delete" else 1)
    deal.refresh_from_db()
    assert deal.deleted == (kind == "delete")
    entry = AuditEntry.objects.get(request_id=op.request_id)
    assert (entry.action, entry.deal_id, entry.reason, entry.version) == (
        kind, deal.pk, "Tippfehler", version + 1)
    assert table_op_apply(op=op) == Stored(deal.pk, 1, outcome.number, version + 1,
                                           replayed=True)
    assert AuditEntry.objects.filter(request_id=op.request_id).count() == 1


@pytest.mark.parametrize("why", ["closed", "signed", "code"])
def test_held_and_why_decided_under_the_lock(table: Table, why: str) -> None:
    if why == "closed":
        Evening.objects.filter(pk=table.evening_id).update(closed=True)
    elif why == "signed":
        Table.objects.filter(pk=table.pk).update(signed_at=timezone.now())
    op = save(table, may_hold=True, code_lapsed=why == "code", via=SYNC)
    outcome = table_op_apply(op=op)
    assert isinstance(outcome, Held) and not outcome.replayed
    assert (outcome.why, outcome.state) == (why, "waiting")
    assert written(table) == (0, 1, 1, 0)
    assert AuditEntry.objects.get(table=table).action == "held"
    assert table_op_apply(op=op) == Held(outcome.held_id, "waiting", why, "", replayed=True)
    assert written(table) == (0, 1, 1, 0)


def test_a_signed_list_held_for_anyone_but_a_club_admin(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(signed_at=timezone.now())
    refused = table_op_apply(op=save(table, may_hold=True, actor=ADMIN, via=SYNC))
    # A club admin is not held: he changes a signed list with a reason, or is refused.
    assert isinstance(refused, Refused) and refused.field == "reason"
    assert written(table)[:3] == (0, 1, 0)  # the refusal's audit entry, nothing else
    stored = table_op_apply(op=save(table, may_hold=True, actor=ADMIN, via=SYNC,
                                    reason="Nachtrag"))
    assert isinstance(stored, Stored)


def test_the_forms_operation_is_refused_on_a_signed_list_and_not_logged(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(signed_at=timezone.now())
    outcome = table_op_apply(op=save(table))
    assert isinstance(outcome, Refused) and outcome.field is None
    assert outcome.message == locked_message()
    assert written(table) == (0, 0, 0, 0)


def test_held_full(table: Table, settings: Any) -> None:
    settings.HELD_PER_DEVICE = 1
    Evening.objects.filter(pk=table.evening_id).update(closed=True)
    assert isinstance(table_op_apply(op=save(table, may_hold=True, via=SYNC)), Held)
    outcome = table_op_apply(op=save(table, may_hold=True, via=SYNC))
    assert outcome == HeldFull(1)
    assert written(table) == (0, 1, 1, 0)  # nothing more held, nothing more logged


def test_refused_with_the_field_and_the_message_and_nothing_written(table: Table) -> None:
    op = save(table, record=won(1, bid=17), via=SYNC)
    outcome = table_op_apply(op=op)
    assert isinstance(outcome, Refused) and outcome.field == "bid"
    assert outcome.message and outcome.error is not None
    assert written(table) == (0, 1, 0, 0)
    entry = AuditEntry.objects.get(table=table)
    assert (entry.action, entry.deal_id, entry.reason) == ("refuse", None, outcome.message)
    table_op_apply(op=op)  # logged once per request ID
    assert written(table) == (0, 1, 0, 0)
    # The form's refusal is shown on its screen, not logged.
    assert isinstance(table_op_apply(op=save(table, record=won(1, bid=17))), Refused)
    assert written(table) == (0, 1, 0, 0)


def test_refused_in_german_for_a_german_request(table: Table) -> None:
    outcome = table_op_apply(op=save(table, record=won(1, bid=17), lang="de"))
    assert isinstance(outcome, Refused) and "Reizwert" in outcome.message


def test_conflict_with_both_versions_and_nothing_written(table: Table) -> None:
    table_op_apply(op=save(table))
    op = save(table, 0, record=won(2), via=SYNC)
    outcome = table_op_apply(op=op)
    assert outcome == Conflict(since=0, version=1, deal_id=None)
    assert written(table) == (1, 2, 0, 1)
    assert AuditEntry.objects.get(request_id=op.request_id).action == "conflict"
    # This device's own earlier operation made the change: no conflict.
    assert isinstance(table_op_apply(op=save(table, 0, record=won(2), own_version=1)),
                      Stored)
    # Append: at the version the lock finds, whatever changed.
    assert isinstance(table_op_apply(op=save(table, 0, record=won(3), append=True)), Stored)


def test_a_conflict_of_a_change_names_its_deal(table: Table) -> None:
    table_op_apply(op=save(table))
    deal = Deal.objects.get(table=table)
    table_op_apply(op=save(table, 1, record=won(2)))
    outcome = table_op_apply(op=change(table, "delete", deal, 1))
    assert outcome == Conflict(since=1, version=2, deal_id=deal.pk)
    deal.refresh_from_db()
    assert not deal.deleted


def test_a_version_from_the_future_is_refused(table: Table) -> None:
    outcome = table_op_apply(op=save(table, 5))
    assert isinstance(outcome, Refused) and outcome.field == "base_version"
    assert written(table) == (0, 0, 0, 0)


def test_dropped_once(table: Table) -> None:
    gone = uuid.uuid4()
    op = TableOp(table=table, actor=SCORER, kind="drop", request_id=uuid.uuid4(),
                 base_version=0, reason="doppelt", via=SYNC,
                 dropped=DroppedOp("save", gone, won(1), None))
    assert table_op_apply(op=op) == Dropped(gone, 0)
    entry = AuditEntry.objects.get(table=table)
    before: Any = entry.before
    assert (entry.action, before["request_id"], entry.after) == ("drop", str(gone), won(1))
    assert "doppelt" in entry.reason
    assert table_op_apply(op=op) == Dropped(gone, 0, replayed=True)
    assert written(table) == (0, 1, 0, 0)


def test_a_stored_operation_cannot_be_dropped(table: Table) -> None:
    stored = save(table)
    table_op_apply(op=stored)
    assert stored.request_id is not None
    op = TableOp(table=table, actor=SCORER, kind="drop", request_id=uuid.uuid4(),
                 base_version=1, via=SYNC, dropped=DroppedOp("save", stored.request_id))
    outcome = table_op_apply(op=op)
    assert isinstance(outcome, Refused) and outcome.field == "dropped"


def test_a_change_of_a_deal_never_stored_is_refused(table: Table) -> None:
    op = TableOp(table=table, actor=SCORER, kind="delete", request_id=uuid.uuid4(),
                 base_version=0, deal_request_id=uuid.uuid4(), reason="x", via=SYNC)
    outcome = table_op_apply(op=op)
    assert isinstance(outcome, Refused) and outcome.field == "deal"
    assert written(table) == (0, 1, 0, 0)
