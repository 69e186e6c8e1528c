"""The table screen without network, in Debian's chromium (issue 13, client side): the service
worker brings the screen back on a reload without network, and deals are recorded by tapping
with the engine in the browser computing values, refusals, dealer, Bock and Ramsch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.engine import SkatError, evaluate_table
from scoring.models import AuditEntry, HeldOperation, Table
from scoring.reads.sheet import table_document
from scoring.writes.services import Actor, evening_close
from tests.web.factories import browser_login, make_user

from .test_round_browser import Scorer

# The offline table's service worker is part of what these tests test (blocked elsewhere:
# tests/browser/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

TABLET = {"width": 1024, "height": 768}
ENGINE = 120_000  # ms: Pyodide's first start in a fresh profile on a busy machine


@pytest.fixture
def table_players() -> int:
    return 3  # the shared ``table`` fixture (tests/web/fixtures.py) at three


def retire(context: BrowserContext) -> None:
    """Leave nothing of this tablet running in the shared browser: its service worker
    unregistered and stopped, its pages closed, before pytest-playwright closes the context.
    A context closed while its service worker still runs can leave that worker dangling in
    the browser, and the next such context's close then never returns (all the offline
    tests in one session hung in the third one's teardown)."""
    for page in context.pages:
        with contextlib.suppress(PlaywrightError):  # the page is gone already
            page.evaluate("() => Promise.race([navigator.serviceWorker.getRegistrations()"
                          ".then(rs => Promise.all(rs.map(r => r.unregister())))"
                          ".then(() => caches.keys()).then(ks => Promise.all("
                          "ks.map(k => caches.delete(k)))),"
                          " new Promise(r => setTimeout(r, 5000))])")
    if context.pages:
        try:
            cdp = context.new_cdp_session(context.pages[0])
            cdp.send("ServiceWorker.enable")
            cdp.send("ServiceWorker.stopAllWorkers")
            cdp.detach()
        except PlaywrightError:
            pass
    for page in list(context.pages):
        page.close(run_before_unload=False)


@pytest.fixture
def contexts(new_context: CreateContextCallback) -> Iterator[Callable[[], BrowserContext]]:
    """new_context, each context retired at the end of the test (its own storage: a fresh
    context has its own IndexedDB, caches and service worker)."""
    made: list[BrowserContext] = []

    def make() -> BrowserContext:
        context: BrowserContext = new_context()
        made.append(context)
        return context

    yield make
    for context in made:
        retire(context)


@pytest.fixture
def tablet(contexts: Callable[[], BrowserContext], live_server: LiveServer, table: Table,
           screenshot_dir: Path) -> Scorer:
    user = make_user(table.evening.club, "scorer")
    context = contexts()
    browser_login(context, live_server, user)
    page = context.new_page()
    scorer = Scorer(page, live_server, table, screenshot_dir, "offline").open()
    # The service worker has installed (every file precached) and controls the page, and the
    # engine is ready, before the network goes.
    installed(page)
    return scorer


def installed(page: Page) -> None:
    """Wait until the service worker has precached everything and controls the page, and the
    engine is ready: then the network may go."""
    page.evaluate("() => Promise.race([navigator.serviceWorker.ready.then(() => true),"
                  " new Promise(r => setTimeout(() => r(false), 60000))])")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=ENGINE)
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    # The worker fetched this page into its cache once it took over.
    page.wait_for_function("() => caches.open('skatclub-pages')"
                           ".then(c => c.match(location.pathname)).then(Boolean)",
                           timeout=10_000)


