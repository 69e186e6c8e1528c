""""Mein Platz" on a phone (390×844, Debian chromium, German, under the site's
Content-Security-Policy): a player opens his personal link before the draw and is told that
he waits (start number); the organiser draws series 1 at the desk (a 1024×768 tablet); the
phone shows his table and seat without a reload within 5 s (its fragment polled every 3 s,
304 while nothing moved). The page never scrolls sideways, no console errors. The desk's
search for his start number shows the same table and seat, and the seat page reads on a
tablet too. Screenshots: ``my-seat-*.png``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Seat
from tests.web.factories import browser_login, make_club, make_user
from tests.web.tournaments import make_tournament

from .helpers import console_errors, fits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}


def test_the_phone_shows_the_seat_within_5_s_of_the_draw(contexts: Any, live_server: Any,
                                                          screenshot_dir: Path) -> None:
    tournament = make_tournament(make_club(), players=13)
    entrant = tournament.entrants.select_related("player").get(number=5)
    url = live_server.url + reverse("scoring:seat-key", args=[entrant.seat_key])

    phone_context = contexts(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    errors = console_errors(phone)
    phone.goto(url)
    waiting = phone.locator("article.my-seat.waiting")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text(entrant.player.name)
    expect(waiting).to_contain_text("5")
    assert phone.locator(".my-seat-where[data-table]").count() == 0
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "my-seat-01-phone-waiting.png"),
                     full_page=True)

    admin = make_user(tournament.club, "admin")
    desk_context = contexts(viewport=TABLET)
    browser_login(desk_context, live_server, admin)
    desk = desk_context.new_page()
    desk.goto(live_server.url + reverse("scoring:tournament", args=[tournament.pk]))
    desk.get_by_role("button", name="Serie 1 auslosen").click()
    expect(desk.locator(".messages")).to_contain_text("Serie 1")
    drawn = time.monotonic()

    seat = Seat.objects.select_related("table").get(
        player=entrant.player, table__evening=tournament.evening, table__series=1)
    where = phone.locator(
        f'.my-seat-where[data-series="1"][data-table="{seat.table.number}"]'
        f'[data-seat="{seat.position + 1}"]')
    expect(where).to_be_visible(timeout=5000)
    assert time.monotonic() - drawn < 5.0
    mates = [s.player.name for s in seat.table.seats.select_related("player")]
    for name in mates:
        expect(phone.locator(".my-seat-mates")).to_contain_text(name)
    assert phone.locator(".my-seat-where").inner_text().count(str(seat.table.number))
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "my-seat-02-phone-seated.png"),
                     full_page=True)
    assert errors == []

    # the desk's search for his start number shows the same table and seat
    desk.goto(live_server.url + reverse("scoring:tournament", args=[tournament.pk])
              + "?q=5#entrants-heading")
    cell = desk.locator(f"#entrant-{entrant.pk} td.entrant-seat")
    expect(cell).to_contain_text(str(seat.table.number))
    expect(cell).to_contain_text(str(seat.position + 1))
    desk.screenshot(path=str(screenshot_dir / "my-seat-03-desk-search.png"))
    # the receipt's QR code for a player registered at the desk
    cell.get_by_role("link").click()
    expect(desk.locator(".seat-receipt svg.qr")).to_be_visible()
    desk.screenshot(path=str(screenshot_dir / "my-seat-04-desk-receipt.png"))
    # the personal page on a tablet
    tablet = contexts(viewport=TABLET).new_page()
    tablet.goto(url)
    expect(tablet.locator(".my-seat-where[data-table]")).to_be_visible()
    fits(tablet)
    tablet.screenshot(path=str(screenshot_dir / "my-seat-05-tablet.png"))
