"""One screen per deal (issue 12): the table screen in a real browser (Debian chromium, touch,
German) at a landscape tablet (1024×768), a portrait tablet (800×1280) and a phone (390×844),
at a 3-table and a 4-table.

- the page never scrolls sideways;
- on the tablets a standard won suit game is five taps — declarer, game, matadors, bid and a
  result that saves at once — with the window never scrolled and every tapped control inside
  the viewport before its tap; it is stored with the engine's value;
- the bid strip marks the declared game's value, taken from the server's live preview;
- declarations switch on what they imply;
- a Ramsch with one loser is at most four taps plus the loser's card points;
- every row of the whole list opens for correction, and a correction and an undo each end
  in a confirmation.

Screenshots of every state go to ``screenshot_dir`` as ``fit-<size>-<players>-<state>.png``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, FloatRect, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError
from pytest_django.live_server_helper import LiveServer

from scoring.models import Deal, Table
from scoring.writes.services import Actor, deal_record
from tests.web.factories import browser_login, make_club, make_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LANDSCAPE, PORTRAIT, PHONE = (1024, 768), (800, 1280), (390, 844)
TABLETS = [LANDSCAPE, PORTRAIT]
SIZES = [LANDSCAPE, PORTRAIT, PHONE]
GAME = {"hand": False, "ouvert": False, "schneider_announced": False, "schwarz_announced": False}


class Screen:
    """One tablet at one table, counting taps and checking that the page stays put."""

    def __init__(self, page: Page, live_server: LiveServer, table: Table, shots: Path,
                 size: tuple[int, int], user: User) -> None:
        self.page, self.live_server, self.table, self.shots = page, live_server, table, shots
        self.user = user  # the scorer signed in on this tablet
        self.width, self.height = size
        self.players = len(table.seats.all())
        self.taps = 0
        self.last_saved = ""

    @property
    def url(self) -> str:
        return self.live_server.url + reverse("scoring:table", args=[self.table.pk])

    def open(self) -> Screen:
        self.page.goto(self.url)
        self.page.wait_for_load_state()
        return self

    def no_sideways_scroll(self) -> None:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        inner = self.page.evaluate("window.innerWidth")
        # what sticks out, to say so when it fails (the site header scrolls in itself)
        wide = self.page.evaluate("""w => Array.from(document.querySelectorAll('body *'))
            .filter(e => e.getBoundingClientRect().right > w + 1 && !e.closest('.site-header'))
            .slice(0, 5).map(e => e.tagName + "." + e.className)""", inner)
        assert width <= inner, (width, inner, wide)

    def tap(self, name: str, *, still: bool = True) -> None:
        """Tap a control; with ``still``, it must be on screen already and the window
        unscrolled, before and after the tap."""
        control = self.page.locator(f'[data-tap="{name}"]')
        if still:
            assert self.page.evaluate("window.scrollY") == 0, name
            box = control.bounding_box()
            assert box is not None, name
            assert box["width"] >= 44 and box["height"] >= 44, (name, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= self.width, (name, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= self.height, (name, box)
            # and not under the Save bar or anything else: the thumb lands on the control
            hit = self.page.evaluate(
                "([x, y, name]) => document.elementFromPoint(x, y)"
                ".closest('[data-tap=\"' + name + '\"]') !== null",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, name])
            assert hit, (name, box)
        control.tap()
        self.taps += 1
        if still:
            try:
                scrolled = self.page.evaluate("window.scrollY")
            except PlaywrightError:  # the tap saved and the page is already leaving
                return
            assert scrolled == 0, name

    def preview(self) -> Locator:
        self.page.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
        return self.page.locator("#preview")

    def shot(self, state: str) -> None:
        size = f"{self.width}x{self.height}"
        self.page.screenshot(
            path=str(self.shots / f"fit-{size}-{self.players}p-{state}.png"))

    def saved(self) -> Deal:
        """The deal the last tap saved, once the page confirming it is there."""
        before = self.last_saved
        self.page.wait_for_url(lambda url: "?saved=" in url and url != before)
        self.page.wait_for_load_state()
        self.last_saved = self.page.url
        return Deal.objects.get(pk=int(self.page.url.rsplit("=", 1)[1]))


class OpenScreen(Protocol):
    """The ``screen`` fixture: opens a new table of ``players`` on a tablet of ``size``."""

    def __call__(self, size: tuple[int, int], players: int = 4) -> Screen: ...


@pytest.fixture
def screen(contexts: Callable[..., BrowserContext], live_server: LiveServer,
           screenshot_dir: Path) -> Iterator[OpenScreen]:

    def _open(size: tuple[int, int], players: int = 4) -> Screen:
        table = make_table(make_club(), players=players)
        context = contexts(viewport={"width": size[0], "height": size[1]})
        user = make_user(table.evening.club, "scorer")
        browser_login(context, live_server, user)
        return Screen(context.new_page(), live_server, table, screenshot_dir, size, user).open()

    yield _open


def seed(screen: Screen, records: list[dict[str, Any]]) -> list[Deal]:
    user = screen.user
    deals = []
    for record in records:
        screen.table.refresh_from_db()
        deals.append(deal_record(table=screen.table, record=record,
                                 expected_version=screen.table.version,
                                 actor=Actor(user, user.get_username())))
    return deals


# ---------------------------------------------------------------- a standard game

@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", SIZES)
def test_a_standard_game_is_five_taps_on_one_screen(screen: OpenScreen, size: tuple[int, int],
                                                    players: int) -> None:
    s = screen(size, players)
    s.no_sideways_scroll()
    s.shot("01-empty")
    # Every control on the screen is a thumb's size, inside the screen's width.
    small = s.page.evaluate("""w => Array.from(document.querySelectorAll('[data-tap]'))
        .filter(e => e.getClientRects().length)
        .map(e => [e.dataset.tap, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44 || r.left < 0 || r.right > w)
        .map(([tap, r]) => `${tap} ${r.width}x${r.height}@${r.left}`)""", size[0])
    assert not small, small
    # Forehand is seat 1 at both tables (seat 0 deals first). On the phone the steps stand
    # in one column in the spoken order, Kontra and the declarations before the result
    # (issue 23), so the result is reached by scrolling down: still five taps.
    still = size != PHONE
    for name in ("declarer-1", "game-clubs", "matadors-2"):
        s.tap(name, still=still)
    # Clubs with 2: game 3 × 12 = 36, marked in the bid strip from the server's preview.
    expect(s.page.locator('[data-tap="bid-36"]')).to_have_class("choice at-value")
    expect(s.page.locator('[data-tap="bid-40"]')).to_have_class("choice above-value")
    s.shot("02-game-chosen")
    s.tap("bid-36", still=still)
    s.no_sideways_scroll()
    s.tap("result-won", still=still)  # saves at once
    deal = s.saved()
    assert s.taps == 5
    assert {k: deal.record.get(k) for k in ("declarer", "game", "matadors", "bid",
                                            "result")} == {
        "declarer": 1, "game": "clubs", "matadors": 2, "bid": 36, "result": "won"}
    assert "+36" in s.page.inner_text(".notice-saved")
    assert "+36" in s.page.inner_text(".last-rows")
    s.no_sideways_scroll()
    expect(s.page.locator('.notice-saved button')).to_be_in_viewport()
    s.shot("03-saved-toast")


@pytest.mark.parametrize("players", [3, 4])
def test_the_phone_never_scrolls_sideways(screen: OpenScreen, players: int) -> None:
    s = screen(PHONE, players)
    s.no_sideways_scroll()
    s.shot("01-empty")
    for name in ("declarer-1", "game-spades", "matadors-1", "bid-22"):
        s.tap(name, still=False)
        s.no_sideways_scroll()
    expect(s.page.locator('[data-tap="bid-22"]')).to_have_class("choice at-value")
    s.page.evaluate("window.scrollTo(0, 0)")
    s.shot("02-game-chosen")
    s.tap("kind-ramsch", still=False)
    s.no_sideways_scroll()
    s.page.evaluate("window.scrollTo(0, 0)")
    s.shot("04-ramsch")
    s.tap("kind-game", still=False)
    s.tap("result-won", still=False)
    deal = s.saved()
    assert deal.record["bid"] == 22 and deal.record["game"] == "spades"
    s.no_sideways_scroll()
    s.shot("03-saved-toast")
    for selector in (".totals-strip", ".last-rows", "#deal-form"):
        box = s.page.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0], (selector, box)


@pytest.mark.parametrize("size", SIZES)
def test_an_overbid_refusal_stops_the_quick_result(screen: OpenScreen,
                                                   size: tuple[int, int]) -> None:
    """Null (23) bid at 24 and tapped won: the preview refuses it, nothing is saved, Save is
    disabled; the bid strip marks 23."""
    s = screen(size)
    still = size != PHONE
    for name in ("declarer-1", "game-null", "bid-24", "result-won"):
        s.tap(name, still=still)
    expect(s.preview().locator(".errors")).to_contain_text("24")
    expect(s.page.locator('[data-tap="bid-23"]')).to_have_class("choice at-value")
    expect(s.page.locator('[data-tap="save"]')).to_be_disabled()
    expect(s.page.locator('[data-tap="save"]')).to_be_in_viewport()
    s.no_sideways_scroll()
    s.page.evaluate("window.scrollTo(0, 0)")
    s.shot("05-overbid-refused")
    assert not Deal.objects.exists()
    s.tap("bid-23", still=still)
    expect(s.preview().locator(".breakdown")).to_contain_text("23")
    s.tap("save", still=still)
    assert s.saved().record["bid"] == 23


def test_a_high_game_marks_its_bid_above_60(screen: OpenScreen) -> None:
    """Grand Hand with 3: (3 + 1 + 1) × 24 = 120, a bid behind "über 60" that opens by itself."""
    s = screen(LANDSCAPE)
    for name in ("declarer-1", "game-grand", "matadors-3", "toggle-hand"):
        s.tap(name)
    expect(s.page.locator('[data-tap="bid-120"]')).to_have_class("choice at-value")
    expect(s.page.locator('[data-tap="bid-120"]')).to_be_in_viewport()
    s.tap("bid-120")
    s.tap("result-won")
    record = s.saved().record
    assert (record["game"], record["matadors"], record["hand"], record["bid"]) == (
        "grand", 3, True, 120)


def test_declarations_switch_on_what_they_imply(screen: OpenScreen) -> None:
    s = screen(LANDSCAPE)
    s.tap("declarer-1")
    s.tap("game-hearts")
    s.tap("toggle-schwarz_announced")
    for name in ("hand", "schneider_announced", "schwarz_announced"):
        expect(s.page.locator(f"#toggle-{name}")).to_be_checked()
    expect(s.page.locator("#toggle-ouvert")).not_to_be_checked()
    s.tap("toggle-hand")  # off: what needs Hand goes off with it
    for name in ("hand", "schneider_announced", "schwarz_announced"):
        expect(s.page.locator(f"#toggle-{name}")).not_to_be_checked()
    s.tap("toggle-ouvert")
    for name in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
        expect(s.page.locator(f"#toggle-{name}")).to_be_checked()
    # Null Ouvert is just Ouvert.
    s.tap("toggle-ouvert")
    s.tap("toggle-hand")
    s.tap("game-null")
    s.tap("toggle-ouvert")
    expect(s.page.locator("#toggle-ouvert")).to_be_checked()
    expect(s.page.locator("#toggle-hand")).not_to_be_checked()
    expect(s.page.locator('[data-tap="bid-46"]')).to_have_class("choice at-value")  # Null ouvert


# ---------------------------------------------------------------- Ramsch

@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", SIZES)
def test_a_ramsch_with_one_loser_is_four_taps_and_the_points(
        screen: OpenScreen, size: tuple[int, int], players: int) -> None:
    s = screen(size, players)
    still = size != PHONE
    s.tap("kind-ramsch", still=still)
    s.no_sideways_scroll()
    s.tap("ramsch-loser-1", still=still)
    field = s.page.locator("#ramsch-loser-points")
    if not field.evaluate("f => f === document.activeElement"):
        field.tap()
        s.taps += 1
    s.page.keyboard.type("50")
    expect(s.preview().locator(".breakdown")).to_contain_text("50")
    expect(s.page.locator('[data-tap="save"]')).to_be_enabled()
    s.no_sideways_scroll()
    if still:
        assert s.page.evaluate("window.scrollY") == 0
    else:
        s.page.evaluate("window.scrollTo(0, 0)")
    s.shot("04-ramsch")
    s.tap("save", still=still)
    deal = s.saved()
    assert s.taps <= 4
    assert deal.record == {"kind": "ramsch", "ramsch": {"losers": {"1": 50}, "jungfrau": 0,
                                                        "durchmarsch": None}}
    entries = s.page.locator(".last-rows tbody tr").last.inner_text()
    assert "−50" in entries or "-50" in entries


def test_a_tie_jungfrau_and_durchmarsch_are_taps(screen: OpenScreen) -> None:
    s = screen(LANDSCAPE, 4)
    s.tap("kind-ramsch")
    s.tap("ramsch-loser-1")
    s.tap("ramsch-loser-2")
    expect(s.page.locator("#ramsch-loser-points")).to_be_focused()  # the keypad is there
    s.page.keyboard.type("60")
    s.tap("ramsch-jungfrau-1")
    expect(s.preview().locator(".breakdown")).to_be_visible()
    s.tap("save")
    assert s.saved().record["ramsch"] == {"losers": {"1": 60, "2": 60}, "jungfrau": 1,
                                          "durchmarsch": None}
    # The next deal, a Durchmarsch by Clara: one tap for who took every trick.
    s.tap("kind-ramsch")
    s.tap("ramsch-durchmarsch-3")
    expect(s.preview().locator(".breakdown")).to_be_visible()
    s.tap("save")
    assert s.saved().record["ramsch"] == {"losers": {}, "jungfrau": 2, "durchmarsch": 3}


def test_ramsch_messages_name_the_players(screen: OpenScreen) -> None:
    s = screen(LANDSCAPE, 4)
    s.tap("kind-ramsch")
    s.tap("ramsch-loser-1")
    # the keypad is there (the field takes the focus after the tap: typing sooner went
    # nowhere once the page no longer started the engine beside it)
    expect(s.page.locator("#ramsch-loser-points")).to_be_focused()
    s.page.keyboard.type("20")  # too few for the only loser
    errors = s.preview().locator(".errors")
    expect(errors).to_be_visible()
    expect(s.page.locator('[data-tap="save"]')).to_be_disabled()
    assert "20" in errors.inner_text()
    assert "Sitz" not in errors.inner_text() and "seat" not in errors.inner_text()


# ---------------------------------------------------------------- corrections

@pytest.mark.parametrize("size", SIZES)
def test_every_row_opens_for_correction_and_confirms(screen: OpenScreen,
                                                     size: tuple[int, int]) -> None:
    s = screen(size, 4)
    deal = {"kind": "game", "game": "clubs", "matadors": 1, "bid": 18, "result": "won", **GAME}
    deals = seed(s, [{**deal, "declarer": 1 + i % 3} for i in range(8)])
    s.open()
    rows = s.page.locator(".last-rows tbody tr")
    expect(rows).to_have_count(8)  # the whole list, not only the last rows
    s.no_sideways_scroll()
    rows.first.tap()  # the first deal, scrolled to inside its box: the whole row opens it
    s.page.wait_for_url(f"**/deals/{deals[0].pk}/edit/")
    s.page.locator('[data-tap="result-lost"]').tap()
    s.page.locator("#edit-reason").fill("Tippfehler")
    expect(s.preview().locator(".breakdown")).to_contain_text("−")
    s.no_sideways_scroll()
    s.shot("06-correction")
    s.page.locator('[data-tap="save"]').tap()
    s.page.wait_for_url(f"**/?corrected={deals[0].pk}")
    toast = s.page.locator(".notice-corrected")
    expect(toast).to_be_in_viewport()
    assert toast.inner_text().startswith("Spiel 1 korrigiert")
    assert Deal.objects.get(pk=deals[0].pk).record["result"] == "lost"
    s.shot("07-corrected-toast")

    # The undo of a save confirms too, and offers the deal back.
    s.page.locator(".last-rows tbody tr").last.scroll_into_view_if_needed()
    s.page.evaluate("window.scrollTo(0, 0)")
    for name in ("declarer-2", "game-hearts", "matadors-1", "bid-20", "result-won"):
        s.tap(name, still=size != PHONE)
    saved = s.saved()
    s.page.locator(".notice-saved button").tap()
    s.page.wait_for_url(f"**/?deleted={saved.pk}")
    expect(s.page.locator(".notice-undone")).to_be_in_viewport()
    saved.refresh_from_db()
    assert saved.deleted
    s.shot("08-undone-toast")
    s.page.locator(".notice-undone button").tap()
    s.page.wait_for_url(f"**/?restored={saved.pk}")
    expect(s.page.locator(".notice-corrected")).to_contain_text("Spiel 9")
    saved.refresh_from_db()
    assert not saved.deleted


# ---------------------------------------------------------------- Bock by hand

@pytest.mark.parametrize("size", SIZES)
def test_bock_by_hand_is_two_taps_more(screen: OpenScreen, size: tuple[int, int]) -> None:
    """Under option bock.manual: "×2" and "Bockrunde" are taps beside the kind of record, and
    a standard game with them still fits the tablet's screen."""
    s = screen(size, 4)
    evening = s.table.evening
    evening.options = {**evening.options,
                       "bock": {**(evening.options.get("bock") or {}), "manual": True}}
    evening.save()
    s.open()
    s.no_sideways_scroll()
    still = size != PHONE
    for name in ("bock-1", "toggle-bock_round", "declarer-1", "game-clubs", "matadors-1",
                 "bid-24"):
        s.tap(name, still=still)
    expect(s.page.locator('[data-tap="bid-24"]')).to_have_class("choice at-value")
    s.page.evaluate("window.scrollTo(0, 0)")
    s.shot("09-bock-by-hand")
    s.tap("result-won", still=still)
    deal = s.saved()
    assert s.taps == 7
    assert (deal.record["bock"], deal.record["bock_round"]) == (1, True)
    assert "+48" in s.page.inner_text(".notice-saved")
    expect(s.page.locator(".table-status .badge-bock")).to_be_visible()


# ---------------------------------------------------------------- the list's headings

LONG = ["Maximilian Schmidt", "Alexandros Papadakis", "Konstantin Meier",
        "Friederike Wagner"]  # four 10-letter first names


@pytest.mark.parametrize("size", SIZES)
def test_no_heading_of_the_list_is_cut(screen: OpenScreen, size: tuple[int, int]) -> None:
    """Four long first names and a four-digit total: every heading of the list and every
    total is shown whole (where the list stands beside the entry, a short mark of each name,
    with the full name as its title); the marks are told apart."""
    s = screen(size, 4)
    for seat, name in zip(s.table.seats.order_by("position"), LONG, strict=True):
        seat.player.name = name
        seat.player.save()
    deal = {"kind": "game", "matadors": 4, "result": "won", **GAME}
    seed(s, [{**deal, "declarer": 1, "game": "grand", "bid": 120, "hand": True,
              "schneider_announced": True, "schwarz_announced": True, "ouvert": True,
              "result": "won_schwarz"},
             {**deal, "declarer": 2, "game": "grand", "bid": 120, "hand": True,
              "schneider_announced": True, "schwarz_announced": True, "ouvert": True,
              "result": "lost", "kontra": "kontra", "kontra_by": 3},  # −1056
             {**deal, "declarer": 3, "game": "clubs", "bid": 60, "result": "lost"}])
    s.open()
    s.no_sideways_scroll()
    s.page.locator(".last-rows").scroll_into_view_if_needed()
    s.shot("09-long-names")
    cells = s.page.evaluate("""() => Array.from(document.querySelectorAll(
            '.last-rows thead th, .last-rows tfoot th, .last-rows tfoot td'))
        .filter(c => c.getClientRects().length && c.clientWidth > 1)
        .map(c => ({text: c.innerText.trim(), cut: c.scrollWidth > c.clientWidth + 1,
                    title: (c.querySelector('abbr') || {}).title || "",
                    total: c.classList.contains('total'), head: !!c.closest('thead')}))""")
    cut = [c for c in cells if c["cut"]]
    assert not cut, cut
    headings = [c for c in cells if c["head"] and c["title"]]
    assert [c["title"] for c in headings] == LONG
    marks = [c["text"] for c in headings]
    assert len(set(marks)) == 4 and all(len(m) >= 3 for m in marks), marks
    for mark, name in zip(marks, LONG, strict=True):
        assert name.startswith(mark), (mark, name)
    if size != LANDSCAPE:  # the list below the entry has the room for the first names
        assert marks == [name.split()[0] for name in LONG]
    totals = [c["text"] for c in cells if c["total"]]
    assert totals == ["0", "264", "−1056", "−240"], totals  # the Bock round doubles


def overlaps(a: FloatRect, b: FloatRect) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("size", SIZES)
def test_the_toast_covers_nothing_the_next_deal_needs(screen: OpenScreen,
                                                      size: tuple[int, int]) -> None:
    """After a save the confirmation stands for a few seconds: not over the totals and the
    round (the status header), not over Save, nor over the next deal's declarer, game,
    matadors, bids and quick results; its Undo is a thumb's size and on screen."""
    s = screen(size, 4)
    for name in ("declarer-1", "game-clubs", "matadors-1", "bid-24"):
        s.tap(name, still=size != PHONE)
    s.page.evaluate("window.scrollTo(0, 0)")
    s.tap("result-won", still=size != PHONE)
    s.saved()
    toast = s.page.locator(".notice-saved")
    expect(toast).to_be_in_viewport()
    s.shot("10-toast")
    box = toast.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
    undo = toast.locator("button").bounding_box()
    assert undo is not None and undo["height"] >= 44 and undo["width"] >= 44, undo
    needed = [".table-status", '[data-tap="save"]'] + [
        f'[data-tap="{name}"]' for name in (
            "declarer-2", "declarer-3", "declarer-0", "game-clubs", "game-null",
            "matadors-1", "matadors-minus-4", "bid-18", "bid-60", "result-won",
            "result-lost")]
    covered = []
    for selector in needed:
        other = s.page.locator(selector).first.bounding_box()
        if other is not None and other["y"] < size[1] and overlaps(box, other):
            covered.append(selector)
    assert not covered, (box, covered)
