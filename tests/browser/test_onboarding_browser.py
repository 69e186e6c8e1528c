"""A club starts on its own, in real browsers (Debian chromium, German, under the site's
Content-Security-Policy), from a fresh database: / leads to the set-up page; the club and
its admin are made; the admin invites a scorer by link; the scorer signs up in a second
browser and records a deal at a table; the link refuses a second use and an expired one;
the admin sends the scorer a password-reset link, which arrives in the test outbox, in the
club's language, and works. Screenshots: ``onboarding-*.png``."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from scoring.models import AuditEntry, Club, Deal, Invitation, Membership, Table

from .helpers import console_errors, fits


def found_in(pattern: str, text: object, group: int = 0) -> str:
    """What ``pattern`` finds in a mail's text (which must hold it)."""
    match = re.search(pattern, str(text))
    assert match is not None, text
    return match.group(group)


pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "Kreuz-Bube-1923"
NEW_PASSWORD = "Grand-Hand-Ouvert-24"
PHONE = {"width": 390, "height": 844}


def set_up_club(page: Any, live_server: Any, shots: Path, prefix: str = "") -> None:
    page.goto(live_server.url + "/")
    page.wait_for_url(re.compile(r"/setup/$"))
    assert page.locator("h1").inner_text() == "Skatclub einrichten"
    fits(page)
    page.screenshot(path=str(shots / f"onboarding-{prefix}01-setup.png"), full_page=True)
    page.fill("#id_club_name", "Skatfreunde Gera")
    page.fill("#id_slug", "gera")
    page.select_option("#id_preset", "club_evening")
    page.fill("#id_stake", "0.05")
    page.fill("#id_username", "anna")
    page.fill("#id_email", "anna@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Club anlegen").click()
    page.wait_for_url(re.compile(r"/clubs/gera/$"))


