""""Mein Platz" (issue 35, item 5): the personal link of a tournament entrant and the signed-in
page show his table and seat after each draw, his table's players and his running result (the
tournament's ranking, Seeger-Fabian); before the draw his start number; the polled part is
answered 304 while nothing moved, in a few queries; a key shows its one entrant only, never a
table code; a league match day's and a club evening's seats for the linked account."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Entrant, Player, Seat, Table, Tournament
from scoring.reads.standings import evening_ranking
from scoring.reads.tournament import tournament_ranking
from scoring.views import board
from scoring.writes import tournament as tw

from .factories import make_club, make_table, make_user
from .tournaments import fill_series, make_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]

SEAT_QUERIES = 12  # the personal page's bound, the same at 13, 41 and 1,001 players
POLL_QUERIES = 3  # its 304 poll: the entrant's row (and the evening's states when not kept)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()


def seat_of(html: str) -> tuple[int, int, int] | None:
    """(series, table, seat) as the page marks them."""
    found = re.search(r'data-series="(\d+)" data-table="(\d+)" data-seat="(\d+)"', html)
    return None if found is None else (int(found[1]), int(found[2]), int(found[3]))


def drawn_seat(t: Tournament, entrant: Entrant, series: int) -> tuple[int, int, int]:
    seat = Seat.objects.select_related("table").get(
        player=entrant.player, table__evening=t.evening, table__series=series)
    return series, seat.table.number, seat.position + 1


def test_the_personal_link_waits_then_shows_the_seat_and_the_result(client: Client) -> None:
    t = make_tournament(make_club())
    entrant = t.entrants.get(number=5)
    url = reverse("scoring:seat-key", args=[entrant.seat_key])
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert "start number 5" in html and "No series is drawn yet" in html
    assert seat_of(html) is None
    tw.series_draw(tournament=t, seed=1)
    html = client.get(url).content.decode()
    assert seat_of(html) == drawn_seat(t, entrant, 1)
    series, table, seat = drawn_seat(t, entrant, 1)
    assert f"Series 1: Table {table}, Seat {seat}" in html
    mates = Seat.objects.filter(table__evening=t.evening, table__series=1,
                                table__number=table).order_by("position")
    for mate in mates:
        assert mate.player.name in html
    codes = Table.objects.filter(evening=t.evening).values_list("access_code", flat=True)
    assert not any(code in html for code in codes)
    fill_series(t, 1, leave=1)
    html = client.get(url).content.decode()
    row = next(r for r in tournament_ranking(t).rows if r.entrant.pk == entrant.pk)
    result = re.search(r'class="my-seat-result">(.*?)</dl>', html, re.S)
    assert result is not None
    numbers = re.findall(r"<dd>([^<]*)", result[1])
    assert numbers[0].strip().replace("\u2212", "-") == str(row.series[1])
    assert numbers[1].strip().replace("\u2212", "-") == str(row.score)
    assert numbers[2].strip() == f"{row.rank}. of 13"
    assert "Seeger-Fabian" in html


def test_an_unknown_key_is_404_and_a_key_shows_only_its_entrant(client: Client) -> None:
    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    assert client.get(reverse("scoring:seat-key", args=["nope"])).status_code == 404
    assert client.get(reverse("scoring:seat-key", args=["x" * 40])).status_code == 404
    assert client.get(reverse("scoring:seat-key-live", args=["nope"])).status_code == 404
    one, other = t.entrants.get(number=1), t.entrants.get(number=2)
    html = client.get(reverse("scoring:seat-key", args=[one.seat_key])).content.decode()
    assert one.player.name in html and "start number 1" in html
    assert "start number 2" not in html and one.seat_key in html
    assert other.seat_key not in html
    assert seat_of(html) == drawn_seat(t, one, 1)


def test_the_poll_is_304_until_the_draw_and_then_brings_the_seat(
        client: Client, django_assert_max_num_queries: Any) -> None:
    t = make_tournament(make_club())
    entrant = t.entrants.get(number=3)
    page = client.get(reverse("scoring:seat-key", args=[entrant.seat_key]))
    etag = page["ETag"]
    live = reverse("scoring:seat-key-live", args=[entrant.seat_key])
    with django_assert_max_num_queries(POLL_QUERIES):
        same = client.get(live, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304 and same["ETag"] == etag
    tw.series_draw(tournament=t, seed=1)
    moved = client.get(live, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert seat_of(moved.content.decode()) == drawn_seat(t, entrant, 1)
    assert client.get(live, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 304


def test_the_signed_in_page_shows_the_accounts_seats_across_clubs(client: Client) -> None:
    club = make_club()
    t = make_tournament(club)
    user = make_user(club, "viewer")
    entrant = t.entrants.get(number=2)
    player = entrant.player
    player.user = user
    player.save()
    # a club evening of today at another club, where the same person plays too
    other = make_club("gotha", "Skatclub Gotha")
    table = make_table(other)
    seat = table.seats.order_by("position")[1]
    seat.player.user = user
    seat.player.save()
    client.force_login(user)
    url = reverse("scoring:my-seat")
    page = client.get(url)
    html = page.content.decode()
    assert "start number 2" in html and "No series is drawn yet" in html
    assert f"Table {table.number}, Seat 2" in html and "Skatclub Gotha" in html
    live = reverse("scoring:my-seat-live")
    assert client.get(live, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    tw.series_draw(tournament=t, seed=1)
    polled = client.get(live, HTTP_IF_NONE_MATCH=page["ETag"])
    series, number, place = drawn_seat(t, entrant, 1)
    assert polled.status_code == 200
    assert f"Series 1: Table {number}, Seat {place}" in polled.content.decode()
    html = client.get(url).content.decode()
    assert f"Series 1: Table {number}, Seat {place}" in html
    # a stranger's account sees no seat; the page is for signed-in accounts only
    client.force_login(make_user(club, "viewer", "fremder"))
    html = client.get(url).content.decode()
    assert seat_of(html) is None and "No seat of yours today" in html
    assert player.name not in html
    anonymous = Client()
    assert anonymous.get(url).status_code == 302
    assert anonymous.get(reverse("scoring:my-seat-live")).status_code == 403


def test_a_league_match_days_seat_on_the_signed_in_page(client: Client) -> None:
    from scoring.writes import league as lw

    from .leagues import check_in, make_day, make_league, play_series

    club = make_club()
    league = make_league(club)
    day = make_day(league)
    user = make_user(club, "viewer")
    player = Player.objects.get(club=club, name="Paula Pik")
    player.user = user
    player.save()
    client.force_login(user)
    url = reverse("scoring:my-seat")
    assert seat_of(client.get(url).content.decode()) is None
    check_in(day)
    lw.series_seat(day=day, seed=7)
    html = client.get(url).content.decode()
    seat = Seat.objects.select_related("table").get(player=player,
                                                    table__evening=day.evening)
    assert seat_of(html) == (1, seat.table.number, seat.position + 1)
    assert "Bezirksliga · Staffel A" in html and "match day 1" in html
    play_series(day, 1, leave=1)
    html = client.get(url).content.decode()
    ranking = evening_ranking(day.evening)
    mine = next(r for r in ranking.rows if r.player.pk == player.pk)
    result = re.search(r'class="my-seat-result">(.*?)</dl>', html, re.S)
    assert result is not None
    numbers = re.findall(r"<dd>([^<]*)", result[1])
    assert numbers[0].strip().replace("\u2212", "-") == str(mine.series[1])
    assert "Points: Seeger-Fabian." in html


def test_the_desk_receipt_carries_the_personal_link_for_the_organiser_only(
        client: Client) -> None:
    club = make_club()
    t = make_tournament(club)
    entrant = t.entrants.get(number=4)
    url = reverse("scoring:tournament-entrant-link", args=[t.pk, entrant.pk])
    assert client.get(url).status_code == 302  # the sign-in page
    client.force_login(make_user(club, "viewer"))
    assert client.get(url).status_code == 403
    other = make_club("gotha", "Skatclub Gotha")
    client.force_login(make_user(other, "admin"))
    assert client.get(url).status_code == 404
    client.force_login(make_user(club, "admin"))
    page = client.get(url)
    html = page.content.decode()
    link = "http://testserver" + reverse("scoring:seat-key", args=[entrant.seat_key])
    assert page.status_code == 200 and f'href="{link}"' in html and "<svg" in html
    assert "no-store" in page["Cache-Control"]
    desk = client.get(reverse("scoring:tournament", args=[t.pk]), {"q": "4"})
    assert url in desk.content.decode()


def test_a_viewer_or_stranger_sees_no_other_seat(client: Client) -> None:
    """Beyond the public board (its rows name each player's table and seat, as the seat
    list on the wall does), nobody sees another's seat: the seat list and the receipts are
    the organiser's, the signed-in page shows the account's own players only, a key its own
    entrant only, and no page of a player carries a table code."""
    club = make_club()
    t = make_tournament(club)
    tw.series_draw(tournament=t, seed=1)
    viewer = make_user(club, "viewer")
    client.force_login(viewer)
    for url in (reverse("scoring:tournament-seats", args=[t.pk, 1]),
                reverse("scoring:tournament", args=[t.pk]),
                reverse("scoring:tournament-entrant-link",
                        args=[t.pk, t.entrants.get(number=1).pk])):
        assert client.get(url).status_code == 403, url
    mine = client.get(reverse("scoring:my-seat")).content.decode()
    assert seat_of(mine) is None and "not linked" in mine
    assert not any(e.player.name in mine for e in t.entrants.select_related("player"))
    stranger = Client()
    for url in (reverse("scoring:tournament-seats", args=[t.pk, 1]),
                reverse("scoring:tournament-seats-pdf", args=[t.pk, 1])):
        assert stranger.get(url).status_code == 302, url  # the sign-in page
    # a made-up key next to a real one is no key
    real = t.entrants.get(number=1).seat_key
    assert stranger.get(reverse("scoring:seat-key", args=[real[:-1]])).status_code == 404
    html = stranger.get(reverse("scoring:seat-key", args=[real])).content.decode()
    codes = Table.objects.filter(evening=t.evening).values_list("access_code", flat=True)
    assert not any(code in html for code in codes)
    assert "/code/" not in html and "/tables/" not in html


def test_the_web_seat_list_is_searchable_and_shows_start_numbers(client: Client) -> None:
    club = make_club()
    t = make_tournament(club)
    tw.series_draw(tournament=t, seed=1)
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:tournament-seats", args=[t.pk, 1])
    html = client.get(url).content.decode()
    who = t.entrants.select_related("player").get(number=9)
    assert f"{who.player.name} <span class=\"muted\">(9)</span>" in html
    series, table, seat = drawn_seat(t, who, 1)
    for query in ("9", who.player.name.lower()[2:8]):
        found = client.get(url, {"q": query}).content.decode()
        assert f"<strong>{who.player.name}</strong> (No. 9): Table {table}, Seat {seat}" \
            in found, query
    nobody = client.get(url, {"q": "Xaver"}).content.decode()
    assert "Nobody found." in nobody and '<li id="table-' not in nobody
    assert client.get(url, {"q": "x" * 500}).status_code == 200


def test_the_surname_order_of_the_seat_list() -> None:
    from scoring.pdf.tournament import surname_first, surname_key

    names = ["Paula Wagner", "Änne Ärger", "Karl Zander", "Otto Abel", "Cher",
             "Paula Wagner (Gotha)", "Jürgen von Müller"]
    assert [surname_first(n) for n in sorted(names, key=surname_key)] == [
        "Abel, Otto", "Ärger, Änne", "Cher", "Müller, Jürgen von", "Wagner, Paula",
        "Wagner, Paula (Gotha)", "Zander, Karl"]


def test_while_another_process_ranks_anew_the_last_points_show_and_the_poll_asks_again(
        client: Client) -> None:
    """A saved deal at a 1,001-player day: one process ranks anew (a lock in the shared
    cache), the others answer with the last points and an ETag that no poll names."""
    from django.core.cache import caches

    from scoring.reads import live

    t = make_tournament(make_club())
    tw.series_draw(tournament=t, seed=1)
    entrant = t.entrants.get(number=1)
    url = reverse("scoring:seat-key", args=[entrant.seat_key])
    first = client.get(url)
    assert not first["ETag"].endswith('-stale"')
    caches[live.STATES_CACHE].add(f"my-seat:summary-lock:{t.evening_id}", "x", 30)
    fill_series(t, 1, leave=1)
    held = client.get(url)
    assert held.status_code == 200 and held["ETag"].endswith('-stale"')
    live_url = reverse("scoring:seat-key-live", args=[entrant.seat_key])
    assert client.get(live_url, HTTP_IF_NONE_MATCH=held["ETag"]).status_code == 200
    caches[live.STATES_CACHE].delete(f"my-seat:summary-lock:{t.evening_id}")
    fresh = client.get(live_url, HTTP_IF_NONE_MATCH=held["ETag"])
    assert fresh.status_code == 200 and not fresh["ETag"].endswith('-stale"')
    row = next(r for r in tournament_ranking(t).rows if r.entrant.pk == entrant.pk)
    assert f"{row.rank}. of 13" in fresh.content.decode()
    assert client.get(live_url, HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 304
