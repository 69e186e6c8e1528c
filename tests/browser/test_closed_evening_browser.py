"""A closed evening, a deal's history and the reopening, as an admin sees them in a real browser
(screenshots)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from scoring.models import Evening
from tests.web.factories import make_club, make_table


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_screenshots_of_a_closed_evening_and_a_deal_history(
        page: Page, live_server: LiveServer, screenshot_dir: Path) -> None:
    from scoring.writes.services import Actor, deal_edit
    from tests.web.factories import browser_login, make_user
    from tests.web.test_sheet_pages import play as play_records

    table = make_table(make_club(), players=3)
    (deal,) = play_records(table, [{"kind": "game", "declarer": 1, "game": "clubs",
                                    "matadors": 1, "bid": 18, "result": "lost"}])
    deal_edit(deal=deal, reason="Vertippt", expected_version=table.version,
              actor=Actor(None, "test"), record={
                  "kind": "game", "declarer": 1, "game": "spades", "matadors": 1,
                  "bid": 18, "result": "won"})
    Evening.objects.filter(pk=table.evening_id).update(closed=True)
    browser_login(page.context, live_server, make_user(table.evening.club, "admin"))
    page.set_viewport_size({"width": 1000, "height": 800})
    page.goto(live_server.url + reverse("scoring:evening", args=[table.evening_id]))
    assert page.locator("form.evening-state button").inner_text() == "Abend wieder öffnen"
    page.screenshot(path=str(screenshot_dir / "issue14-closed-evening.png"), full_page=True)
    page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    assert "Dieser Abend ist abgeschlossen" in page.inner_text(".entry-panel")
    page.screenshot(path=str(screenshot_dir / "issue14-closed-table.png"), full_page=True)
    page.goto(live_server.url + reverse("scoring:deal-history", args=[table.pk, deal.pk]))
    assert "Ergebnis: verloren → gewonnen" in page.inner_text(".changes")
    page.screenshot(path=str(screenshot_dir / "issue14-deal-history.png"), full_page=True)
    page.goto(live_server.url + reverse("scoring:evening", args=[table.evening_id]))
    page.fill("#reopen-reason", "Nachtrag Tisch 1")
    page.locator("form.evening-state button").click()
    page.wait_for_load_state("load")
    page.goto(live_server.url + reverse("scoring:evening-audit", args=[table.evening_id]))
    assert "wieder geöffnet" in page.inner_text("table.audit")
    page.screenshot(path=str(screenshot_dir / "issue14-audit-reopened.png"), full_page=True)
