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

from scoring.models import Entrant, Seat, Table, Tournament
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
    html = client.get(url).content.decode()
    assert "start number 2" in html and "No series is drawn yet" in html
    assert f"Table {table.number}, Seat 2" in html and "Skatclub Gotha" in html
    tw.series_draw(tournament=t, seed=1)
    html = client.get(url).content.decode()
    series, number, place = drawn_seat(t, entrant, 1)
    assert f"Series 1: Table {number}, Seat {place}" in html
    # a stranger's account sees no seat; the page is for signed-in accounts only
    client.force_login(make_user(club, "viewer", "fremder"))
    html = client.get(url).content.decode()
    assert seat_of(html) is None and "No seat of yours today" in html
    assert player.name not in html
    anonymous = Client()
    assert anonymous.get(url).status_code == 302
    assert anonymous.get(reverse("scoring:my-seat-live")).status_code == 403
