"""The federation-wide ranking of a year (Spieljahr): every club's players by their
Seeger-Fabian points over the evenings of the clubs' seasons in that year, ranked from a
minimum number of evenings on; equal scores as in DECISIONS.md §2 (more games won, then fewer
games lost; players equal in all three share the place).

It is one indexed query over the table scores (models.TableScore), which the deal services
keep up to date in the same transaction as every change: a page costs the same however many
clubs and deals there are, and nothing is recomputed on a read. ``recomputed`` derives the
same ranking from the raw deals through the engine, to check the kept rows against.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db import connection

from scoring.collation import name_key
from scoring.models import Club, Evening, Player, Table, TableScore
from scoring.reads.results import fresh_results, keeps_seeger_fabian, table_refs
from scoring.reads.standings import tie_key


@dataclass
class FederationRow:
    player_id: int
    name: str
    club: str
    club_slug: str
    score: int  # Seeger-Fabian points
    points: int  # classic game points
    won: int
    lost: int
    evenings: int
    rank: int | None = None  # None: fewer evenings than the ranking asks for

    @property
    def games(self) -> int:
        return self.won + self.lost

    def key(self) -> tuple[int, int, int]:
        return tie_key(self.score, self.won, self.lost)


@dataclass
class FederationRanking:
    year: int
    min_evenings: int
    ranked: list[FederationRow]
    unranked: int  # players with fewer evenings
    clubs: int  # clubs with a ranked or unranked player


def year_range(year: int) -> tuple[datetime.date, datetime.date]:
    return datetime.date(year, 1, 1), datetime.date(year, 12, 31)


def rank_rows(rows: list[FederationRow], year: int, min_evenings: int) -> FederationRanking:
    ranked = [row for row in rows if row.evenings >= min_evenings]
    ranked.sort(key=lambda row: (row.key(), name_key(row.name), row.player_id))
    previous: tuple[int, int, int] | None = None
    place = 0
    for index, row in enumerate(ranked, start=1):
        if row.key() != previous:
            place, previous = index, row.key()
        row.rank = place
    return FederationRanking(year=year, min_evenings=min_evenings, ranked=ranked,
                             unranked=len(rows) - len(ranked),
                             clubs=len({row.club_slug for row in rows}))


def federation_ranking(year: int, min_evenings: int) -> FederationRanking:
    """The ranking from the kept table scores: one query. The rows are added up per player
    and evening first, then per player, so that both steps are plain hash aggregates (a
    count of distinct evenings would make the database sort every row of the year)."""
    first, last = year_range(year)
    score, evening = TableScore._meta.db_table, Evening._meta.db_table
    player, club = Player._meta.db_table, Club._meta.db_table
    sql = f"""
        SELECT p.id, p.name, c.name, c.slug, a.score, a.points, a.won, a.lost, a.evenings
        FROM (
            SELECT e.player_id, SUM(e.score) AS score, SUM(e.points) AS points,
                   SUM(e.won) AS won, SUM(e.lost) AS lost, COUNT(*) AS evenings
            FROM (
                SELECT s.player_id, SUM(s.seeger_fabian) AS score, SUM(s.points) AS points,
                       SUM(s.won) AS won, SUM(s.lost) AS lost
                FROM {score} s JOIN {evening} ev ON ev.id = s.evening_id
                WHERE ev.date >= %s AND ev.date <= %s AND ev.season_id IS NOT NULL
                GROUP BY s.player_id, s.evening_id
            ) e
            GROUP BY e.player_id
        ) a
        JOIN {player} p ON p.id = a.player_id
        JOIN {club} c ON c.id = p.club_id
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [first, last])
        rows = [FederationRow(pk, name, club_name, slug, int(total), int(points), int(won),
                              int(lost), int(evenings))
                for pk, name, club_name, slug, total, points, won, lost, evenings
                in cursor.fetchall()]
    return rank_rows(rows, year, min_evenings)


def recomputed(year: int, min_evenings: int) -> FederationRanking:
    """The same ranking derived from every table's deals by the engine (results.py), not
    from the kept rows: slow, for checking them."""
    first, last = year_range(year)
    evenings = {e.pk: e for e in Evening.objects.filter(
        date__gte=first, date__lte=last, season__isnull=False).select_related("club")}
    tables = Table.objects.filter(evening_id__in=list(evenings)).order_by("pk")
    players = {p.pk: p for p in Player.objects.filter(
        club_id__in={e.club_id for e in evenings.values()}).select_related("club")}
    refs = table_refs(tables, players, evenings)
    results = fresh_results(refs, tables)
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    played: dict[int, set[int]] = defaultdict(set)
    # Which tables have scores: the rule system's answer (as writes/scores.py keeps them).
    for ref in refs:
        result = results[ref.pk]
        if (result.error is not None or result.seeger_fabian is None
                or not keeps_seeger_fabian(ref.evening, len(ref.players))):
            continue
        for seat, player in enumerate(ref.players[:result.seats]):
            total = totals[player.pk]
            total[0] += result.seeger_fabian[seat]
            total[1] += result.points[seat]
            total[2] += result.won[seat]
            total[3] += result.lost[seat]
            played[player.pk].add(ref.evening.pk)
    rows = [FederationRow(pk, players[pk].name, players[pk].club.name, players[pk].club.slug,
                          t[0], t[1], t[2], t[3], len(played[pk])) for pk, t in totals.items()]
    return rank_rows(rows, year, min_evenings)
