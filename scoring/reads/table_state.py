"""What the table screen, its version poll, the offline sync and the held operations' page
read of a table (issue 36: the views themselves query no model): the table with what every
sheet needs, the offline tablet's state, the poll's one row, the changes since a version
(for the conflict screens) and the held operations of an evening."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from scoring.models import AuditEntry, Deal, HeldOperation, Membership, Table, TournamentSeries
from scoring.reads.sheet import tables_with_everything


def tables() -> QuerySet[Table]:
    """Tables with their evening and club (for the access checks)."""
    return Table.objects.select_related("evening__club")


def full_table(pk: int) -> Table:
    """The table with seats, players and deals prefetched (a constant number of queries)."""
    return tables_with_everything(Table.objects.filter(pk=pk)).get()


def offline_state(table: Table) -> tuple[list[str], list[dict[str, Any]]]:
    """The players' names in seat order and every deal (deleted ones too) in order, as the
    offline tablet's state gives them."""
    players = [seat.player.name for seat in table.seats.select_related("player").order_by(
        "position")]
    deals: list[dict[str, Any]] = [dict(d) for d in table.deals.order_by("position").values(
        "id", "position", "record", "deleted", "request_id")]
    return players, deals


def live_deal(table: Table, pk: int) -> Deal | None:
    """A deal of ``table`` that counts (not deleted), or None."""
    return table.deals.filter(pk=pk, deleted=False).first()


def poll_row(pk: int, user_pk: int | None) -> dict[str, Any] | None:
    """The version poll's one query: the table's version and access code, its evening's date
    and state, the tournament's clock and message, and the user's role in the club."""
    rows = Table.objects.filter(pk=pk).annotate(started=Subquery(
        TournamentSeries.objects.filter(tournament=OuterRef("evening__tournament"),
                                        number=OuterRef("series")).values("started")[:1],
    )).values(
        "version", "access_code", "evening__date", "evening__closed", "series", "started",
        "evening__tournament__id", "evening__tournament__notice",
        "evening__tournament__notice_at", "evening__tournament__series_minutes")
    if user_pk is not None:
        rows = rows.annotate(role=Subquery(Membership.objects.filter(
            club=OuterRef("evening__club"), user=user_pk).values("role")[:1]))
    row: dict[str, Any] | None = rows.first()
    return row


def last_deal_changes(table: Table, count: int) -> list[tuple[int, str, str, Any]]:
    """(deal id, action, actor, at) of the table's last ``count`` changes of deals, oldest
    first: every change bumps the version by one and writes one such entry."""
    entries = list(AuditEntry.objects.filter(table=table, deal__isnull=False).order_by(
        "-id").values_list("deal_id", "action", "actor", "at")[:count])
    entries.reverse()
    return entries


def deal_changes_since(table: Table, deal: Deal, count: int) -> list[tuple[str, str, str]]:
    """(action, actor, reason) of every change to ``deal`` among the table's last ``count``
    changes, oldest first."""
    first = list(AuditEntry.objects.filter(table=table, deal__isnull=False).order_by(
        "-id").values_list("id", flat=True)[count - 1:count])
    return list(AuditEntry.objects.filter(deal=deal, id__gte=first[0] if first else 0)
                .order_by("id").values_list("action", "actor", "reason"))


def held_of_evening(evening: Any, pk: int) -> HeldOperation | None:
    """One held operation of the evening's tables, or None."""
    return HeldOperation.objects.select_related("table", "deal").filter(
        pk=pk, table__evening=evening).first()


def waiting_held(evening: Any) -> QuerySet[HeldOperation]:
    """The evening's held operations still waiting for the club admin."""
    return HeldOperation.objects.filter(table__evening=evening,
                                        state=HeldOperation.State.WAITING)
