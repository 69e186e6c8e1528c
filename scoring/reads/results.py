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
from collections import defaultdict
from typing import Any, NamedTuple

from django.core.cache import caches
from django.db.models import QuerySet

from scoring.engine import SkatError, evaluate_table, ruleset
from scoring.models import Deal, Evening, Player, Seat, Table

CACHE_ALIAS = "results"
# Bump when TableResult changes shape or the engine scores differently, so that entries
# written by older code are never read.
FORMAT = 3
# Above this many tables the deals are selected by the tables' query instead of a list of ids
# (SQLite limits the number of parameters of one statement).
MAX_IDS = 500


class TableRef(NamedTuple):
    """A table as rankings need it, read without building model objects (a season has
    hundreds): its players in seat order, its evening and where it stands."""

    pk: int
    version: int
    evening: Evening
    series: int
    number: int
    first_dealer: int
    access_code: str
    players: tuple[Player, ...]


class Game(NamedTuple):
    """A seat's games of one kind (game key) as declarer."""

    played: int
    won: int
    value: int  # sum of the game values (Spielwert)


class Extreme(NamedTuple):
    """A seat's biggest single entry in one direction, and the deal that brought it."""

    entry: int
    deal: int  # the deal's number at the table
    kind: str
    game: str  # game key, "" when the deal is no game


class SeatStats(NamedTuple):
    games: dict[str, Game]
    best: Extreme | None
    worst: Extreme | None


class TableResult(NamedTuple):
    """Per seat (in seat order): game points, Seeger-Fabian points where the table can have
    them, games won and lost as declarer, money, and the declarer statistics. Plain tuples,
    lists and numbers, so that hundreds of them come out of the cache quickly."""

    seats: int
    points: list[int]
    seeger_fabian: list[int] | None
    won: list[int]
    lost: list[int]
    counted: int  # deals that count toward rounds and the series length
    money: list[str] | None  # each seat's balance after the settlement and its fees
    currency: str
    stats: list[SeatStats]
    error: str | None = None  # the engine refused the stored deals (should not happen)
    recorded: int = 0  # live deals recorded, misdeals and penalties too (issue 23)


def scoring_for_document(document: dict[str, Any], seats: int) -> str:
    """Seeger-Fabian is scored alongside the classic points wherever the rules allow it
    (Ruleset.scoring_for), so a season can rank by either whatever the evening chose; the
    classic totals and the settlement are the same either way."""
    scoring = str(document.get("scoring", "classic"))
    try:
        rules = ruleset(document.get("rules"))
    except SkatError:
        return scoring  # the engine refuses the table with its own message
    return rules.scoring_for(scoring, seats)


def keeps_seeger_fabian(evening: Evening, seats: int) -> bool:
    """Whether a table of ``seats`` at ``evening`` gets Seeger-Fabian points and so table
    scores for the federation ranking (Ruleset.keeps_seeger_fabian)."""
    try:
        rules = ruleset(evening.rules)
    except SkatError:
        return False
    return rules.keeps_seeger_fabian(evening.scoring, seats)


