"""Builders for season tests: a season, evenings and tables with hand-made results.

A won Clubs game "with m" is worth 12 × (m + 1) to its declarer, a lost one −2 × that
(DECISIONS.md §2); with Seeger-Fabian the declarer gets ±50 more and, at a lost game, every
other person at the table 40 (3-table) or 30 (4-table)."""

from __future__ import annotations

import datetime
from typing import Any

from scoring.engine import active_seats
from scoring.models import Club, Evening, Player, RuleProfile, Season, Table
from scoring.presets import PRESETS
from scoring.writes.services import Actor, deal_record, evening_create, table_create

ME = Actor(None, "test")
START = datetime.date(2026, 9, 1)


def make_season(club: Club, evaluation: str = "classic", **fields: Any) -> Season:
    return Season.objects.create(club=club, name=fields.pop("name", "2026/27"), start=START,
                                 end=START + datetime.timedelta(days=300),
                                 evaluation=evaluation, **fields)


def make_evening(season: Season, day: int, series_rounds: int | None = None) -> Evening:
    profile = RuleProfile.objects.get(club=season.club, name=PRESETS["isko_tournament"]["name"])
    evening: Evening = evening_create(
        club=season.club, date=START + datetime.timedelta(days=day), profile=profile,
        season=season, series_rounds=series_rounds)
    return evening


def year_season(club: Club, year: int = 2026, evaluation: str = "seeger_fabian") -> Season:
    """A season of the whole calendar year ``year``, named after it."""
    return Season.objects.create(club=club, name=str(year), start=datetime.date(year, 1, 1),
                                 end=datetime.date(year, 12, 31), evaluation=evaluation)


def evening_on(season: Season, date: datetime.date) -> Evening:
    """An evening of ``season`` on ``date`` under the club's ISkO tournament profile."""
    profile = RuleProfile.objects.get(club=season.club, name=PRESETS["isko_tournament"]["name"])
    evening: Evening = evening_create(club=season.club, date=date, profile=profile,
                                      season=season, series_rounds=None)
    return evening


def played_table(season: Season, date: datetime.date, players: list[Player]) -> Table:
    """An evening of ``season`` on ``date`` with one table of ``players`` (3 or 4) that played
    three games: seat 1 won with 1 matador, seat 2 lost with 2, seat 3 won with 1."""
    return seat_and_play(evening_on(season, date), players,
                         {1: [(1, True)], 2: [(2, False)], 3: [(1, True)]})


def player(club: Club, name: str) -> Player:
    return Player.objects.get_or_create(club=club, name=name)[0]


def game(declarer: int, matadors: int = 1, won: bool = True) -> dict[str, Any]:
    """Clubs with ``matadors``: +12 × (m + 1) won, −24 × (m + 1) lost."""
    return {"kind": "game", "declarer": declarer, "game": "clubs", "matadors": matadors,
            "bid": 18, "declarer_points": 70 if won else 50}


PASSED = {"kind": "passed"}


def play(table: Table, *records: dict[str, Any]) -> None:
    for record in records:
        deal_record(table=table, record=record, expected_version=table.version, actor=ME)


def seat_and_play(evening: Evening, players: list[Player], results: dict[int, list[Any]],
                  series: int = 1) -> Table:
    """A table of ``players`` whose declarers play ``results``: {seat: [(matadors, won) …]}.

    The games are spread over the deals so that every declarer is an active seat: the deals
    in between are passed in (they score nothing)."""
    table = table_create(evening=evening, players=players, series=series)
    n = len(players)
    todo = [(seat, m, w) for seat, games in results.items() for m, w in games]
    records: list[dict[str, Any]] = []
    dealer = 0
    while todo:
        active = active_seats(dealer % n, n)
        pick = next((item for item in todo if item[0] in active), None)
        if pick is None:
            records.append(PASSED)
        else:
            todo.remove(pick)
            records.append(game(pick[0], pick[1], pick[2]))
        dealer += 1
    play(table, *records)
    return table
