"""What an evening's pages count and list beside its sheets (issue 36: the views only show):
the operations held for the club admin, the totals brought in from paper, and what deleting
the evening would take away."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.models import Deal, Evening, HeldOperation, ImportedTotal, Table


def held_waiting(evening: Evening) -> int:
    """How many operations tablets sent after closing or with a stale code wait for the
    club admin. One query."""
    return HeldOperation.objects.filter(
        table__evening=evening, state=HeldOperation.State.WAITING).count()


def paper_totals(evening: Evening) -> list[ImportedTotal]:
    """The evening's totals brought in from paper, the highest first. One query."""
    return list(ImportedTotal.objects.filter(evening=evening).select_related("player")
                .order_by("-points", "player__name"))


@dataclass(frozen=True)
class EveningContents:
    """What deleting an evening takes away (besides its tables)."""

    deals: int
    deleted_deals: int
    paper: int
    audit: int


def evening_contents(evening: Evening) -> EveningContents:
    """Four queries."""
    deals = Deal.objects.filter(table__evening=evening)
    return EveningContents(deals=deals.filter(deleted=False).count(),
                           deleted_deals=deals.filter(deleted=True).count(),
                           paper=ImportedTotal.objects.filter(evening=evening).count(),
                           audit=evening.audit.count())


def seated_tables(evening: Evening) -> list[Table]:
    """The evening's tables by series and number, with their players. Two queries."""
    return list(evening.tables.prefetch_related("seats__player").order_by("series", "number"))


def latest_series(evening: Evening) -> int:
    """The evening's latest series (1 before any table): the one a table added later joins.
    One query."""
    return max(evening.tables.values_list("series", flat=True), default=1)
