"""What a person sees when wrong passwords or codes slow them down: the form again, with a
message that says how long to wait, at the sign-in, the admin's sign-in and the table-code
entry (screenshots limits-*.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django import Settings

from tests.web.factories import make_club, make_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture(autouse=True)
def _slow(settings: Settings) -> None:
    cache.clear()
    settings.LOGIN_FREE_FAILURES = 3
    settings.LOGIN_DELAY = 30
    settings.TABLE_CODE_FREE_FAILURES = 3
    settings.TABLE_CODE_DELAY = 30


def test_the_sign_in_says_how_long_to_wait(page: Any, live_server: Any,
                                           screenshot_dir: Path) -> None:
    make_club()
    for _ in range(4):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "demo")
        page.fill("input[name=password]", "falsch")
        page.click("form.panel button[type=submit]")
    alert = page.locator("[role=alert]")
    assert "Bitte warten Sie 30 Sekunden" in alert.inner_text()
    assert page.input_value("input[name=username]") == "demo"
    page.screenshot(path=str(screenshot_dir / "limits-sign-in-de.png"), full_page=True)


def test_the_admin_sign_in_says_how_long_to_wait(page: Any, live_server: Any,
                                                 screenshot_dir: Path) -> None:
    User.objects.create_user("operator", password="pw-for-tests-only", is_staff=True)
    for _ in range(4):
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("input[name=username]", "operator")
        page.fill("input[name=password]", "falsch")
        page.click("input[type=submit]")
    assert "Bitte warten Sie 30 Sekunden" in page.locator(".errornote").inner_text()
    assert page.locator("#login-form").is_visible()
    page.screenshot(path=str(screenshot_dir / "limits-admin-sign-in-de.png"), full_page=True)


def test_the_code_entry_says_how_long_to_wait(page: Any, live_server: Any,
                                              screenshot_dir: Path) -> None:
    make_table(make_club())
    for n in range(4):
        page.goto(f"{live_server.url}/t/")
        page.fill("input[name=code]", f"FALSCH{n}X")
        page.click("form.code-form button[type=submit]")
    alert = page.locator("[role=alert]")
    assert "Bitte versuchen Sie es in 30 Sekunden noch einmal" in alert.inner_text()
    assert page.locator("input[name=code]").is_visible()
    page.screenshot(path=str(screenshot_dir / "limits-code-entry-de.png"), full_page=True)


def test_a_busy_pdf_says_so_and_asks_again(page: Any, live_server: Any, screenshot_dir: Path,
                                          settings: Settings) -> None:
    import time

    from django.urls import reverse

    from scoring.pdf import documents
    from tests.web.factories import browser_login, make_user
    from tests.web.seasons import make_evening, make_season, player, seat_and_play

    settings.PDF_RENDERS_AT_ONCE = 1
    settings.PDF_WAIT_SECONDS = 0
    club = make_club()
    season = make_season(club, "classic")
    seat_and_play(make_evening(season, 1), [player(club, n) for n in ("Anna", "Bert", "Carl")],
                  {0: [(1, True)]})
    browser_login(page.context, live_server, make_user(club, "viewer"))
    with documents.render_slot(time.monotonic()):  # another PDF renders
        response = page.goto(live_server.url + reverse("scoring:season-pdf", args=[season.pk]))
        assert response is not None and response.status == 503
        assert "Gerade werden viele Dokumente gedruckt" in page.locator("main").inner_text()
        page.screenshot(path=str(screenshot_dir / "limits-pdf-busy-de.png"), full_page=True)
