"""The people of the league pages' tests (issue 25): the league secretary (an admin of the
league's club), a member of the league's club, the host (an admin of the club of the first
team, Herz As), a captain (the user of Frieda Grand, captain of Grand Hand, a member of no
club), a member of another club, and anonymous."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from scoring.models import Club, League, Player

from .factories import make_club, make_user
from .leagues import make_league


@dataclass
class People:
    club: Club
    league: League
    secretary: User
    member: User
    host: User
    captain: User
    stranger: User


def people(*, public: bool = False) -> People:
    club = make_club()
    host_club = make_club("borna", "Skatclub Borna")
    league = make_league(club, host_club=host_club, public=public)
    captain = get_user_model().objects.create_user(username="frieda", password="pw-for-tests")
    Player.objects.filter(club=club, name="Frieda Grand").update(user=captain)
    return People(
        club=club, league=league, secretary=make_user(club, "admin"),
        member=make_user(club, "viewer"), host=make_user(host_club, "admin"),
        captain=captain, stranger=make_user(make_club("zeitz", "SV Zeitz"), "admin"))
