"""Shared tablets (issue 26, item 11), in Debian's chromium: after a scorer signs out, the
service worker no longer shows the table screen or its state offline; the scorer is warned
before signing out while deals of theirs still wait to be sent (and they stay queued under
the account); a table-code device's queue on the same tablet survives the sign-out and a
reload."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Dialog, Page, expect
from playwright.sync_api import Error as PlaywrightError
from pytest_django.live_server_helper import LiveServer

from scoring.models import Table

from . import test_offline_table_browser as offline_tests
from .test_round_browser import Scorer

# The offline table's service worker is part of what these tests test (blocked elsewhere:
# tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

table_players = offline_tests.table_players  # a table of three
contexts = offline_tests.contexts
tablet = offline_tests.tablet

QUEUE = "skatclub-offline"


def queue(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("""() => new Promise((resolve, reject) => {
      const open = indexedDB.open("skatclub-offline", 1);
      open.onsuccess = () => {
        const r = open.result.transaction("ops").objectStore("ops").getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      };
      open.onerror = () => reject(open.error);
    })"""))


def enqueue(page: Page, op: dict[str, Any]) -> None:
    page.evaluate("""(op) => new Promise((resolve, reject) => {
      const open = indexedDB.open("skatclub-offline", 1);
      open.onsuccess = () => {
        const t = open.result.transaction("ops", "readwrite");
        t.objectStore("ops").add(op);
        t.oncomplete = resolve;
        t.onerror = () => reject(t.error);
      };
    })""", op)


def cached(page: Page, path: str) -> bool:
    return bool(page.evaluate("(path) => caches.open('skatclub-pages')"
                              ".then(c => c.match(path)).then(Boolean)", path))


def test_sign_out_takes_the_accounts_pages_and_keeps_the_table_code_queue(
        tablet: Scorer, table: Table, live_server: LiveServer) -> None:
    page = tablet.page
    screen = reverse("scoring:table", args=[table.pk])
    state = reverse("scoring:table-state", args=[table.pk])
    page.evaluate("(url) => fetch(url, {credentials: 'same-origin'})",
                  live_server.url + state)
    page.wait_for_function("(p) => caches.open('skatclub-pages').then(c => c.match(p))"
                           ".then(Boolean)", arg=state)
    account = str(page.evaluate(
        "() => document.querySelector('script[data-offline-table]').dataset.account"))
    assert account and account == str(page.evaluate(
        "() => document.querySelector('form[data-signout]').dataset.account"))
    deal = {"kind": "game", "declarer": 0, "game": "clubs", "matadors": 1, "bid": 18,
            "result": "won"}

    def op(owner: str, status: str) -> dict[str, Any]:
        return {"table": table.pk, "op": "save", "request_id": str(uuid.uuid4()),
                "base_version": 0, "record": deal, "status": status, "account": owner,
                "created": 0}

    # Away from the table screen (nothing sends the queue), a tablet that also served a
    # table-code device: its deal waits; the scorer's own queue has one held and one waiting.
    page.goto(live_server.url + reverse("scoring:account"))
    enqueue(page, op("", "pending"))
    enqueue(page, op(account, "held"))
    enqueue(page, op(account, "pending"))
    sign_out = page.locator("form[data-signout] button")

    # Deals of the scorer's wait: asked first; "cancel" keeps them signed in, nothing cleared.
    asked: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    sign_out.click()
    page.wait_for_function("() => true")
    expect(sign_out).to_be_visible()
    assert asked and "nicht gesendet" in asked[0], asked
    assert cached(page, screen) and cached(page, state)
    assert len(queue(page)) == 3

    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        sign_out.click()
    expect(page.locator("form[data-signout]")).to_have_count(0)
    # The scorer's pages are gone from the worker's cache; their held entry too; their
    # waiting deal stays queued under their account; the table-code device's deal stays.
    assert not cached(page, screen) and not cached(page, state)
    left = sorted((o["account"], o["status"]) for o in queue(page))
    assert left == [("", "pending"), (account, "pending")], left

    page.context.set_offline(True)
    with pytest.raises(PlaywrightError):
        page.goto(live_server.url + screen)
    page.context.set_offline(False)
    page.goto(live_server.url + "/")
    page.context.set_offline(True)
    assert page.evaluate("(url) => fetch(url).then(r => r.status, () => 'failed')",
                         live_server.url + state) == "failed"
    page.context.set_offline(False)
    page.reload()
    assert sorted((o["account"], o["status"]) for o in queue(page)) == left
