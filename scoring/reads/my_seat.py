""""Mein Platz" (issue 35, item 5): where a player sits now and how he stands, for his phone.

Through the personal link of a tournament entrant (``Entrant.seat_key``, no account needed)
or for a signed-in account (every Player record linked to it, across clubs): the latest drawn
series of a running tournament, a league match day's latest seated series, an open club
evening's tables of today. Each answer says the series, the table and the seat, the table's
other players, his points at that table so far in the series and over the day (Seeger-Fabian
where the tournament, league or evening counts them) and, for a tournament, his place in the
day's ranking. Before a draw: his start number, and that he waits.

Every number comes from the existing reads: the tournament's ranking
(reads/tournament.py's ``tournament_ranking``), an evening's or a match day's
(reads/standings.py's ``evening_ranking``); nothing is added up here. What they give a player
is folded into a small summary per evening, kept in the shared cache under the evening's live
digest (reads/live.py: every table's fields, versions and seats), so that a thousand phones of
one Preisskat share one ranking per change, not one each.

The polled fragment's ETag is made of the same digest: a poll of an unchanged seat costs the
entrant's row (or the account's seats and entries) and the kept digest, and is answered 304.
Never part of an answer: a table's access code (it grants recording).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.core.cache import caches
from django.utils import timezone

from scoring.models import Entrant, Evening, MatchDay, Player, Seat, Tournament
from scoring.reads import live
from scoring.reads.standings import SEEGER_FABIAN, evaluation_of, evening_ranking
from scoring.reads.tournament import tournament_ranking

KEY_LENGTH = 32  # Entrant.seat_key's max_length: a longer key is no key
SUMMARY_SECONDS = 120  # a summary is keyed by what it is computed from: it never goes stale
LOCK_SECONDS = 30  # a process that dies while computing a summary holds the lock this long

TOURNAMENT, LEAGUE, EVENING = "tournament", "league", "evening"


@dataclass(frozen=True)
class Mate:
    """A player at the table, in seat order."""

    seat: int  # 1…
    name: str
    me: bool


@dataclass
class MySeat:
    """One current seat (or the wait for one) of one player."""

    kind: str  # TOURNAMENT, LEAGUE or EVENING
    title: str  # the tournament's, the league's or the evening's name
    club: str
    date: datetime.date
    player: str
    number: int | None = None  # the start number in a tournament
    match_day: int | None = None  # the match day's number in a league
    drawn: int = 0  # the latest series drawn (seated) at that evening; 0: none yet
    series: int | None = None  # the series of his seat (== drawn when he plays it)
    table: int | None = None
    seat: int | None = None  # 1…
    mates: list[Mate] = field(default_factory=list)
    checked_in: bool = True
    withdrawn: bool = False
    series_points: int | None = None  # at his table in this series, so far
    day_points: int | None = None  # over the day so far
    place: int | None = None  # in the day's ranking so far (a tournament's)
    ranked: int = 0  # how many the ranking has
    games: int | None = None  # games played at his table in this series
    length: int | None = None  # games of the series at his table (None: an open list)
    seeger_fabian: bool = False  # the points are Seeger-Fabian points
    stale: bool = False  # the points are of an earlier state (another process ranks anew)

    @property
    def waiting(self) -> bool:
        """Registered, no series drawn yet."""
        return self.table is None and self.drawn == 0

    @property
    def current(self) -> bool:
        """He sits at a table of the latest series drawn."""
        return self.table is not None and self.series == self.drawn

    @property
    def others(self) -> list[Mate]:
        return [m for m in self.mates if not m.me]


# ---------------------------------------------------------------- the summaries


def _summary_key(evening: Evening, digest: str, tournament: Tournament | None) -> str:
    version = tournament.version if tournament is not None else ""
    return f"my-seat:summary:{evening.pk}:{digest}:{version}"


Summary = dict[str, Any]


def _read_summary(evening: Evening, tournament: Tournament | None) -> Summary:
    """Per player id (place, points over the day, points per series); per table id (games
    played, games of the series); and whether the points are Seeger-Fabian points. From the
    tournament's ranking, else the evening's (a match day's, a club evening's)."""
    ranking = evening_ranking(evening) if tournament is None else None
    rows: dict[int, tuple[int | None, int, dict[int, int]]] = {}
    tables: dict[int, tuple[int, int | None]] = {}
    if tournament is not None:
        found = tournament_ranking(tournament)
        for row in found.rows:
            rows[row.entrant.player_id] = (row.rank, row.score, dict(row.series))
        progress = found.progress
        ranked = len(found.rows)
    else:
        assert ranking is not None
        for standing in ranking.rows:
            rows[standing.player.pk] = (standing.rank, standing.score,
                                        dict(standing.series))
        progress = [s.tables for s in ranking.series]
        ranked = len(ranking.rows)
    for series in progress:
        for table in series:
            tables[table.table.pk] = (table.counted, table.length)
    return {"rows": rows, "tables": tables, "ranked": ranked,
            "seeger_fabian": evaluation_of(evening) == SEEGER_FABIAN}


def evening_summary(evening: Evening, digest: str, tournament: Tournament | None,
                    ) -> tuple[Summary, bool]:
    """The summary of an evening in the state ``digest`` (its live digest), and whether it
    is of that state: computed once per state for every process and phone (the shared
    cache). One process computes a new state at a time (a lock in the shared cache, as the
    board renders): while it does, the others answer with the last summary computed (False:
    the page's ETag then says so, and the next poll asks again), so that a saved deal does
    not make a thousand phones' requests rank 1,001 players at once."""
    cache = caches[live.STATES_CACHE]
    key = _summary_key(evening, digest, tournament)
    last_key = f"my-seat:summary-last:{evening.pk}"
    kept = cache.get_many([key, last_key])
    found = kept.get(key)
    if isinstance(found, dict):
        return found, True
    last = kept.get(last_key)
    lock = f"my-seat:summary-lock:{evening.pk}"
    locked = cache.add(lock, digest, LOCK_SECONDS)
    if not locked and isinstance(last, dict):
        return last, False
    try:
        summary = _read_summary(evening, tournament)
        cache.set_many({key: summary, last_key: summary}, SUMMARY_SECONDS)
    finally:
        if locked:
            cache.delete(lock)
    return summary, True


# ---------------------------------------------------------------- the states


class States(NamedTuple):
    """What a seat page needs of an evening's live states (reads/live.py): their digest and
    the latest series seated. A few bytes, kept beside the evening's states for as long, so
    that a poll of a 250-table evening does not read the states of every table."""

    digest: str
    drawn: int


def _states(evening: Evening) -> States:
    """The evening's States: kept STATES_SECONDS for every process under the evening's own
    fields (as reads/live.py keeps the states, and dropped with them by every saved deal or
    table: live.forget_states), else from live.evening_states (kept too, else two
    queries)."""
    if live.STATES_SECONDS <= 0:
        return _read_states(evening)
    cache = caches[live.STATES_CACHE]
    basis = live.evening_basis(evening)
    kept = cache.get(live.brief_key(evening.pk))
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == basis:
        return States(*kept[1])
    found = _read_states(evening)
    cache.set(live.brief_key(evening.pk), (basis, tuple(found)), live.STATES_SECONDS)
    return found


def _read_states(evening: Evening) -> States:
    states = live.evening_states(evening)
    return States(states.digest,
                  max((series for _pk, series, _digest in states.tables), default=0))


def _drawn(states: States) -> int:
    return states.drawn


def _entrant_fields(entrant: Entrant) -> tuple[object, ...]:
    return (entrant.pk, entrant.number, entrant.player_id, entrant.player.name,
            entrant.checked_in, entrant.withdrawn_after, entrant.tournament.version)


# ---------------------------------------------------------------- the personal link


def entrant_by_key(key: str) -> Entrant | None:
    """The entrant of a personal link (None: no such key). One query."""
    if not key or len(key) > KEY_LENGTH:
        return None
    # unordered (the key is unique): the model's ordering would join and sort for nothing
    found = list(Entrant.objects.select_related("player", "tournament__club",
                                                "tournament__evening__club")
                 .filter(seat_key=key).order_by()[:1])
    return found[0] if found else None


def entrant_states(entrant: Entrant) -> States:
    """The live states of the entrant's tournament evening, read once per request and
    handed to entrant_state and entrant_seat (no query while they are kept)."""
    return _states(entrant.tournament.evening)


def entrant_state(entrant: Entrant, states: States, *extra: object) -> str:
    """What the personal page shows depends on, as a digest (its ETag): the tournament's
    evening (its tables, their versions and seats: every draw and every saved deal), the
    tournament's version and the entrant's own fields."""
    return live.digest("my-seat", states.digest, _entrant_fields(entrant), *extra)


def entrant_seat(entrant: Entrant, states: States) -> MySeat:
    """The entrant's seat in the latest series drawn, his table's players and his running
    result: a constant number of queries, whatever the field."""
    tournament = entrant.tournament
    evening = tournament.evening
    found = MySeat(kind=TOURNAMENT, title=tournament.name, club=tournament.club.name,
                   date=tournament.date, player=entrant.player.name, number=entrant.number,
                   drawn=_drawn(states), checked_in=entrant.checked_in,
                   withdrawn=entrant.withdrawn_after is not None)
    seat = (Seat.objects.filter(player_id=entrant.player_id, table__evening_id=evening.pk)
            .select_related("table").order_by("-table__series").first())
    if seat is not None:
        _fill(found, seat.table_id, seat.table.series, seat.table.number,
              _mates([seat.table_id], {seat.table_id: entrant.player_id})[seat.table_id])
        _result(found, evening_summary(evening, states.digest, tournament),
                entrant.player_id, seat.table_id)
    return found


def _fill(found: MySeat, table_id: int, series: int, number: int, mates: list[Mate]) -> None:
    found.series, found.table = series, number
    found.mates = mates
    found.seat = next((m.seat for m in mates if m.me), None)


def _mates(table_ids: list[int], me: dict[int, int]) -> dict[int, list[Mate]]:
    """The players of these tables in seat order (``me``: table id -> his player id). One
    query."""
    found: dict[int, list[Mate]] = defaultdict(list)
    for table_id, position, player_id, name in (
            Seat.objects.filter(table_id__in=table_ids).order_by("table_id", "position")
            .values_list("table_id", "position", "player_id", "player__name")):
        found[table_id].append(Mate(position + 1, name, player_id == me.get(table_id)))
    return found


def _result(found: MySeat, kept: tuple[Summary, bool], player_id: int, table_id: int,
            ) -> None:
    summary, fresh = kept
    found.stale = not fresh
    row = summary["rows"].get(player_id)
    found.seeger_fabian = bool(summary["seeger_fabian"])
    found.ranked = int(summary["ranked"])
    if row is not None:
        place, score, series = row
        found.day_points = score
        if found.series is not None:
            found.series_points = series.get(found.series, 0)
        found.place = place
    progress = summary["tables"].get(table_id)
    if progress is not None:
        found.games, found.length = progress


# ---------------------------------------------------------------- a signed-in account


def _window(today: datetime.date) -> datetime.date:
    """The earliest day still current: yesterday, for a day played past midnight."""
    return today - datetime.timedelta(days=1)


def _account_rows(user_id: int, today: datetime.date,
                  ) -> tuple[list[Seat], list[Entrant]]:
    """The account's seats at open evenings of today (and yesterday's, past midnight), and
    its entries in tournaments not yet over. Two queries."""
    seats = list(
        Seat.objects.filter(player__user_id=user_id, player__merged_into__isnull=True,
                            table__evening__closed=False,
                            table__evening__date__gte=_window(today),
                            table__evening__date__lte=today)
        .select_related("player", "table__evening__club", "table__evening__tournament__club",
                        "table__evening__match_day__group__league")
        .order_by("table__evening_id", "-table__series"))
    entrants = list(
        Entrant.objects.filter(player__user_id=user_id, player__merged_into__isnull=True,
                               tournament__evening__closed=False,
                               tournament__date__gte=_window(today))
        .select_related("player", "tournament__club", "tournament__evening__club")
        .order_by("tournament__date", "tournament_id"))
    return seats, entrants


def is_linked(user_id: int) -> bool:
    """Whether any club's player record is linked to the account. One query."""
    return Player.objects.filter(user_id=user_id, merged_into__isnull=True).exists()


def _tournament_of(evening: Evening) -> Tournament | None:
    try:
        return evening.tournament
    except Tournament.DoesNotExist:
        return None


def _match_day_of(evening: Evening) -> MatchDay | None:
    try:
        return evening.match_day
    except MatchDay.DoesNotExist:
        return None


@dataclass
class Account:
    """What an account's seats are read from: its seats and entries of today, and the live
    states of their evenings (read once per request)."""

    user_id: int
    today: datetime.date
    seats: list[Seat]
    entrants: list[Entrant]
    states: dict[int, States]


def account(user_id: int, today: datetime.date | None = None) -> Account:
    """Two queries, and each evening's states (none while they are kept)."""
    today = today or timezone.localdate()
    seats, entrants = _account_rows(user_id, today)
    evenings = {s.table.evening_id: s.table.evening for s in seats}
    evenings.update({e.tournament.evening_id: e.tournament.evening for e in entrants})
    return Account(user_id, today, seats, entrants,
                   {pk: _states(evening) for pk, evening in evenings.items()})


def account_state(found: Account, *extra: object) -> str:
    """What the signed-in page shows depends on, as a digest (its ETag): the account's seats
    and entries, and each of their evenings' live digest."""
    return live.digest(
        "my-seats", found.user_id, found.today.isoformat(),
        [(s.pk, s.table_id, s.player_id) for s in found.seats],
        [_entrant_fields(e) for e in found.entrants],
        [(pk, found.states[pk].digest) for pk in sorted(found.states)], *extra)


def account_seats(found: Account) -> list[MySeat]:
    """Every current seat of every player record linked to the account, across clubs, and
    each tournament he is entered for and waits in: the tournaments first (by date), then
    the match days and the club evenings. A constant number of queries per evening."""
    today, seats, entrants = found.today, found.seats, found.entrants
    latest: dict[int, Seat] = {}
    for seat in seats:  # ordered by evening, the latest series first
        latest.setdefault(seat.table.evening_id, seat)
    entries = {e.tournament.evening_id: e for e in entrants}
    mates = _mates([s.table_id for s in latest.values()],
                   {s.table_id: s.player_id for s in latest.values()})
    shown: list[MySeat] = []
    for entrant in entrants:
        tournament = entrant.tournament
        evening = tournament.evening
        states = found.states[evening.pk]
        item = MySeat(kind=TOURNAMENT, title=tournament.name, club=tournament.club.name,
                      date=tournament.date, player=entrant.player.name,
                      number=entrant.number, drawn=_drawn(states),
                      checked_in=entrant.checked_in,
                      withdrawn=entrant.withdrawn_after is not None)
        sits = latest.get(evening.pk)
        if sits is not None:
            _fill(item, sits.table_id, sits.table.series, sits.table.number,
                  mates[sits.table_id])
            _result(item, evening_summary(evening, states.digest, tournament),
                    entrant.player_id, sits.table_id)
        shown.append(item)
    for evening_id, seat in latest.items():
        if evening_id in entries:
            continue
        evening = seat.table.evening
        if _tournament_of(evening) is not None:
            continue  # a tournament's seat without his entry: not his day
        day = _match_day_of(evening)
        if day is None and evening.date != today:
            continue  # a club evening of yesterday is over
        states = found.states[evening.pk]
        item = MySeat(
            kind=LEAGUE if day is not None else EVENING,
            title=(f"{day.group.league.name} · {day.group.name}" if day is not None
                   else evening.name),
            club=evening.club.name, date=evening.date, player=seat.player.name,
            match_day=day.number if day is not None else None, drawn=_drawn(states))
        _fill(item, seat.table_id, seat.table.series, seat.table.number,
              mates[seat.table_id])
        _result(item, evening_summary(evening, states.digest, None), seat.player_id,
                seat.table_id)
        shown.append(item)
    return shown
