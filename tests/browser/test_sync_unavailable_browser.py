"""The offline table and a server that cannot store (issue 26, item 12), in Debian's
chromium: /sync/ answers its JSON 503 with Retry-After (the database gone); the operation
stays in the tablet's queue as it was, nothing is stored, and it is sent again by itself
after the wait, stored once."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Route, expect

from scoring.models import Table

from . import test_offline_table_browser as offline_tests
from .helpers import wait_until
from .test_offline_table_browser import wait_ops
from .test_round_browser import Scorer

# The offline table's service worker is part of what these tests test (blocked elsewhere:
# tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

table_players = offline_tests.table_players  # a table of three
contexts = offline_tests.contexts
tablet = offline_tests.tablet


def test_a_503_keeps_the_operation_and_it_is_sent_again_after_the_wait(
        tablet: Scorer, table: Table) -> None:
    page = tablet.page
    answered: list[int] = []

    def unavailable(route: Route) -> None:
        answered.append(503)
        route.fulfill(status=503, headers={"Retry-After": "1"},
                      content_type="application/json",
                      body=json.dumps({"status": "unavailable", "message": "later"}))

    page.context.route("**/tables/*/sync/", unavailable)
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-0", "game-spades", "toggle-hand", "matadors-1", "bid-18",
               "result-won")
    wait_ops(page, 1)
    page.context.set_offline(False)
    page.evaluate("() => SkatOffline.flush()")
    page.wait_for_function("() => SkatOffline.isOffline() === false")
    wait_until(page, lambda: bool(answered), timeout=30, what="the queue to be sent")
    ops = page.evaluate("() => SkatOffline.ops()")
    assert [op["status"] for op in ops] == ["pending"], ops
    assert table.deals.count() == 0
    # The server can store again: the queue goes out by itself after Retry-After.
    page.context.unroute("**/tables/*/sync/")
    page.wait_for_function("() => SkatOffline.ops().length === 0", timeout=30_000)
    assert table.deals.count() == 1
    page.wait_for_load_state()
    page.close(run_before_unload=False)


def test_a_table_screen_the_server_cannot_show_comes_from_the_workers_cache(
        tablet: Scorer, table: Table) -> None:
    """The database gone: the table screen answers the site's 503 page; the service worker
    shows the table it kept instead, and the scorer scores on into the queue."""
    page = tablet.page
    page.context.route("**/tables/*/", lambda route: route.fulfill(
        status=503, headers={"Retry-After": "15"}, content_type="text/html",
        body="<!DOCTYPE html><h1>Etwas ist schiefgegangen</h1>"))
    page.context.route("**/tables/*/sync/", lambda route: route.abort())
    page.goto(tablet.table_url)
    expect(page.locator("#deal-form")).to_be_visible()
    assert "schiefgegangen" not in page.content()
    page.context.unroute("**/tables/*/")
    page.context.unroute("**/tables/*/sync/")
    page.close(run_before_unload=False)
