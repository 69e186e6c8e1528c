"""The table screen without network, in Debian's chromium (issue 13, client side): the service
worker brings the screen back on a reload without network, and deals are recorded by tapping
with the engine in the browser computing values, refusals, dealer, Bock and Ramsch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.urls import NoReverseMatch, reverse
from playwright.sync_api import expect

from scoring.engine import evaluate_table
from scoring.models import Table
from scoring.selectors import table_document

from .factories import browser_login, make_club, make_table, make_user
from .test_round_browser import Scorer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

TABLET = {"width": 1024, "height": 768}
ENGINE = 120_000  # ms: Pyodide's first start in a fresh profile on a busy machine


@pytest.fixture
def table() -> Table:
    return make_table(make_club(), players=3, preset="club_evening")


@pytest.fixture
def tablet(new_context: Any, live_server: Any, table: Table, screenshot_dir: Path) -> Scorer:
    user = make_user(table.evening.club, "scorer")
    context = new_context()
    browser_login(context, live_server, user)
    page = context.new_page()
    scorer = Scorer(page, live_server, table, screenshot_dir, "offline").open()
    # The service worker has installed (every file precached) and controls the page, and the
    # engine is ready, before the network goes.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null ||"
                           " (navigator.serviceWorker.ready.then(() => location.reload()), false)",
                           timeout=ENGINE)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=ENGINE)
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    return scorer


def waiting(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.SkatOffline.ops()")


def offline_record(device: Scorer, *taps: str, expect_waiting: int) -> None:
    device.tap(*taps)
    device.page.wait_for_function(f"() => SkatOffline.ops().length === {expect_waiting}")


def test_offline_reload_and_deals(tablet: Scorer, table: Table) -> None:
    device = tablet
    page = device.page
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#deal-form")).to_be_visible()
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    # 1: a Grand, Kontra said and lost by the defenders: Bock follows (club evening rules).
    device.tap("declarer-0", "game-grand", "matadors-1", "bid-24", "kontra-kontra",
               "kontra_by-1")
    expect(page.locator("#preview .breakdown")).to_be_visible()
    offline_record(device, "result-won", expect_waiting=1)
    # 2: everybody passed.
    offline_record(device, "kind-passed", "save", expect_waiting=2)
    device.shot("after-two", screen=True)
    ops = waiting(page)
    records = [op["record"] for op in ops]
    print(json.dumps(records))
    document = table_document(table, records)
    result = evaluate_table(document)
    rows = page.locator("table.rows tbody tr.pending")
    expect(rows).to_have_count(2)
    print(result["deals"][0]["entries"], result["next"])
    try:
        reverse("scoring:table-sync", args=[table.pk])
    except NoReverseMatch:
        return
