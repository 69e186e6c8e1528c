"""A small Preisskat end to end in a real browser (Debian chromium through Playwright):

the organiser sets the tournament up, registers a member in advance and a guest at the door
and checks the member in (the other eleven through the services), draws series 1 (13
players: one 4-table and three 3-tables); at every table a device enters the table code
from the table card and records a deal through the real table screen (five taps), while the
public live board, open on an anonymous device without a reload, shows the tables' progress
within 5 s; the rest of each list is filled through the services; series 2 is drawn against
repeated opponents and played the same way; then the ranking with the prize money, the
payouts and the organiser's fees, and the TV board. Screenshots of each step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Table, Tournament
from scoring.reads.tournament import tournament_ranking
from scoring.writes import tournament as tw
from tests.web.factories import browser_login, make_club, make_user
from tests.web.tournaments import GUESTS, fill_series

from .test_round_browser import STANDARD_GAME, Scorer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WITHIN = 5000  # ms: the board shows a saved deal within 5 s


def play_series(new_context: Any, live_server: Any, tournament: Tournament, series: int,
                board: Any, shots: Path) -> None:
    """A device per table enters its code and records one deal on the table screen; the
    board follows without a reload; the rest of the list through the services."""
    tables = list(Table.objects.filter(evening=tournament.evening, series=series)
                  .order_by("number"))
    assert sorted(t.seats.count() for t in tables) == [3, 3, 3, 4]
    for table in tables:
        context = new_context()
        page = context.new_page()
        page.goto(live_server.url + reverse("scoring:code", args=[table.access_code]))
        page.wait_for_url(f"**/tables/{table.pk}/**")
        device = Scorer(page, live_server, table, shots, f"tournament-s{series}-t{table.number}")
        device.tap(*STANDARD_GAME[:-1])
        device.preview()
        device.save("result-won")
        assert device.taps == 5
        if table.number == 1:
            device.shot("saved", screen=True)
        length = 4 if table.seats.count() == 4 else 3
        expect(board.locator(".progress li").nth(table.number - 1)).to_contain_text(
            f"1/{length}", timeout=WITHIN)
        context.close()
    assert board.evaluate("window.sameDocument === true")
    fill_series(tournament, series, seed=series * 10)


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_a_preisskat_of_13_players_end_to_end(new_context: Any, live_server: Any,
                                              screenshot_dir: Path) -> None:
    club = make_club()
    admin = make_user(club, "admin")
    context = new_context()
    browser_login(context, live_server, admin)
    page = context.new_page()

    # The organiser sets the tournament up.
    page.goto(live_server.url + reverse("scoring:club", args=[club.slug]))
    page.get_by_role("link", name="Neues Turnier").click()
    page.fill("#id_name", "Preisskat im Advent")
    page.fill("#id_series_rounds", "1")  # 4 games at a 4-table, 3 at a 3-table: short
    page.fill("#id_entry_fee", "10.00")
    page.fill("#id_passed_fee", "0.50")
    page.fill("#id_team_fee", "20.00")
    page.fill("#id_prizes", "50%\n30%\n10.00")
    page.check("#id_public")
    page.screenshot(path=str(screenshot_dir / "tournament-01-new.png"), full_page=True)
    page.get_by_role("button", name="Turnier anlegen").click()
    page.wait_for_url("**/tournaments/*/")
    tournament = Tournament.objects.get(name="Preisskat im Advent")
    assert tournament.evening.series_rounds == 1 and tournament.public

    # A member registered in advance, then checked in; a guest at the door.
    page.select_option("#id_member", label="Anna Altenburg")
    page.check("#id_paid")
    page.get_by_role("button", name="Anmelden", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Startnummer 1")
    page.fill("#id_name", "Gustav Gast")
    page.fill("#id_home_club", "SC Gastfreund")
    page.check("#id_paid")
    page.check("#id_at_door")
    page.get_by_role("button", name="Anmelden", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Startnummer 2")
    anna = tournament.entrants.get(number=1)
    assert not anna.checked_in
    page.locator(f"#entrant-{anna.pk}").get_by_role("button", name="nicht da").click()
    expect(page.locator(f"#entrant-{anna.pk}").get_by_role("button", name="da",
                                                            exact=True)).to_be_visible()
    checked = tournament.entrants.get(pk=anna.pk)
    assert checked.checked_in and checked.paid
    # The other eleven through the services: five members and six guests, all paid.
    members = club.players.filter(guest=False).exclude(pk=anna.player_id).order_by("name")
    for index, member in enumerate(members):
        tw.entrant_register(tournament=tournament, member=member, paid=True, at_door=True,
                            team="Altenburg" if index < 4 else "")
    for index, name in enumerate(GUESTS[1:]):
        tw.entrant_register(tournament=tournament, name=name, home_club="SC Gast",
                            paid=True, at_door=True, team="Gäste" if index < 4 else "")
    assert tournament.entrants.count() == 13

    # Series 1 is drawn with a recorded seed.
    page.reload()
    page.fill("#id_seed", "42")
    page.get_by_role("button", name="Serie 1 auslosen").click()
    expect(page.locator(".messages")).to_contain_text("Startwert 42")
    page.screenshot(path=str(screenshot_dir / "tournament-02-desk-drawn.png"), full_page=True)
    cards = page.request.get(live_server.url + reverse(
        "scoring:tournament-cards-pdf", args=[tournament.pk, 1]))
    assert cards.ok and cards.body().startswith(b"%PDF")

    # The public board, on a device of a stranger in the hall.
    hall = new_context()
    board = hall.new_page()
    board.goto(live_server.url + reverse("scoring:board", args=[tournament.board_key]))
    board.evaluate("window.sameDocument = true")
    expect(board.locator(".progress li")).to_have_count(4)

    play_series(new_context, live_server, tournament, 1, board, screenshot_dir)
    expect(board.locator(".progress li.done")).to_have_count(4, timeout=WITHIN)
    board.screenshot(path=str(screenshot_dir / "tournament-03-board-series-1.png"),
                     full_page=True)

    # Series 2, drawn again against repeated opponents.
    page.reload()
    page.get_by_role("button", name="Serie 2 auslosen").click()
    expect(page.locator(".messages")).to_contain_text("Serie 2 ist ausgelost")
    expect(board.locator("h2").first).to_contain_text("Serie 2", timeout=WITHIN)
    play_series(new_context, live_server, tournament, 2, board, screenshot_dir)
    expect(board.locator(".progress li.done")).to_have_count(4, timeout=WITHIN)
    board.screenshot(path=str(screenshot_dir / "tournament-04-board-final.png"),
                     full_page=True)

    # The ranking, the prizes, the payouts and the fees.
    ranking = tournament_ranking(tournament)
    assert len(ranking.rows) == 13 and all(set(r.series) == {1, 2} for r in ranking.rows)
    page.goto(live_server.url + reverse("scoring:tournament-results", args=[tournament.pk]))
    rows = page.locator("table.ranking").first.locator("tbody tr")
    expect(rows).to_have_count(13)
    expect(rows.first).to_contain_text(ranking.rows[0].name)
    money = ranking.money
    assert money.pot == 130 and money.payouts + money.carried == money.pot
    assert money.fees > 0  # lost games at 0.50 € each
    expect(page.locator("table.money")).to_contain_text("130,00")
    expect(page.locator("table.money")).to_contain_text(f"{money.fees:.2f}".replace(".", ","))
    page.screenshot(path=str(screenshot_dir / "tournament-05-ranking.png"), full_page=True)
    csv = page.request.get(live_server.url + reverse(
        "scoring:tournament-results-csv", args=[tournament.pk]))
    assert csv.ok and ranking.rows[0].name in csv.text()

    # The TV mode: large type, as many rows a page as fit (test_board_browser.py turns the
    # pages of 1,001 players); 13 fit on one.
    tv = hall.new_page()
    tv.set_viewport_size({"width": 1280, "height": 720})
    tv.goto(live_server.url + reverse("scoring:board-tv", args=[tournament.board_key]))
    expect(tv.locator("body.tv")).to_have_count(1)
    expect(tv.locator(".ranking tbody tr:visible")).to_have_count(13)
    expect(tv.locator(".progress-line")).to_contain_text("Serie 2: 4 von 4 Tischen fertig")
    tv.screenshot(path=str(screenshot_dir / "tournament-06-tv.png"))
