"""A Preisskat of 1,001 players on SQLite (issue 24, item 1): registered through the services,
series 1 drawn; the desk, the ranking, its PDF and CSV, the seat list, table cards, a
standard list and the public board (page, TV, fragments) answer 200. No SQL statement
carries one parameter per player (SQLite's expression tree stops at a depth of 1,000), the
desk's queries do not grow with the field, and the desk stays under 300 kB: its entrants are
paged (50 a page) and searchable, its series folded to counts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Club, RuleProfile, Table, Tournament
from scoring.presets import PRESETS
from scoring.views import board
from scoring.writes import signup
from scoring.writes import tournament as tw
from tests.django_fixtures import kept_for_the_module

from .factories import make_club, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

DESK_BYTES = 300_000
DESK_QUERIES = 25  # the desk's bound, the same at 41 and at 1,001 players


def big_tournament(club: Club, players: int) -> Tournament:
    """``players`` registered through the services (guests of three home clubs, every
    second paid, a tenth in a category), checked in, series 1 drawn."""
    profile = RuleProfile.objects.get(club=club, name=PRESETS["isko_tournament"]["name"])
    tournament = tw.tournament_create(
        club=club, name="Großer Preisskat", date=timezone.localdate(), profile=profile,
        series_count=3, series_rounds=1, entry_fee=Decimal("10.00"),
        settlement=tw.fee_settlement(lost_fee=Decimal("0.50"), lost_fee_high=Decimal("1.00"),
                                     lost_fee_from=4, passed_fee=Decimal("0.50")),
        categories=["Damen", "Senioren"], team_fee=Decimal("20.00"),
        tandem_fee=Decimal("8.00"), reseat="draw", tie_rule="won",
        prizes=["50%", "30%", "10.00"], public=True)
    signup.signup_settings(tournament=tournament, open=True, closes=None, limit=2000)
    for index in range(players):
        tw.entrant_register(
            tournament=tournament, name=f"Spieler {index + 1:04d}",
            home_club=["SC Nord", "Herz Bube", "Grand Hand"][index % 3],
            category="Damen" if index % 10 == 0 else "",
            team=f"Team {index // 4 + 1}" if index < 40 else "",
            paid=index % 2 == 0, at_door=True)
    tw.series_draw(tournament=tournament, seed=1)
    return tournament


def tournament_urls(t: Tournament) -> list[str]:
    table = Table.objects.filter(evening=t.evening, series=1).order_by("number").first()
    assert table is not None
    key = t.board_key
    return [
        reverse("scoring:tournament", args=[t.pk]),
        reverse("scoring:tournament", args=[t.pk]) + "?page=21",
        reverse("scoring:tournament", args=[t.pk]) + "?q=Nord&page=2",
        reverse("scoring:tournament-seats", args=[t.pk, 1]),
        reverse("scoring:evening", args=[t.evening_id]),
        reverse("scoring:table", args=[table.pk]),
        reverse("scoring:tournament-results", args=[t.pk]),
        reverse("scoring:tournament-results-pdf", args=[t.pk]),
        reverse("scoring:tournament-results-csv", args=[t.pk]),
        reverse("scoring:tournament-seats-pdf", args=[t.pk, 1]),
        reverse("scoring:tournament-cards-pdf", args=[t.pk, 1]),
        reverse("scoring:tournament-list-pdf", args=[t.pk, 1, table.number]),
        reverse("scoring:board", args=[key]),
        reverse("scoring:board-tv", args=[key]),
        reverse("scoring:board-fragment", args=[key]),
        reverse("scoring:board-tv-fragment", args=[key]),
        reverse("scoring:board-version", args=[key]),
        reverse("scoring:signup", args=[t.signup_key]),  # closed: series 1 is drawn
    ]


@pytest.fixture(scope="module")
def field_of_1001(django_db_setup: None,
                  django_db_blocker: Any) -> Iterator[tuple[Club, Tournament]]:
    """The 1,001-player tournament (big_tournament), registered once for the module's tests:
    each test's changes to it are rolled back (tests/django_fixtures.py)."""
    with kept_for_the_module(django_db_blocker):
        club = make_club("gross", "Skatclub Gross")
        yield club, big_tournament(club, 1001)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()


