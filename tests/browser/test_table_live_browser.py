"""Two tablets at one table, in a real browser (Debian chromium through Playwright): the
screen is never stale, and a conflict is shown side by side with a choice.

- A deal saved on tablet A appears on tablet B (rows, totals, round) within 5 s, without a
  reload; what B had started to tap stays checked; B's save then shows both versions, and
  "append mine" stores B's deal once, as the next deal, with the engine's value.
- B's form, untouched, follows the table (the new dealer's seats, the new version), and
  entry.js still works on it; B then saves without any conflict.
- Polls that fail say so ("Verbindung unterbrochen"), and "Online" once they succeed again;
  while the page is hidden nothing is asked.
- The conflict screen at 1024×768 and on a 390×844 phone (screenshots).
- "Rückgängig" tapped on tablet A after tablet B saved meanwhile: both versions (B's deal
  beside the deal A wanted to delete, the totals either way); "Trotzdem löschen" deletes it
  once however often it is sent. A restoration that meets a changed table, on a phone:
  "Liste so lassen, wie sie ist" leaves the deal deleted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Request, Response, expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.models import AuditEntry, Deal, Table
from scoring.writes.services import Actor, deal_delete, deal_record
from tests.web.factories import browser_login, make_user

from .helpers import wait_until
from .test_round_browser import STANDARD_GAME, Scorer, Tablet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
WITHIN = 5000  # ms: "within seconds, without a reload" (table-screen.md)
VERSION = re.compile(r"/tables/\d+/version/$")


@pytest.fixture
def tablet(new_context: CreateContextCallback, live_server: LiveServer, table: Table,
           screenshot_dir: Path) -> Tablet:
    """Opens the table on a new device (a browser context of its own), signed in as the
    club's scorer."""
    user = make_user(table.evening.club, "scorer")

    def open_device(name: str) -> Scorer:
        context = new_context()
        browser_login(context, live_server, user)
        page = context.new_page()
        device = Scorer(page, live_server, table, screenshot_dir, f"live-{name}").open()
        # A reload would lose this mark: it proves that the page was updated in place.
        page.evaluate("window.sameDocument = true")
        return device
    return open_device


def still_same_document(device: Scorer) -> bool:
    return bool(device.page.evaluate("window.sameDocument === true"))


def save_response(device: Scorer, tap: str = "save") -> Response:
    with device.page.expect_response(
            lambda r: r.request.method == "POST" and "/preview/" not in r.url) as response:
        device.tap(tap)
    device.page.wait_for_load_state()
    return response.value


def other_device_saves(table: Table, declarer: int = 1) -> Deal:
    table.refresh_from_db()
    return deal_record(table=table, expected_version=table.version,
                       actor=Actor(None, "Tisch 1, Tablet"),
                       record={"kind": "game", "declarer": declarer, "game": "clubs",
                               "matadors": 1, "bid": 24, "result": "won", "hand": False,
                               "ouvert": False, "schneider_announced": False,
                               "schwarz_announced": False})


