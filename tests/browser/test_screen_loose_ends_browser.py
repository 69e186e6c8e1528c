"""The table screen's loose ends of issue 23 (item 6), each in a real browser:

- the list beside the entry draws no game name over an entry ("Rams+120ch");
- Kontra's "said by" offers no silent "nobody", and at 1024×768 with four players every
  sayer stands above the Save bar;
- on the phone the sticky Save bar covers no result button the browser scrolls to;
- an empty Ramsch form (as a Ramsch round opens it) cannot be saved.

Screenshots: ``loose-ends-<case>.png``.
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

LANDSCAPE, PHONE = (1024, 768), (390, 844)
DECLARED = {"hand": False, "ouvert": False, "schneider_announced": False,
            "schwarz_announced": False}


class Opened:
    def __init__(self, page: Page, table: Table, user: Any, shots: Path) -> None:
        self.page, self.table, self.user, self.shots = page, table, user, shots

    def seed(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            table = tables_with_everything(Table.objects.filter(pk=self.table.pk)).get()
            deal_record(table=table, record=record, expected_version=table.version,
                        actor=Actor(self.user, "seeder"))

    def sheet(self) -> Any:
        table = tables_with_everything(Table.objects.filter(pk=self.table.pk)).get()
        return table_sheet(table, "de", explain=False)

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_function("() => document.querySelector('#deal-form.enhanced')")

    def covered_by(self, selector: str) -> Any:
        """What the thumb lands on at the middle of ``selector``'s element: its data-tap, or
        the element that covers it."""
        return self.page.locator(selector).evaluate("""e => {
            const r = e.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            const tap = hit && hit.closest('[data-tap]');
            return tap ? tap.dataset.tap : (hit ? hit.tagName + '.' + hit.className : null);
        }""")


@pytest.fixture
def opened(contexts: Callable[..., BrowserContext], live_server: LiveServer,
           screenshot_dir: Path) -> Iterator[Any]:

    def _open(size: tuple[int, int], players: int,
              records: list[dict[str, Any]] | None = None) -> Opened:
        table = make_table(make_club(), players=players)
        user = make_user(table.evening.club, "scorer")
        context = contexts(viewport={"width": size[0], "height": size[1]})
        browser_login(context, live_server, user)
        o = Opened(context.new_page(), table, user, screenshot_dir)
        o.seed(records or [])
        o.page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
        o.page.wait_for_function("() => document.querySelector('#deal-form.enhanced')")
        return o

    yield _open


@pytest.mark.parametrize("players", [3, 4])
def test_no_game_name_is_drawn_over_an_entry(opened: Any, players: int) -> None:
    """A Durchmarsch by the first column's player (+120 beside the game column), a Ramsch and
    a Grand: each cell of the list keeps its text inside itself."""
    durch = 0 if players == 3 else 2  # a player in the deal (seat 0 deals at a 4-table)
    o = opened(LANDSCAPE, players, [
        {"kind": "ramsch", "ramsch": {"losers": {}, "jungfrau": 2, "durchmarsch": durch}},
        {"kind": "ramsch", "ramsch": {"losers": {"2": 70}, "jungfrau": 0,
                                      "durchmarsch": None}},
        {"kind": "game", "declarer": 3 % players, "game": "grand", "matadors": 1, "bid": 50,
         "result": "won", **DECLARED}])
    o.page.screenshot(path=str(o.shots / f"loose-ends-list-{players}.png"))
    spill = o.page.evaluate("""() => Array.from(
            document.querySelectorAll('.entry-side .rows tbody td, .entry-side .rows thead th'))
        .filter(c => c.getClientRects().length && c.clientWidth > 1
                     && c.scrollWidth > c.clientWidth + 1)
        .map(c => c.innerText.trim() + ' ' + c.scrollWidth + '>' + c.clientWidth)""")
    assert not spill, spill
    # the game's words, cut with an ellipsis, stay left of the first entry
    overlaps = o.page.evaluate("""() => Array.from(
            document.querySelectorAll('.entry-side .rows tbody tr')).map(tr => {
        const game = tr.querySelector('.game').getBoundingClientRect();
        const next = tr.children[2].getBoundingClientRect();
        return game.right - next.left; }).filter(d => d > 0.5)""")
    assert not overlaps, overlaps
    expect(o.page.locator(".entry-side .rows tbody tr").last.locator(".overbid-mark")
           ).to_be_visible()


def test_every_kontra_sayer_stands_above_the_save_bar(opened: Any) -> None:
    """At 1024×768 with four players: Kontra tapped, every sayer is inside the window and
    under nothing, the window unscrolled; "nobody" is not offered, and the declarer cannot be
    tapped as his own sayer. Until a sayer is tapped the preview keeps it open and the result
    tap does not save."""
    o = opened(LANDSCAPE, 4)
    o.page.locator('[data-tap="kontra-kontra"]').tap()
    sayers = o.page.locator(".kontra-by [data-tap]")
    expect(o.page.locator('[data-tap="kontra-by-none"]')).to_be_hidden()
    visible = [sayers.nth(i) for i in range(sayers.count()) if sayers.nth(i).is_visible()]
    assert [v.get_attribute("data-tap") for v in visible] == [
        "kontra-by-1", "kontra-by-2", "kontra-by-3"]
    bar = o.page.locator(".save-row").bounding_box()
    assert bar is not None
    save_top = bar["y"]
    for sayer in visible:
        box = sayer.bounding_box()
        assert box is not None and box["y"] + box["height"] <= save_top, box
        tap = sayer.get_attribute("data-tap")
        assert o.covered_by(f'[data-tap="{tap}"]') == tap
    assert o.page.evaluate("window.scrollY") == 0
    for tap in ("declarer-1", "game-clubs", "matadors-1", "bid-18"):
        o.page.locator(f'[data-tap="{tap}"]').tap()
    expect(o.page.locator('[data-tap="kontra-by-1"]')).to_be_hidden()  # the declarer's own
    o.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    expect(o.page.locator("#preview .open")).to_contain_text("Tippen, wer Kontra gesagt hat.")
    o.page.screenshot(path=str(o.shots / "loose-ends-kontra-sayers-1024x768-4.png"))
    o.page.locator('[data-tap="result-won"]').tap()
    o.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    expect(o.page.locator("#deal-form button.save")).to_be_disabled()
    assert not Deal.objects.exists()
    o.page.locator('[data-tap="kontra-by-2"]').tap()
    save = o.page.locator("#deal-form button.save")
    expect(save).to_be_enabled()
    save.tap()
    o.page.wait_for_url("**?saved=*")
    assert Deal.objects.get().record["kontra_by"] == 2


def test_the_card_points_stand_above_the_save_bar_with_kontra(opened: Any) -> None:
    """1024×768, four players, Kontra and its sayer tapped: "count card points" opens the
    keypad under the results, above the Save bar, the window unscrolled."""
    o = opened(LANDSCAPE, 4)
    for tap in ("declarer-1", "game-clubs", "matadors-1", "bid-18", "kontra-kontra",
                "kontra-by-2", "result-points"):
        o.page.locator(f'[data-tap="{tap}"]').tap()
    o.page.locator("#declarer-points").fill("70")
    o.page.locator("#declarer-tricks").fill("6")
    save = o.page.locator("#deal-form button.save")
    expect(save).to_be_enabled()
    expect(o.page.locator("#preview .breakdown")).to_contain_text("× Kontra 2 = +48")
    o.page.screenshot(path=str(o.shots / "loose-ends-keypad-kontra-1024x768-4.png"))
    assert o.page.evaluate("window.scrollY") == 0
    bar = o.page.locator(".save-row").bounding_box()
    assert bar is not None
    for field in ("#declarer-points", "#declarer-tricks"):
        box = o.page.locator(field).bounding_box()
        assert box is not None and box["y"] + box["height"] <= bar["y"], (field, box, bar)
        assert o.page.locator(field).evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)"
            " === e; }")
    box = save.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768
    save.tap()
    o.page.wait_for_url("**?saved=*")
    assert Deal.objects.get().record["declarer_points"] == 70


@pytest.mark.parametrize("players", [3, 4])
def test_the_phones_save_bar_covers_no_result(opened: Any, players: int) -> None:
    """Scrolled to as the browser scrolls (focus, a control brought into view), each result
    button stands above the sticky Save bar, also while the preview has something to say."""
    o = opened(PHONE, players)
    for tap in ("declarer-1", "game-grand", "matadors-1", "bid-50", "kontra-kontra"):
        o.page.locator(f'[data-tap="{tap}"]').tap()
    o.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    expect(o.page.locator("#preview .overbid-preview")).to_be_visible()
    o.page.evaluate("window.scrollTo(0, 0)")
    results = o.page.locator(".group-result [data-tap]")
    for i in range(results.count()):
        button = results.nth(i)
        tap = button.get_attribute("data-tap")
        button.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        assert o.covered_by(f'.group-result [data-tap="{tap}"]') == tap, tap
        o.page.evaluate("window.scrollTo(0, 0)")
    o.page.locator('[data-tap="result-won"]').evaluate(
        "e => e.scrollIntoView({block: 'nearest'})")
    o.page.screenshot(path=str(o.shots / f"loose-ends-phone-result-{players}.png"))


def test_an_empty_ramsch_cannot_be_saved(opened: Any) -> None:
    """A Ramsch round opens the form on an empty Ramsch: Save waits for the loser and his
    card points (the server refuses an empty one too: test_entry_fit.py)."""
    o = opened(LANDSCAPE, 3, [{"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1,
                               "bid": 18, "result": "lost", "kontra": "kontra",
                               "kontra_by": 2, **DECLARED}])
    save = o.page.locator("#deal-form button.save")
    expect(save).to_be_disabled()  # a new game's untouched form too
    for _ in range(8):  # plain games through the Bock round the lost Kontra brought
        sheet = o.sheet()
        if sheet.next_ramsch_round:
            break
        o.seed([{"kind": "game", "declarer": sheet.next_active[0], "game": "clubs",
                 "matadors": 1, "bid": 18, "result": "won", **DECLARED}])
    assert o.sheet().next_ramsch_round
    o.reload()
    expect(o.page.locator("#kind-ramsch")).to_be_checked()
    expect(save).to_be_disabled()
    o.page.screenshot(path=str(o.shots / "loose-ends-empty-ramsch.png"))
    count = Deal.objects.count()
    o.page.locator('[data-tap="ramsch-durchmarsch-none"]').tap()  # a tap that completes nothing
    o.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    expect(save).to_be_disabled()
    loser = o.sheet().next_active[0]
    o.page.locator(f'[data-tap="ramsch-loser-{loser}"]').tap()
    o.page.locator("#ramsch-loser-points").fill("61")
    expect(save).to_be_enabled()
    save.tap()
    o.page.wait_for_url("**?saved=*")
    assert Deal.objects.count() == count + 1
