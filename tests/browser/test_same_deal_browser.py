"""Issue 23, item 4, in Debian's chromium: the same deal entered on two tablets is kept once.

- Online: two tablets (browser contexts of their own) tap the same deal from the same
  version; A's is stored; B's save meets the changed table: the panel says "Dasselbe Spiel
  hat das andere Gerät schon gespeichert", its first choice (highlighted) keeps the other
  device's deal, appending is the plain second choice; B takes the first: one deal.
- Offline: tablet B is offline and queues the deal that tablet A stores meanwhile; B comes
  back: its panel says so, the first choice keeps one: one deal, and the audit log has the
  drop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import AuditEntry, Deal, Table
from tests.web.factories import browser_login, make_user

from . import test_offline_table_browser as offline_tests
from .test_offline_table_browser import installed, wait_ops
from .test_round_browser import Scorer

# The offline table's service worker is part of what these tests test (blocked elsewhere:
# tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

SAME = "Dasselbe Spiel hat das andere Gerät schon gespeichert"
# Clara's Spades with 1, bid 22, won: 22 at the 3-table's first deal.
DEAL = ("declarer-2", "game-spades", "matadors-1", "bid-22")


@pytest.fixture
def table_players() -> int:
    return 3  # the shared ``table`` fixture (tests/web/fixtures.py) at three


# Browser contexts of their own (storage, service worker), retired at the end of the test.
contexts = offline_tests.contexts


@pytest.fixture
def tablets(contexts: Callable[[], BrowserContext], live_server: LiveServer, table: Table,
           screenshot_dir: Path) -> Callable[[str], Scorer]:
    def open_device(name: str) -> Scorer:
        user = make_user(table.evening.club, "scorer", username=f"scorer-{name}")
        context = contexts()
        browser_login(context, live_server, user)
        page = context.new_page()
        return Scorer(page, live_server, table, screenshot_dir, f"same-{name}").open()
    return open_device


def first_choice_keeps_one(page: Page, panel: str, keep: str, append: str) -> None:
    """The panel says it is the same deal; its first choice is "keep one", highlighted (a
    filled button, unlike the plain "append" after it)."""
    box = page.locator(panel)
    expect(box.locator(".conflict-same")).to_contain_text(SAME)
    choices = box.locator(".conflict-choices .conflict-choice")
    expect(choices.first).to_have_attribute("data-tap", keep)
    expect(choices.first).to_contain_text("Einmal behalten")
    expect(choices.nth(1)).to_have_attribute("data-tap", append)
    expect(choices.nth(1)).to_contain_text("trotzdem")
    first, second = (choices.nth(i).evaluate("e => getComputedStyle(e).backgroundColor")
                     for i in (0, 1))
    assert first != second and second == "rgb(255, 255, 255)", (first, second)
    keep_box, append_box = choices.first.bounding_box(), choices.nth(1).bounding_box()
    assert keep_box and append_box
    assert (keep_box["y"], keep_box["x"]) < (append_box["y"], append_box["x"])


def test_the_same_deal_online_from_two_tablets_is_kept_once(
        tablets: Callable[[str], Scorer], table: Table) -> None:
    a, b = tablets("a"), tablets("b")
    for d in (a, b):  # both tap the same deal at version 0
        d.tap(*DEAL)
        d.preview()
    a.save("result-won")
    expect(a.page.locator(".last-rows tbody tr")).to_have_count(1)
    assert Deal.objects.filter(table=table).count() == 1
    # B's last tap saves at once: the table has changed, so B sees both versions.
    with b.page.expect_response(lambda r: r.request.method == "POST"
                                and "/preview/" not in r.url) as response:
        b.tap("result-won")
    assert response.value.status == 409
    b.page.wait_for_load_state()
    expect(b.page.locator("#conflict")).to_be_visible()
    first_choice_keeps_one(b.page, "#conflict", "conflict-theirs", "conflict-append")
    b.page.locator("#conflict").scroll_into_view_if_needed()
    b.page.screenshot(path=str(b.shots / "same-deal-online-1024x768.png"))
    b.tap("conflict-theirs")
    b.page.wait_for_url(b.table_url)
    expect(b.page.locator(".last-rows tbody tr")).to_have_count(1)
    assert Deal.objects.filter(table=table).count() == 1
    assert list(AuditEntry.objects.filter(table=table, deal__isnull=False)
                .values_list("action", flat=True)) == ["create"]


@pytest.mark.browser_context_args(viewport={"width": 390, "height": 844})
def test_the_same_deal_on_a_phone_keeps_one_first(tablets: Callable[[str], Scorer],
                                                  table: Table) -> None:
    """On a phone the highlighted "keep it once" stands first too, whole and tappable."""
    a, b = tablets("phone-a"), tablets("phone-b")
    for d in (a, b):
        d.tap(*DEAL)
        d.preview()
    a.save("result-won")
    with b.page.expect_response(lambda r: r.request.method == "POST"
                                and "/preview/" not in r.url) as response:
        b.tap("result-won")
    assert response.value.status == 409
    b.page.wait_for_load_state()
    first_choice_keeps_one(b.page, "#conflict", "conflict-theirs", "conflict-append")
    keep = b.page.locator('[data-tap="conflict-theirs"]')
    keep.scroll_into_view_if_needed()
    box = keep.bounding_box()
    assert box and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert b.page.evaluate("document.documentElement.scrollWidth") <= 390
    b.page.screenshot(path=str(b.shots / "same-deal-online-390x844.png"))
    b.tap("conflict-theirs")
    b.page.wait_for_url(b.table_url)
    assert Deal.objects.filter(table=table).count() == 1


def test_the_same_deal_queued_offline_is_kept_once(tablets: Callable[[str], Scorer],
                                                   table: Table) -> None:
    a, b = tablets("a"), tablets("b")
    installed(b.page)
    b.page.context.set_offline(True)
    expect(b.page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    b.tap(*DEAL, "result-won")
    wait_ops(b.page, 1)
    # Meanwhile A, online, stores the same deal.
    a.tap(*DEAL)
    a.preview()
    a.save("result-won")
    assert Deal.objects.filter(table=table).count() == 1
    b.page.context.set_offline(False)
    panel = b.page.locator("#offline-conflict")
    expect(panel).to_be_visible(timeout=30_000)
    first_choice_keeps_one(b.page, "#offline-conflict", "offline-conflict-theirs",
                           "offline-conflict-append")
    expect(panel.locator(".conflict-theirs .conflict-row-same")).to_have_count(1)
    b.shot("same-deal-offline", screen=True)
    b.tap("offline-conflict-theirs")
    b.page.wait_for_function(
        "() => window.SkatOffline && SkatOffline.loaded && SkatOffline.ops().length === 0",
        timeout=30_000)
    assert Deal.objects.filter(table=table).count() == 1
    drop = AuditEntry.objects.get(table=table, action="drop")
    assert drop.deal_id is None and SAME in drop.reason
