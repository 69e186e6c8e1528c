"""A club evening at the table screen, played in a real browser the way a scorer does it:
Debian's chromium through Playwright, a 1024×768 tablet with touch (one check at 800×1280),
every control tapped.

- a whole round at a 4-table under the "Club evening" preset: a won suit game (in five taps,
  the quick result saving at once), an overbid game whose −96 is shown before saving, a lost
  game with Kontra said by a named defender (which earns a Bock round), a passed-in deal and a
  doubled Ramsch with card points and tricks per player; after each save the stored record and
  the row on the page, at the end the totals the engine computes from the same records;
- a correction of an earlier deal, with its reason, the recomputed sheet and the audit log;
- two devices at one table: a stale save and a stale correction are refused and show the
  other device's version; a retried or double-tapped save records one deal.

Controls are found by data-tap, ids and names, never by their (translated) text; numbers are
asserted, not words. Screenshots of every step go to ``screenshot_dir``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Locator, Page, Response, Route, expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.engine import ScoredTable, evaluate_table
from scoring.models import AuditEntry, Deal, Table
from scoring.writes.services import Actor, deal_record
from tests.web.factories import browser_login, make_user

from .helpers import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PORTRAIT = {"width": 800, "height": 1280}
NUMBER = re.compile(r"[+\-−]?\d+")
SAVED = re.compile(r"\?saved=(\d+)$")
STANDARD_GAME = ["declarer-1", "game-clubs", "matadors-1", "bid-24", "result-won"]


# ---------------------------------------------------------------- helpers

def numbers(text: str) -> list[int]:
    """The integers in a text, signs included ("−96" and "-96" alike)."""
    return [int(n.replace("−", "-")) for n in NUMBER.findall(text)]


class Scorer:
    """One device at the table: a browser page signed in as a scorer, counting its taps."""

    def __init__(self, page: Page, live_server: LiveServer, table: Table, shots: Path,
                 name: str) -> None:
        self.page, self.live_server, self.table, self.shots = page, live_server, table, shots
        self.name = name
        self.taps = 0

    @property
    def table_url(self) -> str:
        return self.live_server.url + reverse("scoring:table", args=[self.table.pk])

    def open(self) -> Scorer:
        self.page.goto(self.table_url)
        return self

    def tap(self, *names: str) -> None:
        for name in names:
            self.page.locator(f'[data-tap="{name}"]').tap()
            self.taps += 1

    def type_into(self, selector: str, value: int | str) -> None:
        """Tap a number field and type on the keypad, as a scorer does (then the next tap
        moves on)."""
        field = self.page.locator(selector)
        field.tap()
        field.press("Control+A")
        self.page.keyboard.type(str(value))

    def save(self, tap: str = "save") -> int:
        """Tap save (or a quick result, which saves at once); returns the saved deal's id
        from the page it lands on."""
        before = self.page.url
        self.tap(tap)
        self.page.wait_for_url(lambda url: url != before and SAVED.search(url) is not None)
        self.page.wait_for_load_state()
        saved = SAVED.search(self.page.url)
        assert saved is not None, "a saved deal lands on the table with ?saved=<id>"
        return int(saved.group(1))

    def preview(self) -> Locator:
        """The live preview, once every preview request the taps started has been answered
        (htmx marks the form while one is under way and sends a queued one right after)."""
        self.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
        return self.page.locator("#preview")

    def leave_field(self) -> None:
        """Tap a heading, as a scorer does when looking up from the keypad: the number
        field loses the focus and its change is sent to the preview."""
        self.page.locator("#deal-form .kind-section:visible legend").first.tap()

    def shot(self, step: str, screen: bool = False) -> Path:
        """A full-page PNG of this step; with ``screen``, also what the scorer sees right now
        (the viewport, where the sticky save bar really is)."""
        path = self.shots / f"round-{self.name}-{step}.png"
        if screen:
            self.page.screenshot(path=str(path.with_name(f"{path.stem}-screen.png")))
        # A full-page shot resizes the viewport for a moment; put the scroll position back,
        # or the next tap may land where the button was before the page settled.
        scroll = self.page.evaluate("() => [window.scrollX, window.scrollY]")
        self.page.screenshot(path=str(path), full_page=True)
        self.page.evaluate("([x, y]) => window.scrollTo(x, y)", scroll)
        return path

    # -------------------------------------------------------- what the screen shows

    def round_line(self) -> list[int]:
        """[round, deal in round, deals per round] of "Runde 2 · Spiel 1 von 4"."""
        return numbers(self.page.inner_text(".table-status .round"))

    def rows(self) -> list[dict[str, Any]]:
        """The last rows: number and the entry in each player's column (None if empty)."""
        cells = self.page.eval_on_selector_all(
            ".last-rows tbody tr",
            "rows => rows.map(r => Array.from(r.cells, c => c.innerText.trim()))")
        players = len(self.table.seats.all())
        out = []
        for row in cells:
            if len(row) < 2 + players:  # "no deals yet"
                continue
            entries = [numbers(c)[0] if numbers(c) else None for c in row[2:2 + players]]
            out.append({"number": int(row[0]), "entries": entries})
        return out

    def totals(self) -> list[int]:
        """The running totals, as the last rows' footer and the big strip at the top both
        show them (they must agree)."""
        footer = [numbers(t)[0] for t in self.page.locator(
            ".last-rows tfoot td.total").all_inner_texts()]
        strip = [numbers(t)[0] for t in self.page.locator(
            ".table-status .totals-strip dd").all_inner_texts()]
        assert footer == strip, (footer, strip)
        return strip

    def bock_badge(self) -> list[int]:
        """[position, length] of "Bock 2 von 4" in the status header."""
        return numbers(self.page.inner_text(".table-status .badge-bock"))


