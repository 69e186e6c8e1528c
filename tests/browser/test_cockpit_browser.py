"""The director's message and the series clock on a tournament's table screen (issue 24,
item 5), in Debian's chromium at a landscape tablet (1024×768): the line shows the message
with its time and the clock counting down, floats over the site's header, and the standard
game is still five taps without the window scrolling; × hides the message on this tablet, a
new message shows again, clearing it or losing the connection hides it. The cockpit's clock
counts down too, and its list follows a deal saved at a table without a reload.

Screenshots: ``cockpit-table-line-1024x768.png`` (the table screen with the message and the
clock), ``cockpit-1024x768.png`` (the cockpit)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Table
from scoring.writes import cockpit as cw
from scoring.writes import tournament as tw
from tests.web.factories import browser_login, make_club, make_user
from tests.web.test_cockpit import record
from tests.web.tournaments import make_tournament

from .test_table_screen_fits import LANDSCAPE, PHONE, Screen

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def context(contexts: Callable[..., BrowserContext]) -> BrowserContext:
    return contexts(viewport={"width": LANDSCAPE[0], "height": LANDSCAPE[1]})


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_the_table_screen_shows_the_message_and_the_clock_and_still_fits(
        context: BrowserContext, live_server: LiveServer, screenshot_dir: Path) -> None:
    t = make_tournament(make_club(), players=13, rounds=12)
    tw.series_draw(tournament=t, seed=1)
    cw.series_start(tournament=t, series=1)
    cw.notice_send(tournament=t, text="Serie 2 beginnt um 15:30")
    table = next(x for x in Table.objects.filter(evening=t.evening).order_by("number")
                 if x.seats.count() == 4)
    scorer = make_user(t.club, "scorer")
    browser_login(context, live_server, scorer)
    s = Screen(context.new_page(), live_server, table, screenshot_dir, LANDSCAPE, scorer)
    s.open()
    line = s.page.locator("#tournament-line")
    expect(line.locator(".line-text")).to_have_text("Serie 2 beginnt um 15:30")
    expect(line.locator(".line-time")).not_to_be_empty()
    clock = line.locator(".series-clock")
    expect(clock).to_have_text(re.compile(r"^noch 1:59:\d\d$"))
    expect(line.locator(".line-series")).to_have_text("Serie 1")
    expect(line).to_be_in_viewport()
    # the line covers nothing of the table's header: the round, the dealer, the totals
    box = line.bounding_box()
    assert box is not None and box["y"] == 0 and box["height"] < 48, box
    for selector in (".status-head h1", ".round", ".seats", ".totals-strip"):
        other = s.page.locator(selector).bounding_box()
        assert other is not None, selector
        assert (other["y"] >= box["y"] + box["height"]
                or other["x"] + other["width"] <= box["x"]), (selector, other, box)
    assert s.page.evaluate("document.documentElement.scrollHeight") <= LANDSCAPE[1] or \
        s.page.evaluate("window.scrollY") == 0
    s.no_sideways_scroll()
    s.page.screenshot(path=str(screenshot_dir / "cockpit-table-line-1024x768.png"))
    # still five taps on one screen, the window never scrolled (Screen.tap checks that every
    # tapped control is in view and not under anything, the line included)
    for name in ("declarer-1", "game-clubs", "matadors-2", "bid-36", "result-won"):
        s.tap(name)
    deal = s.saved()
    assert s.taps == 5 and deal.record["bid"] == 36
    # the page after the save shows the line at once, from the last answer (the first poll
    # comes 2.5 s later)
    expect(line.locator(".line-text")).to_have_text("Serie 2 beginnt um 15:30", timeout=1500)
    # × hides it on this tablet, also after a reload; the next message shows again
    line.locator(".line-dismiss").tap()
    expect(line.locator(".line-notice")).to_be_hidden()
    expect(clock).to_be_visible()
    s.page.reload()
    expect(clock).to_be_visible()
    expect(line.locator(".line-notice")).to_be_hidden()
    cw.notice_send(tournament=t, text="Bitte die Listen unterschreiben")
    expect(line.locator(".line-text")).to_have_text("Bitte die Listen unterschreiben")
    # no connection: no message (the clock runs on by itself)
    context.set_offline(True)
    expect(line.locator(".line-notice")).to_be_hidden()
    expect(clock).to_be_visible()
    context.set_offline(False)
    expect(line.locator(".line-text")).to_be_visible()
    # the director clears it
    cw.notice_clear(tournament=t)
    expect(line.locator(".line-notice")).to_be_hidden()
    expect(clock).to_be_visible()


def test_the_cockpit_counts_down(context: BrowserContext, live_server: LiveServer,
                                 screenshot_dir: Path) -> None:
    t = make_tournament(make_club(), players=13, rounds=1)
    tw.series_draw(tournament=t, seed=1)
    cw.notice_send(tournament=t, text="Serie 2 beginnt um 15:30")
    browser_login(context, live_server, make_user(t.club, "admin"))
    page = context.new_page()
    page.goto(live_server.url + reverse("scoring:tournament-cockpit", args=[t.pk]))
    page.get_by_role("button", name="Serie 1 starten").click()
    clock = page.locator(".cockpit-clock .series-clock")
    expect(clock).to_have_text(re.compile(r"^noch 1:59:5\d$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)  # it counts
    expect(page.locator("#cockpit-live tbody tr")).to_have_count(4)
    # the list follows the tables by itself (polled every 15 s)
    table = Table.objects.get(evening=t.evening, number=2)
    record(table, 2)
    expect(page.locator("#cockpit-table-2 .games")).to_contain_text(
        f"2/{table.seats.count()}", timeout=25_000)
    page.screenshot(path=str(screenshot_dir / "cockpit-1024x768.png"), full_page=True)


def test_on_a_phone_the_line_covers_nothing_of_the_table(
        contexts: Callable[..., BrowserContext], live_server: LiveServer,
        screenshot_dir: Path) -> None:
    t = make_tournament(make_club(), players=13, rounds=12)
    tw.series_draw(tournament=t, seed=1)
    cw.series_start(tournament=t, series=1)
    cw.notice_send(tournament=t, text="Serie 2 beginnt um 15:30 – bitte pünktlich sein, "
                                      "die Listen der ersten Serie unterschreiben")
    table = Table.objects.filter(evening=t.evening).order_by("number").first()
    assert table is not None
    context = contexts(viewport={"width": PHONE[0], "height": PHONE[1]})
    browser_login(context, live_server, make_user(t.club, "scorer"))
    page = context.new_page()
    page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    line = page.locator("#tournament-line")
    expect(line.locator(".line-text")).to_be_visible()
    box = line.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0]
    for selector in (".status-head h1", ".totals-strip"):
        other = page.locator(selector).bounding_box()
        assert other is not None and other["y"] >= box["y"] + box["height"], (
            selector, other, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    page.screenshot(path=str(screenshot_dir / "cockpit-table-line-390x844.png"))
    # a tap on the cut message shows it whole, another folds it again
    line.locator(".line-text").tap()
    expect(line).to_have_class(re.compile(r"\bwhole\b"))
    opened = line.bounding_box()
    assert opened is not None and opened["height"] > box["height"]
    assert opened["x"] + opened["width"] <= PHONE[0]
    page.screenshot(path=str(screenshot_dir / "cockpit-table-line-390x844-open.png"))
    line.locator(".line-text").tap()
    expect(line).not_to_have_class(re.compile(r"\bwhole\b"))
