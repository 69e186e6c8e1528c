"""Reads: the audit log of an evening and of a deal, the sheet numbers its entries name and the
players of the tables they name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from scoring.models import AuditEntry, Deal, Evening, Seat, Table

# What a deal's audit entry appends to its actor when the change came through the offline
# sync (writes.table_ops._audit): the audit log has no field of its own for the way a change
# came (issue 36 asks for no model change), and the actor is free text that the pages read
# through ``actor_and_offline``. "offline" is the same word in German.
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


def evening_sheet_numbers(evening: Evening) -> dict[int, int | None]:
    """``sheet_numbers`` of every deal of the evening. One query."""
    return sheet_numbers(Deal.objects.filter(table__evening=evening))


def evening_seat_names(evening: Evening) -> dict[int, list[str]]:
    """The players' names of each of the evening's tables, in seat order. One query."""
    names: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(table__evening=evening).select_related(
            "player").order_by("table_id", "position"):
        names.setdefault(seat.table_id, []).append(seat.player.name)
    return names


def table_seat_names(table: Table) -> list[str]:
    """The table's players' names in seat order. One query."""
    return [seat.player.name for seat in table.seats.select_related("player").order_by(
        "position")]


def deal_sheet_number(deal: Deal) -> int | None:
    """The deal's number on its table's sheet as it stands (None: deleted). One query."""
    if deal.deleted:
        return None
    return Deal.objects.filter(table_id=deal.table_id, deleted=False,
                               position__lte=deal.position).count()


@dataclass(frozen=True)
class Correction:
    """A deal changed after every player had signed the list (the club admin's or the
    director's correction, issue 36): which deal, how, by whom, when and why."""

    deal_id: int
    action: str  # AuditEntry.Action: edit, delete, restore, create (a deal added)
    actor: str
    at: datetime
    reason: str


def corrections_after_signing(table: Table) -> list[Correction]:
    """The changes of ``table``'s deals made to a list everybody had signed, oldest first.

    Such a change clears the signatures in its own transaction (services.clear_signatures,
    an "unsign" entry whose ``before`` says the list was locked) right before its deal's
    entry, so each is the first deal entry after such an "unsign". No query for a list that
    nobody ever signed; else one, or two where there are corrections."""
    if not table.signing:
        return []
    locked = [pk for pk, before in AuditEntry.objects.filter(
        table=table, action=AuditEntry.Action.UNSIGN).order_by("id").values_list(
            "id", "before") if isinstance(before, dict) and before.get("locked")]
    if not locked:
        return []
    entries = list(AuditEntry.objects.filter(
        table=table, deal__isnull=False, id__gt=locked[0]).order_by("id").values_list(
            "id", "deal_id", "action", "actor", "at", "reason"))
    out = []
    for unsign in locked:
        entry = next((e for e in entries if e[0] > unsign), None)
        if entry is not None:
            _pk, deal_id, action, actor, at, reason = entry
            out.append(Correction(deal_id, action, actor_and_offline(actor)[0], at, reason))
    return out
