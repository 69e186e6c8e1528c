"""The evening overview in a real browser (Debian chromium via Playwright): its 5 s poll names
the overview it shows (If-None-Match from the page, then from each answer applied), is
answered 304 while nothing changed, and a deal saved meanwhile arrives as that one table,
swapped in place: the other tables' elements stay as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, Request, Response
from pytest_django.live_server_helper import LiveServer

from tests.web.factories import browser_login, make_club, make_user, won
from tests.web.test_evening_overview import evening_with_tables
from tests.web.test_sheet_pages import ME

from .helpers import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_the_overview_polls_with_its_etag_and_shows_a_new_deal(
        page: Page, live_server: LiveServer, screenshot_dir: Path) -> None:
    from scoring.writes.services import deal_record

    club = make_club()
    evening = evening_with_tables(club, tables=3)
    first, second, _third = evening.tables.order_by("number")
    browser_login(page.context, live_server, make_user(club, "viewer"))
    asked: list[str | None] = []
    answers: list[tuple[int, str]] = []

    def seen(request: Request) -> None:
        if "/live/" in request.url:
            asked.append(request.headers.get("if-none-match"))

    def answered(response: Response) -> None:
        if "/live/" in response.url:
            answers.append((response.status, response.text() if response.status == 200
                            else ""))

    page.on("request", seen)
    page.on("response", answered)
    page.goto(live_server.url + reverse("scoring:evening", args=[evening.pk]))
    assert page.locator("article.compact-sheet").count() == 3
    shown = page.get_attribute("#evening-live", "data-live-etag")
    assert shown and shown.startswith(f'"evening-{evening.pk}-')
    # a mark on another table's element: a swap of the whole overview would lose it
    page.evaluate(f"() => document.getElementById('evening-table-{second.pk}')"
                  ".setAttribute('data-kept', 'yes')")
    wait_until(page, lambda: len(answers) >= 2, timeout=15, what="two polls")  # every 5 s
    assert len(asked) >= 2 and set(asked) == {shown}
    assert {status for status, _ in answers} == {304}
    assert page.locator("article.compact-sheet").count() == 3
    # the poll that brings the change, awaited as such: the page may show the change before
    # Playwright has handed its response to ``answered``
    with page.expect_response(lambda r: "/live/" in r.url and r.status == 200,
                              timeout=12_000) as change:
        deal_record(table=first, record=won(1), expected_version=first.version, actor=ME)
    change.value.finished()
    page.wait_for_function(
        f"() => document.querySelector('#evening-table-{first.pk} article .entry') !== null",
        timeout=12_000)
    changes = [text for status, text in answers if status == 200]
    assert len(changes) == 1 and changes[0].count("<article") == 1
    assert f'id="evening-table-{first.pk}"' in changes[0]
    assert page.get_attribute(f"#evening-table-{second.pk}", "data-kept") == "yes"
    assert page.locator("article.compact-sheet").count() == 3
    now = page.get_attribute("#evening-live", "data-live-etag")
    assert now != shown
    polled = len(answers)  # the next poll names the new state and gets 304
    wait_until(page, lambda: len(answers) > polled, timeout=10, what="the next poll")
    assert asked[-1] == now and answers[-1][0] == 304
    page.screenshot(path=str(screenshot_dir / "evening-live-polled.png"), full_page=True)