@pytest.fixture
def scorer(table: Table) -> User:
    return make_user(table.evening.club, "scorer")


Tablet = Callable[[str], Scorer]  # opens the table on a new device, named for its shots


@pytest.fixture
def tablet(new_context: CreateContextCallback, live_server: LiveServer, table: Table,
           scorer: User, screenshot_dir: Path) -> Tablet:
    """Opens the table on a new device (a browser context of its own)."""
    def open_device(name: str) -> Scorer:
        context = new_context()
        browser_login(context, live_server, scorer)
        page = context.new_page()
        return Scorer(page, live_server, table, screenshot_dir, name).open()
    return open_device


def engine_result(table: Table) -> ScoredTable:
    """The table scored by the engine straight from the stored records."""
    evening = table.evening
    return evaluate_table({
        "rules": evening.rules, "options": evening.options, "scoring": evening.scoring,
        "players": [seat.player.name for seat in table.seats.order_by("position")],
        "first_dealer": table.first_dealer,
        "deals": [d.record for d in Deal.objects.filter(table=table, deleted=False)
                  .order_by("position")],
    })


def seed(table: Table, user: User, records: list[dict[str, Any]]) -> list[Deal]:
    actor = Actor(user, user.get_username())
    deals = []
    for record in records:
        table.refresh_from_db()
        deals.append(deal_record(table=table, record=record, expected_version=table.version,
                                 actor=actor))
    return deals


GAME: dict[str, bool] = {"hand": False, "ouvert": False, "schneider_announced": False,
                         "schwarz_announced": False}
# the round the first test taps in, for the tests that start from it
ROUND: list[dict[str, Any]] = [
    {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 24,
     "result": "won", **GAME},
    {"kind": "game", "declarer": 2, "game": "clubs", "matadors": 1, "bid": 46,
     "declarer_points": 74, **GAME, "hand": True},
    {"kind": "game", "declarer": 3, "game": "spades", "matadors": 2, "bid": 33,
     "result": "lost", "kontra": "kontra", "kontra_by": 0, **GAME},
    {"kind": "passed"},
    {"kind": "ramsch", "ramsch": {"points": {"1": 50, "2": 40, "3": 30},
                                  "tricks": {"1": 4, "2": 3, "3": 3}}},
]


# ---------------------------------------------------------------- 1. a whole round