def test_a_deal_saved_elsewhere_appears_and_a_started_one_is_kept(
        tablet: Tablet, table: Table) -> None:
    a, b = tablet("a"), tablet("b")
    # B has started the next deal: Clara plays Spades, bid 22.
    b.tap("declarer-2", "game-spades", "bid-22")
    b.preview()

    # A saves Bernd's Clubs game (+24): five taps, the quick result saving at once.
    a.tap(*STANDARD_GAME[:-1])
    a.preview()
    a.save("result-won")

    # Within 5 s B shows it: the row, the totals (footer and strip), the next deal.
    expect(b.page.locator(".last-rows tbody tr")).to_have_count(1, timeout=WITHIN)
    expect(b.page.locator(".last-rows tbody tr").first).to_contain_text("+24", timeout=WITHIN)
    expect(b.page.locator(".table-status .totals-strip dd").nth(1)).to_have_text(
        "24", timeout=WITHIN)
    assert b.rows() == [{"number": 1, "entries": [None, 24, None, None]}]
    assert b.totals() == [0, 24, 0, 0]
    assert b.round_line() == [1, 2, 4]
    assert still_same_document(b)  # no reload, no navigation
    # What B tapped is still there, at the version B started it on.
    for control in ("declarer-2", "game-spades", "bid-22"):
        expect(b.page.locator(f"#{control}")).to_be_checked()
    assert b.page.locator('#deal-form input[name="version"]').input_value() == "0"
    expect(b.page.locator("#table-live .live-notice")).to_be_visible()
    b.shot("01-refreshed-entry-kept", screen=True)

    # B finishes (with 1), and the quick result saves at once: both versions side by side,
    # nothing written yet.
    b.tap("matadors-1")
    b.preview()
    expect(b.page.locator('[data-tap="bid-22"]')).to_have_class("choice at-value")
    assert save_response(b, "result-won").status == 409
    conflict = b.page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict.locator(".conflict-theirs .conflict-row")).to_have_count(1)
    expect(conflict.locator(".conflict-theirs .entry-value")).to_have_text(["+24"])
    expect(conflict.locator(".conflict-mine .entry-value")).to_have_text(["+22"])
    for choice in ("conflict-append", "conflict-theirs", "conflict-edit"):
        expect(b.page.locator(f'[data-tap="{choice}"]')).to_be_visible()
    assert Deal.objects.filter(table=table).count() == 1
    b.shot("02-conflict", screen=True)

    # "Append mine": one tap, stored once as deal 2, with the engine's value.
    b.tap("conflict-append")
    b.page.wait_for_url(re.compile(r"\?saved=\d+$"))
    deals = list(Deal.objects.filter(table=table).order_by("position"))
    assert len(deals) == 2
    record = deals[1].record
    assert (record["declarer"], record["game"], record["bid"], record["result"]) == (
        2, "spades", 22, "won")
    assert b.rows()[-1] == {"number": 2, "entries": [None, None, 22, None]}
    assert b.totals() == [0, 24, 22, 0]
    assert AuditEntry.objects.filter(table=table).count() == 2
    b.shot("03-appended")

    # A, meanwhile, learns of B's deal too.
    expect(a.page.locator(".last-rows tbody tr")).to_have_count(2, timeout=WITHIN)
    assert a.totals() == [0, 24, 22, 0]


def declarer_boxes(device: Scorer) -> list[tuple[float, float]]:
    """Where the declarer buttons stand (x, width): one column, one above the other."""
    return [(box["x"], box["width"]) for box in (
        button.bounding_box() for button in device.page.locator(
            '.group-declarer [data-tap^="declarer-"]').all()) if box]


def test_an_untouched_form_follows_the_table(tablet: Tablet, table: Table) -> None:
    b = tablet("untouched")
    assert b.page.locator('[data-tap="declarer-1"]').count() == 1
    before = declarer_boxes(b)
    assert len(before) == 3 and len(set(before)) == 1
    other_device_saves(table)
    # Bernd deals now: he is no longer among the declarers, Anna is; the version moved on.
    expect(b.page.locator('[data-tap="declarer-1"]')).to_have_count(0, timeout=WITHIN)
    expect(b.page.locator('#deal-form input[name="version"]')).to_have_value("1")
    expect(b.page.locator('.misdeal-form input[name="version"]')).to_have_value("1")
    expect(b.page.locator("#table-live .live-notice")).to_be_hidden()
    assert still_same_document(b)
    # The layout is the one entry.js set up on load: the declarers in their column as before,
    # the card points keypad closed until "count card points" is tapped.
    assert declarer_boxes(b) == before
    expect(b.page.locator("#declarer-points")).to_be_hidden()
    b.shot("untouched-refreshed", screen=True)
    b.tap("result-points")
    expect(b.page.locator("#declarer-points")).to_be_visible()
    b.tap("result-won")
    expect(b.page.locator("#declarer-points")).to_be_hidden()
    # entry.js still holds the form: the bid strip marks Null's value (23), an impossible
    # bid disables save, a legal one enables it.
    b.tap("declarer-0", "game-null")
    b.preview()
    expect(b.page.locator('[data-tap="bid-23"]')).to_have_class("choice at-value")
    b.tap("bid-24", "result-won")
    expect(b.preview().locator(".errors")).to_be_visible()
    expect(b.page.locator('[data-tap="save"]')).to_be_disabled()
    b.tap("bid-23")
    expect(b.preview().locator(".breakdown")).to_be_visible()
    expect(b.page.locator('[data-tap="save"]')).to_be_enabled()
    pk = b.save()  # no conflict: the form was at the table's version
    assert Deal.objects.get(pk=pk).position == 2
    assert Deal.objects.filter(table=table).count() == 2


