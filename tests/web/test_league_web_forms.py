"""The league secretary's forms (issue 25): each change through writes/league.py, then
back to the page (POST-redirect-GET); a refusal is the form's message on the page again, and
nothing is changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import (
    Evening,
    League,
    LeagueGroup,
    MatchDay,
    Membership,
    Player,
    RuleProfile,
    Scoring,
    Team,
    TeamPlayer,
)

from .factories import make_club, make_user
from .leagues import make_league, team

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def league() -> League:
    return make_league(make_club())


@pytest.fixture
def secretary(client: Client, league: League) -> Client:
    client.force_login(make_user(league.club, "admin"))
    return client


def _url(league: League) -> str:
    return reverse("scoring:league", args=[league.pk])


def _refused(response: TestResponse, message: str) -> str:
    page: str = response.content.decode()
    assert response.status_code == 200, page
    assert 'class="form-errors"' in page or 'class="errorlist"' in page
    assert message in page, page
    return page


def test_a_league_is_created_under_a_seeger_fabian_profile(client: Client) -> None:
    club = make_club()
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:leagues", args=[club.slug])
    page = client.get(url).content.decode()
    offered = RuleProfile.objects.filter(club=club, scoring=Scoring.SEEGER_FABIAN)
    assert offered.exists()
    for profile in RuleProfile.objects.filter(club=club):
        assert (f'<option value="{profile.pk}"' in page) == (profile in offered), profile.name
    other = RuleProfile.objects.filter(club=club).exclude(scoring=Scoring.SEEGER_FABIAN).first()
    assert other is not None
    data = {"name": "Kreisliga", "season": "2026/27", "profile": other.pk,
            "series_per_day": 4, "series_rounds": 12, "binding_days": 14, "public": "on"}
    _refused(client.post(url, data), "Select a valid choice")
    assert not League.objects.exists()
    data["profile"] = offered[0].pk
    response = client.post(url, data)
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == _url(league)
    assert (league.name, league.season, league.series_per_day, league.public) == (
        "Kreisliga", "2026/27", 4, True)
    # the same name and season again: the writes refuse, the form says so
    _refused(client.post(url, data), "already exists")
    assert League.objects.count() == 1


def test_settings_are_saved_and_a_bad_value_is_refused(secretary: Client,
                                                       league: League) -> None:
    response = secretary.post(_url(league), {"action": "settings", "series_per_day": 4,
                                             "binding_days": 7, "public": "on"})
    assert response.status_code == 302
    assert response["Location"] == _url(league) + "#settings"
    league.refresh_from_db()
    assert (league.series_per_day, league.binding_days, league.public) == (4, 7, True)
    page = secretary.get(_url(league)).content.decode()
    assert "saved" in page
    assert reverse("scoring:league-public", args=[league.board_key]) in page
    _refused(secretary.post(_url(league), {"action": "settings", "series_per_day": 4,
                                           "binding_days": 400}), "less than or equal to 365")
    league.refresh_from_db()
    assert (league.binding_days, league.public) == (7, True)


def test_a_group_is_added_and_a_second_of_the_same_name_refused(secretary: Client,
                                                                league: League) -> None:
    assert secretary.post(_url(league), {"action": "group", "name": "Staffel B"}
                          ).status_code == 302
    assert sorted(league.groups.values_list("name", flat=True)) == ["Staffel A", "Staffel B"]
    _refused(secretary.post(_url(league), {"action": "group", "name": "Staffel B"}),
             "already exists")
    assert league.groups.count() == 2


def test_a_team_from_a_club_of_the_site_or_a_guest_club(secretary: Client,
                                                        league: League) -> None:
    group = league.groups.get()
    other = make_club("zeitz", "SV Zeitz")
    # a club of the site comes in with its consent: the secretary is one of its admins
    Membership.objects.create(user=_secretary(league), club=other, role="admin")
    post = {"action": "team", "group": group.pk}
    assert secretary.post(_url(league), {**post, "name": "Zeitz 1", "club": other.pk}
                          ).status_code == 302
    assert secretary.post(_url(league), {**post, "name": "Gäste", "club_name": "SC Gera"}
                          ).status_code == 302
    made = {t.name: (t.club, t.club_name) for t in group.teams.all()}
    assert made["Zeitz 1"] == (other, "SV Zeitz")
    assert made["Gäste"] == (None, "SC Gera")
    _refused(secretary.post(_url(league), {**post, "name": "Niemand"}),
             "Choose a club of the site or give the guest club&#x27;s name.")
    _refused(secretary.post(_url(league), {**post, "name": "Herz As", "club_name": "X"}),
             "already exists")
    assert group.teams.count() == 6


def _secretary(league: League) -> User:
    return get_user_model().objects.get(username=f"admin-{league.club.slug}")


def test_only_clubs_the_secretary_administers_are_offered_and_attached(
        secretary: Client, league: League) -> None:
    """Issue 36: the team form listed every club of the site and attached any of them
    without its consent. Offered: the clubs the secretary is an admin of, and a guest club by
    name; another club's pk posted is refused with a message, and nothing changes."""
    group = league.groups.get()
    mine = make_club("zeitz", "SV Zeitz")
    Membership.objects.create(user=_secretary(league), club=mine, role="admin")
    scorer_of = make_club("gera", "SC Gera")
    Membership.objects.create(user=_secretary(league), club=scorer_of, role="scorer")
    stranger = make_club("zwickau", "Skatclub Zwickau")
    page = secretary.get(_url(league)).content.decode()
    form = page[page.index(f'id="id_t{group.pk}_club"'):]
    form = form[:form.index("</select>")]
    assert "SV Zeitz" in form and league.club.name in form
    assert "SC Gera" not in form and "Skatclub Zwickau" not in form
    before = group.teams.count()
    league.refresh_from_db()
    version = league.version
    for club in (scorer_of, stranger):
        _refused(secretary.post(_url(league), {"action": "team", "group": group.pk,
                                               "name": "Fremd", "club": club.pk}),
                 "You can add a club of the site only if you are one of its admins")
    assert group.teams.count() == before
    league.refresh_from_db()
    assert league.version == version
    assert secretary.post(_url(league), {"action": "team", "group": group.pk,
                                         "name": "Zeitz 1", "club": mine.pk}).status_code == 302
    assert group.teams.get(name="Zeitz 1").club == mine


