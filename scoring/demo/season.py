"""A realistic played season for demos and benchmarks, generated through the engine.

A league club meets weekly: its regulars come most evenings, others now and then, so the
number of players changes from evening to evening (tables of 4, a 3-table or three when the
count needs them). The first series of each evening is drawn by lot and every further one is
seeded by the results, through the same services the organiser's pages use. The deals come
from ``demo.generate_deals``, which follows the round tracker, so every table is valid; they are
written in bulk (with their audit entries) and each table is scored once by the engine before
it is saved. Everything is reproducible from the seed.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scoring.demo.user import demo_admin
from scoring.engine import evaluate_table, generate_deals
from scoring.models import (
    AuditEntry,
    Club,
    Deal,
    Evening,
    Player,
    RuleProfile,
    Season,
    Table,
)
from scoring.reads.sheet import table_document
from scoring.writes import scores
from scoring.writes.onboarding import DEMO_SEASON_SLUG as SLUG
from scoring.writes.services import evening_create, series_draw, series_seed

CLUB_NAME = "Skatclub Grand Hand (Demo-Saison)"
PROFILE = {"name": "Liga (ISkO, Seeger-Fabian)", "rules": "isko", "options": {},
           "scoring": "seeger_fabian", "stake": Decimal("0.01"), "currency": "EUR",
           "settlement": {"lost_game_fee": "0.50"}}
FIRST_NAMES = [
    "Jürgen", "Käthe", "Björn", "Özlem", "Ludwig", "Grete", "Heinz", "Anneliese", "Dieter",
    "Ingrid", "Manfred", "Ursula", "Wolfgang", "Renate", "Klaus", "Helga", "Günter", "Monika",
    "Horst", "Brigitte", "Uwe", "Gisela", "Rüdiger", "Erika", "Bernd", "Sabine", "Frank",
    "Petra", "Jörg", "Karin", "Ralf", "Heike", "Thomas", "Doris", "Michael", "Elke", "Andreas",
    "Birgit", "Stefan", "Jutta", "Holger", "Marlies", "Detlef", "Gerda", "Olaf", "Hannelore",
    "Rainer", "Christa", "Volker", "Waltraud", "Norbert", "Bärbel", "Siegfried", "Irmgard",
]
INITIALS = "ABDEFGHKLMNPRSTWZ"


def roster(size: int) -> list[str]:
    """``size`` distinct names: "Jürgen A.", "Käthe B." …"""
    names = []
    for index in range(size):
        first = FIRST_NAMES[index % len(FIRST_NAMES)]
        initial = INITIALS[(index // len(FIRST_NAMES) + index) % len(INITIALS)]
        names.append(f"{first} {initial}.")
    return names


def attendance(rng: random.Random, regulars: int, roster_size: int, tables: int,
               ) -> tuple[int, list[int]]:
    """How many come tonight (as many 4-tables as ``tables``, now and then a 3-table or
    three), and who: the regulars are likelier to come than the others."""
    count = min(roster_size, 4 * tables - rng.choice([0, 0, 0, 1, 2, 3]))
    if count < 3 or count == 5:
        count = min(roster_size, 4 * tables)
    weights = [6.0 if i < regulars else 1.5 for i in range(roster_size)]
    chosen: list[int] = []
    pool = list(range(roster_size))
    while len(chosen) < count:
        pick = rng.choices(pool, [weights[i] for i in pool])[0]
        pool.remove(pick)
        chosen.append(pick)
    return count, chosen


def _play_table(table: Table, evening: Evening, rng: random.Random, actor: str) -> int:
    """Fill the table's series with generated deals; returns how many."""
    seats = len(table.seats.all())
    length = evening.series_length(seats) or 12 * seats
    records = generate_deals(length, seats, evening.rules, evening.options,
                             first_dealer=table.first_dealer, seed=rng.randrange(2**31))
    evaluate_table(table_document(table, records))  # valid, as the service would check
    deals = Deal.objects.bulk_create(
        Deal(table=table, position=i, record=r) for i, r in enumerate(records, start=1))
    AuditEntry.objects.bulk_create(
        AuditEntry(evening=evening, table=table, deal=deal, action=AuditEntry.Action.CREATE,
                   actor=actor, after=deal.record) for deal in deals)
    Table.objects.filter(pk=table.pk).update(version=F("version") + len(deals))
    return len(deals)


def _tables_of(evening: Evening, series: int) -> list[Table]:
    return list(evening.tables.filter(series=series).prefetch_related("seats__player")
                .select_related("evening").order_by("number"))


@transaction.atomic
def build_season(*, evenings: int, tables: int, series: int = 1, seed: int = 1,
                 today: datetime.date | None = None,
                 progress: Callable[[str], Any] | None = None) -> Season:
    """The demo club's season: ``evenings`` weekly evenings of about ``tables`` tables and
    ``series`` series each, the last one on the latest Friday up to ``today``."""
    rng = random.Random(seed)
    Club.objects.filter(slug=SLUG).delete()
    club = Club.objects.create(slug=SLUG, name=CLUB_NAME, language="de")
    profile = RuleProfile.objects.create(club=club, **PROFILE)
    size = 4 * tables + max(2, tables)
    players = Player.objects.bulk_create(Player(club=club, name=n) for n in roster(size))
    demo_admin(club)
    today = today or timezone.localdate()
    last = today - datetime.timedelta(days=(today.weekday() - 4) % 7)  # the latest Friday
    dates = [last - datetime.timedelta(weeks=evenings - 1 - i) for i in range(evenings)]
    first, final = (dates[0], dates[-1]) if dates else (today, today)
    years = (f"{first.year}" if first.year == final.year
             else f"{first.year}/{str(final.year)[2:]}")
    season = Season.objects.create(
        club=club, name=years,
        start=first, end=final,
        evaluation=Season.Evaluation.SEEGER_FABIAN,
        best_of=max(1, evenings * 3 // 4) if evenings >= 4 else None,
        min_evenings=max(1, evenings // 4), series_rounds=12)
    deals = 0
    for number, date in enumerate(dates, start=1):
        evening = evening_create(club=club, date=date, profile=profile, name="Ligaabend",
                                 season=season)
        _count, chosen = attendance(rng, 4 * tables, size, tables)
        series_draw(evening=evening, players=[players[i] for i in chosen], rng=rng)
        for current in range(1, series + 1):
            if current > 1:
                series_seed(evening=evening, rng=rng)
            for table in _tables_of(evening, current):
                deals += _play_table(table, evening, rng, "demo_season")
        if progress is not None:
            progress(f"evening {number}/{evenings} ({date}): {deals} deals so far")
    scores.rebuild(Table.objects.filter(evening__season=season))
    return season
