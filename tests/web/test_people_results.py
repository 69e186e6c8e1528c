"""My results across clubs (issue 35): every list of every club a person played for (all
player records linked to his account), with links to the lists he may open; the person
page for others (members of a club he plays in see that club's lists; other clubs' members
only if he switched it on; anonymous visitors and everyone else get 404, whether the
account exists or not), and a constant number of queries for 1 and 30 evenings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scoring.models import AccountSettings, Club, Player
from scoring.writes import people

from .factories import make_club, make_table, make_user, won
from .seasons import ME

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def _played(club: Club, player: Player) -> None:
    """A list of ``player`` and three more of the club, one game won by seat 1."""
    from scoring.writes.services import deal_record, table_create

    table = make_table(club)
    others = [p for p in club.players.exclude(pk=player.pk).order_by("pk")[:3]]
    table = table_create(evening=table.evening, players=[player, *others], series=2)
    deal_record(table=table, record=won(1), expected_version=0, actor=ME)


@pytest.fixture
def paula() -> dict[str, object]:
    """Paula plays in Altenburg (a member there) and in Gotha (a guest's record, claimed)."""
    altenburg, gotha = make_club(), make_club("gotha", "SC Gotha")
    account = make_user(altenburg, "viewer", username="paula")
    home = Player.objects.create(club=altenburg, name="Paula Wagner", user=account)
    away = Player.objects.create(club=gotha, name="Paula W.", guest=True)
    admin = make_user(gotha, "admin", username="gotha-admin")
    people.claim_use(token=people.claim_create(player=away, by=admin).token, user=account)
    _played(altenburg, home)
    _played(gotha, away)
    return {"account": account, "altenburg": altenburg, "gotha": gotha, "home": home,
            "away": away}


def test_my_results_list_every_club(client: Client, paula: dict[str, object]) -> None:
    account = paula["account"]
    assert isinstance(account, User)
    client.force_login(account)
    page = client.get(reverse("scoring:me-results"))
    assert page.status_code == 200
    rows = page.context["results"].rows
    assert sorted(r.club for r in rows) == ["SC Gotha", "Skatfreunde Altenburg"]
    assert {r.name for r in rows} == {"Paula Wagner", "Paula W."}
    html = page.content.decode()
    home_row = next(r for r in rows if r.club == "Skatfreunde Altenburg")
    away_row = next(r for r in rows if r.club == "SC Gotha")
    assert home_row.link and not away_row.link  # not a member in Gotha: no link there
    assert reverse("scoring:sheet", args=[home_row.table_pk]) in html
    assert reverse("scoring:sheet", args=[away_row.table_pk]) not in html
    assert all(r.points is not None for r in rows)


def test_the_visibility_switch(client: Client, paula: dict[str, object]) -> None:
    account = paula["account"]
    assert isinstance(account, User)
    home, away = paula["home"], paula["away"]
    assert isinstance(home, Player) and isinstance(away, Player)
    url = reverse("scoring:person-results", args=[home.pk])
    gone = reverse("scoring:person-results", args=[away.pk + 1000])
    unlinked = reverse("scoring:person-results", args=[
        Player.objects.filter(user__isnull=True).order_by("pk")[0].pk])

    assert client.get(url).status_code == 404  # anonymous
    assert client.get(gone).status_code == 404

    altenburg = paula["altenburg"]
    assert isinstance(altenburg, Club)
    clubmate = make_user(altenburg, "viewer", username="clubmate")
    client.force_login(clubmate)
    page = client.get(url)
    assert page.status_code == 200
    assert [r.club for r in page.context["results"].rows] == ["Skatfreunde Altenburg"]
    # any record of his leads to the same person
    assert client.get(reverse("scoring:person-results", args=[away.pk])).context[
        "results"] == page.context["results"]
    assert client.get(gone).status_code == 404
    assert client.get(unlinked).status_code == 404

    elsewhere = make_user(make_club("borna", "SC Borna"), "viewer", username="borna")
    client.force_login(elsewhere)
    assert client.get(url).status_code == 404
    nobody = get_user_model().objects.create_user("nobody", password="x")

    owner = Client(HTTP_ACCEPT_LANGUAGE="en")
    owner.force_login(account)
    response = owner.post(reverse("scoring:me-results-visible"), {"results_visible": "on"})
    assert response.status_code == 302
    assert AccountSettings.objects.get(user=account).results_visible
    page = client.get(url)
    assert page.status_code == 200
    assert len(page.context["results"].rows) == 2
    assert not any(r.link for r in page.context["results"].rows)
    client.force_login(nobody)  # signed in, member of no club
    assert client.get(url).status_code == 404
    owner.post(reverse("scoring:me-results-visible"), {})
    client.force_login(elsewhere)
    assert client.get(url).status_code == 404
    assert owner.get(url).status_code == 302  # his own page is "me/results/"


def _queries(client: Client, evenings: int,
             django_assert_max_num_queries: Callable[..., Any]) -> int:
    club = make_club(f"club{evenings}")
    account = make_user(club, "viewer", username=f"paula{evenings}")
    player = Player.objects.create(club=club, name="Paula Wagner", user=account)
    for _ in range(evenings):
        _played(club, player)
    client.force_login(account)
    client.get(reverse("scoring:me-results"))  # the results cached
    with django_assert_max_num_queries(12) as queries:
        page = client.get(reverse("scoring:me-results"))
    assert len(page.context["results"].rows) == evenings
    return len(queries)


def test_my_results_read_a_constant_number_of_queries(
        client: Client, django_assert_max_num_queries: Callable[..., Any]) -> None:
    assert (_queries(client, 1, django_assert_max_num_queries)
            == _queries(client, 30, django_assert_max_num_queries))


def test_tournament_and_league_series_are_named(client: Client) -> None:
    from scoring.writes.tournament import series_draw

    from .leagues import make_day, make_league, play_day
    from .tournaments import make_tournament

    club = make_club()
    player = make_user(club, "viewer", username="anna")
    people.link(player=Player.objects.get(club=club, name="Anna Altenburg"), user=player,
                by=None)
    series_draw(tournament=make_tournament(club, players=4), seed=1)
    captain = make_user(club, "viewer", username="herz")
    league = make_league(club, teams=3)
    people.link(player=Player.objects.get(club=club, name="Anna Herz"), user=captain,
                by=None)
    play_day(make_day(league))
    client.force_login(player)
    rows = client.get(reverse("scoring:me-results")).context["results"].rows
    assert {(r.kind, r.what, r.series) for r in rows} == {("tournament", "Preisskat", 1)}
    client.force_login(captain)
    page = client.get(reverse("scoring:me-results"))
    rows = page.context["results"].rows
    assert {(r.kind, r.what) for r in rows} == {("league", "Bezirksliga")}
    assert sorted(r.series for r in rows) == [1, 2, 3]
    assert all(r.seeger_fabian is not None for r in rows)
    assert "League Bezirksliga" in page.content.decode()