def test_a_whole_round_is_tapped_in(tablet: Tablet, table: Table) -> None:
    a = tablet("tablet")
    assert a.round_line() == [1, 1, 4]
    a.shot("00-empty", screen=True)

    # Deal 1, Anna deals, Bernd (seat 1) plays Clubs with 1, bid 24, won: five taps, the
    # last one saving. Before it, the bid strip marks the game's value from the preview.
    a.tap(*STANDARD_GAME[:-1])
    a.preview()
    expect(a.page.locator('[data-tap="bid-24"]')).to_have_class("choice at-value")
    # The result is still open: a neutral hint, no error; Save waits for it.
    expect(a.page.locator("#preview .open")).to_be_visible()
    expect(a.page.locator("#preview .errors")).to_have_count(0)
    expect(a.page.locator('[data-tap="save"]')).to_be_disabled()
    a.shot("01-won-suit-game-preview", screen=True)
    pk = a.save("result-won")
    assert a.taps == 5
    deal = Deal.objects.get(pk=pk)
    assert {k: deal.record.get(k) for k in ("kind", "declarer", "game", "matadors", "bid",
                                            "result")} == {
        "kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 24,
        "result": "won"}
    assert a.rows()[-1] == {"number": 1, "entries": [None, 24, None, None]}
    toast = numbers(a.page.inner_text(".notice-saved p"))
    assert (toast[0], toast[-1]) == (1, 24)  # "deal 1 saved: … → +24"
    assert a.round_line() == [1, 2, 4]
    for total in a.page.locator(".table-status .totals-strip dd").all():
        expect(total).to_be_in_viewport()  # every player's total, also the fourth
    a.shot("01-won-suit-game-saved", screen=True)

    # Deal 2, Clara (seat 2) plays Clubs Hand with 1, bid 46, 74 card points: 36 < 46,
    # lost as overbid, charged 48 → −96. The card points are typed on the keypad.
    a.tap("declarer-2", "game-clubs", "matadors-1", "toggle-hand", "bid-46", "result-points")
    a.type_into("#declarer-points", 74)
    a.leave_field()
    breakdown = a.preview().locator(".breakdown")
    expect(breakdown).to_contain_text("−96")
    assert {36, 46, 48}.issubset(numbers(breakdown.inner_text()))
    assert numbers(a.page.inner_text("#preview .preview-entries"))[-1] == -96
    # Read where the thumb is: the breakdown stands right above Save.
    expect(breakdown).to_be_in_viewport()
    expect(a.page.locator('[data-tap="save"]')).to_be_enabled()
    a.shot("02-overbid-preview", screen=True)
    pk = a.save()
    record = Deal.objects.get(pk=pk).record
    assert {k: record.get(k) for k in ("declarer", "game", "matadors", "hand", "bid",
                                       "declarer_points")} == {
        "declarer": 2, "game": "clubs", "matadors": 1, "hand": True, "bid": 46,
        "declarer_points": 74}
    assert "result" not in record
    assert a.rows()[-1] == {"number": 2, "entries": [None, None, -96, None]}
    a.shot("02-overbid-saved")

    # Deal 3, Dieter (seat 3) plays Spades with 2, bid 33, lost; Anna (seat 0, a defender)
    # said Kontra: 33 × 2 × 2 = −132, and the lost Kontra game earns a Bock round. Kontra
    # is tapped before the result, which then saves.
    a.tap("declarer-3", "game-spades", "matadors-2", "bid-33", "kontra-kontra", "kontra-by-0")
    a.preview()
    a.shot("03-kontra-preview", screen=True)
    pk = a.save("result-lost")
    assert numbers(a.page.inner_text(".notice-saved p"))[-1] == -132
    record = Deal.objects.get(pk=pk).record
    assert (record["declarer"], record["game"], record["result"], record["kontra"],
            record["kontra_by"]) == (3, "spades", "lost", "kontra", 0)
    assert a.rows()[-1] == {"number": 3, "entries": [None, None, None, -132]}
    assert a.round_line() == [1, 4, 4]
    assert a.bock_badge() == [1, 4]
    a.shot("03-kontra-saved-bock-waiting")

    # Deal 4, Dieter deals, everybody passes and the cards are thrown in: Eingepasst.
    a.tap("kind-passed")
    a.shot("04-passed-preview")
    pk = a.save()
    assert Deal.objects.get(pk=pk).record == {"kind": "passed"}
    assert a.rows()[-1] == {"number": 4, "entries": [None, None, None, None]}
    # The round is over: every player has dealt once.
    assert a.round_line() == [2, 1, 4]
    assert a.bock_badge() == [2, 4]
    a.shot("04-passed-saved-round-2")

    # Deal 5, all pass and Ramsch is played, in the Bock round: Bernd 50 card points and
    # 4 tricks loses 50, doubled by Bock → −100. First Dieter's points are miscounted.
    a.tap("kind-ramsch", "ramsch-all")  # every player's card points and tricks
    for seat, points, tricks in ((1, 50, 4), (2, 40, 3), (3, 20, 3)):
        a.type_into(f"#ramsch_points_{seat}", points)
        a.type_into(f"#ramsch_tricks_{seat}", tricks)
    a.leave_field()
    errors = a.preview().locator(".errors")
    expect(errors).to_be_in_viewport()
    assert errors.inner_text().strip()  # a sentence, whatever the language
    expect(a.page.locator('[data-tap="save"]')).to_be_disabled()
    a.shot("05-ramsch-error", screen=True)
    a.type_into("#ramsch_points_3", 30)
    a.leave_field()
    expect(a.preview().locator(".breakdown")).to_contain_text("−100")
    expect(a.page.locator('[data-tap="save"]')).to_be_enabled()
    a.shot("05-ramsch-preview", screen=True)
    pk = a.save()
    assert Deal.objects.get(pk=pk).record == {
        "kind": "ramsch", "ramsch": {"points": {"1": 50, "2": 40, "3": 30},
                                     "tricks": {"1": 4, "2": 3, "3": 3}}}
    assert a.rows()[-1] == {"number": 5, "entries": [None, -100, None, None]}
    assert a.round_line() == [2, 2, 4]
    a.shot("05-ramsch-saved", screen=True)

    # The running totals on the page are the engine's, from the stored records alone.
    result = engine_result(table)
    expected = [result["totals"][str(p)] for p in range(4)]
    assert expected == [0, -76, -96, -132]
    assert a.totals() == expected
    assert Deal.objects.filter(table=table).count() == 5
    assert AuditEntry.objects.filter(table=table).count() == 5


