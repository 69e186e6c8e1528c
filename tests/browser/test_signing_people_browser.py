"""Signatures bound to the signer (issue 35), in a real browser (Debian chromium, German), at
1024×768 (the tablet) and 390×844 (a phone):

- a viewer's pages (the table screen, the sheet) carry no link, code or form that signs;
- a fresh browser context with the table's phone link signs nobody; one with a player's
  code link signs that player only, and the code works once (a second fresh context with
  the same link is refused);
- signed in with the account linked to his seat's player, a phone signs that player only,
  and the tablet shows it without a reload.

(The scorer's correction after everybody signed, refused, and the admin's with a reason,
which asks for new signatures: test_signing_browser.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer
from pytest_playwright import CreateContextCallback

from scoring.models import Signature
from scoring.views.signing import sign_token
from tests.browser.helpers import fits
from tests.web.factories import browser_login, make_club, make_user
from tests.web.signing_fixtures import seated, short_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE: ViewportSize = {"width": 390, "height": 844}
WITHIN = 8000  # ms: the tablet's panel is polled every 5 s


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"signing-people-{name}.png"), full_page=True)


def nothing_signs(page: Page) -> None:
    expect(page.locator('a[href*="/sign/"]')).to_have_count(0)
    expect(page.locator('form[action*="/signatures/"]')).to_have_count(0)
    expect(page.locator('form[action*="/sign/"]')).to_have_count(0)
    expect(page.locator(".signing-code, .signing-qr, svg.qr")).to_have_count(0)
    expect(page.locator('[name="player"], [name="pin"], [name="code"]')).to_have_count(0)


def test_a_viewers_pages_carry_nothing_that_signs(
        new_context: CreateContextCallback, live_server: LiveServer,
        screenshot_dir: Path) -> None:
    club = make_club()
    table = short_table(club)
    context = new_context()
    browser_login(context, live_server, make_user(club, "viewer"))
    page = context.new_page()
    for size, viewport in (("tablet", None), ("phone", PHONE)):
        if viewport is not None:
            page.set_viewport_size(viewport)
        page.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
        expect(page.locator("#signing")).to_be_visible()
        expect(page.locator("#signing .signing-total")).to_have_count(4)
        nothing_signs(page)
        fits(page)
        shot(page, screenshot_dir, f"viewer-table-{size}")
        page.goto(live_server.url + reverse("scoring:sheet", args=[table.pk]))
        nothing_signs(page)
    # The polled panel, as the viewer's screen fetches it, has nothing that signs either.
    answer = page.request.get(live_server.url + reverse("scoring:sign-panel",
                                                        args=[table.pk]))
    assert answer.status == 200 and "/sign/" not in answer.text()
    assert 'name="player"' not in answer.text()


def test_fresh_phones_sign_only_with_the_code_given_them_once(
        new_context: CreateContextCallback, live_server: LiveServer,
        screenshot_dir: Path) -> None:
    club = make_club()
    table = short_table(club)
    players = seated(table)
    dieter = players[3]
    tablet_context = new_context()
    browser_login(tablet_context, live_server, make_user(club, "scorer"))
    tablet = tablet_context.new_page()
    tablet.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    link = tablet.locator(".signing-qr .signing-url a").get_attribute("href")
    assert link
    line = tablet.locator(f'.signing-line[data-player="{dieter.pk}"]')
    line.locator(".signing-code summary").tap()
    digits = line.locator(".signing-code-digits")
    expect(digits).to_be_visible()
    code_link = line.locator(".signing-code .signing-url a").get_attribute("href")
    assert code_link and "code=" in code_link
    fits(tablet)
    shot(tablet, screenshot_dir, "tablet-code")

    # A fresh phone with the table's link: the list, nothing to pick, a guess refused.
    stranger = new_context().new_page()
    stranger.set_viewport_size(PHONE)
    stranger.goto(link)
    expect(stranger.locator(".score-sheet")).to_be_visible()
    expect(stranger.locator(".signing-tap, .signing-pin, [name='player']")).to_have_count(0)
    stranger.locator('.signing-code-form input[name="code"]').fill("000 000")
    with stranger.expect_navigation():
        stranger.locator(".signing-code-form button").tap()
    expect(stranger.locator(".messages .error")).to_have_count(1)
    fits(stranger)
    shot(stranger, screenshot_dir, "phone-guess-refused")
    assert not Signature.objects.exists()

    # Dieter's phone, fresh, with his code link: it signs Dieter, and only him.
    phone = new_context().new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(code_link)
    typed = phone.locator('.signing-code-form input[name="code"]')
    expect(typed).to_have_value(digits.inner_text().replace(" ", ""))
    shot(phone, screenshot_dir, "phone-code")
    with phone.expect_navigation():
        phone.locator(".signing-code-form button").tap()
    expect(phone.locator(".messages")).to_contain_text(f"{dieter.name} hat die Liste "
                                                       "unterschrieben.")
    fits(phone)
    shot(phone, screenshot_dir, "phone-code-signed")
    assert [(s.player_id, s.proof) for s in Signature.objects.all()] == [(dieter.pk, "code")]
    # the same code again, on this phone and on another fresh one: used, refused
    for page in (phone, new_context().new_page()):
        page.set_viewport_size(PHONE)
        page.goto(code_link)
        with page.expect_navigation():
            page.locator(".signing-code-form button").tap()
        expect(page.locator(".messages .error")).to_have_count(1)
    shot(page, screenshot_dir, "phone-code-used")
    assert Signature.objects.count() == 1
    # the tablet shows Dieter's signature by itself, and no code for him any more
    line.locator(".signing-code summary").tap()  # closed: an open one pauses the poll
    expect(line.locator(".signing-done")).to_contain_text("auf dem Handy", timeout=WITHIN)
    expect(line.locator(".signing-code")).to_have_count(0)


def test_a_phone_signed_in_with_the_linked_account_signs_only_that_player(
        new_context: CreateContextCallback, live_server: LiveServer,
        screenshot_dir: Path) -> None:
    club = make_club()
    table = short_table(club)
    anna = seated(table)[0]
    anna.user = make_user(club, "viewer", username="anna")
    anna.save()
    context = new_context()
    browser_login(context, live_server, anna.user)
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(live_server.url + reverse("scoring:sign-phone",
                                         args=[table.pk, sign_token(table)]))
    buttons = phone.get_by_role("button", name=re.compile("^Unterschreiben als "))
    expect(buttons).to_have_count(1)
    expect(buttons).to_have_text(f"Unterschreiben als {anna.name}")
    fits(phone)
    shot(phone, screenshot_dir, "phone-account")
    with phone.expect_navigation():
        buttons.tap()
    expect(phone.locator(".messages")).to_contain_text(f"{anna.name} hat die Liste "
                                                       "unterschrieben.")
    expect(phone.get_by_role("button", name=re.compile("^Unterschreiben als "))
           ).to_have_count(0)
    shot(phone, screenshot_dir, "phone-account-signed")
    signature = Signature.objects.get()
    assert signature.player_id == anna.pk and signature.proof == "account"
    assert signature.user_id == anna.user.pk
    # The audit log names the account, the device and the address.
    admin_context = new_context()
    browser_login(admin_context, live_server, make_user(club, "admin"))
    admin = admin_context.new_page()
    admin.goto(live_server.url + reverse("scoring:evening-audit", args=[table.evening_id]))
    row = admin.locator("tr.action-sign")
    expect(row).to_contain_text("anna")
    expect(row).to_contain_text(signature.device)
    expect(row).to_contain_text("127.0.0.1")
    shot(admin, screenshot_dir, "audit")
