"""The beamer and the phone at 1,001 players (issue 24, item 3), in a real browser (Debian
chromium through Playwright): the field seated as the scale test seats it (through the
services, series 1 drawn), 60 of its 251 tables played, 10 more begun.

- The TV page at 1920×1080: nothing wider than the screen, every cell's text whole but the
  names (one line each, an ellipsis where one is too long), the table progress one line, as
  many rows as fit (not 5), the page turning by itself ("Seite 1 von 40" → "Seite 2 …"),
  a new board from the polls keeping the page it is on; also at 1280×720 and 3840×2160.
- The phone board at 390×844: the points in view without scrolling sideways; "find me" by
  start number 777 and by a name puts that row in view, marked.

Screenshots: tv-1920x1080.png, tv-1280x720.png, tv-3840x2160.png, board-phone-390x844.png,
board-phone-find.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.engine import generate_deals
from scoring.models import Table, Tournament
from scoring.reads.tournament import tournament_ranking
from scoring.writes.services import Actor, deal_record
from tests.web.factories import make_club
from tests.web.test_tournament_scale import big_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PLAYED = 60  # tables of series 1 that played their list
BEGUN = 10  # tables after those with one deal


def play(t: Tournament, tables: list[Table], deals: int | None, seed: int = 5) -> None:
    """Record ``deals`` deals (all of the list: None) at each table through the services."""
    actor = Actor(None, "test")
    for table in tables:
        seats = table.seats.count()
        length = t.evening.series_length(seats)
        assert length is not None
        for record in generate_deals(length, seats, first_dealer=table.first_dealer,
                                     seed=seed + table.number)[:deals or length]:
            fresh = Table.objects.get(pk=table.pk)
            deal_record(table=fresh, record=record, expected_version=fresh.version,
                        actor=actor)


# What the TV page must hold on any screen: no sideways scroll, every header and number
# whole (a name may end in an ellipsis), every visible name on one line, the progress line
# one line, and how many rows are shown.
MEASURE = """() => {
  const one = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return lines.size <= 1;
  };
  const visible = (el) => el.getClientRects().length > 0;
  const cut = (el) => {  // the text wider than the cell's room for it (an ellipsis)
    const range = document.createRange();
    range.selectNodeContents(el);
    const style = getComputedStyle(el);
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return range.getBoundingClientRect().width > room + 0.5 || el.scrollWidth > el.clientWidth;
  };
  const cells = [...document.querySelectorAll('.ranking th, .ranking tr.on td')]
    .filter(visible).filter((c) => !c.classList.contains('name'));
  const names = [...document.querySelectorAll('.ranking tr.on .nm')].filter(visible);
  const line = document.querySelector('.progress-line');
  const last = [...document.querySelectorAll('.ranking tr.on')].pop();
  return {
    scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
    clipped: cells.filter(cut).map((c) => c.textContent),
    wrapped: names.filter((n) => !one(n)).map((n) => n.textContent),
    names: names.length,
    rows: document.querySelectorAll('.ranking tr.on').length,
    lineOne: one(line), line: line.textContent,
    boxes: document.querySelectorAll('.progress li').length,
    bottom: last ? last.getBoundingClientRect().bottom : 0, height: window.innerHeight,
  };
}"""


def pager(page: Any) -> tuple[int, int]:
    text = page.locator("#tv-pager").inner_text()
    found = re.fullmatch(r"Seite (\d+) von (\d+)", text)
    assert found, text
    return int(found[1]), int(found[2])


@pytest.mark.slow  # over 15 s: started first (tests/conftest.py)
def test_the_tv_page_and_the_phone_board_at_1001_players(
        new_context: Any, live_server: Any, screenshot_dir: Path) -> None:
    t = big_tournament(make_club(), 1001)
    tables = list(Table.objects.filter(evening=t.evening, series=1).order_by("number"))
    play(t, tables[:PLAYED], None)
    play(t, tables[PLAYED:PLAYED + BEGUN], 1)
    # one name far too long for its cell (the leader's: on the first page): an ellipsis,
    # still one line
    who = tournament_ranking(t).rows[0].entrant
    who.player.name = "Maximiliane Theodora von und zu Hohenzollern-Sigmaringen-Weitergedacht"
    who.player.save(update_fields=["name"])
    tv_url = live_server.url + reverse("scoring:board-tv", args=[t.board_key])

    tv = new_context().new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(tv_url + "?turn=2")
    expect(tv.locator("#tv-pager")).to_have_text(re.compile(r"Seite 1 von \d+"))
    tv.screenshot(path=str(screenshot_dir / "tv-1920x1080.png"))
    seen = tv.evaluate(MEASURE)
    assert seen["scroll"] <= seen["inner"], seen
    assert seen["clipped"] == [] and seen["wrapped"] == [], seen
    assert seen["lineOne"] and seen["boxes"] == 0, seen
    assert seen["line"] == (f"Serie 1: {PLAYED} von 251 Tischen fertig · "
                            f"{251 - PLAYED} spielen"), seen
    assert seen["rows"] >= 20 and seen["names"] == seen["rows"], seen
    assert seen["bottom"] <= seen["height"], seen  # the last row of a page is on the screen
    first, pages = pager(tv)
    assert first == 1 and pages == -(-1001 // seen["rows"]), (pages, seen["rows"])
    # the page turns by itself: the next rows, the indicator with them
    expect(tv.locator("#tv-pager")).to_have_text(f"Seite 2 von {pages}")
    expect(tv.locator(".ranking tr.on").first.locator(".rank")).not_to_have_text("1.")
    # a deal saved while the TV shows page 3: the new board keeps the page it is on (a
    # turn or two further by then), it does not start again at page 1
    expect(tv.locator("#tv-pager")).to_have_text(f"Seite 3 von {pages}")
    version = tv.locator("#board").get_attribute("data-version")
    play(t, tables[PLAYED + BEGUN:PLAYED + BEGUN + 1], 1)
    expect(tv.locator("#board")).not_to_have_attribute("data-version", version or "",
                                                       timeout=10_000)
    assert pager(tv)[0] >= 3
    assert tv.locator(".ranking tr.on").count() == seen["rows"]

    # the other screens of a hall: nothing overflows, more rows the more there is room
    for width, height in ((1280, 720), (3840, 2160)):
        tv.set_viewport_size({"width": width, "height": height})
        tv.goto(tv_url)
        expect(tv.locator("#tv-pager")).to_have_text(re.compile(r"Seite 1 von \d+"))
        seen = tv.evaluate(MEASURE)
        assert seen["scroll"] <= seen["inner"], (width, seen)
        assert seen["clipped"] == [] and seen["wrapped"] == [], (width, seen)
        assert seen["lineOne"] and seen["rows"] >= 20, (width, seen)
        assert seen["bottom"] <= seen["height"], (width, seen)
        tv.screenshot(path=str(screenshot_dir / f"tv-{width}x{height}.png"))

    # the phone: place and points first, no sideways scroll
    phone = new_context().new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    board_url = live_server.url + reverse("scoring:board", args=[t.board_key])
    phone.goto(board_url)
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    first_row = phone.locator(".ranking tbody tr").first
    for cell in (".rank", ".nm", ".pts"):
        box = first_row.locator(cell).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, cell
    expect(first_row.locator(".ser").first).to_be_hidden()  # the series below the name
    phone.screenshot(path=str(screenshot_dir / "board-phone-390x844.png"))

    # find me: by start number, the row in view and marked
    phone.get_by_label("Mich finden (Startnummer oder Name)").fill("777")
    phone.get_by_role("button", name="Finden").click()
    row = phone.locator("#p777")
    expect(row).to_have_class(re.compile(r"\bfound\b"))
    expect(row).to_be_in_viewport()
    assert phone.locator(".ranking tr.found").count() == 1
    assert "777" in (row.locator(".sub").text_content() or "")
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    phone.screenshot(path=str(screenshot_dir / "board-phone-find.png"))
    # by name (any case), the mark stays through the polls
    phone.get_by_label("Mich finden (Startnummer oder Name)").fill("spieler 0123")
    phone.get_by_role("button", name="Finden").click()
    expect(phone.locator("#p123")).to_have_class(re.compile(r"\bfound\b"))
    expect(phone.locator("#p123")).to_be_in_viewport()
    expect(phone.locator("#p777")).not_to_have_class(re.compile(r"\bfound\b"))
    version = phone.locator("#board").get_attribute("data-version")
    play(t, tables[PLAYED + BEGUN + 1:PLAYED + BEGUN + 2], 1)
    expect(phone.locator("#board")).not_to_have_attribute("data-version", version or "",
                                                          timeout=10_000)
    expect(phone.locator("#p123")).to_have_class(re.compile(r"\bfound\b"))
    expect(phone.locator("#p123")).to_be_in_viewport()
    # several names: all marked, the count said
    phone.get_by_label("Mich finden (Startnummer oder Name)").fill("Spieler 000")
    phone.get_by_role("button", name="Finden").click()
    expect(phone.locator(".ranking tr.found")).to_have_count(9)
    expect(phone.locator("#find-result")).to_have_text(
        "9 gefunden: alle markiert, der erste im Blick.")
    phone.get_by_label("Mich finden (Startnummer oder Name)").fill("Xaver")
    phone.get_by_role("button", name="Finden").click()
    expect(phone.locator("#find-result")).to_have_text("Niemand gefunden.")
    expect(phone.locator(".ranking tr.found")).to_have_count(0)

    # without JavaScript: ?find= anchors to the row (the server found it in the same board)
    plain = new_context(java_script_enabled=False).new_page()
    plain.set_viewport_size({"width": 390, "height": 844})
    plain.goto(board_url + "?find=777")
    assert plain.url.endswith("?find=777&at=777#p777")
    expect(plain.locator("#p777")).to_be_in_viewport()
    expect(plain.locator("#find-result")).to_contain_text("1 gefunden:")
