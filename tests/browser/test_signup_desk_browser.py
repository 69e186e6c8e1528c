"""The desk's unconfirmed online registrations (issue 35) on a tablet (1024×768) and a phone
(390×844), in English: who registered, with which address, since when, and whether the
registration still holds a place (30 minutes); the organiser drops one and is told so; a
name with an invisible character is refused on its field; the page never scrolls sideways
and logs no console errors. Screenshots: ``signup-desk-*.png``, ``signup-invisible-*``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Signup
from scoring.writes import signup as signups
from tests.web.factories import browser_login, make_club, make_user
from tests.web.tournaments import make_tournament

from .helpers import console_errors, fits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_the_desk_lists_and_drops_unconfirmed_registrations(
        contexts: Any, live_server: Any, screenshot_dir: Path, size: str) -> None:
    tournament = signups.signup_settings(
        tournament=make_tournament(make_club(), players=13), open=True, closes=None, limit=40)
    for name, email in (("Paula Pik", "paula.pik@example.org"),
                        ("Otto Ober", "otto.ober-mit-langer-adresse@example.org")):
        signups.signup_create(tournament=tournament, name=name, email=email)
    Signup.objects.filter(name="Otto Ober").update(
        created=timezone.now() - timedelta(minutes=45))
    admin = make_user(tournament.club, "admin")
    context = contexts(viewport=SIZES[size], locale="en-GB", **(
        {"is_mobile": True, "has_touch": True} if size == "phone" else {}))
    browser_login(context, live_server, admin)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(live_server.url + reverse("scoring:tournament", args=[tournament.pk]))
    rows = page.locator("table.unconfirmed tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Otto Ober")
    expect(rows.nth(0)).to_contain_text("no longer held")
    expect(rows.nth(1)).to_contain_text("Paula Pik")
    expect(rows.nth(1)).to_contain_text("held until")
    expect(page.locator(".signup-state")).to_contain_text("14 of 40 places taken")
    fits(page)
    page.locator("#unconfirmed-heading").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"signup-desk-{size}-1-list.png"))
    rows.nth(0).get_by_role("button", name="Drop").click()
    expect(page.locator(".messages")).to_contain_text("Otto Ober")
    expect(page.locator("table.unconfirmed tbody tr")).to_have_count(1)
    fits(page)
    page.screenshot(path=str(screenshot_dir / f"signup-desk-{size}-2-dropped.png"))
    assert list(Signup.objects.values_list("name", flat=True)) == ["Paula Pik"]
    assert errors == []


def test_a_name_with_an_invisible_character_is_refused_on_the_field(
        contexts: Any, live_server: Any, screenshot_dir: Path) -> None:
    tournament = signups.signup_settings(
        tournament=make_tournament(make_club(), players=4), open=True, closes=None,
        limit=None)
    context = contexts(viewport=SIZES["phone"], locale="en-GB", is_mobile=True,
                       has_touch=True)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(live_server.url + reverse("scoring:signup", args=[tournament.signup_key]))
    page.fill("#id_name", "Paula\u202e kiP")
    page.fill("#id_email", "paula@example.org")
    page.get_by_role("button", name="Register").click()
    message = page.locator("#id_name").locator("xpath=..")
    expect(message).to_contain_text("invisible or control characters (U+202E)")
    fits(page)
    page.screenshot(path=str(screenshot_dir / "signup-invisible-name-phone.png"),
                    full_page=True)
    assert not Signup.objects.exists()
    assert errors == []
