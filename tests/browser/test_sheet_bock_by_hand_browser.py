"""Bock by hand and the capped Ramsch on the sheet, as a reader sees it in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from scoring.models import Deal
from tests.web.factories import browser_login, make_user
from tests.web.test_sheet_bock_by_hand import manual_table


@pytest.mark.django_db(transaction=True)
@pytest.mark.browser
def test_a_reader_sees_bock_by_hand_on_the_sheet(page: Page, live_server: LiveServer,
                                                 screenshot_dir: Path) -> None:
    table = manual_table()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de",
                               "url": live_server.url}])
    browser_login(page.context, live_server, make_user(table.evening.club, "viewer"))
    page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
    first = Deal.objects.get(table=table, position=1)
    second = Deal.objects.get(table=table, position=2)
    assert page.locator(f"#deal-{first.pk} td.details").is_visible()
    assert "Bock (von Hand)" in page.locator(f"#deal-{first.pk} td.details").inner_text()
    assert "+ Bockrunde von Hand" in page.locator(f"#deal-{second.pk}").inner_text()
    page.screenshot(path=str(screenshot_dir / "sheet-bock-by-hand-de.png"), full_page=True)

