"""Online self-registration on a phone (390×844, Debian chromium, German, under the site's
Content-Security-Policy): the organiser opens it on the desk (a tablet), a player opens the
shared link on the phone, registers, finds the link in the mail (the test outbox), opens it
on the phone and confirms; opened again, the link leads to his "Mein Platz" page; the desk
shows the new entrant marked online. The hidden field
for bots stays out of sight, the page never scrolls sideways, no console errors.
Screenshots: ``signup-*.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Tournament
from tests.web.factories import browser_login, make_club, make_user
from tests.web.tournaments import make_tournament

from .helpers import console_errors, fits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def test_a_player_registers_and_confirms_on_a_phone(contexts: Any, live_server: Any,
                                                    screenshot_dir: Path) -> None:
    tournament = make_tournament(make_club(), players=13)
    admin = make_user(tournament.club, "admin")
    desk_context = contexts()
    browser_login(desk_context, live_server, admin)
    desk = desk_context.new_page()
    desk_errors = console_errors(desk)
    desk.goto(live_server.url + reverse("scoring:tournament", args=[tournament.pk]))
    desk.check("#id_signup_open")
    desk.fill("#id_signup_limit", "60")
    desk.locator("form.signup-settings").get_by_role("button", name="Speichern").click()
    expect(desk.locator(".messages")).to_contain_text("Online-Anmeldung sind gespeichert")
    link = desk.locator("a.signup-link")
    expect(link).to_be_visible()
    shared = link.get_attribute("href")
    assert shared is not None and shared.endswith(
        reverse("scoring:signup", args=[Tournament.objects.get().signup_key]))
    desk.locator("#signup-heading").scroll_into_view_if_needed()
    desk.screenshot(path=str(screenshot_dir / "signup-01-desk-opened.png"))

    phone_context = contexts(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    errors = console_errors(phone)
    phone.goto(shared)
    expect(phone.get_by_role("heading", name="Preisskat")).to_be_visible()
    expect(phone.locator(".signup-facts")).to_contain_text("47 von 60")
    # the bots' field is there but out of sight and out of reach
    assert phone.locator("#id_website").count() == 1
    assert not phone.locator("#id_website").is_visible() or phone.evaluate(
        "document.getElementById('id_website').getBoundingClientRect().right <= 0")
    fits(phone)
    phone.fill("#id_name", "Paula Pik")
    phone.fill("#id_email", "paula@example.org")
    phone.fill("#id_home_club", "SC Herz Dame")
    phone.select_option("#id_category", "Damen")
    phone.screenshot(path=str(screenshot_dir / "signup-02-phone-form.png"), full_page=True)
    phone.get_by_role("button", name="Anmelden").click()
    expect(phone.get_by_role("heading", name="Sehen Sie in Ihre E-Mails")).to_be_visible()
    expect(phone.locator("main, body").first).to_contain_text("paula@example.org")
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "signup-03-phone-sent.png"), full_page=True)
    assert tournament.entrants.count() == 13

    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["paula@example.org"]
    found = re.search(r"https?://\S+/signup/confirm/\S+/", str(mail.outbox[0].body))
    assert found is not None and found.group(0).startswith(settings.SITE_URL)
    phone.goto(found.group(0))
    expect(phone.locator("form.panel")).to_contain_text("Paula Pik")
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "signup-04-phone-confirm.png"), full_page=True)
    phone.get_by_role("button", name="Anmeldung bestätigen").click()
    expect(phone.locator(".signup-number")).to_contain_text("Startnummer 14")
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "signup-05-phone-confirmed.png"),
                     full_page=True)
    entrant = tournament.entrants.get(number=14)
    assert entrant.online and not entrant.paid and not entrant.checked_in
    assert entrant.category == "Damen"

    # the link a second time leads to the player's "Mein Platz" (issue 35): start number 14,
    # waiting for the draw
    assert errors == []
    phone.goto(found.group(0))
    expect(phone.locator("article.my-seat.waiting")).to_contain_text("14")
    assert phone.url.endswith(reverse("scoring:seat-key", args=[entrant.seat_key]))
    fits(phone)
    phone.screenshot(path=str(screenshot_dir / "signup-05b-phone-my-seat.png"),
                     full_page=True)
    assert errors == []

    desk.goto(live_server.url + reverse("scoring:tournament", args=[tournament.pk])
              + "?q=Paula")
    row = desk.locator(f"#entrant-{entrant.pk}")
    expect(row.locator(".online-mark")).to_have_text("online")
    expect(desk.locator(".signup-state")).to_contain_text("1 Teilnehmer online angemeldet.")
    desk.screenshot(path=str(screenshot_dir / "signup-06-desk-online.png"), full_page=True)
    # the desk's section with its long link, on a phone
    desk.set_viewport_size(PHONE)
    desk.locator("#signup-heading").scroll_into_view_if_needed()
    fits(desk)
    desk.screenshot(path=str(screenshot_dir / "signup-07-desk-phone.png"))
    assert errors == [] and desk_errors == []