def test_from_a_fresh_database_to_a_scorer_at_a_table(contexts: Any, live_server: Any,
                                                      screenshot_dir: Path) -> None:
    assert not Club.objects.exists()
    admin = contexts().new_page()
    errors = console_errors(admin)
    set_up_club(admin, live_server, screenshot_dir)
    assert "Skatfreunde Gera ist eingerichtet" in admin.locator(".messages").inner_text()
    admin.screenshot(path=str(screenshot_dir / "onboarding-02-club.png"), full_page=True)
    club = Club.objects.get()
    assert Membership.objects.get(club=club).user.username == "anna"
    # the set-up page is gone
    assert admin.goto(live_server.url + reverse("scoring:setup")).status == 404

    # The admin opens tonight's evening with a table of three, typed in as new names.
    admin.goto(live_server.url + reverse("scoring:evening-create", args=["gera"]))
    admin.fill("#id_name", "Erster Clubabend")
    for seat, name in enumerate(("Anna", "Bernd", "Clara")):
        admin.fill(f"#id_tables-0-guest_{seat}", name)
    admin.locator("button.primary[type=submit]").click()
    admin.wait_for_url(re.compile(r"/evenings/\d+/$"))
    table = Table.objects.get(evening__club=club)
    assert [s.player.name for s in table.seats.order_by("position")] == [
        "Anna", "Bernd", "Clara"]
    assert table.evening.profile_name == "Clubabend"

    # The admin invites a scorer by link.
    admin.goto(live_server.url + reverse("scoring:members", args=["gera"]))
    admin.select_option("#id_role", "scorer")
    admin.get_by_role("button", name="Einladen", exact=True).click()
    admin.wait_for_load_state()
    assert "Der Einladungslink ist fertig" in admin.locator(".messages").inner_text()
    link = admin.locator(".invitation-link").input_value()
    assert link.startswith(live_server.url + "/invite/")
    admin.locator(".invitation summary").click()  # its QR code
    assert admin.locator(".invitation svg.qr").is_visible()
    fits(admin)
    admin.screenshot(path=str(screenshot_dir / "onboarding-03-members-invited.png"),
                     full_page=True)
    assert mail.outbox == []

    # The scorer signs up in a second browser, on a phone.
    scorer = contexts(viewport=PHONE).new_page()
    scorer_errors = console_errors(scorer)
    scorer.goto(link)
    assert "Skatfreunde Gera beitreten" in scorer.locator("h1").inner_text()
    assert "Listenführer" in scorer.locator("main").inner_text()
    fits(scorer)
    scorer.screenshot(path=str(screenshot_dir / "onboarding-04-invitation-phone.png"),
                      full_page=True)
    scorer.fill("#id_username", "bernd")
    scorer.fill("#id_email", "bernd@example.org")
    scorer.fill("#id_password1", PASSWORD)
    scorer.fill("#id_password2", PASSWORD)
    scorer.get_by_role("button", name="Mein Konto anlegen").click()
    scorer.wait_for_url(re.compile(r"/clubs/gera/$"))
    assert "Willkommen bei Skatfreunde Gera" in scorer.locator(".messages").inner_text()
    bernd = get_user_model().objects.get(username="bernd")
    assert Membership.objects.get(user=bernd).role == "scorer"

    # … and records a deal at the table: Clubs with 1, bid 18, won.
    scorer.set_viewport_size({"width": 1024, "height": 768})
    scorer.goto(live_server.url + reverse("scoring:table", args=[table.pk]))
    for name in ("declarer-1", "game-clubs", "matadors-1", "bid-18", "result-won"):
        scorer.locator(f'[data-tap="{name}"]').tap()
    scorer.wait_for_url(re.compile(r"\?saved=\d+"))
    scorer.wait_for_load_state()
    deal = Deal.objects.get(table=table)
    assert {k: deal.record.get(k) for k in ("declarer", "game", "matadors", "bid")} == {
        "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18}
    assert AuditEntry.objects.get(deal=deal).user == bernd
    assert "+24" in scorer.inner_text(".notice-saved")
    scorer.screenshot(path=str(screenshot_dir / "onboarding-05-scorer-deal.png"))

    # The admin links bernd to the player Bernd on the lists: bernd sees his results.
    admin.goto(live_server.url + reverse("scoring:members", args=["gera"]))
    row = admin.locator(f"#member-{Membership.objects.get(user=bernd).pk}")
    row.locator("select[name=player]").select_option(label="Bernd")
    row.get_by_role("button", name="Verknüpfen").click()
    admin.wait_for_load_state()
    assert "bernd ist Bernd auf den Listen" in admin.locator(".messages").inner_text()
    scorer.goto(live_server.url + reverse("scoring:club", args=["gera"]))
    scorer.get_by_role("link", name="Meine Ergebnisse").click()
    assert "Auf den Listen sind Sie Bernd." in scorer.locator("main").inner_text()
    assert scorer.locator(f'a[href="{reverse("scoring:sheet", args=[table.pk])}"]').count() == 1
    scorer.screenshot(path=str(screenshot_dir / "onboarding-05b-my-results.png"), full_page=True)

    # The link used a second time, in a third browser: refused, and says why.
    third = contexts(viewport=PHONE).new_page()
    response = third.goto(link)
    assert response.status == 410
    assert "Diese Einladung wurde schon benutzt" in third.locator("[role=alert]").inner_text()
    fits(third)
    third.screenshot(path=str(screenshot_dir / "onboarding-06-invitation-used.png"),
                     full_page=True)

    # An invitation after its 7 days: refused too.
    admin.goto(live_server.url + reverse("scoring:members", args=["gera"]))
    admin.select_option("#id_role", "viewer")
    admin.get_by_role("button", name="Einladen", exact=True).click()
    admin.wait_for_load_state()
    late = Invitation.objects.get(used_at=None)
    Invitation.objects.filter(pk=late.pk).update(expires=timezone.now() - timedelta(minutes=1))
    response = third.goto(admin.locator(".invitation-link").input_value())
    assert response.status == 410
    assert "Diese Einladung ist abgelaufen" in third.locator("[role=alert]").inner_text()
    third.screenshot(path=str(screenshot_dir / "onboarding-07-invitation-expired.png"),
                     full_page=True)

    # The admin sends the scorer a password-reset link: it is in the outbox, in German.
    admin.goto(live_server.url + reverse("scoring:members", args=["gera"]))
    row = admin.locator(f"#member-{Membership.objects.get(user=bernd).pk}")
    row.get_by_role("button", name="Passwort-Link senden").click()
    admin.wait_for_load_state()
    assert "wurde an bernd geschickt" in admin.locator(".messages").inner_text()
    admin.screenshot(path=str(screenshot_dir / "onboarding-08-reset-sent.png"), full_page=True)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bernd@example.org"]
    assert message.subject == "Ein neues Passwort für Skatclub"
    reset_link = found_in(r"https?://\S+", message.body, 0)
    assert reset_link.startswith(live_server.url)
    third.goto(reset_link)
    third.wait_for_selector("#id_new_password1")
    fits(third)
    third.screenshot(path=str(screenshot_dir / "onboarding-09-new-password.png"),
                     full_page=True)
    third.fill("#id_new_password1", NEW_PASSWORD)
    third.fill("#id_new_password2", NEW_PASSWORD)
    third.get_by_role("button", name="Neues Passwort speichern").click()
    third.wait_for_url(re.compile(r"/reset/done/$"))
    assert "Ihr neues Passwort ist gespeichert" in third.locator("h1").inner_text()
    # and the new password signs in
    third.goto(live_server.url + reverse("login"))
    third.fill("#id_username", "bernd")
    third.fill("#id_password", NEW_PASSWORD)
    third.get_by_role("button", name="Anmelden").click()
    third.wait_for_url(re.compile(r"/clubs/gera/$"))
    # the link works once
    third.goto(reset_link)
    assert "gilt nicht mehr" in third.locator("main").inner_text()
    for found in (errors, scorer_errors):
        assert not [e for e in found if "Content Security Policy" in e or "Refused" in e], found


def test_the_set_up_and_the_registration_fit_a_phone(contexts: Any, live_server: Any,
                                                     screenshot_dir: Path,
                                                     settings: Any) -> None:
    page = contexts(viewport=PHONE).new_page()
    page.goto(live_server.url + reverse("scoring:setup"))
    page.get_by_role("button", name="Club anlegen").click()  # empty: every field says why
    page.wait_for_load_state()
    assert page.locator(".errorlist").count() >= 5
    fits(page)
    page.screenshot(path=str(screenshot_dir / "onboarding-setup-errors-phone.png"),
                    full_page=True)
    assert not Club.objects.exists()
    settings.CLUB_REGISTRATION = True
    page.goto(live_server.url + reverse("scoring:register"))
    fits(page)
    page.screenshot(path=str(screenshot_dir / "onboarding-register-phone.png"), full_page=True)
