"""The status header counts the deals that wait (issue 36, item 5), in Debian's chromium: a
series of 12 at a table of three stands at "game 10 of 12 · Bock 2 of 3"; two deals tapped
without network finish the Bock round, and the header says "game 12 of 12" and the Ramsch
round the rules give, with the Ramsch already chosen in the form, all from the engine in
the browser (Pyodide). Back online, the server's own screen says the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Table
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.writes.services import Actor, deal_record

from . import test_offline_table_browser as offline_tests
from .test_offline_table_browser import ENGINE, wait_ops
from .test_round_browser import Scorer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser,
              pytest.mark.service_workers]

table_players = offline_tests.table_players  # a table of three
contexts = offline_tests.contexts
tablet = offline_tests.tablet

DECLARED = {"hand": False, "ouvert": False, "schneider_announced": False,
            "schwarz_announced": False}

HEADER = """() => {
    const shown = s => Array.from(document.querySelectorAll(s))
        .filter(e => !e.hidden && e.getClientRects().length)
        .map(e => e.textContent.trim().replace(/\\s+/g, ' '));
    return {series: shown('.table-status .series'), round: shown('.table-status .round'),
            badges: shown('.table-status .badges .badge'),
            dealer: shown('.seat-dealer dd'),
            kind: (document.querySelector('#deal-form input[name=kind]:checked') || {}).value};
}"""


def fresh(table: Table) -> Table:
    return tables_with_everything(Table.objects.filter(pk=table.pk)).get()


def seed_to_game_ten(table: Table) -> None:
    """Seven won games, a lost Kontra (the Bock round of three begins with the next deal),
    and one game in it: the next is game 10 of 12, Bock 2 of 3."""
    for n in range(9):
        current = fresh(table)
        active = table_sheet(current, "de", explain=False).next_active
        record: dict[str, Any] = {"kind": "game", "declarer": active[0], "game": "clubs",
                                  "matadors": 1, "bid": 18, "result": "won", **DECLARED}
        if n == 7:
            record.update(result="lost", kontra="kontra", kontra_by=active[1])
        deal_record(table=current, record=record, expected_version=current.version,
                    actor=Actor(None, "seeder"))


def header(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(HEADER))


def test_the_header_counts_the_deals_that_wait(tablet: Scorer, table: Table) -> None:
    table.evening.series_rounds = 4  # 12 games at a table of three
    table.evening.save(update_fields=["series_rounds"])
    seed_to_game_ten(table)
    page = tablet.page
    page.reload()
    page.wait_for_function("() => window.SkatEngine && SkatEngine.status === 'ready'",
                           timeout=ENGINE)
    before = header(page)
    assert before["series"] == ["Serie 1 · Spiel 10 von 12"], before
    assert "Bock 2 von 3" in before["badges"], before

    page.context.route("**/tables/*/sync/", lambda route: route.abort())
    page.context.set_offline(True)
    expect(page.locator(".offline-bar")).to_have_attribute("data-state", "offline")
    for count in (1, 2):
        seat = page.evaluate("() => Array.from(document.querySelectorAll("
                             "'#deal-form input[name=declarer]')).filter(e => "
                             "e.closest('label').getClientRects().length)[0].value")
        tablet.tap(f"declarer-{seat}", "game-clubs", "matadors-1", "bid-18", "result-won")
        wait_ops(page, count)
    page.wait_for_function("() => SkatOffline.engineDrawn")
    expect(page.locator(".table-status .series")).to_have_text("Serie 1 · Spiel 12 von 12")
    offline = header(page)
    tablet.shot("header-offline", screen=True)
    assert offline["badges"] == ["Ramschrunde 1/3"], offline
    assert offline["kind"] == "ramsch", offline

    # Back online: the two deals are stored, and the server's screen says the same.
    page.context.unroute("**/tables/*/sync/")
    page.context.set_offline(False)
    page.wait_for_function("() => window.SkatOffline && SkatOffline.loaded &&"
                           " SkatOffline.ops().length === 0", timeout=30_000)
    assert table.deals.count() == 11
    # The server's own screen in a second tab of the same tablet: the first may be reloading
    # itself after its queue emptied, and a navigation of ours would race that one.
    online = page.context.new_page()
    online.goto(tablet.table_url)
    online.wait_for_function("() => document.querySelector('#deal-form.enhanced')")
    server = header(online)
    online.screenshot(path=str(tablet.shots / f"round-{tablet.name}-header-online-screen.png"))
    assert server == offline, (server, offline)
