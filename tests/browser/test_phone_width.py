"""On a 390 × 844 phone nothing is wider than the screen (issue 12, points 1 and 6.9): the
settlement page, a table's score sheet and the evening overview, with long names, a Ramsch
and Bock rounds. Wide tables scroll inside their own box; the page itself never does."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from tests.web.factories import browser_login, make_club, make_user
from tests.web.test_pdf_story import story_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_page_is_wider_than_a_phone(page: Page, live_server: LiveServer, screenshot_dir: Path,
                                       lang: str) -> None:
    club = make_club()
    table = story_table(club)
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang,
                               "url": live_server.url}])
    browser_login(page.context, live_server, make_user(club, "admin"))
    urls = {"settlement": reverse("scoring:settlement", args=[table.evening_id]),
            "sheet": reverse("scoring:sheet", args=[table.pk]),
            "evening": reverse("scoring:evening", args=[table.evening_id])}
    widths = {}
    for name, url in urls.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == lang
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
        page.screenshot(path=str(screenshot_dir / f"phone-{name}-{lang}.png"), full_page=True)
    assert widths == dict.fromkeys(urls, 390)
