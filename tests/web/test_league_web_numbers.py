"""A group's page and the public league page (issue 25): the league table, each match day's
table and the players' ranking as reads/league.py computes them, written in the reader's
language ("7:2", a half as ",5" in German); the public page only while it is switched on, for
anyone, rendered once per version with an ETag; a constant number of queries whatever the
number of teams and days."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import League
from scoring.notation import match_point as wertung
from scoring.reads.league import group_numbers, player_ranking
from scoring.writes import league as lw

from .factories import make_club, make_user
from .leagues import check_in, make_day, make_league, play_series

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def _played(league: League, days: int = 1) -> None:
    for _ in range(days):
        day = make_day(league)
        check_in(day)
        lw.series_seat(day=day, seed=3)
        play_series(day, 1)


def _more_teams(league: League, count: int) -> None:
    group = league.groups.get()
    for index in range(count):
        made = lw.team_create(group=group, name=f"Team {index + 5}", club_name="SC Gast")
        for position in range(1, 5):
            lw.team_player_add(team=made, name=f"Spieler {index + 5}-{position}",
                               position=position, captain=position == 1)


def test_wertungspunkte_are_written_in_the_readers_language() -> None:
    with translation.override("de"):
        assert (wertung(7), wertung(2.5), wertung(0)) == ("7", "2,5", "0")
    with translation.override("en"):
        assert (wertung(7), wertung(2.5)) == ("7", "2.5")


def test_the_group_page_shows_the_numbers_of_the_reads(client: Client) -> None:
    league = make_league(make_club())
    _played(league)
    group = league.groups.get()
    client.force_login(make_user(league.club, "viewer"))
    page = client.get(reverse("scoring:league-group", args=[group.pk])).content.decode()
    numbers = group_numbers(group)
    table = numbers.result.table
    for row in table:
        assert (f'<td class="place">{row.place}.</td><td class="l b">{row.team}</td>'
                f'<td class="wp">{wertung(row.plus)}:{wertung(row.minus)}</td>'
                f'<td class="sp">{row.points:,}</td>') in page
    day = numbers.days[0]
    result = numbers.day_result(day)
    assert result is not None
    assert reverse("scoring:match-day", args=[day.pk]) in page
    assert f"Match day {day.number}" in page
    ranking = player_ranking(numbers)
    assert len(ranking) == 16
    top = ranking[0]
    assert (f'<td class="l">{top.name}</td><td class="l">{top.team}</td>'
            f'<td class="sp b">{top.points:,}</td><td>{top.won}</td><td>{top.lost}</td>'
            f'<td>{top.series}</td>') in page
    assert reverse("scoring:league-table-pdf", args=[group.pk]) in page
    assert reverse("scoring:league-players-pdf", args=[group.pk]) in page
    # the plus points of a series of four teams sum to 6 (3:0, 2:1, 1:2, 0:3)
    assert sum(r.plus for r in table) == 6


def test_the_public_page_is_there_only_while_switched_on(client: Client) -> None:
    club = make_club()
    club.language = "en"  # the page speaks the club's language (issue 36)
    club.save(update_fields=["language"])
    league = make_league(club)
    url = reverse("scoring:league-public", args=[league.board_key])
    assert client.get(url).status_code == 404
    assert client.get(reverse("scoring:league-public", args=["nonsense"])).status_code == 404
    lw.league_settings(league=league, public=True, binding_days=14, series_per_day=3)
    _played(league)
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Staffel A" in page and "League table" in page
    for row in group_numbers(league.groups.get()).result.table:
        assert f'<td class="l b">{row.team}</td>' in page
    assert "Match day 1" in page
    # nothing private: no line-ups' links, no desk
    assert reverse("scoring:match-day", args=[league.groups.get().days.get().pk]) not in page
    lw.league_settings(league=league, public=False, binding_days=14, series_per_day=3)
    assert client.get(url).status_code == 404


def test_the_public_page_is_304_until_a_deal_moves_it(client: Client) -> None:
    league = make_league(make_club(), public=True, rounds=2)
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day, seed=3)
    play_series(day, 1, leave=1)
    url = reverse("scoring:league-public", args=[league.board_key])
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    play_series(day, 1)  # the games left: the tables' versions move
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert again.content != first.content
    # the page speaks the club's language, not the visitor's (issue 36): another visitor's
    # language is the same page; another club language is another page
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"],
                      HTTP_ACCEPT_LANGUAGE="en").status_code == 304
    league.club.language = "en"
    league.club.save(update_fields=["language"])
    english = client.get(url, HTTP_IF_NONE_MATCH=again["ETag"], HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == 200 and english["ETag"] != again["ETag"]


def _count(django_assert_max_num_queries: Callable[..., Any], client: Client,
           url: str) -> int:
    cache.clear()
    with django_assert_max_num_queries(1000) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


def test_the_pages_queries_do_not_grow_with_teams_and_days(
        client: Client, django_assert_max_num_queries: Callable[..., Any]) -> None:
    counts = []
    for slug, teams, days in (("klein", 0, 1), ("gross", 4, 3)):
        league = make_league(make_club(slug, slug), public=True)
        _more_teams(league, teams)
        _played(league, days)
        group = league.groups.get()
        assert group.teams.count() == 4 + teams and group.days.count() == days
        client.force_login(make_user(league.club, "admin"))
        counts.append([_count(django_assert_max_num_queries, client, url) for url in (
            reverse("scoring:leagues", args=[slug]),
            reverse("scoring:league", args=[league.pk]),
            reverse("scoring:league-group", args=[group.pk]),
            reverse("scoring:league-public", args=[league.board_key]))])
        client.logout()
    assert counts[0] == counts[1], counts
