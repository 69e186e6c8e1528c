"""The director's cockpit (issue 24, item 5): every table of a series at a glance, the series
clock and the message to the tables.

Per table: the games played of its series (36 at a 3-table, 48 at a 4-table for 12 rounds:
``Evening.series_length``; counted by the engine from the table's cached result, so a misdeal
is no game), the minutes since its last deal was recorded (since the series' start while it
has none), whether it is playing, finished or signed (reads/signing.py's states, as on the
desk), and its players' start numbers. A constant number of queries for any field.

The series clock runs from the director's explicit "start series" (TournamentSeries.started),
not from the draw: a series is drawn while the previous one is signed, the table cards are
printed and the players find their seats, which takes anything from ten minutes to a lunch
break; the time limit counts the play. Its end is the start plus the tournament's
``series_minutes``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Max, Q
from django.utils import timezone

from scoring.models import Player, Table, Tournament, TournamentSeries
from scoring.reads.results import table_refs, table_results
from scoring.reads.signing import FINISHED, PLAYING, SIGNED

# A playing table whose last deal is this many minutes ago is slow (a deal takes two to
# three minutes: 48 games in two hours).
SLOW_MINUTES = 10

# The time limit per series, in minutes, and the longest message to the tables.
MIN_MINUTES, MAX_MINUTES = 10, 600
NOTICE_LENGTH = 200

# The filters of the table list: (key, what it keeps).
FILTERS = ("all", "slow", "open", "unsigned", "signed")
# The orders of the table list.
SORTS = ("number", "idle", "played")


def now() -> datetime:
    """The cockpit's clock (tests freeze it)."""
    return timezone.now()


@dataclass(frozen=True)
class SeriesClock:
    """A series' time limit: running from ``started`` (None: not started yet)."""

    series: int
    minutes: int
    started: datetime | None

    @property
    def ends(self) -> datetime | None:
        return self.started + timedelta(minutes=self.minutes) if self.started else None

    def remaining(self, at: datetime) -> int | None:
        """Seconds left at ``at`` (negative: over time); None before the start."""
        ends = self.ends
        return None if ends is None else math.floor((ends - at).total_seconds())


