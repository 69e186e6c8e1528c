"""Issue 24, items 4 and 6: a tournament's PDFs at 1,000 players.

- The ranking and the seat list print their long lists as grids (scoring/pdf/tournament.py):
  blocks of lines, one box each for WeasyPrint, not a table cell per player and column
  (1 ms a cell: 4-7 s at 1,001 players); the table cards are plain blocks, two to a sheet,
  their QR codes images.
- Each is rendered once per board version through the shared cache and its render slots
  (scoring/pdf/documents.py): a second request renders nothing, a new deal renders anew.
- The standard list (Spielliste) of a 4-table is one A4 page (48 lines), with the players'
  start numbers; a 3-table's (36 lines) likewise.

Renders are counted with a stand-in for WeasyPrint, as in test_pdf_once.py; the page counts
are read from real PDFs with poppler.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engine import generate_deals
from scoring.models import Table, Tournament
from scoring.pdf import tournament as documents
from scoring.pdf import weasy
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_user
from .pdfs import needs_poppler, pages, text
from .tournaments import fill_series, make_tournament

pytestmark = pytest.mark.django_db


class Renders:
    """WeasyPrint's stand-in: counts the renders and answers at once."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, html: str, **options: Any) -> weasy.Rendered:
        with self.lock:
            self.count += 1
        digest = hashlib.sha256(html.encode()).hexdigest()
        return weasy.Rendered(pdf=f"%PDF-1.7 fake {digest}".encode(), pages=1, layout_s=0.0,
                              write_s=0.0)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[Renders]:
    fake = Renders()
    monkeypatch.setattr(weasy, "render", fake)
    yield fake


def _drawn(players: int = 13, rounds: int = 1) -> tuple[Tournament, Client]:
    from scoring.writes import tournament as tw

    t = make_tournament(make_club(), players=players, rounds=rounds)
    tw.series_draw(tournament=t, seed=4)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(make_user(t.club, "admin"))
    return t, client


def _urls(t: Tournament) -> dict[str, str]:
    table = Table.objects.filter(evening=t.evening, series=1).order_by("number").first()
    assert table is not None
    return {
        "ranking": reverse("scoring:tournament-results-pdf", args=[t.pk]),
        "seats": reverse("scoring:tournament-seats-pdf", args=[t.pk, 1]),
        "cards": reverse("scoring:tournament-cards-pdf", args=[t.pk, 1]),
        "list": reverse("scoring:tournament-list-pdf", args=[t.pk, 1, table.number]),
    }


def _one_deal(t: Tournament) -> None:
    table = Table.objects.filter(evening=t.evening, series=1).order_by("number").first()
    assert table is not None
    record = generate_deals(1, table.seats.count(), first_dealer=table.first_dealer, seed=9)[0]
    deal_record(table=table, record=record, expected_version=table.version,
                actor=Actor(None, "test"))


def test_each_document_renders_once_per_version_of_what_it_prints(renders: Renders) -> None:
    t, client = _drawn()
    urls = _urls(t)
    first = {name: client.get(url) for name, url in urls.items()}
    assert {r.status_code for r in first.values()} == {200}
    assert {r["X-PDF-Cache"] for r in first.values()} == {"miss"}
    assert renders.count == 4
    again = {name: client.get(url) for name, url in urls.items()}
    assert {r["X-PDF-Cache"] for r in again.values()} == {"hit"}
    assert renders.count == 4  # the second request renders nothing
    assert all(again[n].content == first[n].content for n in urls)
    # a new deal moves the board version on: the ranking and the table's list are rendered
    # anew, once; the seat list and the cards print nothing a deal changes
    _one_deal(t)
    fresh = {name: client.get(url)["X-PDF-Cache"] for name, url in urls.items()}
    assert fresh == {"ranking": "miss", "list": "miss", "seats": "hit", "cards": "hit"}
    assert renders.count == 6
    assert {client.get(url)["X-PDF-Cache"] for url in urls.values()} == {"hit"}
    assert renders.count == 6
    # a seated player renamed: everything that prints his name, once more
    seat = Table.objects.filter(evening=t.evening, series=1).order_by("number").first()
    assert seat is not None
    player = seat.seats.order_by("position").first().player  # type: ignore[union-attr]
    player.name = "Umbenannt Neu"
    player.save()
    renamed = {name: client.get(url) for name, url in urls.items()}
    assert renamed["seats"]["X-PDF-Cache"] == "miss"
    assert renamed["cards"]["X-PDF-Cache"] == "miss"
    assert renamed["seats"].content != first["seats"].content


def test_the_cards_of_another_address_are_another_document(renders: Renders,
                                                             settings: Any) -> None:
    """The cards print their link and QR code with the site's address."""
    settings.ALLOWED_HOSTS = ["testserver", "skat.example.org"]
    t, client = _drawn()
    url = _urls(t)["cards"]
    client.get(url)
    assert client.get(url)["X-PDF-Cache"] == "hit"
    other = client.get(url, HTTP_HOST="skat.example.org")
    assert other["X-PDF-Cache"] == "miss" and renders.count == 2


def _cells(html: str) -> int:
    return len(re.findall(r"<t[dh][ >]", html))


def test_the_long_lists_are_grids_not_a_cell_per_player() -> None:
    """The seat list and the ranking of 41 players: a few blocks, never a table cell per
    player and column (the 4-7 s of a 1,001-player field, issue 24)."""
    from tests.web.test_tournament_scale import big_tournament

    club = make_club()
    t = big_tournament(club, 41)
    seats = documents.seat_list(t, 1, "de").html()
    ranking = documents.rankings(t, None, "de").html()
    assert _cells(seats) == 0 and seats.count('class="grid"') <= 3
    for number in (1, 41):
        # surname first (issue 35: the seat list by surname), then the start number
        assert re.search(rf"{number:04d}, Spieler +{number}\b", seats)
    # the ranking's lines in blocks of CHUNK; only the money is a small HTML table
    assert _cells(ranking) < 30, _cells(ranking)
    assert ranking.count('class="grid"') <= 41 // documents.CHUNK + 12
    assert "Spieler 0041" in ranking


@needs_poppler
def test_the_4_table_list_is_one_a4_page_with_start_numbers() -> None:
    """48 games at a 4-table, filled from the deals and blank, and 36 at a 3-table: one page
    each, every player's name over his column with his start number."""
    t, client = _drawn(players=13, rounds=12)
    fill_series(t, 1)
    numbers = dict(t.entrants.values_list("player_id", "number"))
    tables = list(Table.objects.filter(evening=t.evening, series=1).order_by("number"))
    sizes = set()
    for table in tables:
        seats = list(table.seats.select_related("player").order_by("position"))
        sizes.add(len(seats))
        url = reverse("scoring:tournament-list-pdf", args=[t.pk, 1, table.number])
        for blank in ("", "?blank=1"):
            pdf = client.get(url + blank).content
            assert pages(pdf) == 1, (table.number, len(seats), blank)
            words = text(pdf)
            assert str(12 * len(seats)) in words.split()  # the last game's line
            for seat in seats:
                assert seat.player.name in words
                assert f"Nr. {numbers[seat.player_id]}" in words, (seat.player.name, words)
    assert sizes == {3, 4}
