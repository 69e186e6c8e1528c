"""Issue 26, item 7, as the club admin sees it: a closed evening to which a device sent
1,000 operations. The held page shows one page of them (not 1,000 cards), fits a tablet and
a phone, and the admin discards all of that device's operations in one confirmed step;
another device's stay (screenshots at 1024×768 and 390×844)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.models import AuditEntry, HeldOperation, Table
from scoring.reads.sheet import HELD_PAGE
from scoring.writes.services import Actor, evening_close
from tests.web.factories import browser_login, make_club, make_table, make_user
from tests.web.test_held_limits import bulk_held

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = {"1024x768": {"width": 1024, "height": 768}, "390x844": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_a_thousand_held_operations_are_paged_and_discarded_at_once(
        new_context: CreateContextCallback, live_server: LiveServer, screenshot_dir: Path,
        size: str) -> None:
    table = make_table(make_club(), players=4, preset="club_evening")
    evening_close(evening=table.evening, actor=Actor(None, "Organisator"))
    table = Table.objects.get(pk=table.pk)
    bulk_held(table, 1000, actor="Tisch 1 (Code)")
    bulk_held(table, 3, actor="Tisch 2 (Code)")
    context = new_context()
    browser_login(context, live_server, make_user(table.evening.club, "admin"))
    page = context.new_page()
    page.set_viewport_size(SIZES[size])  # type: ignore[arg-type]
    page.goto(f"{live_server.url}/evenings/{table.evening_id}/held/")

    expect(page.locator(".held-count")).to_contain_text("1003 Änderungen warten")
    expect(page.locator(".held-count")).to_contain_text("Seite 1 von")
    assert page.locator("form input[name=held]").count() == 2 * HELD_PAGE  # accept, discard
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    page.locator(".held-bulk summary").click()
    page.locator("input[name=scope][value=device]").check()
    page.locator("#bulk-device").select_option(label="Tisch 1 (Code) (1000 Änderungen)")
    page.locator("#bulk-reason").fill("Tablet hing in einer Schleife")
    page.screenshot(path=str(screenshot_dir / f"held-bulk-{size}.png"))
    page.locator(".held-bulk button[type=submit]").click()
    # the confirmation tick is required: the browser itself refuses the form without it
    assert HeldOperation.objects.filter(state="waiting").count() == 1003
    page.locator(".held-confirm input[type=checkbox]").check()
    page.locator(".held-bulk button[type=submit]").click()
    expect(page.locator(".held-count")).to_contain_text("3 Änderungen warten")
    page.screenshot(path=str(screenshot_dir / f"held-bulk-{size}-after.png"), full_page=True)
    assert HeldOperation.objects.filter(state="discarded").count() == 1000
    assert set(HeldOperation.objects.filter(state="waiting").values_list(
        "actor", flat=True)) == {"Tisch 2 (Code)"}
    assert AuditEntry.objects.filter(action=AuditEntry.Action.DISCARD,
                                     reason__contains="Schleife").count() == 1000
