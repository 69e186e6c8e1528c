"""One table's results as rankings and statistics need them, derived from its raw deals by the
engine and cached under the table's version.

Scores are never stored (models.py): every result here is computed by ``evaluate_table`` from
the deals as recorded. A season of 40 evenings holds some 20,000 deals, though, and reading
them all on every request costs more than scoring them, so each table's result is cached under
a key made of the table's id, its version (bumped by every change to its deals, in the same
transaction) and a digest of everything else the result depends on: the evening's frozen rules,
the first dealer, the number of seats and the table's access code (which differs when a
database reuses a deleted table's id). A change to a table gives it a new key; an entry can
never be read for a state it was not computed from. Players are mapped to seats on each read,
so correcting a seat in the admin needs no invalidation either.

The results are computed in one place for a whole page: the cached ones are looked up in one
``get_many``, the deals of all the others are read in one query, whatever their number.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import caches
from django.db.models import QuerySet

from scoring.engine import SkatError, evaluate_table
from scoring.models import Deal, Table

CACHE_ALIAS = "results"
# Bump when TableResult changes shape or the engine scores differently, so that entries
# written by older code are never read.
FORMAT = 1
# Above this many tables the deals are selected by the tables' query instead of a list of ids
# (SQLite limits the number of parameters of one statement).
MAX_IDS = 500


@dataclass
class GameStats:
    """A seat's games as declarer of one kind (game key)."""

    played: int = 0
    won: int = 0
    value: int = 0  # sum of the game values (Spielwert)


@dataclass
class Extreme:
    """A seat's biggest single entry in one direction, and the deal that brought it."""

    entry: int
    deal: int  # the deal's number at the table
    kind: str
    game: str  # game key, "" when the deal is no game


@dataclass
class SeatStats:
    games: dict[str, GameStats] = field(default_factory=dict)
    best: Extreme | None = None
    worst: Extreme | None = None


@dataclass
class TableResult:
    """Per seat (in seat order): game points, Seeger-Fabian points where the table can have
    them, games won and lost as declarer, money, and the declarer statistics."""

    seats: int
    points: list[int]
    seeger_fabian: list[int] | None
    won: list[int]
    lost: list[int]
    counted: int  # deals that count toward rounds and the series length
    money: list[Decimal] | None  # each seat's balance after the settlement and its fees
    currency: str
    stats: list[SeatStats]
    error: str | None = None  # the engine refused the stored deals (should not happen)


def _scoring(document: dict[str, Any], seats: int) -> str:
    """Seeger-Fabian is scored alongside the classic points wherever the rules allow it
    (ISkO at a 3- or 4-table), so a season can rank by either whatever the evening chose;
    the classic totals and the settlement are the same either way."""
    scoring = document.get("scoring", "classic")
    if scoring == "classic" and document.get("rules") == "isko" and 3 <= seats <= 4:
        return "seeger_fabian"
    return scoring


def compute(table: Table, records: list[dict[str, Any]]) -> TableResult:
    """The result of ``table`` (evening and seats loaded) with these live records."""
    evening = table.evening
    names = [seat.player.name for seat in table.seats.all()]
    seats = len(names)
    document = {**evening.rules_dict(), "players": names,
                "first_dealer": table.first_dealer, "deals": records}
    document["scoring"] = _scoring(document, seats)
    try:
        result = evaluate_table(document)
    except SkatError as err:
        return TableResult(seats=seats, points=[0] * seats, seeger_fabian=None, won=[0] * seats,
                           lost=[0] * seats, counted=0, money=None, currency=evening.currency,
                           stats=[SeatStats() for _ in range(seats)], error=err.message)
    keys = [str(s) for s in range(seats)]
    stats = [SeatStats() for _ in range(seats)]
    counted = 0
    for record, row in zip(records, result["deals"], strict=True):
        counted += row["counts"]
        kind = row["kind"]
        game = str(record.get("game", "")) if kind == "game" else ""
        if kind == "game":
            games = stats[record["declarer"]].games
            entry = games.get(game)
            if entry is None:
                entry = games[game] = GameStats()
            entry.played += 1
            entry.won += bool(row["won"])
            entry.value += row["value"] or 0
        for seat, value in row["entries"].items():
            seat_stats = stats[int(seat)]
            if value > 0 and (seat_stats.best is None or value > seat_stats.best.entry):
                seat_stats.best = Extreme(value, row["number"], kind, game)
            elif value < 0 and (seat_stats.worst is None or value < seat_stats.worst.entry):
                seat_stats.worst = Extreme(value, row["number"], kind, game)
    sf = result.get("seeger_fabian_totals")
    settlement = result.get("settlement")
    return TableResult(
        seats=seats,
        points=[result["totals"][k] for k in keys],
        seeger_fabian=[sf[k] for k in keys] if sf else None,
        won=[result["games"]["won"][k] for k in keys],
        lost=[result["games"]["lost"][k] for k in keys],
        counted=counted,
        money=[Decimal(settlement["balance"][k]) for k in keys] if settlement else None,
        currency=evening.currency,
        stats=stats,
    )


def _digest(table: Table) -> str:
    evening = table.evening
    basis = [evening.rules_dict(), table.first_dealer, len(table.seats.all()),
             table.access_code]
    raw = json.dumps(basis, sort_keys=True, default=str).encode()
    return hashlib.blake2b(raw, digest_size=10).hexdigest()


def _key(table: Table, version: int) -> str:
    return f"table-result:{FORMAT}:{table.pk}:{version}:{_digest(table)}"


def table_results(tables: Iterable[Table], source: QuerySet[Table] | None = None,
                  ) -> dict[int, TableResult]:
    """The result of every table (loaded with its evening and seats), by table id.

    At most one query: the live deals of the tables the cache does not hold. ``source`` is a
    query of the tables, used instead of their ids when there are many."""
    tables = list(tables)
    cache = caches[CACHE_ALIAS]
    keys = {table.pk: _key(table, table.version) for table in tables}
    found: dict[str, TableResult] = cache.get_many(list(keys.values())) if keys else {}
    missing = [table for table in tables if keys[table.pk] not in found]
    if missing:
        fresh = _compute_missing(missing, source)
        cache.set_many(dict(fresh.values()), timeout=None)
        for pk, (key, result) in fresh.items():
            keys[pk] = key
            found[key] = result
    return {pk: found[key] for pk, key in keys.items()}


def _compute_missing(tables: list[Table], source: QuerySet[Table] | None,
                     ) -> dict[int, tuple[str, TableResult]]:
    by_id = {table.pk: table for table in tables}
    deals = Deal.objects.order_by("table_id", "position")
    if len(by_id) > MAX_IDS and source is not None:
        deals = deals.filter(table__in=source.values("pk"))
    else:
        deals = deals.filter(table_id__in=list(by_id))
    records: dict[int, list[dict[str, Any]]] = {pk: [] for pk in by_id}
    # The version comes from the same statement as the deals, so it is the version of
    # exactly these records, even when a deal is saved while this page is computed.
    versions = {pk: table.version for pk, table in by_id.items()}
    for table_id, version, deleted, record in deals.values_list(
            "table_id", "table__version", "deleted", "record"):
        if table_id not in by_id:
            continue
        versions[table_id] = version
        if not deleted:
            records[table_id].append(record)
    return {pk: (_key(table, versions[pk]), compute(table, records[pk]))
            for pk, table in by_id.items()}
