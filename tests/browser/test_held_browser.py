"""The offline sync in a real browser (Debian chromium through Playwright): a tablet's page
sends queued operations with fetch (JSON, the CSRF header of the page) and gets the
contract's answers; after the evening is closed its save is held, and the club admin finds
it from the evening page, sees the deal as the sheet would show it, and accepts it
(screenshots at 1024×768 and on a phone)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.models import AuditEntry, Deal, HeldOperation, Table
from scoring.writes.services import Actor, evening_close
from tests.web.factories import browser_login, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WON = {"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
       "declarer_points": 70}
SEND = """async ([url, body]) => {
  const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
  const response = await fetch(url, {method: 'POST', body: JSON.stringify(body),
    headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}});
  return {status: response.status, type: response.headers.get('Content-Type'),
          answer: await response.json()};
}"""


def test_a_tablet_syncs_and_the_admin_accepts_what_was_held(
        new_context: CreateContextCallback, live_server: LiveServer, table: Table,
        screenshot_dir: Path) -> None:
    tablet = new_context()
    browser_login(tablet, live_server, make_user(table.evening.club, "scorer"))
    page = tablet.new_page()
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    sync = f"/tables/{table.pk}/sync/"
    first = {"op": "save", "request_id": str(uuid.uuid4()), "base_version": 0, "record": WON}
    answer = page.evaluate(SEND, [sync, first])
    assert answer["status"] == 200 and answer["type"] == "application/json"
    assert answer["answer"]["status"] == "stored"
    assert page.evaluate(SEND, [sync, first])["answer"] == answer["answer"]
    state = page.evaluate(f"fetch('/tables/{table.pk}/state/').then(r => r.json())")
    assert [d["record"] for d in state["deals"]] == [WON] and state["lang"] == "de"

    evening_close(evening=table.evening, actor=Actor(None, "Organisator"))
    held = {"op": "save", "request_id": str(uuid.uuid4()), "base_version": 1,
            "record": {**WON, "declarer": 2, "declarer_points": 85}}
    answer = page.evaluate(SEND, [sync, held])
    assert answer["status"] == 202 and answer["answer"]["status"] == "held"
    assert "Club-Admin" in answer["answer"]["message"]
    assert Deal.objects.count() == 1

    office = new_context()
    browser_login(office, live_server, make_user(table.evening.club, "admin"))
    admin = office.new_page()
    admin.goto(f"{live_server.url}/evenings/{table.evening_id}/")
    admin.get_by_role("link", name="1 zurückgehaltene Änderung zu entscheiden").click()
    expect(admin.get_by_role("heading", name="Tisch 1: neues Spiel")).to_be_visible()
    expect(admin.locator(".held-meta")).to_contain_text("der Abend geschlossen war")
    expect(admin.locator(".held .conflict-game")).to_contain_text("Kreuz")
    admin.screenshot(path=str(screenshot_dir / "held-waiting.png"), full_page=True)
    admin.set_viewport_size({"width": 390, "height": 844})
    admin.screenshot(path=str(screenshot_dir / "held-waiting-phone.png"), full_page=True)
    assert admin.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    admin.set_viewport_size({"width": 1024, "height": 768})
    # Accepting into a closed evening needs a reason (the browser asks for it first).
    admin.get_by_label("Warum es in den geschlossenen Abend übernehmen").fill(
        "Tisch 1 war im Keller ohne Netz")
    admin.get_by_role("button", name="Übernehmen").click()
    expect(admin.get_by_text("Nichts wartet auf eine Entscheidung.")).to_be_visible()
    expect(admin.locator(".held-decided")).to_contain_text("übernommen")
    admin.screenshot(path=str(screenshot_dir / "held-decided.png"), full_page=True)
    assert Deal.objects.count() == 2
    assert HeldOperation.objects.get().state == "accepted"
    assert set(AuditEntry.objects.values_list("action", flat=True)) >= {
        "create", "held", "accept", "close"}
    admin.goto(f"{live_server.url}/evenings/{table.evening_id}/audit/")
    expect(admin.locator("table.audit")).to_contain_text("offline gesendet")
    admin.screenshot(path=str(screenshot_dir / "held-audit.png"), full_page=True)
