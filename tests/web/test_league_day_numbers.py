"""The match day's polled numbers (issue 25): what the fragment shows is reads.league's, it
answers 304 while nothing moved, and the page and the fragment read a constant number of
queries however many series are seated and teams meet."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring.models import League, MatchDay
from scoring.notation import minus
from scoring.reads.league import day_progress, match_report
from scoring.writes import league as lw

from .factories import make_club, make_user
from .leagues import check_in, make_day, make_league, play_day, play_series

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def _league(client: Client, teams: int = 4, slug: str = "altenburg") -> League:
    club = make_club(slug)
    league = make_league(club)
    if teams == 5:
        extra = lw.team_create(group=league.groups.get(), name="Schell Sieben",
                               club_name="SC Schell")
        for position, name in enumerate(["Rosa", "Sven", "Tina", "Udo"], start=1):
            lw.team_player_add(team=extra, name=f"{name} Schell", position=position,
                               captain=position == 1)
    client.force_login(make_user(club, "admin", f"secretary-{slug}"))
    return league


def _numbers(client: Client, day: MatchDay) -> str:
    answer = client.get(reverse("scoring:match-day-numbers", args=[day.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def _wp(plus: float, minus_points: float) -> str:
    """Plus:minus as the league writes them (English in this test: 2.5:0.5)."""
    return f"{plus:g}:{minus_points:g}"


def test_the_fragment_shows_reads_leagues_numbers(client: Client) -> None:
    league = _league(client)
    day = make_day(league)
    play_day(day)
    html = _numbers(client, day)
    report = match_report(day)
    assert len(report.series) == 3
    for series in report.series:
        for row in series.teams:
            assert (f'<tr><td>{row.place}.</td><th scope="row" class="l">{row.team}</th>'
                    f'<td class="points">{minus(row.points)}</td><td class="wp">'
                    f'{_wp(row.plus, row.minus)}</td></tr>') in html
        for table in series.tables:
            for seat in table.seats:
                assert (f'{seat.name}<span class="team">{seat.team}</span></th>'
                        f'<td class="points">{minus(seat.points)}</td>') in html
    assert report.table
    for line in report.table:
        assert (f'<th scope="row" class="l">{line.team}</th><td class="wp">'
                f'{_wp(line.plus, line.minus)}</td><td class="points">{minus(line.points)}</td>'
                ) in html
    for state in day_progress(day).tables:
        assert f"{state.played}/{state.length} games" in html
    assert "Signed by" in html  # every series played: the desk may sign


def test_the_fragment_moves_with_the_tables_and_answers_304_while_nothing_moved(
        client: Client) -> None:
    league = _league(client)
    day = make_day(league)
    check_in(day)
    lw.series_seat(day=day, seed=3)
    url = reverse("scoring:match-day-numbers", args=[day.pk])
    first = client.get(url)
    assert "0/4 games" in first.content.decode()
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    play_series(day, 1, leave=2)
    caches["default"].clear()  # the tables' states are kept for a second
    moved = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert "2/4 games" in moved.content.decode()
    assert "0/4 games" not in moved.content.decode()


def _count(client: Client, url: str) -> int:
    caches["default"].clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", ["match-day", "match-day-numbers"])
def test_queries_do_not_grow_with_the_series(client: Client, name: str,
                                             django_assert_max_num_queries:
                                             DjangoAssertNumQueries) -> None:
    league = _league(client)
    small, large = make_day(league), make_day(league)
    check_in(small)
    lw.series_seat(day=small)
    play_series(small, 1, leave=1)
    play_day(large)
    count = _count(client, reverse(f"scoring:{name}", args=[small.pk]))
    caches["default"].clear()
    with django_assert_max_num_queries(count):
        client.get(reverse(f"scoring:{name}", args=[large.pk]))


@pytest.mark.parametrize("name", ["match-day", "match-day-numbers"])
def test_queries_do_not_grow_with_the_teams(client: Client, name: str,
                                            django_assert_max_num_queries:
                                            DjangoAssertNumQueries) -> None:
    four = _league(client)
    day = make_day(four)
    play_day(day)
    count = _count(client, reverse(f"scoring:{name}", args=[day.pk]))
    five = _league(client, teams=5, slug="zeitz")
    day = make_day(five)
    play_day(day)
    assert day.teams.count() == 5
    caches["default"].clear()
    with django_assert_max_num_queries(count):
        client.get(reverse(f"scoring:{name}", args=[day.pk]))


def test_a_reader_never_gets_the_desks_signature_buttons_from_its_etag(client: Client) -> None:
    league = _league(client)
    day = make_day(league)
    play_day(day)
    url = reverse("scoring:match-day-numbers", args=[day.pk])
    desk = client.get(url)
    assert 'name="where" value="tablet"' in desk.content.decode()
    reader = Client(HTTP_ACCEPT_LANGUAGE="en")
    reader.force_login(make_user(league.club, "viewer", "reader"))
    # the desk's ETag is not the reader's: he gets his own answer, without the buttons
    answer = reader.get(url, HTTP_IF_NONE_MATCH=desk["ETag"])
    assert answer.status_code == 200 and answer["ETag"] != desk["ETag"]
    assert 'name="where"' not in answer.content.decode()
    assert "Signed by" not in answer.content.decode()


def test_a_poll_of_numbers_another_reader_computed_reads_only_the_signatures(
        client: Client) -> None:
    league = _league(client)
    day = make_day(league)
    play_day(day)
    url = reverse("scoring:match-day-numbers", args=[day.pk])
    cold = _count(client, url)  # the cache emptied: the numbers computed
    reader = Client(HTTP_ACCEPT_LANGUAGE="en")
    reader.force_login(make_user(league.club, "viewer", "reader"))
    with CaptureQueriesContext(connection) as warm:
        assert "Match points" in reader.get(url).content.decode()
    assert len(warm) <= cold - 10, (len(warm), cold)
    assert not any("scoring_tablescore" in q["sql"] for q in warm.captured_queries)
