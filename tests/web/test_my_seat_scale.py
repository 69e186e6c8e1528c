""""Mein Platz" at a Preisskat of 1,001 players on SQLite (issue 35, acceptance): series 1
played, series 2 drawn; every one of the 1,001 personal links answers with the table and seat
the draw gave that entrant (the Seat rows), the desk's search for a start number shows his
table and seat, the seat-list PDF lists everybody by surname in reading order (read back with
pdftotext), the signed-in page of a member's account shows his seat, and the personal page
and its 304 poll cost the same queries at 41 and at 1,001 players. The field is built by the
scale test's big_tournament, series 1 played by fill_series (unsigned: series 2 is drawn with
a reason)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Club, Player, Seat, Tournament
from scoring.pdf.tournament import surname_key
from scoring.views import board
from scoring.writes import tournament as tw
from tests.django_fixtures import kept_for_the_module

from .factories import make_club, make_user
from .pdfs import needs_poppler, text
from .test_my_seat import POLL_QUERIES, SEAT_QUERIES, seat_of
from .test_tournament_scale import big_tournament
from .tournaments import fill_series

pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.usefixtures("in_english")]

FIRST = ["Paula", "Änne", "Jürgen", "Karl", "Özlem", "Max", "Ida", "Lena", "Otto", "Ute",
         "Bernd", "Hilde", "Emil", "Greta", "Sven", "Rita", "Tom", "Vera", "Willi", "Zoe",
         "Anton", "Berta", "Carl", "Dora", "Egon", "Frieda", "Gerd", "Hanna", "Ingo", "Jutta"]
LAST = ["Wagner", "Müller", "Ärger", "Abel", "Zander", "Özdemir", "Groß", "Gross", "Schulz",
        "Becker", "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Neumann",
        "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann", "Hartmann", "Lange", "Schmitt",
        "Werner", "Krause", "Meier", "Lehmann", "Schmid", "Schulze", "Maier", "Köhler"]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()


def second_series(club: Club, players: int) -> Tournament:
    """``players`` registered (big_tournament: series 1 drawn), renamed to people's names
    (given names and surnames, umlauts among them), series 1 played, series 2 drawn."""
    t = big_tournament(club, players)
    renamed = []
    for index, player in enumerate(Player.objects.filter(entries__tournament=t)
                                   .order_by("entries__number")):
        player.name = (f"{FIRST[index % len(FIRST)]} {LAST[index // len(FIRST)]}"
                       if index < len(FIRST) * len(LAST) else f"Gast {index}")
        renamed.append(player)
    Player.objects.bulk_update(renamed, ["name"])
    fill_series(t, 1, sign=False)
    tw.series_draw(tournament=t, seed=2, unsigned_reason="test: not signed")
    return t


@pytest.fixture(scope="module")
def second_of_1001(django_db_setup: None,
                   django_db_blocker: Any) -> Iterator[tuple[Club, Tournament]]:
    """second_series of 1,001 players, built once for the module's tests: each test's
    changes are rolled back (tests/django_fixtures.py)."""
    with kept_for_the_module(django_db_blocker):
        club = make_club("tausend", "Skatclub Tausend")  # its players' surname: no LAST
        yield club, second_series(club, 1001)


def drawn(t: Tournament, series: int) -> dict[int, tuple[int, int, int]]:
    """player id -> (series, table, seat) as the draw's Seat rows say."""
    return {player: (series, table, position + 1) for player, table, position in
            Seat.objects.filter(table__evening=t.evening, table__series=series)
            .values_list("player_id", "table__number", "position")}


