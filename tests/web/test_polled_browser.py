"""The evening overview in a real browser (Debian chromium via Playwright): its 5 s poll is
revalidated with the ETag the browser keeps, and a deal saved meanwhile appears without a
reload; the tables stay as they were between changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, Request
from pytest_django.live_server_helper import LiveServer

from .factories import browser_login, make_club, make_user
from .test_evening_overview import evening_with_tables
from .test_sheet_pages import ME, won

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_overview_polls_with_its_etag_and_shows_a_new_deal(
        page: Page, live_server: LiveServer, screenshot_dir: Path) -> None:
    from scoring.writes.services import deal_record

    club = make_club()
    evening = evening_with_tables(club, tables=3)
    browser_login(page.context, live_server, make_user(club, "viewer"))
    asked: list[str | None] = []

    def seen(request: Request) -> None:
        if "/live/" in request.url:
            asked.append(request.headers.get("if-none-match"))

    page.on("request", seen)
    page.goto(live_server.url + reverse("scoring:evening", args=[evening.pk]))
    assert page.locator("article.compact-sheet").count() == 3
    page.wait_for_timeout(11_000)  # two polls, nothing changed
    assert len(asked) >= 2 and page.locator("article.compact-sheet").count() == 3
    first = evening.tables.order_by("number").first()
    assert first is not None
    deal_record(table=first, record=won(1), expected_version=first.version, actor=ME)
    page.wait_for_function(
        "() => document.querySelector('#evening-live article .entry') !== null",
        timeout=12_000)
    page.screenshot(path=str(screenshot_dir / "evening-live-polled.png"), full_page=True)
