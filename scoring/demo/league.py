"""The demo club's team league (issue 25): a Bezirksliga group of four teams (the demo club's
own and three guest clubs'), a match day played a week ago with its three series, and
today's match day with series 1 seated and under way, so the desk, the live numbers and the
tables can be tried.

Every seat and deal goes through the same services a host's desk and a tablet use."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from scoring.engine import generate_deals
from scoring.models import Club, MatchDay, Player, RuleProfile, Table
from scoring.writes import league as lw
from scoring.writes.services import Actor, deal_record
from scoring.writes.signing import sign

__all__ = ["build_demo_league"]

GUEST_TEAMS = {
    "Grand Hand Gößnitz": ["Rainer Sommer", "Petra Lange", "Uwe Kranz", "Sabine Vogt"],
    "Kreuz Bube Meuselwitz": ["Dieter Hahn", "Monika Ebert", "Frank Zöllner", "Ilona Kühn",
                              "Werner Pohl"],
    "Pik As Schmölln": ["Gisela Brandt", "Horst Wendt", "Karin Seidel", "Lothar Fuchs"],
}


@transaction.atomic
def build_demo_league(club: Club) -> None:
    """The league of the demo club (``manage.py demo`` made it): its ISkO tournament profile,
    its first four players its own team (the first the captain)."""
    user = club.memberships.get(role="admin").user
    actor = Actor(user, user.get_username())
    profile = RuleProfile.objects.filter(club=club, scoring="seeger_fabian").order_by("pk")[0]
    players = list(Player.objects.filter(club=club, guest=False).order_by("pk")[:4])
    league = lw.league_create(club=club, name="Bezirksliga Ostthüringen",
                              season=str(timezone.localdate().year), profile=profile,
                              series_per_day=3, series_rounds=12, public=True)
    group = lw.group_create(league=league, name="Staffel 1")
    own = lw.team_create(group=group, name="Skatfreunde Altenburg", club=club)
    for position, player in enumerate(players[:4], start=1):
        lw.team_player_add(team=own, member=player, position=position,
                           captain=position == 1)
    for name, members in GUEST_TEAMS.items():
        team = lw.team_create(group=group, name=name, club_name=name)
        for position, member in enumerate(members, start=1):
            lw.team_player_add(team=team, name=member,
                               position=position if position <= 4 else None,
                               captain=position == 1)
    today = timezone.localdate()
    played = lw.match_day_create(group=group, date=today - datetime.timedelta(days=7),
                                 host=own, venue="Vereinsheim Altenburg")
    for series in (1, 2, 3):
        if series == 1:
            _check_in(played)
        lw.series_seat(day=played, seed=100 + series)
        _play(played, series, actor, leave=0)
    for team in played.teams.all():
        lw.report_sign(day=played, team=team)
    running = lw.match_day_create(group=group, date=today,
                                  host=group.teams.get(name="Pik As Schmölln"),
                                  venue="Gasthof Schmölln")
    _check_in(running)
    lw.series_seat(day=running, seed=7)
    _play(running, 1, actor, leave=20)


def _check_in(day: MatchDay) -> None:
    for team in day.teams.all():
        players = [tp.player for tp in team.players.filter(position__isnull=False)
                   .order_by("position")]
        lw.lineup_set(day=day, series=1, team=team, players=list(players))


def _play(day: MatchDay, series: int, actor: Actor, *, leave: int) -> None:
    """Every table of the series: its games through the table screen's service, ``leave``
    short of the series' end."""
    for table in Table.objects.filter(evening=day.evening, series=series):
        seats = table.seats.count()
        length = day.evening.series_length(seats) or 0
        records = generate_deals(length, seats, "isko", day.evening.options,
                                 first_dealer=table.first_dealer,
                                 seed=1000 * day.number + 10 * series + table.number)
        for version, record in enumerate(records[:length - leave]):
            deal_record(table=table, record=record, expected_version=version, actor=actor)
        if not leave:  # the players sign their list on the tablet
            for seat in table.seats.all():
                sign(table=table, player_id=seat.player_id, actor=actor)