@pytest.mark.browser_context_args(viewport=PORTRAIT)
def test_the_overbid_fits_a_portrait_tablet(tablet: Tablet, table: Table) -> None:
    """800×1280: the big buttons fit the width; the breakdown and the save button are on
    screen before saving."""
    a = tablet("portrait")
    a.shot("00-empty")
    a.tap("declarer-2", "game-clubs", "matadors-1", "toggle-hand", "bid-46", "result-points")
    a.type_into("#declarer-points", 74)
    a.leave_field()
    expect(a.preview().locator(".breakdown")).to_contain_text("−96")
    a.shot("02-overbid-preview", screen=True)
    page = a.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PORTRAIT["width"]
    for name in STANDARD_GAME + ["save", "toggle-hand", "bid-46", "result-points",
                                 "kind-ramsch"]:
        box = page.locator(f'[data-tap="{name}"]').bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PORTRAIT["width"], (name, box)
    for selector in ("#preview .breakdown", '[data-tap="save"]'):
        expect(page.locator(selector)).to_be_in_viewport()
    pk = a.save()
    assert Deal.objects.get(pk=pk).record["declarer_points"] == 74
    assert a.rows()[-1] == {"number": 1, "entries": [None, None, -96, None]}


# ---------------------------------------------------------------- 2. a correction

REASON = "Augen falsch gezählt"


def result_change(entry: AuditEntry) -> tuple[Any, Any, str]:
    """An edit's audit entry: the result before, after, and the reason given."""
    assert entry.before is not None and entry.after is not None, "an edit keeps both records"
    return entry.before["result"], entry.after["result"], entry.reason