def clock_text(seconds: int) -> str:
    """``seconds`` (their amount) as H:MM:SS, as the clocks count (static/js/series-clock.js)."""
    seconds = abs(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def clock_of(tournament: Tournament, draw: TournamentSeries | None) -> SeriesClock | None:
    if draw is None:
        return None
    return SeriesClock(draw.number, tournament.series_minutes, draw.started)


@dataclass
class CockpitTable:
    pk: int
    number: int
    numbers: list[int]  # the players' start numbers in seat order
    played: int  # games of the series counted by the engine
    length: int | None  # games of the series at this table
    status: str  # PLAYING, FINISHED or SIGNED
    changed_after_signing: bool
    last_deal: datetime | None
    idle: int | None  # whole minutes since the last deal (or the start); None: not started

    @property
    def slow(self) -> bool:
        return self.status == PLAYING and self.idle is not None and self.idle >= SLOW_MINUTES

    @property
    def share(self) -> int:
        """How far the series is, in percent (for the bar)."""
        return min(100, round(100 * self.played / self.length)) if self.length else 0


@dataclass
class Cockpit:
    tournament: Tournament
    series: int | None  # the series shown (None: nothing drawn)
    drawn: list[int]
    clock: SeriesClock | None
    at: datetime
    tables: list[CockpitTable] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """The folded counts on top: every filter's tables."""
        found = {key: 0 for key in FILTERS}
        for table in self.tables:
            for key in FILTERS:
                found[key] += keeps(key, table)
        return found

    @property
    def not_started(self) -> int:
        return sum(1 for t in self.tables if t.played == 0 and t.status == PLAYING)

    @property
    def remaining(self) -> int | None:
        return self.clock.remaining(self.at) if self.clock else None

    @property
    def remaining_text(self) -> str:
        remaining = self.remaining
        return "" if remaining is None else clock_text(remaining)

    @property
    def ends_ms(self) -> int | None:
        """The clock's end in milliseconds since the epoch (for the countdown script)."""
        ends = self.clock.ends if self.clock else None
        return None if ends is None else int(ends.timestamp() * 1000)

    @property
    def at_ms(self) -> int:
        return int(self.at.timestamp() * 1000)

    @property
    def games(self) -> tuple[int, int]:
        """Games played and games of the series over every table."""
        return (sum(t.played for t in self.tables),
                sum(t.length or 0 for t in self.tables))

    def shown(self, keep: str, sort: str) -> list[CockpitTable]:
        """The tables the filter ``keep`` leaves, in the order ``sort``."""
        tables = [t for t in self.tables if keeps(keep, t)]
        if sort == "idle":  # the longest without a deal first; not started last
            tables.sort(key=lambda t: (t.idle is None, -(t.idle or 0), t.number))
        elif sort == "played":  # the fewest games first
            tables.sort(key=lambda t: (t.played, t.number))
        return tables


def keeps(key: str, table: CockpitTable) -> bool:
    if key == "slow":
        return table.slow
    if key == "open":  # not finished
        return table.status == PLAYING
    if key == "unsigned":  # finished, not signed
        return table.status == FINISHED
    if key == "signed":
        return table.status == SIGNED
    return True


def current_series(tournament: Tournament) -> tuple[list[TournamentSeries], int | None]:
    """The tournament's draws and the series being played: the last one drawn. One query."""
    draws = list(tournament.draws.all())
    return draws, draws[-1].number if draws else None


def cockpit(tournament: Tournament, series: int | None = None,
            at: datetime | None = None) -> Cockpit:
    """The cockpit of ``series`` (default: the last drawn) at ``at`` (default: now): at most
    seven queries, however many tables (the draws, the club's players, the tables and their
    seats, the tables' last deals and signatures, the start numbers, and the deals of the
    tables whose results the cache does not hold)."""
    at = at or now()
    draws, last = current_series(tournament)
    drawn = [d.number for d in draws]
    if series not in drawn:
        series = last
    draw = next((d for d in draws if d.number == series), None)
    result = Cockpit(tournament, series, drawn, clock_of(tournament, draw), at)
    if series is None:
        return result
    evening = tournament.evening
    source = Table.objects.filter(evening_id=evening.pk, series=series)
    players = {p.pk: p for p in Player.objects.filter(club_id=tournament.club_id)}
    refs = table_refs(source.order_by("number"), players, {evening.pk: evening})
    results = table_results(refs, source)
    states = {pk: (last_deal, signed_at, changed) for pk, last_deal, signed_at, changed in
              source.annotate(last_deal=Max("deals__created", filter=Q(deals__deleted=False)))
              .values_list("pk", "last_deal", "signed_at", "changed_after_signing")}
    numbers = dict(tournament.entrants.values_list("player_id", "number"))
    started = draw.started if draw else None
    seated: dict[int, list[int]] = defaultdict(list)
    for ref in refs:
        seated[ref.pk] = [numbers[p.pk] for p in ref.players if p.pk in numbers]
    for ref in refs:
        last_deal, signed_at, changed = states[ref.pk]
        length = evening.series_length(len(ref.players))
        played = results[ref.pk].counted
        if signed_at is not None:
            status = SIGNED
        elif length is not None and played >= length:
            status = FINISHED
        else:
            status = PLAYING
        since = last_deal or started
        idle = None if since is None else max(0, int((at - since).total_seconds() // 60))
        result.tables.append(CockpitTable(
            pk=ref.pk, number=ref.number, numbers=seated[ref.pk], played=played,
            length=length, status=status, changed_after_signing=changed,
            last_deal=last_deal, idle=idle))
    return result

