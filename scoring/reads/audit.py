"""Reads: the audit log of an evening and of a deal, the sheet numbers its entries name and the
players of the tables they name."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import AuditEntry, Deal, Evening, Seat, Table


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
