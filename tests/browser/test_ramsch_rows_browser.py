"""Issue 23, item 6, in Debian's chromium: the Ramsch rows of the score sheet say who lost,
Jungfrau and Durchmarsch, readable on a tablet and on a phone (screenshots), and the page is
no wider than the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Table
from tests.web.factories import browser_login, make_club, make_table, make_user
from tests.web.test_ramsch_rows import RAMSCHES
from tests.web.test_sheet_pages import play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.parametrize("width", [1024, 390])
def test_the_ramsch_rows_read_on_tablet_and_phone(page: Page, live_server: LiveServer,
                                                  screenshot_dir: Path, width: int) -> None:
    table: Table = make_table(make_club(), players=3, preset="club_evening")
    play(table, RAMSCHES)
    browser_login(page.context, live_server, make_user(table.evening.club, "viewer"))
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 768})
    page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
    outcome = page.locator("table.sheet .ramsch-outcome")
    expect(outcome).to_have_text(["Verlierer: Anna · Jungfrau", "Verlierer: Bernd",
                                  "Durchmarsch: Clara"])
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    outcome.first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"ramsch-rows-sheet-{width}.png"))