def test_every_page_of_a_1001_player_tournament_answers(
        client: Client, django_assert_max_num_queries: Any,
        field_of_1001: tuple[Club, Tournament]) -> None:
    club, t = field_of_1001
    admin = make_user(club, "admin")
    assert Table.objects.filter(evening=t.evening, series=1).count() == 251
    client.force_login(admin)
    failed = {}
    for url in tournament_urls(t):
        try:
            response = client.get(url)
            status: Any = response.status_code
        except Exception as err:  # noqa: BLE001
            status = repr(err)[:200]
        if status != 200:
            failed[url] = status
    assert failed == {}
    desk = reverse("scoring:tournament", args=[t.pk])
    client.get(desk)
    with django_assert_max_num_queries(DESK_QUERIES):
        page = client.get(desk)
    assert len(page.content) < DESK_BYTES, len(page.content)
    html = page.content.decode()
    assert len(_entrants(html)) == 50
    assert "Spieler 0001" in html and "Spieler 0051" not in html
    assert "251 Tische (248 Vierer-, 3 Dreiertische), 1001 Spieler" in html
    assert "Seite 1 von 21" in html
    last = client.get(desk + "?page=21").content.decode()
    assert _entrants(last) == ["1001"]
    # a start number finds that entrant; a name or club what contains it
    assert _entrants(client.get(desk + "?q=777").content.decode()) == ["777"]
    assert _entrants(client.get(desk + "?q=spieler 0123").content.decode()) == ["123"]
    nord = client.get(desk + "?q=nord").content.decode()
    assert "334 Teilnehmer gefunden." in nord and len(_entrants(nord)) == 50
    assert "Niemand gefunden." in client.get(desk + "?q=Xaver").content.decode()
    # bad input: a page beyond the last shows the last page, never a 500
    assert "Spieler 1001" in client.get(desk + "?page=99999").content.decode()
    assert client.get(desk + "?page=abc&q=" + "x" * 500).status_code == 200
    # marking an entrant goes back to the desk's page that shows him
    who = t.entrants.get(number=777)
    answer = client.post(reverse("scoring:tournament-entrant", args=[t.pk, who.pk]),
                         {"action": "unpaid"})
    assert answer["Location"] == f"{desk}?page=16#entrant-{who.pk}"
    assert f'id="entrant-{who.pk}"' in client.get(answer["Location"]).content.decode()
    seats = client.get(reverse("scoring:tournament-seats", args=[t.pk, 1])).content.decode()
    assert seats.count('<li id="table-') == 251
    assert client.get(reverse("scoring:tournament-seats", args=[t.pk, 2])).status_code == 404


def _entrants(html: str) -> list[str]:
    """The start numbers of the desk's entrant rows."""
    return re.findall(r'<tr id="entrant-\d+"[^>]*>\s*<td>(\d+)</td>', html)


def test_the_desks_queries_do_not_grow_with_the_field(
        client: Client, django_assert_max_num_queries: Any) -> None:
    """The same bound at 41 players as the 1,001 above holds."""
    club = make_club()
    t = big_tournament(club, 41)
    client.force_login(make_user(club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    client.get(desk)
    with django_assert_max_num_queries(DESK_QUERIES):
        assert client.get(desk).status_code == 200


def test_the_board_at_1001_players_one_progress_line_and_find_me(
        client: Client, django_assert_max_num_queries: Any) -> None:
    """Issue 24, item 3: the board of 1,001 players folds its 251 tables into one line (the
    TV page shows no box at all), carries every start number for "find me", and a find
    without JavaScript is answered from the board already rendered: no query, no render."""
    from unittest import mock

    t = big_tournament(make_club(), 1001)  # its own: the find's no-query answer is timed
    key = t.board_key
    line = "Serie 1: 0 von 251 Tischen fertig · 251 spielen"
    tv = client.get(reverse("scoring:board-tv-fragment", args=[key])).content.decode()
    assert f'<h2 class="progress-line">{line}</h2>' in tv and "<li" not in tv
    assert len(re.findall(r'<tr id="p\d+">', tv)) == 1001
    url = reverse("scoring:board", args=[key])
    with mock.patch.object(board, "_slot", return_value=board._slot()):
        phone = client.get(url).content.decode()
        assert f'<h2 class="progress-line">{line}</h2>' in phone
        assert len(re.findall(r'<tr id="p\d+">', phone)) == 1001
        with django_assert_max_num_queries(0):
            found = client.get(url, {"find": "777"})
            named = client.get(url, {"find": "spieler 0123"})
            several = client.get(url, {"find": "Spieler 01"})
    assert found["Location"] == f"{url}?find=777&at=777#p777"
    assert named["Location"] == f"{url}?find=spieler+0123&at=123#p123"
    assert "100 gefunden:" in several.content.decode()
def test_the_three_pdfs_of_1001_players_render_once_and_hold_everybody(
        client: Client, screenshot_dir: Any, field_of_1001: tuple[Club, Tournament]) -> None:
    """Issue 24, item 6: the ranking, the seat list and the table cards of 1,001 players,
    rendered by WeasyPrint (the grids of scoring/pdf/tournament.py), then served from the
    shared cache; page 1 of each saved as PNG under screenshots/ to be looked at."""
    import shutil
    import subprocess

    from .pdfs import pages, text

    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils missing")
    club, t = field_of_1001
    client.force_login(make_user(club, "admin"))
    urls = {
        "ranking": reverse("scoring:tournament-results-pdf", args=[t.pk]),
        "seats": reverse("scoring:tournament-seats-pdf", args=[t.pk, 1]),
        "cards": reverse("scoring:tournament-cards-pdf", args=[t.pk, 1]),
    }
    pdfs = {}
    for name, url in urls.items():
        first = client.get(url)
        assert first.status_code == 200 and first["X-PDF-Cache"] == "miss", name
        again = client.get(url)
        assert again["X-PDF-Cache"] == "hit" and again.content == first.content, name
        pdfs[name] = first.content
        path = screenshot_dir / f"tournament-1001-{name}.pdf"
        path.write_bytes(first.content)
        subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", str(path),
                        str(screenshot_dir / f"tournament-1001-{name}")], check=True,
                       timeout=120)
    seats = text(pdfs["seats"])
    assert all(f"Spieler {n:04d}" in seats for n in range(1, 1002))
    assert "Tische" in seats and "Seite 1 von" in seats
    ranking = text(pdfs["ranking"])
    assert all(f"Spieler {n:04d}" in ranking for n in (1, 500, 1001))
    assert "Mannschaftswertung" in ranking and "Preisgeld" in ranking
    assert pages(pdfs["cards"]) == 126  # 251 cards, two to a sheet
    assert "Tisch 251" in text(pdfs["cards"], 126)
