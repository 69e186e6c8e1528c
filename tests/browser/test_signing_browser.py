"""The players sign the list (issue 23), in a real browser (Debian chromium, German):

- a 4-table plays the last deal of its short series on the tablet (1024×768); three players
  sign there with a tap on their name, the fourth on his phone (a second browser context,
  390×844) through the QR code of his one-time code the tablet shows under his name; the
  tablet shows the phone's signature without a reload and the list is locked;
- the printed sheet shows the four signatures (pdftotext);
- the scorer's correction is refused with the reason on the screen; the club admin's, with a
  reason, goes through, is in the audit log as "nach Unterschrift geändert", and the screen
  asks for new signatures;
- the tournament desk shows the tables as finished, the next draw waits for the signatures,
  and the director's override with a reason draws it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.models import AuditEntry, Table, TournamentSeries
from scoring.views.signing import sign_token
from scoring.writes import tournament as tw
from scoring.writes.signing import pin_set, player_codes
from tests.web import pdfs
from tests.web.factories import browser_login, make_club, make_user
from tests.web.signing_fixtures import seated, short_table
from tests.web.tournaments import fill_series, make_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE: ViewportSize = {"width": 390, "height": 844}
WITHIN = 8000  # ms: the tablet's panel is polled every 5 s


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"signing-{name}.png"), full_page=True)


def test_three_sign_on_the_tablet_one_on_his_phone_and_the_list_locks(
        new_context: CreateContextCallback, live_server: LiveServer,
        screenshot_dir: Path) -> None:
    club = make_club()
    table = short_table(club, play=3)  # the series' 4th and last deal is played on the tablet
    players = seated(table)
    scorer = make_user(club, "scorer")
    tablet_context = new_context()
    browser_login(tablet_context, live_server, scorer)
    tablet = tablet_context.new_page()
    table_url = live_server.url + f"/tables/{table.pk}/"
    tablet.goto(table_url)
    expect(tablet.locator("#signing")).to_have_count(0)
    # Dieter deals; Anna (forehand) plays Clubs with 1, bid 18, won: the quick result saves.
    for tap in ("declarer-0", "game-clubs", "matadors-1", "bid-18"):
        tablet.locator(f'[data-tap="{tap}"]').tap()
    tablet.wait_for_function("() => !document.querySelector('#deal-form.htmx-request')")
    with tablet.expect_navigation():
        tablet.locator('[data-tap="result-won"]').tap()
    panel = tablet.locator("#signing")
    expect(panel).to_be_visible()
    expect(panel.locator(".signing-total")).to_have_count(4)
    for player in players[:3]:
        with tablet.expect_navigation():
            tablet.get_by_role("button", name=f"Unterschreiben als {player.name}").tap()
        expect(tablet.locator(".messages")).to_contain_text(
            f"{player.name} hat die Liste unterschrieben.")
    expect(panel.locator(".signing-done")).to_have_count(3)
    expect(panel.locator(".signing-done").first).to_have_text(re.compile(
        r"unterschrieben \d\d:\d\d"))
    shot(tablet, screenshot_dir, "tablet-three-signed")
    link = tablet.locator(".signing-qr .signing-url a").get_attribute("href")
    assert link and "/sign/" in link
    expect(panel.locator(".signing-qr svg.qr")).to_be_visible()
    # Dieter's own code for his phone (issue 35: the phone link alone signs nobody)
    dieter = tablet.locator(f'.signing-line[data-player="{players[3].pk}"]')
    dieter.locator(".signing-code summary").tap()
    expect(dieter.locator(".signing-code svg.qr")).to_be_visible()
    expect(dieter.locator(".signing-code-digits")).to_have_text(re.compile(r"^\d{3} \d{3}$"))
    shot(tablet, screenshot_dir, "tablet-code-for-the-phone")
    code_link = dieter.locator(".signing-code .signing-url a").get_attribute("href")
    assert code_link and code_link.startswith(link) and "code=" in code_link

    # Dieter signs on his own phone: the list and the totals, his code from the tablet.
    phone = new_context().new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(code_link)
    expect(phone.locator(".score-sheet")).to_be_visible()
    expect(phone.locator(".signing-done")).to_have_count(3)
    expect(phone.locator('.signing-code-form input[name="code"]')).to_have_value(
        re.compile(r"^\d{6}$"))
    shot(phone, screenshot_dir, "phone-before")
    with phone.expect_navigation():
        phone.locator(".signing-code-form button").tap()
    expect(phone.locator(".messages")).to_contain_text(
        f"{players[3].name} hat die Liste unterschrieben.")
    expect(phone.locator("#signing h2")).to_have_text("Von allen Spielern unterschrieben")
    shot(phone, screenshot_dir, "phone-signed")
    # The phone link opened no way to record: the table screen is not found.
    assert phone.request.get(table_url).status == 404

    # The tablet learns it by itself (its panel is polled): locked.
    dieter.locator(".signing-code summary").tap()  # closed again: an open one pauses the poll
    tablet.evaluate("window.sameDocument = true")
    expect(panel.locator("h2")).to_have_text("Von allen Spielern unterschrieben",
                                             timeout=WITHIN)
    expect(tablet.locator(".signing-line").nth(3)).to_contain_text("auf dem Handy")
    assert tablet.evaluate("window.sameDocument === true")
    shot(tablet, screenshot_dir, "tablet-locked")
    table.refresh_from_db()
    assert table.signed_at is not None

    # The printed sheet: each name with the time it was signed.
    pdf = tablet.request.get(live_server.url + f"/tables/{table.pk}/sheet.pdf").body()
    printed = pdfs.text(pdf)
    assert len(re.findall(r"unterschrieben \d\d:\d\d", printed)) == 4
    first = table.deals.order_by("position").first()
    assert first is not None

    # The scorer's correction page, typed in by hand, is not handed out: the table screen
    # says why, and offers neither the form nor a ✎.
    edit_url = live_server.url + f"/tables/{table.pk}/deals/{first.pk}/edit/"
    tablet.goto(edit_url)
    assert "/edit/" not in tablet.url
    expect(tablet.locator("main")).to_contain_text("Sie ist gesperrt")
    expect(tablet.locator("#edit-reason")).to_have_count(0)
    expect(tablet.locator(".edit-link")).to_have_count(0)
    shot(tablet, screenshot_dir, "scorer-refused")
    table.refresh_from_db()
    assert table.signed_at is not None and table.version == 4

    # The club admin corrects it with a reason: the audit log keeps it, signatures again.
    admin_context = new_context()
    browser_login(admin_context, live_server, make_user(club, "admin"))
    admin = admin_context.new_page()
    admin.goto(edit_url)
    admin.locator("#edit-reason").fill("Augen falsch gezählt")
    admin.locator('[data-tap="result-lost"]').tap()
    if "/edit/" in admin.url:
        with admin.expect_navigation():
            admin.locator('[data-tap="save"]').tap()
    admin.wait_for_url(re.compile(r"corrected="))
    expect(admin.locator("#signing")).to_contain_text("nach Unterschrift geändert")
    expect(admin.get_by_role("button", name=f"Unterschreiben als {players[0].name}")
           ).to_be_visible()
    shot(admin, screenshot_dir, "admin-corrected")
    admin.goto(live_server.url + f"/evenings/{table.evening_id}/audit/")
    expect(admin.locator("body")).to_contain_text("nach Unterschrift geändert")
    expect(admin.locator("body")).to_contain_text("Augen falsch gezählt")
    shot(admin, screenshot_dir, "audit")
    entry = AuditEntry.objects.get(table=table, action="unsign")
    assert entry.reason == "Augen falsch gezählt"
    assert isinstance(entry.before, dict) and len(entry.before["signed"]) == 4


def test_the_next_series_is_drawn_only_when_signed_or_by_override(
        new_context: CreateContextCallback, live_server: LiveServer,
        screenshot_dir: Path) -> None:
    club = make_club()
    tournament = make_tournament(club)
    tw.series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1, sign=False)
    context = new_context()
    browser_login(context, live_server, make_user(club, "admin"))
    desk = context.new_page()
    tables = Table.objects.filter(evening=tournament.evening, series=1).count()
    # every table's state stands on the series' seat list; the desk folds them to counts
    desk.goto(live_server.url + f"/tournaments/{tournament.pk}/series/1/seats/")
    expect(desk.locator(".table-status.status-finished")).to_have_count(tables)
    desk.goto(live_server.url + f"/tournaments/{tournament.pk}/")
    expect(desk.locator(".series-summary .table-status.status-finished")).to_have_text(
        re.compile(rf"^{tables}\b"))
    with desk.expect_navigation():
        desk.get_by_role("button", name="Serie 2 auslosen").click()
    expect(desk.locator(".messages")).to_contain_text("nicht an allen Tischen unterschrieben")
    assert TournamentSeries.objects.filter(tournament=tournament).count() == 1
    shot(desk, screenshot_dir, "desk-waiting")
    desk.get_by_label("Auslosen, obwohl noch nicht alle Tische unterschrieben haben").check()
    desk.locator('[name="unsigned_reason"]').fill("Zeitplan: Tisch 3 unterschreibt später")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Serie 2 auslosen").click()
    expect(desk.locator(".messages")).to_contain_text("Serie 2 ist ausgelost")
    assert TournamentSeries.objects.filter(tournament=tournament).count() == 2
    assert AuditEntry.objects.get(action="drawunsign").reason.startswith("Zeitplan")
    shot(desk, screenshot_dir, "desk-drawn")


def test_pin_mode_on_a_phone(new_context: CreateContextCallback, live_server: LiveServer,
                             screenshot_dir: Path) -> None:
    """In PIN mode the phone signs with the player's code from the tablet and his PIN
    (issue 35: no longer by picking a name); a wrong PIN is refused, the right one signs."""
    club = make_club()
    club.sign_with_pin = True
    club.save()
    table = short_table(club)
    anna = seated(table)[0]
    anna.user = make_user(club, "viewer", username="anna")
    anna.save()
    pin_set(user=anna.user, pin="4711")
    code = player_codes(table, [p.pk for p in seated(table)])[anna.pk]
    phone = new_context().new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(live_server.url + reverse("scoring:sign-phone",
                                         args=[table.pk, sign_token(table)]) + f"?code={code}")
    expect(phone.locator(".signing-no-pin")).to_have_count(0)  # nothing told about accounts
    phone.locator('.signing-code-form input[name="pin"]').fill("1234")
    with phone.expect_navigation():
        phone.locator(".signing-code-form button").tap()
    expect(phone.locator(".messages .error")).to_have_count(1)
    shot(phone, screenshot_dir, "phone-pin-wrong")
    phone.locator('.signing-code-form input[name="pin"]').fill("4711")
    with phone.expect_navigation():
        phone.locator(".signing-code-form button").tap()
    expect(phone.locator(".messages")).to_contain_text(f"{anna.name} hat die Liste "
                                                       "unterschrieben.")
    expect(phone.locator(".signing-done")).to_have_count(1)
    shot(phone, screenshot_dir, "phone-pin-signed")
