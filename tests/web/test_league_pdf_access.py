"""Who may fetch the league's PDFs (issue 25): the league's readers (the secretary, the
members of its club and of its teams' clubs, the host club's admins, a captain); a member of
another club gets 404; anonymous users go to the login page. A public league's table and
ranking are for anyone, signed in or not; its report is not (it carries the signatures).
Each PDF reads in a constant number of queries, whatever the number of match days."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import League, MatchDay, Player
from scoring.writes import league as lw

from . import pdfs
from .factories import login, make_club
from .leagues import make_league, play_day, team

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]


def _league(public: bool = False) -> tuple[League, MatchDay]:
    """A league of the Altenburg club; its first team, Herz As, is Zeitz's and hosts the
    match day."""
    league = make_league(make_club(), public=public,
                         host_club=make_club("zeitz", "Skatclub Zeitz"))
    day = lw.match_day_create(group=league.groups.get(), date=timezone.localdate(),
                              host=team(league, "Herz As"), venue="Zeitz")
    return league, day


def _urls(day: MatchDay) -> dict[str, str]:
    return {"report": reverse("scoring:match-day-report-pdf", args=[day.pk]),
            "table": reverse("scoring:league-table-pdf", args=[day.group_id]),
            "players": reverse("scoring:league-players-pdf", args=[day.group_id])}


def _statuses(client: Client, day: MatchDay) -> dict[str, int]:
    return {name: client.get(url).status_code for name, url in _urls(day).items()}


def _captain(client: Client, league: League) -> None:
    """Signs in the user of Herz As's captain, a member of no club."""
    user = get_user_model().objects.create_user(username="anna", password="pw-for-tests")
    Player.objects.filter(name="Anna Herz", club=league.club).update(user=user)
    client.force_login(user)


ALL = {"report": 200, "table": 200, "players": 200}


@pytest.mark.parametrize("role", ["admin", "viewer"])
def test_the_league_clubs_members_fetch_every_pdf(client: Client, role: str) -> None:
    league, day = _league()
    login(client, league.club, role)  # admin: the league secretary
    assert _statuses(client, day) == ALL


def test_the_host_clubs_admin_fetches_every_pdf(client: Client) -> None:
    league, day = _league()
    login(client, team(league, "Herz As").club, "admin")  # type: ignore[arg-type]
    assert _statuses(client, day) == ALL


def test_a_captain_fetches_every_pdf(client: Client) -> None:
    league, day = _league()
    _captain(client, league)
    assert _statuses(client, day) == ALL


def test_another_clubs_member_gets_404(client: Client) -> None:
    _league_, day = _league()
    login(client, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert _statuses(client, day) == {"report": 404, "table": 404, "players": 404}


def test_anonymous_users_go_to_the_login_page(client: Client) -> None:
    _league_, day = _league()
    for url in _urls(day).values():
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def _public_urls(league: League, group: int) -> dict[str, str]:
    return {"table": reverse("scoring:league-public-table-pdf", args=[league.board_key, group]),
            "players": reverse("scoring:league-public-players-pdf",
                               args=[league.board_key, group])}


def test_a_public_leagues_table_and_ranking_are_for_anyone_with_its_key(
        client: Client) -> None:
    league, day = _league(public=True)
    for url in _public_urls(league, day.group_id).values():
        response = client.get(url)
        assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    # the public page links them
    page = client.get(reverse("scoring:league-public", args=[league.board_key]))
    assert all(url in page.content.decode()
               for url in _public_urls(league, day.group_id).values())
    login(client, make_club("zwickau", "Skatclub Zwickau"), "admin")
    assert {client.get(url).status_code
            for url in _public_urls(league, day.group_id).values()} == {200}


def test_a_public_leagues_pdfs_need_its_key(client: Client) -> None:
    """Issue 36: a public league's group PDFs were served to anyone by number, without the
    key its public page needs."""
    league, day = _league(public=True)
    other, _other_day = _league_of("zwickau", public=True)
    response = client.get(_urls(day)["table"])  # by number: readers only
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.get(_urls(day)["players"]).status_code == 302
    assert client.get(_urls(day)["report"]).status_code == 302
    login(client, make_club("gera", "Skatclub Gera"), "admin")
    assert _statuses(client, day) == {"report": 404, "table": 404, "players": 404}
    # a wrong key, another public league's key, a league no longer public: 404
    wrong = {"table": reverse("scoring:league-public-table-pdf", args=["x" * 12, day.group_id]),
             "players": reverse("scoring:league-public-players-pdf",
                                args=["x" * 12, day.group_id])}
    for urls in (wrong, _public_urls(other, day.group_id)):
        assert {client.get(url).status_code for url in urls.values()} == {404}
    League.objects.filter(pk=league.pk).update(public=False)
    assert {client.get(url).status_code
            for url in _public_urls(league, day.group_id).values()} == {404}


def _league_of(slug: str, public: bool) -> tuple[League, MatchDay]:
    league = make_league(make_club(slug, f"Skatclub {slug.title()}"), public=public,
                         host_club=make_club(f"{slug}-host", f"Skatclub {slug.title()} Gast"))
    day = lw.match_day_create(group=league.groups.get(), date=timezone.localdate(),
                              host=team(league, "Herz As"), venue="Zeitz")
    return league, day


def test_unknown_days_and_groups_are_404(client: Client) -> None:
    league, _day = _league()
    login(client, league.club, "admin")
    for name in ("scoring:match-day-report-pdf", "scoring:league-table-pdf",
                 "scoring:league-players-pdf"):
        assert client.get(reverse(name, args=[99999])).status_code == 404


def test_a_post_is_refused(client: Client) -> None:
    league, day = _league()
    login(client, league.club, "admin")
    assert {client.post(url).status_code for url in _urls(day).values()} == {405}


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_pdfs_read_in_constant_queries(client: Client) -> None:
    """Rendered (a miss) and from the cache (a hit): the same number of queries after one
    played match day as after three."""
    league, day = _league()
    login(client, league.club, "viewer")
    play_day(day)
    one = {name: (_queries(client, url), _queries(client, url))
           for name, url in _urls(day).items()}
    for _number in (2, 3):
        more = lw.match_day_create(group=league.groups.get(), date=timezone.localdate(),
                                   host=team(league, "Herz As"))
        play_day(more)
    three = {name: (_queries(client, url), _queries(client, url))
             for name, url in _urls(day).items()}
    assert one == three, (one, three)