def passed_deals(table: Table, count: int) -> None:
    for _ in range(count):
        table.refresh_from_db()
        deal_record(table=table, expected_version=table.version,
                    actor=Actor(None, "Tisch 1, Tablet"), record={"kind": "passed"})


def test_the_list_stays_at_its_end(tablet: Tablet, table: Table) -> None:
    """The list beside the entry holds every deal and starts at its end; a deal another
    tablet saves appears there, in view, and its row opens it like every other row."""
    passed_deals(table, 16)
    b = tablet("list-end")
    box = b.page.locator(".entry-side .rows-box")
    assert box.evaluate("box => box.scrollHeight > box.clientHeight")  # it does scroll
    expect(b.page.locator(".rows-box tbody tr").last).to_be_in_viewport()
    deal = other_device_saves(table, declarer=2)  # deal 17: Clara +24
    expect(b.page.locator(".rows-box tbody tr")).to_have_count(17, timeout=WITHIN)
    last = b.page.locator(".rows-box tbody tr").last
    expect(last).to_contain_text("+24")
    expect(last).to_be_in_viewport()
    assert box.evaluate("box => box.scrollTop + box.clientHeight >= box.scrollHeight - 2")
    b.shot("list-end-refreshed", screen=True)
    # Scrolled up to deal 1, the scorer stays there when the next deal comes in.
    box.evaluate("box => { box.scrollTop = 0; }")
    other_device_saves(table, declarer=3)
    expect(b.page.locator(".rows-box tbody tr")).to_have_count(18, timeout=WITHIN)
    assert box.evaluate("box => box.scrollTop") == 0
    expect(b.page.locator(".rows-box tbody tr").first).to_be_in_viewport()
    assert still_same_document(b)
    b.page.locator(".rows-box tbody tr").nth(16).tap()  # anywhere on the row
    b.page.wait_for_url(f"**/deals/{deal.pk}/edit/")


@pytest.mark.browser_context_args(viewport=PHONE)
def test_a_row_that_came_in_opens_on_a_phone(tablet: Tablet, table: Table) -> None:
    """On a phone the list stands below the entry and a row is a tap target through
    entry.js: also a row that came in from another tablet."""
    b = tablet("list-phone")
    deal = other_device_saves(table, declarer=2)
    expect(b.page.locator(".rows-box tbody tr").first).to_contain_text("+24", timeout=WITHIN)
    assert still_same_document(b)
    b.page.locator(".rows-box tbody tr").first.locator("td").nth(3).tap()
    b.page.wait_for_url(f"**/deals/{deal.pk}/edit/")


