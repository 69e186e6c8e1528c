"""Where things stand on the table screen (issue 36, item 5), in a real browser at the
tested sizes (1024×768 and 1366×768 landscape, 800×1280 portrait, 390×844 and 360×780
phones):

- the save confirmation (the toast) never covers the round and the Bock state, also with a
  long explanation (Grand Hand, Kontra, in a Bock round) that wraps;
- read column by column on the portrait tablet, the steps come in the spoken order
  (declarer, game, Hand and announcements, with/without, the bid, the result);
- on the phone the result stands in the same place for every deal, also after a bid over 60;
- the landscape list tells Null, Null Hand and Null Ouvert apart (no "N…" three times);
- the phone's language switch is on the screen;
- "misdeal: deal again" saves nothing with one tap: it asks first.

Screenshots: ``places-<case>-<size>.png``.
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

from .test_spoken_order_browser import CONTROLS, screen_order

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LANDSCAPE, WIDE, PORTRAIT, PHONE, NARROW = (1024, 768), (1366, 768), (800, 1280), (390, 844), (
    360, 780)
SIZES = [LANDSCAPE, WIDE, PORTRAIT, PHONE]
DECLARED = {"hand": False, "ouvert": False, "schneider_announced": False,
            "schwarz_announced": False}


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


class Opened:
    def __init__(self, page: Page, table: Table, user: Any, shots: Path,
                 size: tuple[int, int]) -> None:
        self.page, self.table, self.user, self.shots = page, table, user, shots
        self.width, self.height = size

    def fresh(self) -> Table:
        return tables_with_everything(Table.objects.filter(pk=self.table.pk)).get()

    def seed(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            table = self.fresh()
            deal_record(table=table, record=record, expected_version=table.version,
                        actor=Actor(self.user, "seeder"))

    def next_active(self) -> list[int]:
        return list(table_sheet(self.fresh(), "de", explain=False).next_active)

    def next_bock(self) -> int:
        return table_sheet(self.fresh(), "de", explain=False).next_bock

    def load(self) -> None:
        self.page.goto(self.page.url.split("?")[0])
        self.page.wait_for_function("() => document.querySelector('#deal-form.enhanced')")

    def tap(self, *names: str) -> None:
        for name in names:
            self.page.locator(f'#deal-form [data-tap="{name}"]').tap()

    def settled(self) -> None:
        self.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")

    def box(self, selector: str) -> dict[str, float]:
        box = self.page.locator(selector).first.bounding_box()
        assert box is not None, selector
        return {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]}

    def page_y(self, selector: str) -> float:
        """Where ``selector`` stands in the page (not the window)."""
        return float(self.page.locator(selector).first.evaluate(
            "e => e.getBoundingClientRect().top + window.scrollY"))

    def shot(self, name: str) -> None:
        size = size_id((self.width, self.height))
        self.page.screenshot(path=str(self.shots / f"places-{name}-{size}.png"))


@pytest.fixture
def opened(contexts: Callable[..., BrowserContext], live_server: LiveServer,
           screenshot_dir: Path) -> Iterator[Any]:

    def _open(size: tuple[int, int], players: int = 4,
              records: list[dict[str, Any]] | None = None) -> Opened:
        table = make_table(make_club(), players=players)
        user = make_user(table.evening.club, "scorer")
        context = contexts(viewport={"width": size[0], "height": size[1]})
        browser_login(context, live_server, user)
        o = Opened(context.new_page(), table, user, screenshot_dir, size)
        o.seed(records or [])
        o.page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
        o.page.wait_for_function("() => document.querySelector('#deal-form.enhanced')")
        return o

    yield _open


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


# ---------------------------------------------------------------- the toast

LOST_KONTRA = {"kind": "game", "game": "clubs", "matadors": 1, "bid": 18, "result": "lost",
               "kontra": "kontra", **DECLARED}


@pytest.mark.parametrize("size", [PORTRAIT, PHONE], ids=size_id)
def test_the_toast_never_covers_the_round_and_the_bock_state(opened: Any,
                                                             size: tuple[int, int]) -> None:
    """In a Bock round, Grand Hand with 2, Kontra, lost: the explanation is long and wraps.
    While the toast stands, it covers neither the round line nor the Bock badge nor
    anything of the status header, at once and seconds later."""
    o = opened(size, 4)
    declarer, opponent = o.next_active()[:2]
    o.seed([{**LOST_KONTRA, "declarer": declarer, "kontra_by": opponent}])
    while not o.next_bock():
        o.seed([{"kind": "game", "declarer": o.next_active()[0], "game": "clubs",
                 "matadors": 1, "bid": 18, "result": "won", **DECLARED}])
    o.load()
    declarer, opponent = o.next_active()[:2]
    o.tap(f"declarer-{declarer}", "game-grand", "toggle-hand", "matadors-2", "bid-24",
          "kontra-kontra", f"kontra-by-{opponent}")
    o.settled()
    before = o.page.url
    o.tap("result-lost")
    o.page.wait_for_url(lambda url: url != before and "?saved=" in url)
    o.page.wait_for_load_state()
    toast = o.page.locator(".notice-saved")
    expect(toast).to_be_visible()
    o.page.evaluate("window.scrollTo(0, 0)")
    o.shot("toast")
    header = [".table-status", ".table-status .round", ".table-status .badge-bock",
              ".table-status h1", ".totals-strip"]
    for moment in range(2):
        box = o.box(".notice-saved")
        assert box["height"] > 0
        covered = [s for s in header if o.page.locator(s).count()
                   and overlaps(box, o.box(s))]
        assert not covered, (moment, box, covered)
        undo = o.box(".notice-saved button")
        assert undo["height"] >= 44 and undo["y"] >= 0 and undo["y"] + undo["height"] <= size[1]
        o.page.wait_for_timeout(2000)


# ---------------------------------------------------------------- the spoken order

def test_portrait_read_column_by_column_is_the_spoken_order(opened: Any) -> None:
    """800×1280: declarer, game, Hand and the announcements, with/without, the bid, Kontra,
    the result: read the columns left to right, each top to bottom."""
    o = opened(PORTRAIT, 4)
    o.shot("order")
    order = screen_order(o.page.evaluate(CONTROLS), phone=False)

    def first(prefix: str) -> int:
        return min(i for i, tap in enumerate(order) if tap.startswith(prefix))

    def last(prefix: str) -> int:
        return max(i for i, tap in enumerate(order) if tap.startswith(prefix))

    spoken = ["declarer-", "game-", "toggle-", "matadors-", "bid", "kontra-", "result-"]
    for before, after in zip(spoken, spoken[1:], strict=False):
        assert last(before) < first(after), (before, after, order)


def test_the_phones_result_stays_in_its_place(opened: Any) -> None:
    """390×844: where the result buttons stand in the page is the same for every deal, and
    a game over 60 does not push them down: ♣ Ouvert with 4 (132) marks its value under
    "over 60" without opening it over the result; opened by a tap, the high bids stand over
    what follows, and the one tapped closes them."""
    o = opened(PHONE, 3)
    place = o.page_y('[data-tap="result-won"]')
    declarer = o.next_active()[0]
    o.tap(f"declarer-{declarer}", "game-clubs", "toggle-ouvert", "matadors-4")
    o.settled()
    expect(o.page.locator(".bids-high summary")).to_have_attribute("data-chosen", "132")
    assert o.page_y('[data-tap="result-won"]') == pytest.approx(place, abs=1)
    o.page.locator('#deal-form [data-tap="bids-more"]').tap()
    assert o.page_y('[data-tap="result-won"]') == pytest.approx(place, abs=1)
    o.tap("bid-72")
    o.settled()
    o.shot("high-bid")
    assert o.page_y('[data-tap="result-won"]') == pytest.approx(place, abs=1)
    expect(o.page.locator("#bid-72")).to_be_checked()
    before = o.page.url
    o.tap("result-won")
    o.page.wait_for_url(lambda url: url != before and "?saved=" in url)
    o.page.wait_for_load_state()
    assert Deal.objects.get().record["bid"] == 72
    o.page.wait_for_function("() => document.querySelector('#deal-form.enhanced')")
    assert o.page_y('[data-tap="result-won"]') == pytest.approx(place, abs=1)


# ---------------------------------------------------------------- the list

NULLS = [{"kind": "game", "game": "null", "bid": 23, "result": "won", **DECLARED},
         {"kind": "game", "game": "null", "bid": 35, "result": "won", **DECLARED,
          "hand": True},
         {"kind": "game", "game": "null", "bid": 46, "result": "won", **DECLARED,
          "ouvert": True},
         {"kind": "game", "game": "null", "bid": 59, "result": "won", **DECLARED,
          "hand": True, "ouvert": True}]

SHOWN = """() => Array.from(document.querySelectorAll('.last-rows tbody tr .game')).map(g => {
    // the text a reader sees: every visible, unclipped text of the game's own cell
    const parts = [];
    g.querySelectorAll('*').forEach(e => {
        const s = getComputedStyle(e), r = e.getBoundingClientRect();
        if (e.children.length || s.display === 'none' || s.visibility === 'hidden'
            || r.width <= 1 || s.clip !== 'auto' && s.position === 'absolute') return;
        parts.push(e.textContent.trim());
    });
    return {text: parts.join(' ').trim(), cut: g.scrollWidth > g.clientWidth + 1};
})"""


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_list_tells_the_nulls_apart(opened: Any, size: tuple[int, int]) -> None:
    o = opened(size, 4)
    records = []
    for record in NULLS:
        o.seed([{**record, "declarer": o.next_active()[0]}])
        records.append(record)
    o.load()
    o.shot("nulls")
    shown = o.page.evaluate(SHOWN)
    assert len(shown) == 4
    texts = [s["text"] for s in shown]
    assert all(texts), shown
    assert len(set(texts)) == 4, shown
    assert not any(s["cut"] for s in shown), shown
    assert not any("…" in t for t in texts), shown


# ---------------------------------------------------------------- the phone's header

@pytest.mark.parametrize("size", [PHONE, NARROW], ids=size_id)
def test_the_phones_language_switch_is_on_the_screen(opened: Any, size: tuple[int, int]) -> None:
    o = opened(size, 4)
    o.shot("language")
    for selector in ("#language-select", ".language-switch button"):
        box = o.box(selector)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], (selector, box)
        hit = o.page.locator(selector).evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)"
            " === e; }")
        assert hit, selector
    width = o.page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0]


# ---------------------------------------------------------------- a misdeal

@pytest.mark.parametrize("size", [LANDSCAPE, PHONE], ids=size_id)
def test_a_misdeal_asks_before_it_is_saved(opened: Any, size: tuple[int, int]) -> None:
    """One tap on "misdeal: deal again" saves nothing; its confirmation, which stands
    elsewhere than the first tap did, saves the misdeal once."""
    o = opened(size, 4)
    url = o.page.url
    first = o.page.locator('[data-tap="misdeal"]')
    first.scroll_into_view_if_needed()
    spot = first.bounding_box()
    assert spot is not None
    first.tap()
    o.page.wait_for_timeout(500)
    assert o.page.url == url and not Deal.objects.exists()
    confirm = o.page.locator('[data-tap="misdeal-confirm"]')
    expect(confirm).to_be_visible()
    o.shot("misdeal")
    box = confirm.bounding_box()
    assert box is not None and not overlaps(box, spot), (box, spot)
    save = o.page.locator("#deal-form button.save").bounding_box()
    assert save is not None and not overlaps(box, save)
    confirm.tap()
    o.page.wait_for_url("**?saved=*")
    assert [d.record["kind"] for d in Deal.objects.all()] == ["misdeal"]
