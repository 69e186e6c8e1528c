"""A reload without network shows what waits at once (issue 23, item 3 and two of item 6), in
Debian's chromium: the deals queued in IndexedDB are drawn before the engine (Pyodide, seconds
to start) is ready, in words with "wartet" for their scores, the totals marked provisional, a
status line that tells the truth, and the next deal's number after the queued ones; back
online each is stored once.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.engine import evaluate_table
from scoring.models import Table
from scoring.reads.sheet import table_document

from . import test_offline_table_browser as offline_tests
from .test_offline_table_browser import ENGINE, wait_ops, waiting
from .test_round_browser import Scorer

# The offline table's service worker is part of what these tests test (blocked elsewhere:
# tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

# The offline table's fixtures: a scorer's tablet with the service worker installed and the
# engine ready, its context retired at the end.
table_players = offline_tests.table_players  # a table of three
contexts = offline_tests.contexts
tablet = offline_tests.tablet

# Notes, in the page, when the two waiting rows, the provisional totals and the true status
# line are all on screen (a MutationObserver from the first byte of the page on).
WATCH = """() => {
  window.__drawn = null;
  const done = () => {
    const bar = document.querySelector(".offline-bar .offline-state");
    return document.querySelectorAll("table.rows tbody tr.pending").length === 2 &&
      document.querySelector(".totals-strip.provisional") !== null &&
      bar !== null && bar.textContent.includes("offline · 2 Spiele warten");
  };
  new MutationObserver((_, observer) => {
    if (window.__drawn === null && done()) {
      window.__drawn = performance.now();
      observer.disconnect();
    }
  }).observe(document, {childList: true, subtree: true, characterData: true,
                        attributes: true});
}"""

# A page whose engine never starts: its Web Worker is a stub that takes messages and answers
# none, so whatever this page shows, it shows without the engine.
NO_ENGINE = """() => {
  window.Worker = function () {
    this.postMessage = function () {};
    this.terminate = function () {};
  };
}"""

SHOWN_AFTER = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return window.__drawn === null ? null : window.__drawn - nav.domContentLoadedEventEnd;
}"""


def hold_the_network(page: Page) -> None:
    """Playwright's offline emulation lets a request through that the page's service
    worker passes on to the network (the connection probe, then the queue's POST): for a
    test that ends with deals waiting, the table's version and sync URLs stay unreachable."""
    page.context.route("**/tables/*/version/", lambda route: route.abort())
    page.context.route("**/tables/*/sync/", lambda route: route.abort())


def send_and_close(page: Page, table: Table, deals: int) -> None:
    """The network back and the queue sent (each deal once), then the page closed: nothing
    is on its way to the live server when its database is emptied after the test."""
    page.context.unroute("**/tables/*/version/")
    page.context.unroute("**/tables/*/sync/")
    page.context.set_offline(False)
    page.wait_for_function("() => window.SkatOffline && SkatOffline.loaded &&"
                           " SkatOffline.ops().length === 0", timeout=30_000)
    assert table.deals.count() == deals
    page.wait_for_load_state()
    page.close(run_before_unload=False)


def engine_next(table: Table, records: list[dict[str, Any]]) -> dict[str, Any]:
    table.refresh_from_db()
    result = evaluate_table(table_document(table, records), lang="de")
    return dict(result["next"])


def queue_two(device: Scorer) -> list[dict[str, Any]]:
    """Two deals tapped with the network gone: ♠ Hand won by Anna, Grand lost by Bernd."""
    page = device.page
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    device.tap("declarer-0", "game-spades", "toggle-hand", "matadors-1", "bid-18", "result-won")
    wait_ops(page, 1)
    device.tap("declarer-1", "game-grand", "matadors-1", "bid-24", "result-lost")
    wait_ops(page, 2)
    # The engine's rows are drawn (and its answer about the next deal kept with the queue).
    expect(page.locator("table.rows tbody tr.pending td.num.declarer")).to_have_count(2)
    page.wait_for_function("() => SkatOffline.engineDrawn")
    return [op["record"] for op in waiting(page)]


def open_offline(device: Scorer, *, engine: bool) -> Page:
    page = device.page.context.new_page()
    page.add_init_script(script=f"({WATCH})()")
    if not engine:
        page.add_init_script(script=f"({NO_ENGINE})()")
    page.goto(device.table_url)
    device.page = page
    return page


