"""The table scores (models.TableScore) the federation ranking adds up: each player's
Seeger-Fabian points, game points and games won and lost at a table, written in the same
transaction as the change to the table's deals that they follow from.

``keep`` is called by the deal services with the engine's result of the table as it is after
the change (they score it anyway to check it); ``rebuild`` derives the rows of many tables
from their deals afresh (after a bulk import, an edit in the site administration, or to check
the kept rows against a full recomputation).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from scoring.models import Evening, Player, Table, TableScore
from scoring.reads.results import (
    TableRef,
    TableResult,
    fresh_results,
    keeps_seeger_fabian,
    scoring_for_document,
    table_refs,
)


def seeger_fabian_capable(evening: Evening, seats: int) -> bool:
    """Tables whose players get Seeger-Fabian points (the rule system's answer,
    Ruleset.keeps_seeger_fabian; results.py scores them so alongside)."""
    return keeps_seeger_fabian(evening, seats)


def scoring_for(document: dict[str, Any]) -> str:
    """The scoring to evaluate a table document with so that its result carries the
    Seeger-Fabian totals wherever the table can have them (Ruleset.scoring_for)."""
    return scoring_for_document(document, len(document["players"]))


def keep(table: Table, player_ids: list[int], result: Mapping[str, Any]) -> None:
    """Replace the table's rows by those of ``result`` (evaluate_table's answer for the
    table's live deals, players ``player_ids`` in seat order). Two queries."""
    TableScore.objects.filter(table_id=table.pk).delete()
    totals = result.get("seeger_fabian_totals")
    if not totals or not seeger_fabian_capable(table.evening, len(player_ids)):
        return
    won, lost, points = result["games"]["won"], result["games"]["lost"], result["totals"]
    TableScore.objects.bulk_create(
        TableScore(table_id=table.pk, evening_id=table.evening_id, player_id=player,
                   seeger_fabian=totals[str(seat)], points=points[str(seat)],
                   won=won[str(seat)], lost=lost[str(seat)])
        for seat, player in enumerate(player_ids))


def seated(table: Table, player_ids: list[int]) -> None:
    """A new table's rows: its players are at the evening, with nothing scored yet (as the
    season table counts them). One query, none for a table without Seeger-Fabian points."""
    if seeger_fabian_capable(table.evening, len(player_ids)):
        TableScore.objects.bulk_create(
            TableScore(table_id=table.pk, evening_id=table.evening_id, player_id=player,
                       seeger_fabian=0, points=0, won=0, lost=0) for player in player_ids)


def rows_of(ref: TableRef, result: TableResult) -> list[TableScore]:
    """The rows of one table from its result as rankings read it (results.py)."""
    if (result.error is not None or result.seeger_fabian is None
            or not seeger_fabian_capable(ref.evening, len(ref.players))):
        return []
    return [TableScore(table_id=ref.pk, evening_id=ref.evening.pk, player_id=player.pk,
                       seeger_fabian=result.seeger_fabian[seat], points=result.points[seat],
                       won=result.won[seat], lost=result.lost[seat])
            for seat, player in enumerate(ref.players[:result.seats])]


def recompute(tables: QuerySet[Table]) -> list[TableScore]:
    """The rows these tables should have, derived from their deals now (not saved)."""
    evenings = {e.pk: e for e in Evening.objects.filter(tables__in=tables.values("pk"))
                .distinct()}
    players = {p.pk: p for p in Player.objects.filter(seats__table__in=tables.values("pk"))
               .distinct()}
    refs = table_refs(tables.order_by("pk"), players, evenings)
    results = fresh_results(refs, tables)
    return [row for ref in refs for row in rows_of(ref, results[ref.pk])]


def rebuild(tables: QuerySet[Table], batch: int = 5000) -> int:
    """Derive the rows of ``tables`` afresh from their deals; returns how many there are."""
    rows = recompute(tables)
    with transaction.atomic():
        TableScore.objects.filter(table__in=tables.values("pk")).delete()
        TableScore.objects.bulk_create(rows, batch_size=batch)
    return len(rows)


def rebuild_ids(table_ids: Iterable[int]) -> int:
    return rebuild(Table.objects.filter(pk__in=list(table_ids)))
