"""Builders for team-league tests (issue 25): a league of four teams in one group, a match
day, line-ups, and the deals of a series played through the services."""

from __future__ import annotations

import datetime

from django.utils import timezone

from scoring.engine import generate_deals
from scoring.models import Club, League, MatchDay, RuleProfile, Table, Team
from scoring.presets import PRESETS
from scoring.writes import league as lw
from scoring.writes.services import Actor, deal_record
from scoring.writes.signing import sign as sign_list

TEAMS = {
    "Herz As": ["Anna Herz", "Bernd Herz", "Clara Herz", "Dieter Herz", "Emil Herz"],
    "Grand Hand": ["Frieda Grand", "Gero Grand", "Hanna Grand", "Ilse Grand"],
    "Kreuz Bube": ["Jonas Kreuz", "Karla Kreuz", "Lutz Kreuz", "Mia Kreuz"],
    "Pik Dame": ["Nora Pik", "Otto Pik", "Paula Pik", "Quirin Pik"],
}


def make_league(club: Club, *, teams: int = 4, rounds: int = 1, series: int = 3,
                public: bool = False, host_club: Club | None = None) -> League:
    """A league under the ISkO tournament profile with one group ("Staffel A") of ``teams``
    teams of four (Herz As has a fifth player, a substitute), each team's first player its
    captain; ``rounds`` per series (1: 4 games at a 4-table, to keep tests short). The first
    team is ``host_club``'s when given (its admins host the match days)."""
    profile = RuleProfile.objects.get(club=club, name=PRESETS["isko_tournament"]["name"])
    league = lw.league_create(club=club, name="Bezirksliga", season="2026", profile=profile,
                              series_per_day=series, series_rounds=rounds, public=public)
    group = lw.group_create(league=league, name="Staffel A")
    for index, (name, players) in enumerate(list(TEAMS.items())[:teams]):
        team = lw.team_create(group=group, name=name,
                              club=host_club if index == 0 else None,
                              club_name="" if index == 0 and host_club else f"SC {name}")
        for position, player in enumerate(players, start=1):
            lw.team_player_add(team=team, name=player,
                               position=position if position <= 4 else None,
                               captain=position == 1)
    return league


def make_day(league: League, *, date: datetime.date | None = None) -> MatchDay:
    """A match day of every team, hosted by the team of a club on the site (make_league's
    ``host_club``) where there is one, else by the first team by name."""
    group = league.groups.get()
    host = (group.teams.filter(club__isnull=False).first()
            or group.teams.order_by("name").first())
    return lw.match_day_create(group=group, date=date or timezone.localdate(), host=host,
                               venue="Vereinsheim")


def check_in(day: MatchDay, series: int = 1, *, short: str | None = None) -> None:
    """Every team's players at positions 1–4 checked in for ``series``; the team ``short``
    plays with three (position 4 empty)."""
    for team in day.teams.all():
        players = [tp.player for tp in team.players.filter(position__isnull=False)
                   .order_by("position")]
        if team.name == short:
            players = players[:3]
        lw.lineup_set(day=day, series=series, team=team, players=list(players))


def play_series(day: MatchDay, series: int, *, seed: int = 5, leave: int = 0,
                sign: bool = True) -> None:
    """Record every table's deals of ``series`` through the services (``leave`` deals left
    out at each table); a table that has played its series is signed by its players
    (``sign``), as the next series is seated only then."""
    actor = Actor(None, "test")
    for table in Table.objects.filter(evening=day.evening, series=series):
        seats = table.seats.count()
        length = day.evening.series_length(seats)
        assert length is not None
        done = table.deals.filter(deleted=False).count()
        records = generate_deals(length, seats, first_dealer=table.first_dealer,
                                 seed=seed + 10 * series + table.number)
        for record in records[done:length - leave]:
            fresh = Table.objects.get(pk=table.pk)
            deal_record(table=fresh, record=record, expected_version=fresh.version,
                        actor=actor)
        if sign and not leave:
            for seat in table.seats.all():
                sign_list(table=Table.objects.select_related("evening__club").get(
                    pk=table.pk), player_id=seat.player_id, actor=actor)


def play_day(day: MatchDay, *, seed: int = 5) -> None:
    """Every series of the day seated and played (the line-ups of series 1 as checked in)."""
    for series in range(1, day.group.league.series_per_day + 1):
        if series == 1 and not day.lineups.exists():
            check_in(day)
        lw.series_seat(day=day, seed=seed)
        play_series(day, series, seed=seed)


def team(league: League, name: str) -> Team:
    return Team.objects.get(group__league=league, name=name)