def test_a_reload_offline_shows_the_queue_before_the_engine(tablet: Scorer,
                                                            table: Table) -> None:
    device = tablet
    # Opened again through the service worker: the page it keeps is this one, whose form's
    # request id the first deal queued below takes.
    device.page.reload()
    device.page.wait_for_function("() => SkatEngine.status === 'ready'", timeout=ENGINE)
    first_request_id = device.page.locator('#deal-form input[name="request_id"]').input_value()
    records = queue_two(device)
    assert [op["request_id"] for op in waiting(device.page)][0] == first_request_id
    nxt = engine_next(table, records)
    assert (nxt["round"], nxt["deal_in_round"]) != (1, 1)
    device.page.close()

    # 1. The engine cannot start in this page: everything below is there without it.
    page = open_offline(device, engine=False)
    page.wait_for_function("() => window.__drawn !== null", timeout=10_000)
    shown_after = page.evaluate(SHOWN_AFTER)
    assert shown_after is not None and shown_after < 1000, shown_after
    assert page.evaluate("SkatEngine.status") == "loading"
    rows = page.locator("table.rows tbody tr.pending")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0)).to_contain_text("Hand")
    expect(rows.nth(0)).to_contain_text("gewonnen")
    expect(rows.nth(1)).to_contain_text("Bernd")
    expect(rows.nth(1)).to_contain_text("verloren")
    expect(rows.locator("td.waits")).to_have_text(["gewonnen · wartet", "verloren · wartet"])
    expect(rows.nth(0).locator("td").first).to_have_text("1")
    expect(rows.nth(1).locator("td").first).to_have_text("2")
    expect(page.locator("table.rows tfoot")).to_contain_text("vorläufig")
    expect(page.locator(".totals-strip")).to_have_attribute("data-mark", "vorläufig")
    expect(page.locator(".offline-bar .offline-state")).to_have_text(
        "offline · 2 Spiele warten")
    expect(page.locator(".connection-text")).to_have_text("offline · 2 Spiele warten")
    # The next deal is the third: round and dealer as the engine says for the two queued.
    assert device.round_line()[:2] == [nxt["round"], nxt["deal_in_round"]]
    expect(page.locator(".seat-dealer dd")).to_have_text(
        table_document(table, records)["players"][nxt["dealer"]])
    # The form is not the cached page's, whose request id the first queued deal took.
    ids = {op["request_id"] for op in waiting(page)}
    assert page.locator('#deal-form input[name="request_id"]').input_value() not in ids
    assert page.locator('.misdeal-form input[name="request_id"]').input_value() not in ids
    device.shot("reload-no-engine", screen=True)
    page.close()

    # 2. With the engine: the same at once, then the engine's scored rows replace them.
    page = open_offline(device, engine=True)
    page.wait_for_function("() => window.__drawn !== null", timeout=10_000)
    shown_after = page.evaluate(SHOWN_AFTER)
    assert shown_after is not None and shown_after < 1000, shown_after
    page.wait_for_function("() => SkatEngine.status === 'ready'", timeout=ENGINE)
    assert page.evaluate("SkatOffline.sketched < SkatEngine.timings.ready")
    expect(page.locator("table.rows tbody tr.pending td.num.declarer")).to_have_count(
        2, timeout=30_000)
    expect(page.locator("table.rows tbody tr.pending td.waits")).to_have_count(0)
    expect(page.locator("table.rows tfoot")).not_to_contain_text("vorläufig")
    expect(page.locator(".totals-strip.provisional")).to_have_count(0)
    table.refresh_from_db()
    result = evaluate_table(table_document(table, records), lang="de")
    assert device.totals() == [result["totals"].get(str(s), 0) for s in range(3)]
    device.shot("reload-engine", screen=True)

    # 3. Back online: each queued deal is stored once.
    page.context.set_offline(False)
    page.wait_for_function("() => SkatOffline.loaded && SkatOffline.ops().length === 0",
                           timeout=30_000)
    table.refresh_from_db()
    assert table.deals.count() == 2
    stored = list(table.deals.order_by("position"))
    assert [d.record for d in stored] == records
    assert len({d.request_id for d in stored}) == 2


def test_the_status_line_after_an_online_save_claims_nothing_false(tablet: Scorer) -> None:
    """Saved online, the deal went to the server from this tablet: the bar does not say that
    nothing was sent from it (issue 23, item 6)."""
    tablet.tap("declarer-0", "game-grand", "matadors-1", "bid-24")
    tablet.save("result-won")
    queue = tablet.page.locator(".offline-bar .offline-queue")
    expect(queue).to_have_text("Alle Spiele sind gesendet")
    expect(tablet.page.locator(".offline-bar")).not_to_contain_text("nichts gesendet")
    tablet.shot("online-saved")


def test_a_waiting_row_draws_no_pencil_among_the_scores(tablet: Scorer, table: Table) -> None:
    """At 1024×768 the list is the side list, where a row is its own tap target: a waiting
    row's pencil must not stand in its score columns (issue 23, item 6)."""
    page = tablet.page
    hold_the_network(page)
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-2", "game-clubs", "matadors-1", "bid-18", "result-won")
    wait_ops(page, 1)
    row = page.locator("table.rows tbody tr.pending")
    expect(row.locator("td.num.declarer")).to_have_count(1)
    overlaps = row.evaluate("""row => {
      const cells = Array.from(row.querySelectorAll("td.num"), td => td.getBoundingClientRect());
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      const hits = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.includes("\\u270e")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width === 0 || r.height === 0) continue;
          for (const c of cells) {
            if (r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top) {
              hits.push([r.left, c.left, c.right]);
            }
          }
        }
      }
      return hits;
    }""")
    tablet.shot("pending-row", screen=True)
    assert overlaps == []
    # The row still opens the deal for correction.
    row.tap()
    expect(page.locator(".offline-editing")).to_be_visible()
    page.locator('[data-tap="offline-cancel"]').tap()
    send_and_close(page, table, 1)


