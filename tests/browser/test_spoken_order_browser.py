"""The spoken order (issue 23, item 1): the result tap saves the deal at once, so everything
that belongs to the deal stands before the result on every layout. A scorer who taps the
controls in the order the screen itself shows them — computed here from the controls'
bounding boxes, column by column and top to bottom on a tablet, top to bottom on a phone,
never from a list written into the test — records, at 1024×768, 800×1280 and 390×844, at a
3-table and a 4-table:

1. Grand mit 1 Hand, Kontra said by an opponent, lost (which brings a Bock round);
2. an overbid: Grand mit 1 bid 50, whose preview says "überreizt" and what it will count
   before the result is tapped;
3. ♠ mit 1 Hand won Schwarz, in the Bock round;
4. a Ramsch (its Save disabled while it is empty).

Each deal is read back from the database with every field, and its entry from the sheet.
On the tablets the window never scrolls and every tapped control is inside the viewport and
under nothing; on the phone each control is scrolled to (as the browser scrolls) and the
sticky Save bar covers none of them. Screenshots: ``spoken-order-<size>-<players>.png``
(the deal with Kontra before its result) and ``…-overbid.png`` (the overbid preview).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Deal, Table
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.writes.services import Actor, deal_record
from tests.web.factories import browser_login, make_club, make_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LANDSCAPE, PORTRAIT, PHONE = (1024, 768), (800, 1280), (390, 844)
DECLARED = {"hand": False, "ouvert": False, "schneider_announced": False,
            "schwarz_announced": False}

# Every visible control of the entry: its tap name and its box.
CONTROLS = """() => Array.from(document.querySelectorAll(
        '#deal-form .kind-row [data-tap], #deal-form .kind-section [data-tap]'))
    .filter(e => e.getClientRects().length && e.offsetParent !== null
                 && !e.closest('details:not([open]) > :not(summary)'))
    .map(e => { const r = e.getBoundingClientRect();
                return {tap: e.dataset.tap, x: r.left + window.scrollX,
                        y: r.top + window.scrollY, w: r.width, h: r.height,
                        head: e.closest('.kind-row') !== null}; })"""


def screen_order(controls: list[dict[str, Any]], phone: bool) -> list[str]:
    """The controls in the order the screen shows them. On the phone: top to bottom (left to
    right in a row). On a tablet: the row across the top (the kind of record, Bock by hand)
    first, then the columns the boxes below it form (boxes whose horizontal extents overlap
    stand in one column), left to right, each top to bottom."""
    def by_y(items: list[dict[str, Any]]) -> list[str]:
        return [c["tap"] for c in sorted(items, key=lambda c: (round(c["y"]), c["x"]))]

    if phone:
        return by_y(controls)
    columns: list[dict[str, Any]] = []
    for c in sorted((c for c in controls if not c["head"]), key=lambda c: c["x"]):
        if columns and c["x"] < columns[-1]["right"] - 1:
            columns[-1]["right"] = max(columns[-1]["right"], c["x"] + c["w"])
            columns[-1]["items"].append(c)
        else:
            columns.append({"right": c["x"] + c["w"], "items": [c]})
    return by_y([c for c in controls if c["head"]]) + [
        tap for column in columns for tap in by_y(column["items"])]


class Scorer:
    """One device at one table, tapping in the screen's own order."""

    def __init__(self, page: Page, live_server: LiveServer, table: Table, user: Any,
                 size: tuple[int, int], shots: Path) -> None:
        self.page, self.live_server, self.table, self.user = page, live_server, table, user
        self.width, self.height = size
        self.phone = size == PHONE
        self.shots = shots
        self.url_before = ""
        self.name = f"{size[0]}x{size[1]}-{len(table.seats.all())}"

    def open(self) -> None:
        self.page.goto(self.live_server.url + reverse("scoring:table", args=[self.table.pk]))
        self.page.wait_for_load_state()
        self.page.wait_for_function("() => document.querySelector('#deal-form.enhanced')")

    def order(self) -> list[str]:
        return screen_order(self.page.evaluate(CONTROLS), self.phone)

    def settled(self) -> None:
        self.page.wait_for_function(
            "() => !document.querySelector('#deal-form.htmx-request')")

    def check_result_last(self) -> None:
        """Everything of the deal the screen shows stands before the first result button."""
        order = self.order()
        results = [i for i, tap in enumerate(order) if tap.startswith("result-")]
        if not results:
            return
        after = [tap for tap in order[min(results):] if not tap.startswith("result-")]
        assert not after, (self.name, after, order)

    def reach(self, name: str) -> None:
        """The control as the scorer reaches it: on a tablet already in view, the window
        unscrolled; on the phone scrolled to as the browser scrolls. Either way the thumb
        lands on the control, not on the Save bar or anything else."""
        control = self.page.locator(f'#deal-form [data-tap="{name}"]')
        if self.phone:
            control.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        else:
            assert self.page.evaluate("window.scrollY") == 0, name
        box = control.bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= self.height, (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= self.width, (name, box)
        hit = self.page.evaluate(
            "([x, y, name]) => { const e = document.elementFromPoint(x, y);"
            " return e && e.closest('[data-tap]') ? e.closest('[data-tap]').dataset.tap"
            " : (e ? e.tagName + '.' + e.className : null); }",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, name])
        assert hit == name, (self.name, name, hit)

    def tap_in_order(self, wanted: list[str], *, before_last: str = "") -> None:
        """Tap every control of ``wanted`` in the order the screen shows them, the order
        computed again before each tap (a tap may show more: the Kontra sayers). With
        ``before_last``, a screenshot of that name before the last tap."""
        left = set(wanted)
        self.url_before = self.page.url
        while left:
            self.settled()
            self.check_result_last()
            order = self.order()
            name = next((tap for tap in order if tap in left), None)
            assert name is not None, (self.name, left, order)
            if len(left) == 1 and before_last:
                self.page.screenshot(path=str(self.shots / before_last))
            self.reach(name)
            self.page.locator(f'#deal-form [data-tap="{name}"]').tap()
            left.discard(name)
            if not self.phone and left:
                assert self.page.evaluate("window.scrollY") == 0, name

    def saved(self, before: int) -> Deal:
        """The deal the last tap stored (the result tap saves at once)."""
        last = self.url_before
        self.page.wait_for_url(lambda url: "?saved=" in url and url != last)
        self.page.wait_for_load_state()
        deal = Deal.objects.get(pk=int(self.page.url.rsplit("=", 1)[1]))
        assert Deal.objects.filter(table=self.table).count() == before + 1
        return deal

    def row(self, deal: Deal) -> Any:
        table = tables_with_everything(Table.objects.filter(pk=self.table.pk)).get()
        return next(r for r in table_sheet(table, "de").rows if r.deal_id == deal.pk)

    def seed_until_bock(self) -> None:
        """Plain games (Forehand plays Clubs with 1, won) until the next deal is in the Bock
        round the lost Kontra brought."""
        for _ in range(8):
            table = tables_with_everything(Table.objects.filter(pk=self.table.pk)).get()
            sheet = table_sheet(table, "de", explain=False)
            if sheet.next_bock:
                return
            deal_record(table=table, record={
                "kind": "game", "declarer": sheet.next_active[0], "game": "clubs",
                "matadors": 1, "bid": 18, "result": "won", **DECLARED},
                expected_version=table.version, actor=Actor(self.user, "seeder"))
        raise AssertionError("no Bock round")

    def next_active(self) -> list[int]:
        table = tables_with_everything(Table.objects.filter(pk=self.table.pk)).get()
        return list(table_sheet(table, "de", explain=False).next_active)


