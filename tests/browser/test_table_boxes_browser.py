"""No table is wider than its box (issue 36, build item 5: "the results table wider than its
box at 1366 px"): on every page of test_page_widths.py's played club, at a 1366 × 768 laptop,
a 1024 × 768 tablet and a 390 × 844 phone, each table either fits the box it stands in or
that box scrolls it (overflow-x auto or scroll). The page as a whole not scrolling sideways
is test_page_widths.py's; a table sticking out of its box over the page's margin, or cut off
by it, is this."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from tests.browser.test_page_widths import TABLE_SCREEN, page_urls, played_club
from tests.web.factories import browser_login, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES: dict[str, ViewportSize] = {"laptop": {"width": 1366, "height": 768},
                                  "tablet-landscape": {"width": 1024, "height": 768},
                                  "phone": {"width": 390, "height": 844}}

# Every table that sticks out of the nearest box around it that does not scroll it.
OVERFLOWING = """() => {
  const out = [];
  for (const table of document.querySelectorAll('main table')) {
    if (!table.offsetParent) continue;  // not shown
    const edge = table.getBoundingClientRect().right;
    let box = table.parentElement;
    while (box) {
      const style = getComputedStyle(box);
      if (['auto', 'scroll'].includes(style.overflowX)) break;  // scrolls it: fine
      const right = box.getBoundingClientRect().right - parseFloat(style.paddingRight)
        - parseFloat(style.borderRightWidth);
      if (style.display !== 'contents' && edge - right > 1) {
        out.push(`${table.className || 'table'} in ${box.className || box.tagName}: `
                 + `${Math.round(edge - right)} px out`);
        break;
      }
      if (box.tagName === 'BODY') break;
      box = box.parentElement;
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_no_table_is_wider_than_its_box(page: Page, live_server: LiveServer,
                                        screenshot_dir: Path, size: str) -> None:
    objects = played_club()
    urls = {k: v for k, v in page_urls(objects).items() if k not in TABLE_SCREEN}
    page.set_viewport_size(SIZES[size])
    browser_login(page.context, live_server, make_user(objects["club"], "admin"))
    problems = {}
    for name, url in urls.items():
        response = page.goto(live_server.url + url)
        if response is None or response.status != 200:
            continue  # test_page_widths.py says so
        out = page.evaluate(OVERFLOWING)
        if out:
            problems[name] = f"{url}: {'; '.join(out)}"
            page.screenshot(path=str(screenshot_dir / f"table-box-{size}-{name}.png"),
                            full_page=True)
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


@pytest.mark.parametrize("size", ["laptop", "tablet-landscape"])
def test_the_evening_s_results_fit_their_cards_where_the_screen_has_room(
        page: Page, live_server: LiveServer, screenshot_dir: Path, size: str) -> None:
    """The evening overview at 1366 and 1024 px: each table's card is as wide as its results
    (a 4-table and a 6-table of long names), wrapping to a line of its own where two do not
    fit side by side; none scrolls inside its card. (They sat in fixed narrow tracks, the
    6-table's last players cut off with room to spare beside them.)"""
    objects = played_club()
    page.set_viewport_size(SIZES[size])
    browser_login(page.context, live_server, make_user(objects["club"], "admin"))
    page.goto(live_server.url + page_urls(objects)["evening"])
    cards = page.evaluate("""[...document.querySelectorAll('.compact-sheet')].map(card =>
        [card.scrollWidth, card.clientWidth])""")
    page.screenshot(path=str(screenshot_dir / f"evening-cards-{size}.png"), full_page=True)
    assert len(cards) == 2
    assert all(scroll <= client for scroll, client in cards), cards
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