def test_a_correction_recomputes_the_sheet_and_is_in_the_audit_log(
        tablet: Tablet, table: Table, scorer: User) -> None:
    """Deal 3 was a lost Kontra game and earned the Bock round; it was won. Corrected, its
    entry turns, the Bock round is gone and the Ramsch after it counts single."""
    deals = seed(table, scorer, ROUND)
    kontra = deals[2]
    a = tablet("correct")
    assert a.totals() == [0, -76, -96, -132]
    a.page.locator(f'.last-rows a.edit-link[href$="/deals/{kontra.pk}/edit/"]').tap()
    a.page.wait_for_url(f"**/deals/{kontra.pk}/edit/")
    # The entry panel opens with the stored deal.
    for control in ("declarer-3", "game-spades", "matadors-2", "bid-33", "result-lost",
                    "kontra-kontra", "kontra_by-0"):
        expect(a.page.locator(f"#{control}")).to_be_checked()
    a.shot("06-correction-open")
    a.tap("result-won")
    expect(a.preview().locator(".breakdown")).to_contain_text("+66")
    a.type_into("#edit-reason", REASON)
    a.shot("06-correction-preview")
    a.tap("save")
    a.page.wait_for_url(f"{a.table_url}?corrected={kontra.pk}")
    expect(a.page.locator(".notice-corrected")).to_contain_text("+66")
    assert Deal.objects.get(pk=kontra.pk).record["result"] == "won"
    result = engine_result(table)
    expected = [result["totals"][str(p)] for p in range(4)]
    assert expected == [0, -26, -96, 66]
    assert a.totals() == expected
    assert a.rows()[2] == {"number": 3, "entries": [None, None, None, 66]}
    assert a.rows()[4] == {"number": 5, "entries": [None, -50, None, None]}
    assert a.page.locator(".table-status .badge-bock").count() == 0
    assert Deal.objects.filter(table=table).count() == 5
    edits = AuditEntry.objects.filter(deal=kontra, action=AuditEntry.Action.EDIT)
    assert [result_change(e) for e in edits] == [("lost", "won", REASON)]
    a.shot("06-correction-saved")

    # The audit log, reached from the score sheet: before, after and the reason.
    a.page.locator(".sheet-link").tap()
    a.page.locator(f'a[href$="/deals/{kontra.pk}/history/"]').tap()
    a.page.wait_for_url(f"**/deals/{kontra.pk}/history/")
    edit = a.page.locator("table.audit tr.action-edit")
    expect(edit).to_have_count(1)
    expect(edit.locator(".change del")).to_be_visible()
    expect(edit.locator(".change ins")).to_be_visible()
    assert numbers(edit.locator(".change del").inner_text()) == numbers(
        edit.locator(".change ins").inner_text())  # same game, bid and Kontra; other result
    # In the words of the sheet (the browser reads German), not the record's keys.
    change = edit.locator("ul.changes li").filter(
        has=a.page.locator(".field", has_text="Ergebnis"))
    assert change.inner_text().split(":", 1)[1].split() == ["verloren", "→", "gewonnen"]
    expect(edit).to_contain_text(REASON)
    a.shot("06-correction-history")


# ---------------------------------------------------------------- 3. two devices

def _save_response(scorer: Scorer, tap: str = "save") -> Response:
    with scorer.page.expect_response(
            lambda r: r.request.method == "POST" and "/preview/" not in r.url) as response:
        scorer.tap(tap)
    scorer.page.wait_for_load_state()
    return response.value


def test_a_stale_save_from_a_second_device_is_refused(tablet: Tablet, table: Table) -> None:
    a, b = tablet("device-a"), tablet("device-b")
    # B has started its entry (an untouched form would follow the table: table-live.js).
    b.tap("declarer-2")
    a.tap(*STANDARD_GAME[:-1])
    pk = a.save("result-won")

    # B still has the form of the empty table and records the same deal its own way.
    b.tap("game-spades", "matadors-1", "bid-22")
    expect(b.page.locator('[data-tap="bid-22"]')).to_have_class("choice at-value")
    assert _save_response(b, "result-won").status == 409
    # Said once, by the conflict panel with both versions (no stale notice above it).
    expect(b.page.locator("#conflict")).to_be_visible()
    expect(b.page.locator("#conflict-heading")).to_have_text("Zwei Fassungen dieses Tisches")
    expect(b.page.locator(".notice-stale")).to_have_count(0)
    b.shot("07-stale-save-refused")
    # B now sees A's deal and the totals with it, and still has its own entry to check.
    assert b.rows() == [{"number": 1, "entries": [None, 24, None, None]}]
    assert b.totals() == [0, 24, 0, 0]
    assert b.round_line() == [1, 2, 4]
    for control in ("declarer-2", "game-spades", "matadors-1", "bid-22", "result-won"):
        expect(b.page.locator(f"#{control}")).to_be_checked()
    table.refresh_from_db()
    assert b.page.locator('#deal-form input[name="version"]').input_value() == str(
        table.version)
    # Nothing was written for B: one deal, A's, recorded once.
    assert list(Deal.objects.filter(table=table).values_list("pk", flat=True)) == [pk]
    assert Deal.objects.get(pk=pk).record["declarer"] == 1
    assert AuditEntry.objects.filter(table=table).count() == 1