def test_the_team_service_refuses_a_club_without_its_consent(league: League) -> None:
    from django.core.exceptions import ValidationError

    from scoring.writes import league as lw

    group = league.groups.get()
    stranger = make_club("zwickau", "Skatclub Zwickau")
    with pytest.raises(ValidationError):
        lw.team_create(group=group, name="Fremd", club=stranger,
                       by=make_user(league.club, "admin"))
    assert not group.teams.filter(name="Fremd").exists()


def test_players_are_added_by_name_or_from_the_club_and_changed(secretary: Client,
                                                                league: League) -> None:
    herz, grand = team(league, "Herz As"), team(league, "Grand Hand")
    member = Player.objects.filter(club=league.club, guest=False).first()
    assert member is not None
    players = Player.objects.count()
    # position 2 is Bernd's: refused, and no guest player is left behind
    _refused(secretary.post(_url(league), {"action": "player", "team": herz.pk,
                                           "name": "Ute Neu", "position": 2}),
             "Position 2 is taken.")
    assert Player.objects.count() == players
    _refused(secretary.post(_url(league), {"action": "player", "team": grand.pk,
                                           "name": "Anna Herz"}),
             "Anna Herz plays for Herz As already.")
    assert not grand.players.filter(player__name="Anna Herz").exists()
    assert secretary.post(_url(league), {"action": "player", "team": herz.pk,
                                         "name": "Ute Neu"}).status_code == 302
    assert secretary.post(_url(league), {"action": "player", "team": grand.pk,
                                         "member": member.pk}).status_code == 302
    assert herz.players.get(player__name="Ute Neu").position is None
    assert grand.players.filter(player=member).exists()
    # Emil Herz, a substitute, becomes the captain; position 1 is Anna's
    emil = herz.players.get(player__name="Emil Herz")
    _refused(secretary.post(_url(league), {"action": "set", "member": emil.pk, "position": 1,
                                           "captain": "on"}), "Position 1 is taken.")
    assert herz.players.get(captain=True).player.name == "Anna Herz"
    response = secretary.post(_url(league), {"action": "set", "member": emil.pk,
                                             "position": "", "captain": "on"})
    assert response.status_code == 302 and response["Location"].endswith(f"#set-{emil.pk}")
    assert herz.players.get(captain=True).player.name == "Emil Herz"


def test_a_match_day_meets_every_team_by_default(secretary: Client, league: League) -> None:
    group = league.groups.get()
    teams = list(group.teams.order_by("name"))
    date = timezone.localdate()
    evenings = Evening.objects.count()
    _refused(secretary.post(_url(league), {
        "action": "day", "group": group.pk, "date": date.isoformat(),
        "teams": [teams[0].pk, teams[1].pk]}), "A match day needs at least 3 teams.")
    assert not MatchDay.objects.exists() and Evening.objects.count() == evenings
    form = secretary.get(_url(league)).content.decode()
    assert form.count('name="teams"') == 4 and form.count('name="teams" value=') == 4
    assert secretary.post(_url(league), {
        "action": "day", "group": group.pk, "date": date.isoformat(), "host": teams[1].pk,
        "venue": "Vereinsheim", "teams": [t.pk for t in teams]}).status_code == 302
    day = MatchDay.objects.get()
    assert (day.number, day.host, day.venue) == (1, teams[1], "Vereinsheim")
    assert set(day.teams.all()) == set(teams)
    page = secretary.get(_url(league)).content.decode()
    assert reverse("scoring:match-day", args=[day.pk]) in page
    # match day 1 again, at another place: its teams meet there already
    _refused(secretary.post(_url(league), {
        "action": "day", "group": group.pk, "date": date.isoformat(), "number": 1,
        "teams": [t.pk for t in teams[1:]]}), "meets elsewhere on match day 1 already")
    assert MatchDay.objects.count() == 1
    assert secretary.post(_url(league), {
        "action": "day", "group": group.pk, "date": date.isoformat(),
        "teams": [t.pk for t in teams[1:]]}).status_code == 302
    assert sorted(MatchDay.objects.values_list("number", flat=True)) == [1, 2]


def test_a_form_for_something_of_another_league_is_404(secretary: Client,
                                                       league: League) -> None:
    other = make_league(make_club("zeitz", "SV Zeitz"))
    group = LeagueGroup.objects.get(league=other)
    assert secretary.post(_url(league), {"action": "team", "group": group.pk, "name": "X",
                                         "club_name": "Y"}).status_code == 404
    tp = TeamPlayer.objects.filter(team__group__league=other).first()
    assert tp is not None
    assert secretary.post(_url(league), {"action": "set", "member": tp.pk}).status_code == 404
    assert secretary.post(_url(league), {"action": "nonsense"}).status_code == 404
    assert Team.objects.filter(name="X").count() == 0
