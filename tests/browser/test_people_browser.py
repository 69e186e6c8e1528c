"""People, not names, in real browsers (issue 35; Debian chromium, German, under the
site's Content-Security-Policy), on a tablet (1024×768) and a phone (390×844): the club
admin makes a claim link on the members page; the player opens it in a fresh browser,
signs in, sees whose record it is and confirms; his results across clubs list the club's
list. Every page fits its width and logs no console error. Screenshots: ``people-*.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from pytest_django.live_server_helper import LiveServer

from scoring.models import Player
from tests.web.factories import browser_login, make_club, make_table, make_user

from .helpers import console_errors, fits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_claim_link_from_the_members_page_to_my_results(
        contexts: Any, live_server: LiveServer, screenshot_dir: Path, size: str) -> None:
    club = make_club()
    make_table(club)
    admin = make_user(club, "admin", username="chef")
    desk = contexts(viewport=SIZES[size])
    browser_login(desk, live_server, admin)
    page = desk.new_page()
    errors = console_errors(page)
    page.goto(live_server.url + reverse("scoring:members", args=[club.slug]))
    anna = Player.objects.get(club=club, name="Anna Altenburg")
    page.locator(f'#player-{anna.pk} form[action$="/claim/"] button').click()
    page.wait_for_url(re.compile(r"/members/"))
    link = page.locator(f"#player-{anna.pk} input.invitation-link").input_value()
    assert "/claim/" in link
    fits(page)
    page.locator(f"#player-{anna.pk}").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"people-{size}-01-members.png"), full_page=True)

    account = get_user_model().objects.create_user("anna", password="pw-anna-1923")
    phone = contexts(viewport=SIZES[size])
    browser_login(phone, live_server, account)
    player_page = phone.new_page()
    phone_errors = console_errors(player_page)
    player_page.goto(live_server.url + link[link.index("/claim/"):])
    assert "Anna Altenburg" in player_page.locator("h1").inner_text()
    assert "Skatfreunde Altenburg: " in player_page.locator(".claim-facts").inner_text()
    fits(player_page)
    player_page.screenshot(path=str(screenshot_dir / f"people-{size}-02-claim.png"),
                           full_page=True)
    player_page.locator("form button.primary").click()
    player_page.wait_for_url(re.compile(r"/me/results/$"))
    assert Player.objects.get(pk=anna.pk).user_id == account.pk
    assert "Skatfreunde Altenburg" in player_page.locator("table.results-across-clubs") \
        .inner_text()
    fits(player_page)
    player_page.screenshot(path=str(screenshot_dir / f"people-{size}-03-my-results.png"),
                           full_page=True)
    assert errors == [] and phone_errors == []
