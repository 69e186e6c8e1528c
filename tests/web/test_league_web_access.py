"""Who sees and changes what on the league secretary's pages (issue 25, pages25.md): the
secretary everything; the league's readers (members of the league's club and of its teams'
clubs, captains) the pages without their forms and a 403 for a change; anyone else a 404,
anonymous visitors the sign-in page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scoring.models import League, LeagueGroup

from .league_web_roles import People, people
from .leagues import make_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def cast() -> People:
    return people()


def _as(client: Client, user: User | None) -> Client:
    if user is not None:
        client.force_login(user)
    return client


def _urls(cast: People) -> dict[str, str]:
    group = cast.league.groups.get()
    return {"leagues": reverse("scoring:leagues", args=[cast.club.slug]),
            "league": reverse("scoring:league", args=[cast.league.pk]),
            "group": reverse("scoring:league-group", args=[group.pk])}


# (role, leagues page, league page, group page): the status of a GET
READS = [
    ("secretary", 200, 200, 200),
    ("member", 200, 200, 200),
    ("host", 404, 200, 200),
    ("captain", 404, 200, 200),
    ("stranger", 404, 404, 404),
]


@pytest.mark.parametrize(("role", "leagues", "league", "group"), READS)
def test_who_reads_which_page(client: Client, cast: People, role: str, leagues: int,
                              league: int, group: int) -> None:
    make_day(cast.league)
    urls = _urls(cast)
    _as(client, getattr(cast, role))
    assert client.get(urls["leagues"]).status_code == leagues
    assert client.get(urls["league"]).status_code == league
    assert client.get(urls["group"]).status_code == group


def test_anonymous_visitors_are_sent_to_sign_in(client: Client, cast: People) -> None:
    urls = _urls(cast)
    for url in urls.values():
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    for url in (urls["leagues"], urls["league"]):
        assert client.post(url, {"action": "group", "name": "B"}).status_code == 302
    assert LeagueGroup.objects.count() == 1


def test_the_secretary_gets_the_forms_and_a_reader_none(client: Client, cast: People) -> None:
    url = _urls(cast)["league"]
    page = _as(client, cast.secretary).get(url).content.decode()
    assert 'name="action" value="settings"' in page
    assert 'name="action" value="team"' in page
    assert 'name="action" value="player"' in page
    assert 'name="action" value="day"' in page
    assert "Anna Herz" in page and "Substitute" in page
    client.logout()
    for reader in (cast.member, cast.host, cast.captain):
        page = _as(client, reader).get(url).content.decode()
        assert "Anna Herz" in page and "Herz As" in page
        assert 'name="action"' not in page
        client.logout()


@pytest.mark.parametrize("role", ["member", "host", "captain"])
def test_a_reader_who_changes_something_gets_403(client: Client, cast: People,
                                                 role: str) -> None:
    urls = _urls(cast)
    _as(client, getattr(cast, role))
    response = client.post(urls["league"], {"action": "group", "name": "Staffel B"})
    assert response.status_code == 403
    assert LeagueGroup.objects.count() == 1


def test_only_the_clubs_admins_create_a_league(client: Client, cast: People) -> None:
    url = _urls(cast)["leagues"]
    data = {"name": "Kreisliga", "season": "2026", "profile": cast.league.profile_id,
            "series_per_day": 3, "series_rounds": 12, "binding_days": 14}
    assert _as(client, cast.member).post(url, data).status_code == 403
    client.logout()
    assert _as(client, cast.stranger).post(url, data).status_code == 404
    client.logout()
    assert League.objects.count() == 1
    assert 'name="series_per_day"' not in _as(client, cast.member).get(url).content.decode()
    client.logout()
    response = _as(client, cast.secretary).post(url, data)
    made = League.objects.get(name="Kreisliga")
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:league", args=[made.pk])


def test_a_stranger_posting_gets_404_and_nothing_changes(client: Client, cast: People) -> None:
    _as(client, cast.stranger)
    assert client.post(_urls(cast)["league"], {"action": "group", "name": "B"}
                       ).status_code == 404
    assert LeagueGroup.objects.count() == 1


def test_the_club_page_links_the_leagues(client: Client, cast: People) -> None:
    page = _as(client, cast.member).get(reverse("scoring:club", args=[cast.club.slug]))
    assert reverse("scoring:leagues", args=[cast.club.slug]) in page.content.decode()


def test_a_team_clubs_member_sees_the_league_on_his_clubs_leagues(client: Client,
                                                                 cast: People) -> None:
    page = _as(client, cast.host).get(reverse("scoring:leagues", args=["borna"]))
    assert page.status_code == 200
    assert reverse("scoring:league", args=[cast.league.pk]) in page.content.decode()