@pytest.fixture
def scorer(contexts: Callable[..., BrowserContext], live_server: LiveServer,
           screenshot_dir: Path) -> Iterator[Any]:

    def _open(size: tuple[int, int], players: int) -> Scorer:
        table = make_table(make_club(), players=players)
        context = contexts(viewport={"width": size[0], "height": size[1]})
        user = make_user(table.evening.club, "scorer")
        browser_login(context, live_server, user)
        s = Scorer(context.new_page(), live_server, table, user, size, screenshot_dir)
        s.open()
        return s

    yield _open


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", [LANDSCAPE, PORTRAIT, PHONE], ids=["1024x768", "800x1280",
                                                                   "390x844"])
def test_tapping_in_the_screens_order_records_the_whole_deal(
        scorer: Any, size: tuple[int, int], players: int) -> None:
    s: Scorer = scorer(size, players)
    save = s.page.locator("#deal-form button.save")

    # 1. Grand mit 1 Hand, Kontra said by the first opponent, lost: 3 × 24 = 72, lost
    #    double −144, Kontra ×2 = −288.
    declarer, opponent = s.next_active()[:2]
    s.tap_in_order([f"declarer-{declarer}", "game-grand", "toggle-hand", "matadors-1",
                    "bid-24", "kontra-kontra", f"kontra-by-{opponent}", "result-lost"],
                   before_last=f"spoken-order-{s.name}.png")
    deal = s.saved(0)
    assert deal.record == {"kind": "game", "declarer": declarer, "game": "grand",
                           "hand": True, "ouvert": False, "schneider_announced": False,
                           "schwarz_announced": False, "matadors": 1, "bid": 24,
                           "result": "lost", "kontra": "kontra", "kontra_by": opponent}
    row = s.row(deal)
    assert row.entries[declarer] == -288 and row.bock == 0

    # 2. The overbid: Grand mit 1 = 48 < 50. Before the result the preview says so and what
    #    it will count: the next multiple of 24 that reaches 50, 72, lost double −144, and
    #    doubled again if the Bock round the lost Kontra brought has begun.
    declarer = s.next_active()[0]
    bock = 2 ** table_sheet(tables_with_everything(Table.objects.filter(pk=s.table.pk)).get(),
                            "de", explain=False).next_bock
    expected = f"−{144 * bock}"
    taps = [f"declarer-{declarer}", "game-grand", "matadors-1", "bid-50"]
    s.tap_in_order(taps)
    s.settled()
    preview = s.page.locator("#preview .overbid-preview")
    expect(preview).to_contain_text("überreizt")
    expect(preview).to_contain_text("48 < Reizwert 50")
    expect(s.page.locator("#preview .preview-entries .entry")).to_have_text(
        f"{s.page.inner_text(f'[data-tap=declarer-{declarer}] .text')} {expected}")
    if bock > 1:
        expect(preview).to_contain_text(f"Bock {bock}")
    expect(s.page.locator("#preview .open")).to_contain_text("Ergebnis")
    if s.phone:
        s.page.locator("#preview").scroll_into_view_if_needed()
    s.page.screenshot(path=str(s.shots / f"spoken-order-{s.name}-overbid.png"))
    s.tap_in_order(["result-won"])
    deal = s.saved(1)
    assert deal.record == {"kind": "game", "declarer": declarer, "game": "grand",
                           **DECLARED, "matadors": 1, "bid": 50, "result": "won"}
    row = s.row(deal)
    assert row.overbid and row.entries[declarer] == -144 * bock  # what the preview said
    expect(s.page.locator(".last-rows tbody tr").last.locator(".overbid-mark")).to_have_text(
        "überreizt")

    # 3. ♠ mit 1 Hand won Schwarz in the Bock round: mit 1, Spiel 2, Hand 3, Schneider 4,
    #    Schwarz 5 × 11 = 55, Bock ×2 = +110.
    s.seed_until_bock()
    s.open()
    count = Deal.objects.filter(table=s.table).count()
    declarer = s.next_active()[0]
    s.tap_in_order([f"declarer-{declarer}", "game-spades", "toggle-hand", "matadors-1",
                    "bid-18", "result-won_schwarz"])
    deal = s.saved(count)
    assert deal.record == {"kind": "game", "declarer": declarer, "game": "spades",
                           **DECLARED, "hand": True, "matadors": 1, "bid": 18,
                           "result": "won_schwarz"}
    row = s.row(deal)
    assert row.bock == 1 and row.entries[declarer] == 110

    # 4. A Ramsch: Save waits while it is empty; the loser and his card points, then Save.
    loser = s.next_active()[1]
    s.tap_in_order(["kind-ramsch"])
    s.settled()
    expect(save).to_be_disabled()
    s.tap_in_order([f"ramsch-loser-{loser}"])
    s.page.locator("#ramsch-loser-points").fill("70")
    expect(save).to_be_enabled()
    save.scroll_into_view_if_needed()
    s.url_before = s.page.url
    save.tap()
    deal = s.saved(count + 1)
    assert deal.record == {"kind": "ramsch", "ramsch": {
        "losers": {str(loser): 70}, "jungfrau": 0, "durchmarsch": None}}
    row = s.row(deal)
    # The loser loses his card points (doubled in a Bock round).
    assert row.entries[loser] == -70 * 2 ** row.bock