def test_1001_personal_pages_the_desk_the_pdf_and_the_account(
        client: Client, second_of_1001: tuple[Club, Tournament]) -> None:
    club, t = second_of_1001
    seats = drawn(t, 2)
    assert len(seats) == 1001
    wrong = {}
    for entrant in t.entrants.select_related("player").order_by("number"):
        response = client.get(reverse("scoring:seat-key", args=[entrant.seat_key]))
        html = response.content.decode()
        shown = seat_of(html)
        if response.status_code != 200 or shown != seats[entrant.player_id] or \
                f"start number {entrant.number}<" not in html:
            wrong[entrant.number] = (response.status_code, shown)
    assert wrong == {}

    # the desk's search for a start number shows his table and seat in series 2
    admin = Client()
    admin.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    admin.force_login(make_user(club, "admin"))
    who = t.entrants.select_related("player").get(number=777)
    _series, table, seat = seats[who.player_id]
    desk = admin.get(reverse("scoring:tournament", args=[t.pk]), {"q": "777"})
    row = re.search(rf'<tr id="entrant-{who.pk}".*?</tr>', desk.content.decode(), re.S)
    assert row is not None and f"Table {table}, Seat {seat}" in row[0]
    assert "Series 2: table, seat" in desk.content.decode()
    # the web seat list finds him too, by number and by name, with start numbers
    url = reverse("scoring:tournament-seats", args=[t.pk, 2])
    for query in ("777", who.player.name.upper()):
        found = admin.get(url, {"q": query}).content.decode()
        assert f"<strong>{who.player.name}</strong> (No. 777): Table {table}, Seat {seat}" \
            in found, query
        assert found.count('<li id="table-') == 1
    assert admin.get(url).content.decode().count('<li id="table-') == 251

    # a member's account: his seat on the signed-in page
    user = get_user_model().objects.create_user(username="paula", password="pw-for-tests")
    Player.objects.filter(pk=who.player_id).update(user=user)
    client.force_login(user)
    assert seat_of(client.get(reverse("scoring:my-seat")).content.decode()) == \
        seats[who.player_id]


@needs_poppler
def test_the_seat_list_pdf_of_1001_is_sorted_by_surname(
        client: Client, second_of_1001: tuple[Club, Tournament]) -> None:
    club, t = second_of_1001
    client.force_login(make_user(club, "admin"))
    pdf = client.get(reverse("scoring:tournament-seats-pdf", args=[t.pk, 2]))
    assert pdf.status_code == 200
    printed = text(pdf.content).split("Tables")[0]  # the people's pages, not the tables'
    order: list[str] = []
    entry = re.compile(r"(\S[^,\n]*?, \S+)\s+\d+\s+\d+\s+\d+")
    for page in printed.split("\f"):
        lines = [entry.findall(line) for line in page.splitlines()]
        order += [found[0] for found in lines if found]  # down the left half
        order += [found[1] for found in lines if len(found) > 1]  # then the right
    names = {f"{n.split()[-1]}, {' '.join(n.split()[:-1])}": n for n in
             Player.objects.filter(entries__tournament=t).values_list("name", flat=True)}
    assert len(order) == 1001 and set(order) == set(names)
    assert order == sorted(order, key=lambda shown: surname_key(names[shown]))
    assert order[:3] == ["Abel, Änne", "Abel, Anton", "Abel, Bernd"]  # Ä with the A
    # "Ärger" among the A (not after Z), "Groß" beside "Gross", "Özdemir" among the O
    assert order.index("Ärger, Paula") < order.index("Bauer, Paula")
    assert abs(order.index("Groß, Paula") - order.index("Gross, Paula")) <= len(FIRST)
    assert order.index("Özdemir, Paula") < order.index("Richter, Paula")


@pytest.mark.parametrize("players", [41, 1001])
def test_the_personal_page_costs_the_same_queries_at_41_and_1001(
        client: Client, django_assert_max_num_queries: Any, players: int,
        request: pytest.FixtureRequest) -> None:
    t = (request.getfixturevalue("second_of_1001")[1] if players == 1001
         else second_series(make_club(), players))
    entrant = t.entrants.get(number=players // 2)
    url = reverse("scoring:seat-key", args=[entrant.seat_key])
    with django_assert_max_num_queries(SEAT_QUERIES):  # cold: the ranking computed once
        page = client.get(url)
    with django_assert_max_num_queries(SEAT_QUERIES):
        page = client.get(url)
    assert seat_of(page.content.decode()) == drawn(t, 2)[entrant.player_id]
    live = reverse("scoring:seat-key-live", args=[entrant.seat_key])
    with django_assert_max_num_queries(POLL_QUERIES):
        poll = client.get(live, HTTP_IF_NONE_MATCH=page["ETag"])
    assert poll.status_code == 304
