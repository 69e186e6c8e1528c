"""Reads: the audit log of an evening and of a deal, and the sheet numbers its entries name."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import AuditEntry, Deal, Evening

# What a deal's audit entry appends to its actor when the change came through the offline
# sync (writes.services._audit, Actor.offline): the audit log has no field of its own for the
# way a change came (issue 36 asks for no model change), and the actor is free text that
# the pages read through ``actor_and_offline``. "offline" is the same word in German.
OFFLINE_MARK = " (offline)"


def actor_and_offline(actor: str) -> tuple[str, bool]:
    """An audit entry's actor as written, and whether the change was sent offline."""
    if actor.endswith(OFFLINE_MARK):
        return actor[: -len(OFFLINE_MARK)], True
    return actor, False


def audit_for_evening(evening: Evening) -> QuerySet[AuditEntry]:
    # The evening's few tables are fetched by id rather than joined: a join lets PostgreSQL
    # hash every club's tables for one evening's entries (bench/federation.py).
    return (evening.audit.select_related("deal", "user").prefetch_related("table")
            .order_by("-at", "-id"))


def audit_for_deal(deal: Deal) -> QuerySet[AuditEntry]:
    return deal.audit.select_related("user").order_by("at", "id")


def sheet_numbers(deals: QuerySet[Deal]) -> dict[int, int | None]:
    """Each deal's number on the score sheet as it stands (issue 23): the deals that count,
    numbered 1, 2 … per table in their order; a deleted deal has none (its position still
    counts the deals deleted before it, so "no. 29" would name the sheet's row 27). One
    query."""
    numbers: dict[int, int | None] = {}
    counted: dict[int, int] = {}
    for pk, table_id, deleted in deals.order_by("table_id", "position").values_list(
            "id", "table_id", "deleted"):
        if deleted:
            numbers[pk] = None
        else:
            counted[table_id] = counted.get(table_id, 0) + 1
            numbers[pk] = counted[table_id]
    return numbers
