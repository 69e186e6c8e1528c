"""What the polled pages (a table's sheet fragment, the evening's live overview) show depends
on, as short digests: the cache keys of their rendered HTML in the shared cache and their
ETags, so that a poll of an unchanged page is answered 304 without rendering, and a changed
evening re-renders only the tables that changed.

A table's digest covers every stored field of the table (its version is bumped by every change
to its deals), its seats and their players' names (a seat corrected in the admin bumps no
version), every field of its evening and the club's name, the language, and the source of the
template that renders it (a deployment with a changed template never serves old HTML).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from functools import cache
from typing import NamedTuple

from django.template.loader import get_template

from scoring.models import Evening, ImportedTotal, Player, Season, Seat, Table

# Bump when what a digest covers changes meaning.
FORMAT = 1


def digest(*parts: object) -> str:
    return hashlib.blake2b(repr((FORMAT, *parts)).encode(), digest_size=12).hexdigest()


@cache
def template_digest(name: str) -> str:
    """A digest of the template's source (read once per process)."""
    source = getattr(getattr(get_template(name), "template", None), "source", name)
    return digest(source)


def _fields(obj: Evening | Table | Season) -> tuple[object, ...]:
    return tuple(getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields)


def evening_basis(evening: Evening) -> str:
    """Everything of the evening (and its club's name) a table's sheet can show."""
    return digest(_fields(evening), evening.club.name)


def table_digest(basis: str, fields: tuple[object, ...],
                 seats: list[tuple[int, str]]) -> str:
    """``fields``: the table's concrete fields in model order; ``seats``: (player id, name)
    in seat order."""
    return digest(basis, fields, seats)


def table_state(table: Table) -> str:
    """The digest of a table (fetched with its evening and club): one query, the seats."""
    seats = list(Seat.objects.filter(table=table).order_by("position").values_list(
        "player_id", "player__name"))
    return table_digest(evening_basis(table.evening), _fields(table), seats)


def fetched_state(table: Table, basis: str) -> str:
    """The digest of a table fetched with tables_with_everything (no query)."""
    return table_digest(basis, _fields(table),
                        [(s.player_id, s.player.name) for s in table.seats.all()])


class TableState(NamedTuple):
    pk: int
    series: int
    digest: str


def evening_states(evening: Evening) -> list[TableState]:
    """Every table of the evening in the overview's order (the series being played first),
    with its digest: two queries (the tables' fields, the seats), however many tables."""
    basis = evening_basis(evening)
    seated: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for table_id, player_id, name in Seat.objects.filter(table__evening=evening).order_by(
            "table_id", "position").values_list("table_id", "player_id", "player__name"):
        seated[table_id].append((player_id, name))
    names = [f.attname for f in Table._meta.concrete_fields]
    pk_at, series_at = names.index("id"), names.index("series")
    return [TableState(row[pk_at], row[series_at], table_digest(basis, row, seated[row[pk_at]]))
            for row in evening.tables.order_by("-series", "number").values_list(*names)]


def season_state(season: Season) -> str:
    """The digest of everything the season table is computed from: the season (and its
    club's name), its evenings, the club's players, the season's tables (with their versions)
    and seats, and the totals imported from paper. Five cheap queries, however large the
    season, where computing the table reads every table's result and renders a row per
    player."""
    tables = Table.objects.filter(evening__season=season)
    names = [f.attname for f in Table._meta.concrete_fields]
    return digest(
        _fields(season), season.club.name,
        [_fields(e) for e in season.evenings.order_by("pk")],
        list(Player.objects.filter(club_id=season.club_id).order_by("pk").values_list(
            *[f.attname for f in Player._meta.concrete_fields])),
        list(tables.order_by("pk").values_list(*names)),
        list(Seat.objects.filter(table__in=tables.values("pk")).order_by(
            "table_id", "position").values_list("table_id", "player_id")),
        list(ImportedTotal.objects.filter(evening__season=season).order_by("pk").values_list(
            *[f.attname for f in ImportedTotal._meta.concrete_fields])),
    )
