"""The club's forms in a real browser (Debian chromium via Playwright, under the site's
Content-Security-Policy): the evening form adds a table without a page load and keeps what
was typed; the club page and the rule-profile form fit a tablet and a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from scoring.models import Evening
from tests.web.factories import browser_login, make_club, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLET: ViewportSize = {"width": 1024, "height": 768}


def console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_one_more_table_keeps_what_was_typed(page: Page, live_server: LiveServer,
                                            screenshot_dir: Path) -> None:
    club = make_club()
    p = list(club.players.order_by("pk"))
    browser_login(page.context, live_server, make_user(club, "scorer"))
    errors = console_errors(page)
    page.goto(live_server.url + reverse("scoring:evening-create", args=[club.slug]))
    page.fill("#id_name", "Herbstabend")
    for i, player in enumerate(p[:3]):
        page.select_option(f"#id_tables-0-seat_{i}", str(player.pk))
    page.fill("#id_tables-0-guest_3", "Gustav Gast")
    page.select_option("#id_tables-0-first_dealer", "1")
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))

    page.locator("[data-add-table]").tap()
    page.wait_for_selector("#id_tables-1-seat_0")
    assert loads == []  # no page load: the fields were added in place
    assert page.input_value("#id_tables-TOTAL_FORMS") == "2"
    assert page.input_value("#id_name") == "Herbstabend"
    assert page.input_value("#id_tables-0-guest_3") == "Gustav Gast"
    assert page.input_value("#id_tables-0-seat_2") == str(p[2].pk)
    legends = page.locator("#table-fieldsets legend").all_inner_texts()
    assert legends == ["Tisch 1", "Tisch 2"]
    assert page.evaluate("document.activeElement.id") == "id_tables-1-seat_0"
    for i, player in enumerate(p[3:6]):
        page.select_option(f"#id_tables-1-seat_{i}", str(player.pk))
    page.screenshot(path=str(screenshot_dir / "evening-form-two-tables.png"), full_page=True)

    page.locator("button.primary[type=submit]").tap()
    page.wait_for_url(re.compile(r"/evenings/\d+/$"))
    evening = Evening.objects.get(club=club)
    assert evening.name == "Herbstabend"
    t1, t2 = evening.tables.order_by("number")
    assert [s.player.name for s in t1.seats.order_by("position")] == [
        p[0].name, p[1].name, p[2].name, "Gustav Gast"]
    assert t1.first_dealer == 1
    assert [s.player for s in t2.seats.order_by("position")] == p[3:6]
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors


def fits(page: Page) -> None:
    """Nothing on the page is wider than the screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert page.viewport_size is not None, "the test page has a viewport"
    assert width <= page.viewport_size["width"], width
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5)""")
    assert wide == [], wide


@pytest.mark.parametrize("size", [TABLET, PHONE], ids=["1024x768", "390x844"])
def test_club_page_and_profile_form_fit_the_screen(page: Page, live_server: LiveServer,
                                                   screenshot_dir: Path,
                                                   size: ViewportSize) -> None:
    club = make_club()
    profile = club.rule_profiles.get(name="Club evening")
    browser_login(page.context, live_server, make_user(club, "admin"))
    errors = console_errors(page)
    page.set_viewport_size(size)
    name = f"{size['width']}x{size['height']}"
    page.goto(live_server.url + reverse("scoring:club", args=[club.slug]))
    words = page.locator(".profiles .rule-words").all_inner_texts()
    assert any(w.startswith("Kontra und Re · Bock nach 60:60, verlorenem Kontra und Re")
               for w in words), words
    assert len(words) == club.rule_profiles.count()
    fits(page)
    page.screenshot(path=str(screenshot_dir / f"club-page-{name}.png"), full_page=True)

    page.goto(live_server.url + reverse("scoring:profile-edit", args=[profile.pk]))
    fits(page)
    assert page.locator("fieldset[data-rule-options]:has(#id_frage)").is_hidden()
    assert page.locator("fieldset[data-rule-options]:has(#id_grand_base)").first.is_visible()
    page.screenshot(path=str(screenshot_dir / f"profile-form-{name}.png"), full_page=True)
    # Another rule system shows its own options only.
    page.select_option("#id_rules", "hoyle")
    assert page.locator("fieldset[data-rule-options]:has(#id_frage)").is_visible()
    assert page.locator("fieldset[data-rule-options]:has(#id_grand_base)").first.is_hidden()
    page.select_option("#id_rules", "isko")
    # An admin switches two §9 options on and saves.
    page.select_option("#id_ramsch_all_tied", "all_lose")
    page.fill("#id_ramsch_cap", "250")
    page.locator("button.primary[type=submit]").click()
    page.wait_for_url(re.compile(r"/clubs/altenburg/$"))
    profile.refresh_from_db()
    assert profile.options["ramsch_all_tied"] == "all_lose"
    assert profile.options["ramsch_cap"] == 250
    assert "höchstens −250 je Ramsch" in page.locator(".profiles").inner_text()
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
