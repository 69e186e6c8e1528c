"""The match-day page (issue 25, views/league_day.py): who may see it, who may use the desk
and sign, the desk's refusals, the polled numbers equal to reads.league's and a constant
number of queries."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Lineup, MatchDay, MatchSeries, Player, ReportSignature
from scoring.writes import league as lw

from .factories import make_club, make_user
from .leagues import check_in, make_day, make_league, play_day, play_series, team

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@dataclass
class World:
    day: MatchDay
    secretary: User
    host: User
    captain: User
    stranger: User
    member: User


def _world(*, date: datetime.date | None = None, series: int = 3) -> World:
    club = make_club()
    host_club = make_club("gastgeber", "SC Gastgeber")
    league = make_league(club, host_club=host_club, series=series)
    day = make_day(league, date=date)
    # the host club's team hosts (make_day takes the first team by name)
    MatchDay.objects.filter(pk=day.pk).update(host=team(league, "Herz As"))
    day.refresh_from_db()
    captain = make_user(make_club("kreuz", "SC Kreuz"), "viewer", username="captain")
    Player.objects.filter(name="Jonas Kreuz").update(user=captain)  # Kreuz Bube's captain
    captain.memberships.all().delete()  # a captain reads the league as its captain only
    return World(day, make_user(club, "admin", "secretary"),
                 make_user(host_club, "admin", "host-admin"), captain,
                 make_user(make_club("fremd", "SC Fremd"), "admin", "stranger"),
                 make_user(club, "viewer", "member"))


def _as(client: Client, user: User | None) -> Client:
    if user is not None:
        client.force_login(user)
    return client


def _url(name: str, day: MatchDay) -> str:
    return reverse(f"scoring:{name}", args=[day.pk])


# ---------------------------------------------------------------- who may see what


@pytest.mark.parametrize(("who", "status", "desk"), [
    ("secretary", 200, True), ("host", 200, True), ("captain", 200, False),
    ("member", 200, False), ("stranger", 404, False)])
def test_the_page_and_its_numbers_for_each_role(client: Client, who: str, status: int,
                                                desk: bool) -> None:
    world = _world()
    _as(client, getattr(world, who))
    page = client.get(_url("match-day", world.day))
    assert page.status_code == status
    assert client.get(_url("match-day-numbers", world.day)).status_code == status
    if status == 200:
        html = page.content.decode()
        assert ('id="desk"' in html) is desk
        assert "Match day 1" in html and "Vereinsheim" in html and "Binding from" in html


@pytest.mark.parametrize("name", ["match-day", "match-day-numbers"])
def test_anonymous_visitors_are_sent_to_sign_in(client: Client, name: str) -> None:
    world = _world()
    answer = client.get(_url(name, world.day))
    assert answer.status_code == 302 and reverse("login") in answer["Location"]


def _lineup_post(world: World, series: int = 1) -> dict[str, str]:
    herz = team(world.day.group.league, "Herz As")
    players = [tp.player for tp in herz.players.filter(position__isnull=False)
               .order_by("position")]
    return {"team": str(herz.pk), "series": str(series),
            **{f"team{herz.pk}-position_{n}": str(p.pk) for n, p in enumerate(players, 1)}}


@pytest.mark.parametrize(("who", "status"), [
    ("secretary", 302), ("host", 302), ("captain", 403), ("member", 403),
    ("stranger", 404), (None, 302)])
def test_the_desk_posts_for_each_role(client: Client, who: str | None, status: int) -> None:
    world = _world()
    _as(client, getattr(world, who) if who else None)
    answer = client.post(_url("match-day-lineup", world.day), _lineup_post(world))
    assert answer.status_code == status
    assert Lineup.objects.exists() is (status == 302 and who is not None)
    if who is None:
        assert reverse("login") in answer["Location"]
    check_in(world.day)
    answer = client.post(_url("match-day-seat", world.day), {"seed": "3"})
    assert answer.status_code == status
    assert MatchSeries.objects.exists() is (status == 302 and who is not None)


def test_the_host_loses_the_desk_once_the_results_are_binding(client: Client) -> None:
    world = _world(date=timezone.localdate() - datetime.timedelta(days=14))
    _as(client, world.host)
    page = client.get(_url("match-day", world.day)).content.decode()
    assert 'id="desk"' not in page and "Binding since" in page
    assert client.post(_url("match-day-lineup", world.day),
                       _lineup_post(world)).status_code == 403
    assert client.post(_url("match-day-seat", world.day)).status_code == 403
    assert not Lineup.objects.exists()
    # the league secretary keeps it
    _as(client, world.secretary)
    assert 'id="desk"' in client.get(_url("match-day", world.day)).content.decode()
    assert client.post(_url("match-day-lineup", world.day),
                       _lineup_post(world)).status_code == 302
    assert Lineup.objects.count() == 4


# ---------------------------------------------------------------- the desk at work


def test_checking_in_and_seating_through_the_page(client: Client) -> None:
    world = _world()
    _as(client, world.host)
    day = world.day
    for t in day.teams.all():
        players = [tp.player for tp in t.players.filter(position__isnull=False)
                   .order_by("position")]
        data = {"team": str(t.pk), "series": "1",
                **{f"team{t.pk}-position_{n}": str(p.pk) for n, p in enumerate(players, 1)}}
        if t.name == "Pik Dame":
            data[f"team{t.pk}-position_4"] = ""  # a team may start with three
        answer = client.post(_url("match-day-lineup", day), data, follow=True)
        assert f"The line-up of {t.name} for series 1 is checked in." in \
            answer.content.decode()
    assert Lineup.objects.filter(series=1).count() == 15
    answer = client.post(_url("match-day-seat", day), {"seed": "7"}, follow=True)
    html = answer.content.decode()
    assert "Series 1 is seated (seed 7)" in html
    tables = list(day.evening.tables.order_by("number"))
    assert len(tables) == 4
    for table in tables:  # each table's code and the link to its screen
        assert table.access_code[:4] in html
        assert reverse("scoring:code", args=[table.access_code]) in html
    assert "Seat series 2" in html and "Line-ups for series 2" in html
    cards = client.get(_url("match-day-codes", day)).content.decode()
    for table in tables:  # the table cards of the day, for the host too
        assert f"{table.access_code[:4]}-{table.access_code[4:]}" in cards


@pytest.mark.parametrize(("who", "status"), [
    ("secretary", 200), ("host", 200), ("captain", 403), ("member", 403),
    ("stranger", 404), (None, 302)])
def test_the_table_cards_for_each_role(client: Client, who: str | None, status: int) -> None:
    world = _world()
    check_in(world.day)
    lw.series_seat(day=world.day)
    _as(client, getattr(world, who) if who else None)
    answer = client.get(_url("match-day-codes", world.day))
    assert answer.status_code == status
    if status == 200:
        code = world.day.evening.tables.first().access_code  # type: ignore[union-attr]
        assert f"{code[:4]}-{code[4:]}" in answer.content.decode()


@pytest.mark.parametrize(("change", "message"), [
    ({"position_3": "", "position_4": ""}, "three or four players"),
    ({"position_2": "same-as-1"}, "A player can play at one position only."),
    ({"position_1": "stranger"}, "Select a valid choice"),  # not among the choices
    ({"position_1": "999999"}, "Select a valid choice"),
])
def test_line_up_refusals_are_shown_and_nothing_is_saved(client: Client, change: dict[str, str],
                                                         message: str) -> None:
    world = _world()
    _as(client, world.host)
    data = _lineup_post(world)
    herz = team(world.day.group.league, "Herz As")
    for key, value in change.items():
        if value == "same-as-1":
            value = data[f"team{herz.pk}-position_1"]
        elif value == "stranger":
            value = str(Player.objects.get(name="Frieda Grand").pk)
        data[f"team{herz.pk}-{key}"] = value
    answer = client.post(_url("match-day-lineup", world.day), data, follow=True)
    assert message in answer.content.decode()
    assert not Lineup.objects.exists()


def test_seating_refusals_are_shown(client: Client) -> None:
    world = _world()
    _as(client, world.secretary)
    answer = client.post(_url("match-day-seat", world.day), {}, follow=True)
    assert "Check in the line-ups of series 1 first." in answer.content.decode()
    answer = client.post(_url("match-day-seat", world.day), {"seed": "-1"}, follow=True)
    assert "greater than or equal to 0" in answer.content.decode()
    assert not MatchSeries.objects.exists()


# ---------------------------------------------------------------- signatures


def _played() -> World:
    world = _world()
    play_day(world.day)
    return world


def test_signatures_wait_until_every_series_is_played(client: Client) -> None:
    world = _world()
    check_in(world.day)
    lw.series_seat(day=world.day)
    play_series(world.day, 1)
    _as(client, world.host)
    html = client.get(_url("match-day", world.day)).content.decode()
    assert "The captains sign the report when every series is played." in html
    assert 'name="where"' not in html
    kreuz = team(world.day.group.league, "Kreuz Bube")
    answer = client.post(_url("match-day-sign", world.day),
                         {"team": kreuz.pk, "where": "tablet"}, follow=True)
    assert "The report is signed when every series is played." in answer.content.decode()
    assert not ReportSignature.objects.exists()


def test_the_desk_signs_on_the_tablet_and_a_captain_with_his_account(client: Client) -> None:
    world = _played()
    league = world.day.group.league
    herz, kreuz = team(league, "Herz As"), team(league, "Kreuz Bube")
    _as(client, world.host)
    html = client.get(_url("match-day", world.day)).content.decode()
    assert "Signed by Anna Herz" in html and "Signed by Jonas Kreuz" in html
    answer = client.post(_url("match-day-sign", world.day),
                         {"team": herz.pk, "where": "tablet"}, follow=True)
    assert "Herz As: signed by Anna Herz." in answer.content.decode()
    signature = ReportSignature.objects.get()
    assert signature.where == "tablet" and signature.name == "Anna Herz"
    # the captain signs for his own team, not for another
    _as(client, world.captain)
    html = client.get(_url("match-day", world.day)).content.decode()
    assert "Sign for Kreuz Bube" in html and "Signed by Jonas Kreuz" not in html
    grand = team(league, "Grand Hand")
    assert client.post(_url("match-day-sign", world.day),
                       {"team": grand.pk, "where": "account"}).status_code == 403
    assert client.post(_url("match-day-sign", world.day),
                       {"team": kreuz.pk, "where": "tablet"}).status_code == 403
    client.post(_url("match-day-sign", world.day), {"team": kreuz.pk, "where": "account"})
    signed = ReportSignature.objects.get(team=kreuz)
    assert signed.where == "account" and signed.user == world.captain


@pytest.mark.parametrize(("who", "where", "status"), [
    ("member", "tablet", 403), ("member", "account", 403), ("stranger", "tablet", 404),
    (None, "tablet", 302)])
def test_others_cannot_sign(client: Client, who: str | None, where: str, status: int) -> None:
    world = _played()
    _as(client, getattr(world, who) if who else None)
    kreuz = team(world.day.group.league, "Kreuz Bube")
    answer = client.post(_url("match-day-sign", world.day), {"team": kreuz.pk, "where": where})
    assert answer.status_code == status
    assert not ReportSignature.objects.exists()


def test_the_host_cannot_sign_on_the_tablet_once_binding(client: Client) -> None:
    world = _played()
    MatchDay.objects.filter(pk=world.day.pk).update(
        date=timezone.localdate() - datetime.timedelta(days=20))
    _as(client, world.host)
    kreuz = team(world.day.group.league, "Kreuz Bube")
    assert client.post(_url("match-day-sign", world.day),
                       {"team": kreuz.pk, "where": "tablet"}).status_code == 403
    assert not ReportSignature.objects.exists()



def test_a_substitute_comes_in_for_series_2_on_the_page(client: Client) -> None:
    world = _world()
    day = world.day
    check_in(day)
    lw.series_seat(day=day, seed=1)
    play_series(day, 1)
    _as(client, world.host)
    herz = team(day.group.league, "Herz As")
    anna, emil = (Player.objects.get(name=n) for n in ("Anna Herz", "Emil Herz"))
    html = client.get(_url("match-day", day)).content.decode()
    # series 2's form starts from series 1's players; the substitute is a choice
    assert "Line-ups for series 2" in html
    assert f'<option value="{anna.pk}" selected>Anna Herz</option>' in html
    assert f'<option value="{emil.pk}">Emil Herz</option>' in html
    data = _lineup_post(world, series=2)
    data[f"team{herz.pk}-position_1"] = str(emil.pk)
    client.post(_url("match-day-lineup", day), data)
    assert list(Lineup.objects.filter(match_day=day, series=2, team=herz).order_by(
        "position").values_list("player__name", flat=True))[0] == "Emil Herz"
    answer = client.post(_url("match-day-seat", day), {"seed": "2"}, follow=True)
    assert "Series 2 is seated (seed 2)" in answer.content.decode()
    seated = set(day.evening.tables.filter(series=2).values_list("seats__player__name",
                                                                 flat=True))
    assert "Emil Herz" in seated and "Anna Herz" not in seated


def test_only_the_secretary_gets_the_lists_to_correct_and_the_audit_log(client: Client) -> None:
    """A result is corrected where it was recorded, on the table's list, with a reason the
    audit log keeps: the desk links each table's list and the day's audit log for the league
    secretary (a club admin of the evening's club); the host's admins of another club have
    neither page."""
    world = _world()
    check_in(world.day)
    lw.series_seat(day=world.day)
    table = world.day.evening.tables.get(number=1)
    page = _as(client, world.secretary).get(_url("match-day", world.day)).content.decode()
    assert reverse("scoring:sheet", args=[table.pk]) in page
    assert reverse("scoring:evening-audit", args=[world.day.evening.pk]) in page
    client.logout()
    page = _as(client, world.host).get(_url("match-day", world.day)).content.decode()
    assert 'id="desk"' in page and reverse("scoring:sheet", args=[table.pk]) not in page
    assert client.get(reverse("scoring:sheet", args=[table.pk])).status_code == 404


def test_a_signature_given_before_a_correction_is_to_be_given_again(client: Client) -> None:
    from scoring.models import Table
    from scoring.writes.services import Actor, deal_delete
    from scoring.writes.signing import sign

    world = _world()
    play_day(world.day)
    herz = team(world.day.group.league, "Herz As")
    lw.report_sign(day=world.day, team=herz)
    table = Table.objects.filter(evening=world.day.evening).order_by("series", "number")[0]
    last = table.deals.order_by("-position")[0]
    deal_delete(deal=last, reason="double entry", expected_version=table.version,
                actor=Actor(None, "secretary", admin=True))
    play_series(world.day, table.series, sign=False)  # recorded again
    for seat in table.seats.all():
        sign(table=Table.objects.select_related("evening__club").get(pk=table.pk),
             player_id=seat.player_id, actor=Actor(None, "test"))
    page = _as(client, world.secretary).get(_url("match-day", world.day)).content.decode()
    mark = page.index(f'id="signature-team-{herz.pk}"')
    row = page[mark:page.index("</li>", mark)]
    assert "signed before a deal was corrected: to be signed again" in row
    assert "Signed by Anna Herz" in row  # the desk's button again
