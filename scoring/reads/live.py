"""What the polled pages (a table's sheet fragment, the evening's live overview, the season
table) show depends on, as short digests: the cache keys of their rendered HTML in the shared
cache and their ETags, so that a poll of an unchanged page is answered 304 without rendering,
and a changed evening re-renders only the tables that changed.

A table's digest covers every stored field of the table (its version is bumped by every change
to its deals), its seats and their players' names (a seat corrected in the admin bumps no
version), every field of its evening and the club's name, the language, and the source of the
template that renders it (a deployment with a changed template never serves old HTML).

Every digest is keyed with the site's SECRET_KEY (they become public as ETags), and a table's
access code enters them only as a keyed mark (``code_mark``): a viewer who sees every other
field cannot recompute an ETag for a guessed code and so find the code offline (issue 26).

The digests themselves are read once a second for every process and kept in the shared cache
(STATES_SECONDS): a Preisskat's hundreds of viewers poll the same evening and season. A deal
or a table saved through the services drops them at once (forget_states).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable
from functools import cache
from typing import NamedTuple, TypeVar, cast

from django.conf import settings
from django.core.cache import caches
from django.template.loader import get_template
from django.utils.crypto import salted_hmac

from scoring.models import Evening, ImportedTotal, Player, Season, Seat, Table

# Bump when what a digest covers changes meaning.
FORMAT = 2

T = TypeVar("T")


@cache
def _key(secret: str) -> bytes:
    """The digests' key, derived from the site's SECRET_KEY (once per process and key)."""
    return salted_hmac("skatclub.live.digest", "", secret=secret, algorithm="sha256").digest()


def digest(*parts: object) -> str:
    """The keyed digest of ``parts``: every digest of this module, and so every polled
    page's ETag, comes from here. Without the server's secret nobody can compute one."""
    return hashlib.blake2b(repr((FORMAT, *parts)).encode(), digest_size=12,
                           key=_key(settings.SECRET_KEY)).hexdigest()


def code_mark(code: str) -> str:
    """What a digest holds of a table's access code: a keyed mark, never the code, so that a
    changed code still changes the digest (the signing panel's phone link depends on it)."""
    return salted_hmac("skatclub.live.code", code, algorithm="sha256").hexdigest()[:16]


_TABLE_NAMES = [f.attname for f in Table._meta.concrete_fields]
_CODE_AT = _TABLE_NAMES.index("access_code")


def _table_values(row: tuple[object, ...]) -> tuple[object, ...]:
    """A table's concrete fields in model order with its access code replaced by its mark."""
    return (*row[:_CODE_AT], code_mark(str(row[_CODE_AT])), *row[_CODE_AT + 1:])


@cache
def template_digest(name: str) -> str:
    """A digest of the template's source (read once per process)."""
    source = getattr(getattr(get_template(name), "template", None), "source", name)
    return digest(source)


def _fields(obj: Evening | Table | Season) -> tuple[object, ...]:
    values = tuple(getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields)
    return _table_values(values) if isinstance(obj, Table) else values


def evening_basis(evening: Evening) -> str:
    """Everything of the evening (and its club's name) a table's sheet can show."""
    return digest(_fields(evening), evening.club.name)


def table_digest(basis: str, fields: tuple[object, ...],
                 seats: list[tuple[int, str]]) -> str:
    """``fields``: the table's concrete fields in model order; ``seats``: (player id, name)
    in seat order."""
    return digest(basis, fields, seats)


def table_state(table: Table) -> str:
    """The digest of a table (fetched with its evening and club): from its evening's kept
    states (evening_states) when the table is among them, else one query (the seats)."""
    if STATES_SECONDS <= 0:  # keeping switched off: this table's seats, not the evening's
        return read_table_state(table)
    kept = evening_states(table.evening).digest_of(table.pk)
    return read_table_state(table) if kept is None else kept


def read_table_state(table: Table) -> str:
    """The digest of a table read from the database: one query, the seats."""
    seats = list(Seat.objects.filter(table=table).order_by("position").values_list(
        "player_id", "player__name"))
    return table_digest(evening_basis(table.evening), _fields(table), seats)


def fetched_state(table: Table, basis: str) -> str:
    """The digest of a table fetched with tables_with_everything (no query)."""
    return table_digest(basis, _fields(table),
                        [(s.player_id, s.player.name) for s in table.seats.all()])


# A table's state on the overview: its pk, its series and its digest. Plain tuples: an
# overview poll goes through hundreds of them.
TableState = tuple[int, int, str]


# How long the states of an evening's tables and of a season are reused by every process
# without reading them again. Hundreds of viewers poll one evening every 5 s, each table's
# sheet every 10 s and the season table every 10 s: reading 250 tables and 1,000 seats (and
# for the season, the club's players) and digesting them for every poll was the polled pages'
# main cost. A deal saved or a table made through the services drops them at once
# (forget_states); other changes (a seat or a name corrected in the admin, a paper import)
# show after this long at most. A whole number (Redis keeps whole seconds); 0 reads every time.
STATES_SECONDS = 1
STATES_CACHE = "default"  # the shared cache


def _evening_key(evening_id: int) -> str:
    return f"live:evening-states:{evening_id}"


def _season_key(season_id: int) -> str:
    return f"live:season-state:{season_id}"


def brief_key(evening_id: int) -> str:
    """Where reads/my_seat.py keeps the digest of an evening's states and its latest series
    (a few bytes, for the phones' polls of "Mein Platz"): dropped with the states."""
    return f"live:evening-brief:{evening_id}"


def forget_states(evening_id: int, season_id: int | None) -> None:
    """A table of the evening changed: the next poll reads the states again."""
    keys = [_evening_key(evening_id), brief_key(evening_id)]
    if season_id is not None:
        keys.append(_season_key(season_id))
    caches[STATES_CACHE].delete_many(keys)


def _kept(key: str, basis: str, read: Callable[[], T]) -> T:
    """What ``read`` gives, kept for STATES_SECONDS under ``key`` for the same ``basis``
    (the digest of the evening's or the season's own fields, read with the request: a change
    to them is seen at once)."""
    if STATES_SECONDS <= 0:  # keeping switched off: read every time
        return read()
    cache = caches[STATES_CACHE]
    kept = cache.get(key)
    if kept is not None and kept[0] == basis:
        return cast(T, kept[1])
    value = read()
    cache.set(key, (basis, value), STATES_SECONDS)
    return value


class EveningStates(NamedTuple):
    tables: list[TableState]  # in the overview's order
    digest: str  # of them all

    def digest_of(self, pk: int) -> str | None:
        """One table's digest (None: not among them)."""
        return next((digest for table, _series, digest in self.tables if table == pk), None)


# How long a set of states stays findable by its digest (shown_states): a poll names the
# overview it shows by that digest and gets the tables changed since.
SHOWN_SECONDS = 15 * 60


def _shown_key(evening_id: int, states_digest: str) -> str:
    return f"live:evening-shown:{evening_id}:{states_digest}"


def evening_states(evening: Evening) -> EveningStates:
    """Every table of the evening in the overview's order (the series being played first),
    with its digest: kept for STATES_SECONDS for every process, else two queries (the
    tables' fields, the seats), however many tables. Each set read is also kept under its
    digest for SHOWN_SECONDS (shown_states)."""
    basis = evening_basis(evening)

    def read() -> tuple[list[TableState], str]:
        rows = read_evening_states(evening, basis)
        states_digest = digest(rows)
        caches[STATES_CACHE].set(_shown_key(evening.pk, states_digest), rows, SHOWN_SECONDS)
        return rows, states_digest

    return EveningStates(*_kept(_evening_key(evening.pk), basis, read))


def shown_states(evening_id: int, states_digest: str) -> list[TableState] | None:
    """The states of the evening's tables as they were when their digest was
    ``states_digest`` (None: not known, or too long ago)."""
    rows: list[TableState] | None = caches[STATES_CACHE].get(
        _shown_key(evening_id, states_digest))
    return rows


def read_evening_states(evening: Evening, basis: str) -> list[TableState]:
    """The states read from the database: two queries, however many tables."""
    seated: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for table_id, player_id, name in Seat.objects.filter(table__evening=evening).order_by(
            "table_id", "position").values_list("table_id", "player_id", "player__name"):
        seated[table_id].append((player_id, name))
    names = _TABLE_NAMES
    pk_at, series_at = names.index("id"), names.index("series")
    return [(row[pk_at], row[series_at],
             table_digest(basis, _table_values(row), seated[row[pk_at]]))
            for row in evening.tables.order_by("-series", "number").values_list(*names)]


def season_state(season: Season) -> str:
    """The digest of everything the season table is computed from: the season (and its
    club's name), its evenings, the club's players, the season's tables (with their versions)
    and seats, and the totals imported from paper. Kept for STATES_SECONDS for every process,
    else five cheap queries, however large the season, where computing the table reads every
    table's result and renders a row per player."""
    basis = digest(_fields(season), season.club.name)
    return _kept(_season_key(season.pk), basis, lambda: read_season_state(season, basis))


def read_season_state(season: Season, basis: str) -> str:
    """The season's digest read from the database: five queries."""
    tables = Table.objects.filter(evening__season=season)
    names = _TABLE_NAMES
    return digest(
        basis,
        [_fields(e) for e in season.evenings.order_by("pk")],
        list(Player.objects.filter(club_id=season.club_id).order_by("pk").values_list(
            *[f.attname for f in Player._meta.concrete_fields])),
        [_table_values(row) for row in tables.order_by("pk").values_list(*names)],
        list(Seat.objects.filter(table__in=tables.values("pk")).order_by(
            "table_id", "position").values_list("table_id", "player_id")),
        list(ImportedTotal.objects.filter(evening__season=season).order_by("pk").values_list(
            *[f.attname for f in ImportedTotal._meta.concrete_fields])),
    )
