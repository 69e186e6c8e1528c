"""Builders for tournament tests: a Preisskat of 13 at a club, and deals for its tables."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.utils import timezone

from scoring.engine import generate_deals
from scoring.models import Club, RuleProfile, Table, Tournament
from scoring.presets import PRESETS
from scoring.writes import tournament as tw
from scoring.writes.services import Actor, deal_record

GUESTS = ["Gustav Gast", "Hilde Heim", "Ida Ivens", "Jens Jahn", "Karl Kurz", "Lena Lang",
          "Max Moll"]


def make_tournament(club: Club, *, players: int = 13, series: int = 2, rounds: int = 1,
                    date: datetime.date | None = None, public: bool = False,
                    reseat: str = "draw", prizes: list[str] | None = None) -> Tournament:
    """A Preisskat under the ISkO tournament profile, entry fee 10 €, lost-game fee 0.50 €
    rising to 1 € from the 4th lost game, passed deals 0.50 €; ``rounds`` per series (1:
    4 games at a 4-table, 3 at a 3-table, to keep tests short); the club's players and then
    guests registered and checked in, all paid, two categories, teams and tandems."""
    profile = RuleProfile.objects.get(club=club, name=PRESETS["isko_tournament"]["name"])
    tournament = tw.tournament_create(
        club=club, name="Preisskat", date=date or timezone.localdate(), profile=profile,
        series_count=series, series_rounds=rounds, entry_fee=Decimal("10.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=Decimal("1.00"),
                                     lost_fee_from=4, passed_fee=Decimal("0.50")),
        categories=["Damen", "Senioren"], team_fee=Decimal("20.00"),
        tandem_fee=Decimal("8.00"), reseat=reseat, tie_rule="won",
        prizes=prizes if prizes is not None else ["50%", "30%", "10.00"], public=public)
    members = list(club.players.filter(guest=False).order_by("name"))
    for index in range(players):
        member = members[index] if index < len(members) else None
        name = "" if member else GUESTS[index - len(members)]
        tw.entrant_register(
            tournament=tournament, member=member, name=name,
            home_club="" if member else "SC Gast",
            category="Damen" if index % 5 == 0 else "", team=f"Team {index // 4 + 1}"
            if index < 12 else "", tandem=f"Tandem {index // 2 + 1}" if index < 12 else "",
            paid=True, at_door=True)
    return tournament


def fill_series(tournament: Tournament, series: int, *, seed: int = 3,
                leave: int = 0, sign: bool = True) -> None:
    """Record every table's deals of ``series`` through the services (``leave`` deals left
    out at each table); a table that has played its series is signed by its players
    (``sign``), as the next series is drawn only then (issue 23)."""
    actor = Actor(None, "test")
    for table in Table.objects.filter(evening=tournament.evening, series=series):
        seats = table.seats.count()
        length = tournament.evening.series_length(seats)
        assert length is not None
        done = table.deals.filter(deleted=False).count()
        records = generate_deals(length, seats, first_dealer=table.first_dealer,
                                 seed=seed + table.number)
        for record in records[done:length - leave]:
            fresh = Table.objects.get(pk=table.pk)
            deal_record(table=fresh, record=record, expected_version=fresh.version,
                        actor=actor)
        if sign and not leave:
            from scoring.writes.signing import sign as sign_list

            for seat in table.seats.all():
                sign_list(table=Table.objects.select_related("evening__club").get(
                    pk=table.pk), player_id=seat.player_id, actor=actor)