FORGET_NEXT = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("skatclub-offline", 1);
  open.onsuccess = () => {
    const t = open.result.transaction("meta", "readwrite");
    const store = t.objectStore("meta");
    store.openCursor().onsuccess = (event) => {
      const cursor = event.target.result;
      if (cursor) {
        const meta = cursor.value;
        delete meta.next;
        cursor.update(meta);
        cursor.continue();
      }
    };
    t.oncomplete = () => resolve(true);
    t.onerror = () => reject(t.error);
  };
  open.onerror = () => reject(open.error);
})"""


def reload_without_engine_shows_the_queue(device: Scorer, table: Table, name: str,
                                          forget_next: bool = False) -> None:
    hold_the_network(device.page)
    queue_two(device)
    if forget_next:  # as if the engine had never answered for this list
        device.page.evaluate(FORGET_NEXT)
    device.page.close()
    page = open_offline(device, engine=False)
    page.wait_for_function("() => window.__drawn !== null", timeout=10_000)
    shown_after = page.evaluate(SHOWN_AFTER)
    assert shown_after is not None and shown_after < 1000, shown_after
    expect(page.locator("table.rows tbody tr.pending td.waits")).to_have_count(2)
    status = page.locator(".offline-bar .offline-state")
    expect(status).to_have_text("offline · 2 Spiele warten")
    expect(status).to_be_in_viewport()
    if forget_next:
        # Without the engine's word on the next deal, the screen does not guess it.
        expect(page.locator(".seat-dealer dd")).to_have_text("wird berechnet")
        expect(page.locator(".table-status .round")).to_be_hidden()
    device.shot(name, screen=True)
    send_and_close(page, table, 2)


@pytest.mark.browser_context_args(viewport={"width": 390, "height": 844})
def test_a_reload_offline_on_a_phone(tablet: Scorer, table: Table) -> None:
    reload_without_engine_shows_the_queue(tablet, table, "reload-no-engine-phone")


@pytest.mark.browser_context_args(viewport={"width": 800, "height": 1280})
def test_a_reload_offline_on_an_upright_tablet(tablet: Scorer, table: Table) -> None:
    reload_without_engine_shows_the_queue(tablet, table, "reload-no-engine-upright",
                                          forget_next=True)


def test_a_double_tap_on_save_offline_queues_the_deal_once(tablet: Scorer,
                                                            table: Table) -> None:
    """Two submits of one form (a double tap) carry one request id: queued once."""
    page = tablet.page
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-0", "game-grand", "matadors-1", "bid-24")
    page.locator("#result-won").evaluate("input => { input.checked = true; }")
    page.evaluate("""() => {
      const form = document.getElementById("deal-form");
      const save = form.querySelector("button.save");
      form.requestSubmit(save);
      form.requestSubmit(save);
    }""")
    wait_ops(page, 1)
    # The next deal is a new one: it is queued as such.
    tablet.tap("declarer-1", "game-clubs", "matadors-1", "bid-18", "result-won")
    wait_ops(page, 2)
    expect(page.locator("table.rows tbody tr.pending td.num.declarer")).to_have_count(2)
    assert len({op["request_id"] for op in waiting(page)}) == 2
    page.context.set_offline(False)
    page.wait_for_function("() => SkatOffline.loaded && SkatOffline.ops().length === 0",
                           timeout=30_000)
    assert table.deals.count() == 2


def test_offline_the_form_keeps_the_table_screens_rules(tablet: Scorer, table: Table) -> None:
    """Offline, the engine in the browser checks the deal, and the screen's own rules hold as
    they do online (issue 23): a Kontra needs its sayer before the result tap stores it, and
    the untouched form after a queued deal cannot be saved (an empty Ramsch is no deal); the
    bid strip no longer marks the value of the deal just queued."""
    page = tablet.page
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-0", "game-grand", "matadors-1", "bid-24", "kontra-kontra",
               "result-lost")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Tippen, wer Kontra gesagt hat.")
    expect(page.locator("#deal-form button.save")).to_be_disabled()
    assert waiting(page) == []
    tablet.tap("kontra-by-1")
    expect(page.locator("#deal-form button.save")).to_be_enabled()
    page.locator("#deal-form button.save").click()
    wait_ops(page, 1)
    assert waiting(page)[0]["record"]["kontra_by"] == 1
    # the next deal's form: untouched, Save waits; the old value is not marked on the strip
    expect(page.locator("#deal-form button.save")).to_be_disabled()
    expect(page.locator("#deal-form .bids .at-value")).to_have_count(0)
    tablet.tap("kind-ramsch")
    expect(page.locator("#deal-form button.save")).to_be_disabled()
    page.context.set_offline(False)
    page.wait_for_function("() => SkatOffline.loaded && SkatOffline.ops().length === 0",
                           timeout=30_000)
    stored = list(table.deals.all())
    assert len(stored) == 1 and stored[0].record["kontra"] == "kontra"
    assert stored[0].record["kontra_by"] == 1
