"""The season table and a player's page in a real browser (Debian chromium via Playwright):
a heading sorts the table, a name opens the player's page, and its charts are drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from scoring.demo.season import build_season
from scoring.models import Season
from tests.web.factories import browser_login, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_sort_the_season_table_and_open_a_players_charts(
        page: Page, live_server: LiveServer, screenshot_dir: Path) -> None:
    build_season(evenings=6, tables=2, series=2, seed=11)
    season = Season.objects.get()
    browser_login(page.context, live_server, make_user(season.club, "viewer"))
    page.goto(live_server.url + reverse("scoring:season", args=[season.pk]))
    assert page.locator("h1").inner_text().startswith("Saisontabelle")
    page.get_by_role("link", name="Schnitt").click()
    page.wait_for_url("**sort=average**")
    averages = page.locator("table.ranking tbody tr td:nth-child(7)").all_inner_texts()
    values = [float(v.replace(".", "").replace(",", ".").replace("\u2212", "-"))
              for v in averages]
    assert values == sorted(values)
    assert page.locator("th[aria-sort=ascending]").inner_text().startswith("Schnitt")
    page.screenshot(path=str(screenshot_dir / "season-table.png"), full_page=True)

    page.locator("table.ranking tbody th a").first.click()
    page.wait_for_selector("svg.chart-bars")
    assert page.locator("svg[role=img]").count() >= 4
    box = page.locator("svg.chart-bars").bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    page.screenshot(path=str(screenshot_dir / "season-player.png"), full_page=True)