def waiting(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.SkatOffline.ops()"))


def wait_ops(page: Page, count: int) -> None:
    page.wait_for_function(
        f"() => SkatOffline.loaded && SkatOffline.ops().length === {count}", timeout=30_000)


def entries_of(result: dict[str, Any], players: int) -> list[list[int | None]]:
    return [[deal["entries"].get(str(s)) for s in range(players)] for deal in result["deals"]]


def expected(table: Table, records: list[dict[str, Any]]) -> Any:  # or the error shape
    table.refresh_from_db()
    try:
        return evaluate_table(table_document(table, records), lang="de")
    except SkatError as err:
        return {"error": {"message": err.message_in("de")}}


words_de = {"nothing_waits": "Alle Spiele sind gesendet"}


def test_offline_reload_record_correct(tablet: Scorer, table: Table) -> None:
    """The screen comes up without network; six deals tapped offline (a lost Kontra, which
    brings Bock; a passed deal; a Ramsch; a Null after a bid of 24, refused with the server's
    very message; two games), one corrected; the list, totals and dealer follow at once."""
    device, page = tablet, tablet.page
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#deal-form")).to_be_visible()
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    # 1: Grand with 1 lost by Anna, Kontra said by Bernd: a lost Kontra brings a Bock round.
    device.tap("declarer-0", "game-grand", "matadors-1", "bid-24", "kontra-kontra",
               "kontra-by-1")
    # As online: the engine asks for the card points until a result is tapped.
    expect(page.locator("#preview .errors")).to_be_visible()
    device.tap("result-lost")  # a quick result saves at once, offline too
    wait_ops(page, 1)
    expect(page.locator(".offline-bar .offline-state")).to_have_text("offline · 1 Spiel wartet")
    # 2: everybody passed.
    device.tap("kind-passed", "save")
    wait_ops(page, 2)
    # 3: Null after a bid of 24: refused, with the server's sentence, nothing queued.
    device.tap("kind-game", "declarer-1", "game-null", "bid-24", "result-won")
    refusal = expected(table, [*[op["record"] for op in waiting(page)],
                               {"kind": "game", "declarer": 1, "game": "null", "bid": 24,
                                "result": "won", "hand": False, "ouvert": False,
                                "schneider_announced": False, "schwarz_announced": False}])
    message = refusal["error"]["message"] if "error" in refusal else None
    assert message, refusal
    expect(page.locator("#preview .errors")).to_contain_text(message)
    expect(page.locator("button.save")).to_be_disabled()
    device.shot("refused", screen=True)
    assert len(waiting(page)) == 2
    # The same deal as a Null Ouvert (46 ≥ 24) is accepted.
    device.tap("toggle-ouvert")
    expect(page.locator("#preview .breakdown")).to_be_visible()
    device.tap("save")
    wait_ops(page, 3)
    # 4: Clubs with 1, bid 18, won by Clara.
    device.tap("declarer-2", "game-clubs", "matadors-1", "bid-18", "result-won")
    wait_ops(page, 4)
    # 5: a Ramsch, Clara lost with 61 card points.
    device.tap("kind-ramsch")
    device.shot("ramsch")
    device.tap("ramsch-loser-2")
    device.type_into("#ramsch-loser-points", 61)
    device.leave_field()
    expect(page.locator("#preview .breakdown")).to_be_visible()
    device.tap("save")
    wait_ops(page, 5)
    device.shot("after-ramsch")
    # 6: the Ramsch round goes on (the engine says so: the form offers the Ramsch first);
    # Anna lost with 70.
    expect(page.locator("#kind-ramsch")).to_be_checked()
    device.tap("ramsch-loser-0")
    device.type_into("#ramsch-loser-points", 70)
    device.leave_field()
    expect(page.locator("#preview .breakdown")).to_be_visible()
    device.tap("save")
    wait_ops(page, 6)
    device.shot("six-deals", screen=True)

    records = [op["record"] for op in waiting(page)]
    assert [r["kind"] for r in records] == ["game", "passed", "game", "game", "ramsch", "ramsch"]
    result = expected(table, records)
    assert "error" not in result, result
    players = len(result["players"])
    shown = device.rows()
    assert [row["number"] for row in shown] == [1, 2, 3, 4, 5, 6]
    assert [row["entries"] for row in shown] == entries_of(result, players)
    assert device.totals() == [result["totals"].get(str(s), 0) for s in range(players)]
    assert result["deals"][1]["bock"] >= 1  # the lost Kontra's Bock round
    expect(page.locator("table.rows tbody tr.pending .badge-pending")).to_have_count(6)
    dealer = result["players"][result["next"]["dealer"]]
    expect(page.locator(".seat-dealer dd")).to_have_text(dealer)

    # Correct deal 4 offline: Clara lost her Clubs after all.
    page.locator('table.rows tbody tr[data-number="4"] .offline-correct').tap()
    expect(page.locator("#result-won")).to_be_checked()
    expect(page.locator("#declarer-2")).to_be_checked()
    device.tap("result-lost")
    expect(page.locator("#preview .breakdown")).to_be_visible()
    device.tap("save")
    page.wait_for_function(
        "() => SkatOffline.ops()[3].record.result === 'lost'")
    records = [op["record"] for op in waiting(page)]
    assert len(records) == 6
    result = expected(table, records)
    expect(page.locator('table.rows tbody tr[data-number="4"] td.num.declarer')).to_have_text(
        "\u2212" + str(-result["deals"][3]["entries"]["2"]))
    assert [row["entries"] for row in device.rows()] == entries_of(result, players)
    device.shot("corrected", screen=True)

    # Closed, and reopened while still offline: the queue is still there (IndexedDB).
    page.close()
    page = device.page = page.context.new_page()
    page.goto(device.table_url)
    wait_ops(page, 6)
    # The rows are the engine's: in a new page it starts again first (slow on a busy machine).
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    expect(page.locator("table.rows tbody tr.pending")).to_have_count(6, timeout=30_000)
    device.shot("reopened-offline", screen=True)
    page.close()
    # Reopened with the network back: the page sends the queue at once, in order, and shows
    # the server's list once everything is there.
    page.context.set_offline(False)
    page = device.page = page.context.new_page()
    page.goto(device.table_url)
    page.wait_for_function(
        "() => window.SkatOffline && SkatOffline.loaded && SkatOffline.ops().length === 0",
        timeout=30_000)
    table.refresh_from_db()
    stored = list(table.deals.filter(deleted=False).order_by("position"))
    assert [d.record for d in stored] == records  # each exactly once, in order
    assert table.deals.count() == 6
    assert len({d.request_id for d in stored}) == 6
    expect(page.locator("table.rows tbody tr.pending")).to_have_count(0)
    page.wait_for_load_state()
    expect(page.locator(".offline-bar .offline-queue")).to_contain_text(words_de["nothing_waits"])
    server = expected(table, [d.record for d in stored])
    assert [row["entries"] for row in device.rows()] == entries_of(server, players)
    assert device.totals() == [server["totals"].get(str(s), 0) for s in range(players)]
    device.shot("synced", screen=True)


@pytest.fixture
def second_tablet(contexts: Callable[[], BrowserContext], live_server: LiveServer, table: Table,
                  screenshot_dir: Path) -> Scorer:
    user = make_user(table.evening.club, "scorer", username="scorer-b")
    context = contexts()
    browser_login(context, live_server, user)
    page = context.new_page()
    scorer = Scorer(page, live_server, table, screenshot_dir, "offline-b").open()
    installed(page)
    return scorer


def test_two_tablets_offline_conflict_then_append(tablet: Scorer, second_tablet: Scorer,
                                                  table: Table) -> None:
    """Both tablets of one table record a deal offline; A comes back first and stores its
    deal; B then gets the conflict, both versions side by side, and "append mine after
    theirs" stores B's deal as the next one: nothing lost, nothing twice."""
    a, b = tablet, second_tablet
    for device in (a, b):
        device.page.context.set_offline(True)
        expect(device.page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    a.tap("declarer-0", "game-grand", "matadors-1", "bid-24", "result-won")
    wait_ops(a.page, 1)
    b.tap("declarer-1", "game-clubs", "matadors-1", "bid-18", "result-won")
    wait_ops(b.page, 1)
    a.page.context.set_offline(False)
    a.page.wait_for_function("() => SkatOffline.loaded && SkatOffline.ops().length === 0",
                             timeout=30_000)
    assert table.deals.count() == 1
    b.page.context.set_offline(False)
    panel = b.page.locator("#offline-conflict")
    expect(panel).to_be_visible(timeout=30_000)
    expect(panel.locator(".conflict-theirs .preview-entries")).to_contain_text("+48")
    expect(panel.locator(".conflict-mine .preview-entries")).to_contain_text("+24")
    b.shot("conflict", screen=True)
    assert table.deals.count() == 1
    assert waiting(b.page)[0]["status"] == "conflict"
    b.tap("offline-conflict-append")
    b.page.wait_for_function("() => SkatOffline.loaded && SkatOffline.ops().length === 0",
                             timeout=30_000)
    stored = list(table.deals.order_by("position"))
    assert [(d.record["declarer"], d.record["game"]) for d in stored] == [(0, "grand"),
                                                                            (1, "clubs")]

    # Once more, both offline; this time B keeps theirs: B's deal is dropped on the tablet
    # and the server hears of it ("drop"): the audit log says what, who and why, and
    # nothing is stored for it.
    for device in (a, b):
        device.page.goto(device.table_url)
        installed(device.page)
        device.page.context.set_offline(True)
        expect(device.page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    a.tap("declarer-2", "game-grand", "matadors-1", "bid-24", "result-won")
    wait_ops(a.page, 1)
    b.tap("declarer-0", "game-spades", "matadors-1", "bid-20", "result-won")
    wait_ops(b.page, 1)
    mine = waiting(b.page)[0]
    a.page.context.set_offline(False)
    a.page.wait_for_function("() => SkatOffline.loaded && SkatOffline.ops().length === 0",
                             timeout=30_000)
    assert table.deals.count() == 3
    b.page.context.set_offline(False)
    expect(panel).to_be_visible(timeout=30_000)
    # "keep theirs" sends the drop and then loads the table again by itself: wait for that
    # load, or the audit page's goto below races it (and is interrupted by it)
    with b.page.expect_navigation(timeout=30_000):
        b.tap("offline-conflict-theirs")
    b.page.wait_for_function(
        "() => window.SkatOffline && SkatOffline.loaded && SkatOffline.ops().length === 0",
        timeout=30_000)
    assert table.deals.count() == 3  # theirs kept, mine not stored
    drop = AuditEntry.objects.get(table=table, action="drop")
    assert drop.after == mine["record"] and drop.deal_id is None
    assert drop.before == {"op": "save", "request_id": mine["request_id"], "deal": None}
    assert drop.actor == "scorer-b" and "verworfen" in drop.reason
    b.page.goto(b.live_server.url + reverse("scoring:evening-audit",
                                            args=[table.evening_id]))
    expect(b.page.locator("tr.action-drop")).to_have_count(1)
    b.shot("audit-drop", screen=True)


def test_a_deal_for_a_closed_evening_is_held_for_the_club_admin(tablet: Scorer,
                                                                table: Table) -> None:
    """The evening is closed while the tablet is offline: its deal is not lost but held for
    the club admin (202), and the tablet marks it so."""
    page = tablet.page
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-0", "game-grand", "matadors-1", "bid-24", "result-won")
    wait_ops(page, 1)
    evening_close(evening=table.evening, actor=Actor(None, "Club-Admin"))
    page.context.set_offline(False)
    page.wait_for_function("() => SkatOffline.ops()[0].status === 'held'", timeout=30_000)
    row = page.locator("table.rows tbody tr.pending")
    expect(row).to_contain_text("für den Club-Admin zurückgehalten")
    expect(page.locator(".offline-bar .offline-queue")).to_contain_text(
        words_de["nothing_waits"])
    tablet.shot("held", screen=True)
    assert table.deals.count() == 0
    assert HeldOperation.objects.filter(table=table).count() == 1


def test_a_device_with_too_many_held_keeps_its_deal_pending(tablet: Scorer, table: Table,
                                                            settings: Any) -> None:
    """Issue 26, item 7: beyond HELD_PER_DEVICE the server answers 429 "held-full"; the
    tablet keeps the deal in its queue, pending, says why, and sends it again later (here:
    once the network comes back after the admin made room)."""
    settings.HELD_PER_DEVICE = 0
    page = tablet.page
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    tablet.tap("declarer-0", "game-grand", "matadors-1", "bid-24", "result-won")
    wait_ops(page, 1)
    evening_close(evening=table.evening, actor=Actor(None, "Club-Admin"))
    page.context.set_offline(False)
    page.wait_for_function("() => SkatOffline.ops()[0].message", timeout=30_000)
    assert page.evaluate("SkatOffline.ops()[0].status") == "pending"
    assert HeldOperation.objects.filter(table=table).count() == 0
    settings.HELD_PER_DEVICE = 50
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    page.context.set_offline(False)
    page.wait_for_function("() => SkatOffline.ops()[0].status === 'held'", timeout=30_000)
    assert HeldOperation.objects.filter(table=table).count() == 1
