"""The table screen in a real browser (Debian chromium via Playwright): five taps record a
standard won suit game (the result saves at once), the live preview explains it, and the tap
targets are big enough."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page
from pytest_django.live_server_helper import LiveServer

from scoring.models import Deal, Table
from tests.web.factories import browser_login, make_club, make_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

TAPS = ["declarer-1", "game-clubs", "matadors-1", "bid-24", "result-won"]


OpenTable = Callable[[int, int], tuple[Page, Table]]  # a new table on a tablet of this size


@pytest.fixture
def open_table(contexts: Callable[..., BrowserContext],
               live_server: LiveServer) -> Iterator[OpenTable]:
    """Opens a new table on a touch tablet of the given size: the session's Debian chromium
    and context settings (tests/browser/conftest.py), with this test's viewport."""
    def _page(width: int, height: int) -> tuple[Page, Table]:
        table = make_table(make_club())
        context = contexts(viewport={"width": width, "height": height})
        browser_login(context, live_server, make_user(table.evening.club, "scorer"))
        page = context.new_page()
        page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
        return page, table

    yield _page


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (800, 1280)])
def test_five_taps_record_a_standard_game(open_table: OpenTable, screenshot_dir: Path, width: int,
                                          height: int) -> None:
    page, table = open_table(width, height)
    for tap in TAPS[:-1]:
        page.locator(f'[data-tap="{tap}"]').tap()
    page.screenshot(path=str(screenshot_dir / f"entry-{width}x{height}.png"), full_page=True)
    page.locator('[data-tap="result-won"]').tap()  # saves at once
    page.wait_for_url("**/tables/*/?saved=*")
    assert "Kreuz 12 = 24" in page.inner_text(".notice-saved")
    record = Deal.objects.get(table=table).record
    assert (record["declarer"], record["game"], record["bid"]) == (1, "clubs", 24)
    assert "+24" in page.inner_text(".last-rows")


def test_online_the_table_scores_without_the_offline_engine(open_table: OpenTable) -> None:
    """The browser tests not marked ``engine`` refuse the offline engine's worker
    (tests/browser/conftest.py), as a tablet that cannot run it would: the engine says it
    failed, and online the five taps still save the deal, the server answering the preview."""
    page, table = open_table(1024, 768)
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'failed'")
    for tap in TAPS:
        page.locator(f'[data-tap="{tap}"]').tap()
    page.wait_for_url("**/tables/*/?saved=*")
    assert Deal.objects.get(table=table).record["bid"] == 24


def test_tap_targets_are_at_least_44px(open_table: OpenTable) -> None:
    page, _table = open_table(800, 1280)
    for tap in [*TAPS, "save"]:
        box = page.locator(f'[data-tap="{tap}"]').bounding_box()
        assert box is not None, f"{tap} is shown"
        assert box["width"] >= 44 and box["height"] >= 44, (tap, box)


def test_the_preview_shows_a_refusal_and_disables_save(open_table: OpenTable) -> None:
    page, _table = open_table(1024, 768)
    for tap in ("declarer-1", "game-null", "bid-24", "result-won"):
        page.locator(f'[data-tap="{tap}"]').click()
    # the answer to the last tap (an earlier one may show what is still missing)
    page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    page.wait_for_selector("#preview .errors")
    assert "24" in page.inner_text("#preview .errors")
    assert not Deal.objects.exists()  # the quick result did not save a refused deal
    assert page.locator('[data-tap="save"]').is_disabled()
    page.locator('[data-tap="bid-23"]').click()
    page.wait_for_selector("#preview .breakdown")
    assert page.locator('[data-tap="save"]').is_enabled()


def test_the_declarer_cannot_be_tapped_as_the_kontra_sayer(open_table: OpenTable) -> None:
    page, _table = open_table(1024, 768)
    page.locator('[data-tap="declarer-1"]').tap()
    assert page.locator("#kontra_by-1").is_disabled()
    assert page.locator("#kontra_by-2").is_enabled()
    page.locator('[data-tap="declarer-2"]').tap()
    assert page.locator("#kontra_by-1").is_enabled() and page.locator("#kontra_by-2").is_disabled()


def test_the_screen_says_saving_while_the_deal_is_on_its_way(open_table: OpenTable) -> None:
    """Saving (here by the quick result) switches the connection state to "saving", and a
    live preview answering after that does not switch it back. (The test's own submit
    listener, added after the page's, reads the state and keeps the page from leaving so it
    can be looked at.)"""
    page, table = open_table(1024, 768)
    page.evaluate("""() => document.getElementById('deal-form').addEventListener('submit', e => {
        e.preventDefault();
        window.seenState = document.querySelector('.connection').dataset.state;
    })""")
    for tap in TAPS:  # the quick result sends the deal
        page.locator(f'[data-tap="{tap}"]').tap()
    page.wait_for_function("() => window.seenState !== undefined")
    assert page.evaluate("window.seenState") == "saving"
    page.wait_for_timeout(500)  # any preview still under way has answered by now
    assert page.locator(".connection").get_attribute("data-state") == "saving"
    assert page.inner_text(".connection") == "Wird gespeichert …"
    assert not Deal.objects.filter(table=table).exists()