def test_a_stale_correction_is_refused_and_shows_the_other_version(
        tablet: Tablet, table: Table, scorer: User) -> None:
    [deal] = seed(table, scorer, ROUND[:1])
    a, b = tablet("edit-a"), tablet("edit-b")
    for device in (a, b):
        device.page.locator(f'a.edit-link[href$="/deals/{deal.pk}/edit/"]').tap()
        device.page.wait_for_url(f"**/deals/{deal.pk}/edit/")

    a.tap("matadors-2")
    a.type_into("#edit-reason", REASON)
    a.tap("save")
    a.page.wait_for_url(f"{a.table_url}?corrected={deal.pk}")
    assert a.totals() == [0, 36, 0, 0]

    b.tap("result-lost")
    b.type_into("#edit-reason", "Tippfehler")
    assert _save_response(b).status == 409
    expect(b.page.locator("#conflict")).to_be_visible()
    expect(b.page.locator("#conflict-heading")).to_have_text("Zwei Fassungen dieses Spiels")
    expect(b.page.locator(".notice-stale")).to_have_count(0)
    b.shot("08-stale-correction-refused")
    # B sees A's version of the deal (with 2: 36) beside its own entry (lost), to choose.
    assert 36 in numbers(b.page.inner_text(".current-row"))
    assert b.totals() == [0, 36, 0, 0]
    expect(b.page.locator("#result-lost")).to_be_checked()
    # A's correction stands; B's was not written.
    deal.refresh_from_db()
    assert (deal.record["matadors"], deal.record["result"]) == (2, "won")
    assert Deal.objects.filter(table=table).count() == 1
    assert [e.action for e in AuditEntry.objects.filter(deal=deal)] == ["create", "edit"]


def test_a_retried_or_double_tapped_save_records_one_deal(tablet: Tablet, table: Table) -> None:
    a = tablet("retry")
    a.tap(*STANDARD_GAME[:-1])
    with a.page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/deals/")) as sent:
        pk = a.save("result-won")
    # The answer got lost on the way; the device sends the very same request again.
    again = a.page.request.post(sent.value.url, data=sent.value.post_data, max_redirects=0,
                                headers={"content-type": "application/x-www-form-urlencoded"})
    assert again.status == 302
    assert again.headers["location"].endswith(f"?saved={pk}")
    assert Deal.objects.filter(table=table).count() == 1

    # A double tap: the quick result sends the deal, and a second touch (on the result again,
    # then on save) comes while it is on its way (held back here until the touches are in,
    # so that the timing is always the same).
    a.tap("declarer-2", "game-clubs", "matadors-1", "bid-24")
    a.preview()
    held: list[Route] = []
    a.page.route(re.compile(r"/deals/$"), lambda route: held.append(route))
    box, save = (a.page.locator(f'[data-tap="{name}"]').bounding_box()
                 for name in ("result-won", "save"))
    assert box is not None and save is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    a.page.touchscreen.tap(x, y)
    wait_until(a.page, lambda: bool(held), timeout=5, what="the quick result's save")
    a.page.touchscreen.tap(x, y)
    a.page.touchscreen.tap(save["x"] + save["width"] / 2, save["y"] + save["height"] / 2)
    a.page.wait_for_timeout(500)
    assert len(held) == 1, [r.request.post_data for r in held]  # sent once
    for route in held:
        route.continue_()
    a.page.wait_for_url(lambda url: (m := SAVED.search(url)) is not None
                        and int(m.group(1)) != pk)
    a.page.wait_for_load_state()
    assert Deal.objects.filter(table=table).count() == 2
    assert AuditEntry.objects.filter(table=table).count() == 2
    assert a.rows()[-1] == {"number": 2, "entries": [None, None, 24, None]}
    a.shot("09-double-tap-saved")