def test_the_directors_cockpit_of_1001_players(
        client: Client, django_assert_max_num_queries: Any,
        field_of_1001: tuple[Club, Tournament]) -> None:
    """Issue 24, item 5: the cockpit of series 1 (251 tables) is one compact page in the same
    number of queries as at 13 players, its polled part too; every table's version poll
    carries the message in one query still."""
    from scoring.reads import cockpit as reads
    from scoring.writes import cockpit as cw

    from .test_cockpit import COCKPIT_QUERIES

    club, t = field_of_1001
    cw.series_start(tournament=t, series=1)
    cw.notice_send(tournament=t, text="Serie 2 beginnt um 15:30")
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:tournament-cockpit", args=[t.pk])
    live = reverse("scoring:tournament-cockpit-live", args=[t.pk])
    client.get(url)
    with django_assert_max_num_queries(COCKPIT_QUERIES):
        page = client.get(url)
    with django_assert_max_num_queries(COCKPIT_QUERIES):
        part = client.get(live + "?show=open&sort=idle")
    assert page.status_code == part.status_code == 200
    html = page.content.decode()
    assert len(page.content) < 250_000, len(page.content)
    assert html.count('<tr id="cockpit-table-') == 251
    # one round a series here: 4 games at each of 248 4-tables, 3 at each of 3 3-tables
    assert "Serie 1: 251 Tische" in html and "0 von 1001 Spielen gespielt" in html
    assert "<strong>251</strong> nicht fertig" in html
    assert part.content.decode().count('<tr id="cockpit-table-') == 251
    assert reads.cockpit(t).counts["open"] == 251
    table = Table.objects.filter(evening=t.evening, series=1).order_by("-number").first()
    assert table is not None
    version = reverse("scoring:table-version", args=[table.pk])
    with django_assert_max_num_queries(2):
        line = client.get(version).json()["tournament"]
    assert line["notice"] == "Serie 2 beginnt um 15:30" and line["ends"] is not None
RESULTS_QUERIES = 20  # the results page with every prize list, the same at 41 and 1,001


@pytest.mark.parametrize("players", [41, 1001])
def test_the_prize_lists_and_the_unpaid_warning_at_1001_players(
        client: Client, django_assert_max_num_queries: Any, players: int,
        request: pytest.FixtureRequest) -> None:
    """Issue 24 item 4: the category, team and tandem prize lists on the results page, its
    PDF and CSVs, and the desk's unpaid warning (half the field has not paid), in a bounded
    number of queries whatever the field."""
    from scoring.writes import preisskat

    if players == 1001:
        club, t = request.getfixturevalue("field_of_1001")
    else:
        club = make_club()
        t = big_tournament(club, players)
    preisskat.tournament_list_prizes(tournament=t, list_prizes={
        "categories": {"Damen": ["20.00", "10%"]}, "team": ["50%", "25%"]})
    client.force_login(make_user(club, "admin"))
    results = reverse("scoring:tournament-results", args=[t.pk])
    client.get(results)
    with django_assert_max_num_queries(RESULTS_QUERIES):
        page = client.get(results)
    html = page.content.decode()
    assert 'class="prize-list-category"' in html and 'class="prize-list-team"' in html
    csv_url = reverse("scoring:tournament-results-csv", args=[t.pk])
    for key in ("c0", "c1", "team", "tandem"):
        assert client.get(f"{csv_url}?list={key}").status_code == 200, key
    assert client.get(reverse("scoring:tournament-results-pdf", args=[t.pk])).status_code \
        == 200
    desk = reverse("scoring:tournament", args=[t.pk])
    with django_assert_max_num_queries(DESK_QUERIES):
        page = client.get(desk)
    assert len(page.content) < DESK_BYTES, len(page.content)
    unpaid = re.search(r'<span class="unpaid-numbers">([^<]*)</span>', page.content.decode())
    assert unpaid is not None
    assert unpaid.group(1).split(", ")[:3] == ["2", "4", "6"]
    assert len(unpaid.group(1).split(", ")) == players // 2