def test_the_connection_state_follows_the_polls(tablet: Tablet, table: Table) -> None:
    b = tablet("connection")
    page = b.page
    answers: list[tuple[int, str | None]] = []

    def note_answer(r: Response) -> None:
        if VERSION.search(r.url):
            answers.append((r.status, r.request.headers.get("if-none-match")))

    page.on("response", note_answer)
    state = page.locator(".connection")
    expect(state).to_have_attribute("data-state", "saved")
    # The browser asks with the ETag it has; the server answers 304 Not Modified.
    wait_until(page, lambda: len(answers) >= 2, timeout=15, what="two polls")  # every 2.5 s
    assert answers[0][0] == 200 and len(answers) >= 2, answers
    assert all(status == 304 and etag for status, etag in answers[1:]), answers
    page.route(VERSION, lambda route: route.abort())
    expect(state).to_have_attribute("data-state", "offline", timeout=WITHIN)
    expect(state).to_have_text("Verbindung unterbrochen")
    b.shot("04-offline", screen=True)
    page.unroute(VERSION)
    expect(state).to_have_attribute("data-state", "saved", timeout=WITHIN)
    expect(state).to_have_text("Online")

    # Hidden (a tablet in a drawer): no polls; shown again: a poll at once.
    asked: list[str] = []

    def note_poll(request: Request) -> None:
        if VERSION.search(request.url):
            asked.append(request.url)

    page.on("request", note_poll)
    page.evaluate("""() => {
        Object.defineProperty(document, "visibilityState", {value: "hidden",
                                                            configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    page.wait_for_timeout(500)
    asked.clear()
    page.wait_for_timeout(4000)
    assert asked == []
    with page.expect_request(lambda request: VERSION.search(request.url) is not None,
                             timeout=1000):
        page.evaluate("""() => {
            Object.defineProperty(document, "visibilityState", {value: "visible",
                                                                configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""")


def conflict_on(device: Scorer, table: Table) -> None:
    """Device taps Clara's Spades game; another device saves first; device's last tap (the
    quick result, which saves at once): 409, and mine is the deal as tapped (+22)."""
    device.tap("declarer-2", "game-spades", "matadors-1", "bid-22")
    device.preview()
    other_device_saves(table)
    assert save_response(device, "result-won").status == 409
    expect(device.page.locator("#conflict")).to_be_visible()
    expect(device.page.locator(".conflict-mine .entry-value")).to_have_text(["+22"])


def test_the_conflict_on_a_tablet(tablet: Tablet, table: Table) -> None:
    b = tablet("tablet")
    conflict_on(b, table)
    b.page.locator("#conflict").scroll_into_view_if_needed()
    b.page.screenshot(path=str(b.shots / "live-conflict-1024x768.png"))
    sides = [b.page.locator(f".conflict-{side}").bounding_box() for side in ("theirs", "mine")]
    assert sides[0] and sides[1]
    assert abs(sides[0]["y"] - sides[1]["y"]) < 2 and sides[0]["x"] < sides[1]["x"]  # beside
    # "Edit mine": the choice closes, the entry is in the form at the new version.
    b.tap("conflict-edit")
    expect(b.page.locator("#conflict")).to_be_hidden()
    expect(b.page.locator("#declarer-2")).to_be_checked()
    assert b.page.locator('#deal-form input[name="version"]').input_value() == "1"
    # "Keep the other device's version": back to the table, mine discarded.
    b.page.goto(b.table_url)
    assert Deal.objects.filter(table=table).count() == 1


@pytest.mark.browser_context_args(viewport=PHONE)
def test_the_conflict_on_a_phone(tablet: Tablet, table: Table) -> None:
    b = tablet("phone")
    conflict_on(b, table)
    page = b.page
    page.locator("#conflict").scroll_into_view_if_needed()
    page.screenshot(path=str(b.shots / "live-conflict-390x844.png"))
    page.screenshot(path=str(b.shots / "live-conflict-390x844-full.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for choice in ("conflict-append", "conflict-theirs", "conflict-edit"):
        box = page.locator(f'[data-tap="{choice}"]').bounding_box()
        assert box and box["height"] >= 44 and box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"]
    b.tap("conflict-theirs")
    page.wait_for_url(b.table_url)
    assert Deal.objects.filter(table=table).count() == 1


def test_undo_after_another_tablet_saved(tablet: Tablet, table: Table) -> None:
    a, b = tablet("undo-a"), tablet("undo-b")
    # A saves Bernd's Clubs game (+24) and shows the toast with "Rückgängig".
    a.tap(*STANDARD_GAME[:-1])
    a.preview()
    mine = a.save("result-won")
    undo = a.page.locator(".notice-saved form button")
    expect(undo).to_be_visible()
    # B's untouched form follows the table; B saves Clara's Spades game (+22) meanwhile.
    expect(b.page.locator('#deal-form input[name="version"]')).to_have_value(
        "1", timeout=WITHIN)
    b.tap("declarer-2", "game-spades", "matadors-1", "bid-22")
    b.preview()
    theirs = b.save("result-won")
    # A's screen learns of it; the toast still offers "Rückgängig", at the version A saw.
    expect(a.page.locator(".last-rows tbody tr")).to_have_count(2, timeout=WITHIN)
    with a.page.expect_response(lambda r: r.request.method == "POST") as response:
        undo.tap()
    a.page.wait_for_load_state()
    assert response.value.status == 409
    conflict = a.page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(a.page.locator(".notice-stale")).to_have_count(0)  # said once, by the panel
    expect(conflict.locator("#conflict-theirs-heading")).to_contain_text("Anderes Gerät")
    expect(conflict.locator("#conflict-mine-heading")).to_contain_text(
        "das Spiel, das Sie löschen wollten")
    expect(conflict.locator(".conflict-theirs .conflict-row")).to_have_count(1)
    expect(conflict.locator(".conflict-theirs .entry-value")).to_have_text(["+22"])
    expect(conflict.locator(".conflict-mine .conflict-action")).to_have_text("wird gelöscht")
    expect(conflict.locator(".conflict-mine .entry-value")).to_have_text(["+24"])
    expect(conflict.locator(".conflict-mine .conflict-totals dd")).to_have_text(
        ["0", "0", "22", "0"])
    expect(a.page.locator('[data-tap="conflict-delete"]')).to_have_text("Trotzdem löschen")
    expect(a.page.locator('[data-tap="conflict-theirs"]')).to_have_text(
        "Liste so lassen, wie sie ist")
    expect(a.page.locator('[data-tap="conflict-edit"]')).to_have_count(0)
    assert not Deal.objects.get(pk=mine).deleted  # nothing without the tap
    a.page.locator("#conflict").scroll_into_view_if_needed()
    a.page.screenshot(path=str(a.shots / "live-undo-conflict-1024x768.png"))

    # "Trotzdem löschen", sent twice in a row (a double tap): deleted once, B's deal stays.
    with a.page.expect_navigation():
        a.page.eval_on_selector('[data-tap="conflict-delete"]', """button => {
            button.form.requestSubmit(button);
            button.form.requestSubmit(button);
        }""")
    a.page.wait_for_url(f"{a.table_url}?deleted={mine}")  # the toast of a plain undo
    expect(a.page.locator(".notice-undone")).to_be_visible()
    assert Deal.objects.get(pk=mine).deleted and not Deal.objects.get(pk=theirs).deleted
    assert list(AuditEntry.objects.filter(table=table).values_list(
        "deal_id", "action", "reason")) == [
        (mine, "create", ""), (theirs, "create", ""),
        (mine, "delete", "Gleich nach dem Speichern rückgängig gemacht")]
    # B's deal is deal 1 now (Anna deals it again), on both screens.
    assert a.rows() == [{"number": 1, "entries": [None, None, 22, None]}]
    assert a.totals() == [0, 0, 22, 0]
    a.shot("undo-deleted")
    expect(b.page.locator(".table-status .totals-strip dd").nth(1)).to_have_text(
        "0", timeout=WITHIN)
    assert b.totals() == [0, 0, 22, 0]


@pytest.mark.browser_context_args(viewport=PHONE)
def test_a_stale_restore_kept_as_it_is_on_a_phone(tablet: Tablet, table: Table) -> None:
    deal = other_device_saves(table)
    deal_delete(deal=deal, reason="doppelt", expected_version=1,
                actor=Actor(None, "Tisch 1, Tablet"))
    a = tablet("restore-phone")
    page = a.page
    page.goto(a.live_server.url + f"/tables/{table.pk}/deals/{deal.pk}/edit/")
    other_device_saves(table, declarer=3)  # meanwhile: Dieter +24
    a.type_into("#action-reason", "doch gespielt")
    with page.expect_response(lambda r: r.request.method == "POST") as response:
        page.locator(".reason-form button[type=submit]").tap()
    page.wait_for_load_state()
    assert response.value.status == 409
    conflict = page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict.locator(".conflict-mine .conflict-action")).to_have_text(
        "wird wiederhergestellt")
    expect(conflict.locator(".conflict-mine .entry-value")).to_have_text(["+24"])
    expect(page.locator('[data-tap="conflict-restore"]')).to_be_visible()
    conflict.scroll_into_view_if_needed()
    page.screenshot(path=str(a.shots / "live-restore-conflict-390x844.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for choice in ("conflict-restore", "conflict-theirs"):
        box = page.locator(f'[data-tap="{choice}"]').bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
    a.tap("conflict-theirs")
    page.wait_for_url(a.table_url)
    deal.refresh_from_db()
    assert deal.deleted
    assert [e.action for e in AuditEntry.objects.filter(deal=deal)] == ["create", "delete"]