def compute(table: TableRef, records: list[dict[str, Any]]) -> TableResult:
    """The result of ``table`` with these live records."""
    evening = table.evening
    seats = len(table.players)
    document = {**evening.rules_dict(), "players": [p.name for p in table.players],
                "first_dealer": table.first_dealer, "deals": records}
    document["scoring"] = scoring_for_document(document, seats)
    try:
        result = evaluate_table(document)
    except SkatError as err:
        return TableResult(seats, [0] * seats, None, [0] * seats, [0] * seats, 0, None,
                           evening.currency, [SeatStats({}, None, None)] * seats, err.message)
    keys = [str(s) for s in range(seats)]
    games: list[dict[str, list[int]]] = [{} for _ in range(seats)]
    best: list[Extreme | None] = [None] * seats
    worst: list[Extreme | None] = [None] * seats
    counted = 0
    for record, row in zip(records, result["deals"], strict=True):
        counted += row["counts"]
        kind = row["kind"]
        game = str(record.get("game", "")) if kind == "game" else ""
        if kind == "game":
            tally = games[record["declarer"]].setdefault(game, [0, 0, 0])
            tally[0] += 1
            tally[1] += bool(row["won"])
            tally[2] += row["value"] or 0
        for seat_key, value in row["entries"].items():
            seat = int(seat_key)
            high, low = best[seat], worst[seat]
            if value > 0 and (high is None or value > high.entry):
                best[seat] = Extreme(value, row["number"], kind, game)
            elif value < 0 and (low is None or value < low.entry):
                worst[seat] = Extreme(value, row["number"], kind, game)
    sf = result.get("seeger_fabian_totals")
    settlement = result.get("settlement")
    return TableResult(
        seats=seats,
        points=[result["totals"][k] for k in keys],
        seeger_fabian=[sf[k] for k in keys] if sf else None,
        won=[result["games"]["won"][k] for k in keys],
        lost=[result["games"]["lost"][k] for k in keys],
        counted=counted,
        money=[settlement["balance"][k] for k in keys] if settlement else None,
        currency=evening.currency,
        stats=[SeatStats({key: Game(*t) for key, t in games[s].items()}, best[s], worst[s])
               for s in range(seats)],
        recorded=len(records),
    )


def _key(table: TableRef, version: int, rules: dict[int, str]) -> str:
    """The cache key: the table's id and version, and a digest of everything else its result
    depends on (``rules``: each evening's rules as JSON, made once per page)."""
    evening_rules = rules.get(table.evening.pk)
    if evening_rules is None:
        evening_rules = rules[table.evening.pk] = json.dumps(
            table.evening.rules_dict(), sort_keys=True, default=str)
    basis = f"{evening_rules}|{table.first_dealer}|{len(table.players)}|{table.access_code}"
    digest = hashlib.blake2b(basis.encode(), digest_size=10).hexdigest()
    return f"table-result:{FORMAT}:{table.pk}:{version}:{digest}"


def table_refs(tables: QuerySet[Table], players: dict[int, Player],
               evenings: dict[int, Evening]) -> list[TableRef]:
    """The tables of a query as TableRefs, in the query's order: two queries (the tables, and
    their seats); ``players`` and ``evenings`` are the objects to refer to, by id."""
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in Seat.objects.filter(table__in=tables.values("pk")).order_by(
            "table_id", "position").values_list("table_id", "player_id"):
        seated[table_id].append(player_id)
    return [
        TableRef(pk, version, evenings[evening_id], series, number, first_dealer, code,
                 tuple(players[p] for p in seated[pk]))
        for pk, version, evening_id, series, number, first_dealer, code in tables.values_list(
            "pk", "version", "evening_id", "series", "number", "first_dealer", "access_code")
    ]


def table_results(tables: list[TableRef], source: QuerySet[Table] | None = None,
                  ) -> dict[int, TableResult]:
    """The result of every table, by table id.

    At most one query: the live deals of the tables the cache does not hold. ``source`` is a
    query of the tables, used instead of their ids when there are many."""
    cache = caches[CACHE_ALIAS]
    rules: dict[int, str] = {}
    keys = {table.pk: _key(table, table.version, rules) for table in tables}
    found: dict[str, TableResult] = cache.get_many(list(keys.values())) if keys else {}
    missing = [table for table in tables if keys[table.pk] not in found]
    if missing:
        fresh = _compute_missing(missing, source, rules)
        cache.set_many(dict(fresh.values()), timeout=None)
        for pk, (key, result) in fresh.items():
            keys[pk] = key
            found[key] = result
    return {pk: found[key] for pk, key in keys.items()}


def fresh_results(tables: list[TableRef], source: QuerySet[Table] | None = None,
                  ) -> dict[int, TableResult]:
    """The result of every table computed from its deals now, neither read from the cache
    nor written to it: for checks against a full recomputation. One query."""
    return {pk: result for pk, (_key, result) in _compute_missing(tables, source, {}).items()}


def _compute_missing(tables: list[TableRef], source: QuerySet[Table] | None,
                     rules: dict[int, str]) -> dict[int, tuple[str, TableResult]]:
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
    return {pk: (_key(table, versions[pk], rules), compute(table, records[pk]))
            for pk, table in by_id.items()}
