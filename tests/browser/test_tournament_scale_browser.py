"""Issue 24's acceptance in a real browser (Debian chromium through Playwright): a Preisskat
of 1,001 players registered through the services, series 1 drawn, on SQLite. Every desk,
ranking, board and TV page answers 200 (the documents too), the public board without
signing in; the desk's HTML stays under 300 kB; its search finds an entrant by start number.
Screenshots of the desk and its seat list at 1,001 players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.web.factories import browser_login, make_club, make_user
from tests.web.test_tournament_scale import DESK_BYTES, big_tournament, tournament_urls

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_every_tournament_page_at_1001_players_in_a_browser(
        new_context: Any, live_server: Any, screenshot_dir: Path) -> None:
    club = make_club()
    admin = make_user(club, "admin")
    t = big_tournament(club, 1001)
    context = new_context()
    browser_login(context, live_server, admin)
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    for url in tournament_urls(t):
        if url.endswith((".pdf", ".csv")) or "/fragment/" in url or "/version/" in url:
            answer = context.request.get(live_server.url + url)
            assert answer.status == 200, url
            continue
        response = page.goto(live_server.url + url)
        assert response is not None and response.status == 200, url
    # the public board and its TV page for a visitor who is not signed in
    anonymous = new_context().new_page()
    for name in ("board", "board-tv"):
        response = anonymous.goto(live_server.url + reverse(f"scoring:{name}",
                                                            args=[t.board_key]))
        assert response is not None and response.status == 200, name
    desk = live_server.url + reverse("scoring:tournament", args=[t.pk])
    response = page.goto(desk)
    assert response is not None and len(response.body()) < DESK_BYTES
    expect(page.locator("table.entrants tbody tr")).to_have_count(50)
    page.screenshot(path=str(screenshot_dir / "tournament-1001-desk.png"), full_page=True)
    page.get_by_label("Teilnehmer suchen (Startnummer, Name oder Verein)").fill("777")
    page.get_by_role("button", name="Suchen").click()
    expect(page.locator("table.entrants tbody tr")).to_have_count(1)
    assert page.url.endswith("?q=777#entrants-heading")  # the list in view, not the form
    expect(page.locator("table.entrants tbody tr td").first).to_have_text("777")
    page.screenshot(path=str(screenshot_dir / "tournament-1001-desk-search.png"))
    page.get_by_role("link", name="Alle Tische und Plätze").click()
    expect(page.locator(".series-tables li")).to_have_count(251)
    page.screenshot(path=str(screenshot_dir / "tournament-1001-seats.png"))
