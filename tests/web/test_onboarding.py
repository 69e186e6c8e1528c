"""The first run and new clubs (issue 16): the set-up page while there is no club (and never
again after, also for a request that raced the first), manage.py create_club, and the
self-service registration of clubs (closed by default, confirmed by e-mail in the club's
language, limited per address, the new club isolated from the others)."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Club, Membership, RuleProfile
from scoring.writes import onboarding
from scoring.writes.onboarding import NewClub

from .factories import make_club, make_user
from .smtp_server import smtp_server


def found_in(pattern: str, text: object, group: int = 0) -> str:
    """What ``pattern`` finds in a mail's text (which must hold it)."""
    match = re.search(pattern, str(text))
    assert match is not None, text
    return match.group(group)


pytestmark = pytest.mark.django_db

PASSWORD = "Kreuz-Bube-1923"


def setup_data(**extra: str) -> dict[str, str]:
    data = {"club_name": "Skatfreunde Gera", "slug": "gera", "language": "de",
            "preset": "club_evening", "stake": "0.05", "currency": "eur",
            "username": "anna", "email": "anna@example.org", "password1": PASSWORD,
            "password2": PASSWORD}
    data.update(extra)
    return data


def test_a_fresh_site_leads_to_the_set_up_page_and_makes_club_and_admin() -> None:
    client = Client()
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == reverse("scoring:setup")
    page = client.get(reverse("scoring:setup"), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    assert "Skatclub einrichten" in page.content.decode()
    response = client.post(reverse("scoring:setup"), setup_data())
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:club", args=["gera"])
    club = Club.objects.get()
    assert (club.name, club.slug, club.language) == ("Skatfreunde Gera", "gera", "de")
    profile = RuleProfile.objects.get(club=club)
    assert profile.name == "Clubabend" and profile.currency == "EUR"
    assert str(profile.stake) == "0.0500" and profile.options["kontra"] is True
    user = get_user_model().objects.get(username="anna")
    assert user.email == "anna@example.org" and user.check_password(PASSWORD)
    assert Membership.objects.get(user=user, club=club).role == "admin"
    # signed in as the admin: the club page opens
    assert client.get(response["Location"]).status_code == 200
    # and the set-up page is gone for good, for everybody
    for who in (client, Client()):
        assert who.get(reverse("scoring:setup")).status_code == 404
        assert who.post(reverse("scoring:setup"), setup_data(slug="x", username="x"))\
            .status_code == 404
    assert Club.objects.count() == 1


def test_after_make_run_the_demo_club_does_not_hide_the_set_up() -> None:
    """`make run` makes the demo club: the landing page offers the set-up beside it, and the
    set-up page is gone once the club's own club exists."""
    call_command("demo", stdout=io.StringIO())
    client = Client()
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert home.status_code == 200  # the landing page, not a redirect: there is a club
    assert reverse("scoring:setup") in home.content.decode()
    assert "Sie möchten Ihren eigenen Club starten?" in home.content.decode()
    assert client.post(reverse("scoring:setup"), setup_data()).status_code == 302
    assert set(Club.objects.values_list("slug", flat=True)) == {"demo", "gera"}
    assert Client().get(reverse("scoring:setup")).status_code == 404
    assert reverse("scoring:setup") not in Client().get("/").content.decode()


def test_an_english_club_gets_its_profile_in_english() -> None:
    Client().post(reverse("scoring:setup"), setup_data(language="en", preset="hoyle"))
    assert RuleProfile.objects.get().name == "Hoyle"
    assert Club.objects.get().language == "en"


def test_the_set_up_checks_every_field_and_writes_nothing_on_a_mistake() -> None:
    client = Client()
    bad = [setup_data(password2="other"), setup_data(password1="123", password2="123"),
           setup_data(password1="anna", password2="anna"), setup_data(slug="Ä b"),
           setup_data(stake="-1"), setup_data(currency="E1R"), setup_data(preset="nope"),
           setup_data(language="fr"), setup_data(email="no-mail"), setup_data(username="a b!")]
    for data in bad:
        response = client.post(reverse("scoring:setup"), data, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, data
        assert 'class="errorlist"' in response.content.decode(), data
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_a_second_set_up_that_raced_the_first_is_refused_inside_the_transaction(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two browsers had the set-up page open: the first one's club appears between the
    second one's check of the form and its write. The write itself checks again, under the
    lock, and answers 404 with nothing of the second written."""
    from scoring.forms.setup import ClubSetupForm

    real_clean = ClubSetupForm.clean

    def clean_then_the_other_wins(self: ClubSetupForm) -> dict[str, Any]:
        data = real_clean(self)
        onboarding.first_run(club=NewClub("Erster", "erster", "de", "hoyle", Decimal(0), "EUR"),
                             username="first", email="f@example.org", password=PASSWORD)
        return data

    monkeypatch.setattr(ClubSetupForm, "clean", clean_then_the_other_wins)
    response = Client().post(reverse("scoring:setup"), setup_data())
    assert response.status_code == 404
    assert list(Club.objects.values_list("slug", flat=True)) == ["erster"]
    assert not get_user_model().objects.filter(username="anna").exists()


def test_the_service_refuses_a_second_first_run() -> None:
    make_club()
    with pytest.raises(onboarding.AlreadySetUp):
        onboarding.first_run(club=NewClub("X", "x", "de", "hoyle", Decimal(0), "EUR"),
                             username="x", email="x@example.org", password=PASSWORD)
    assert not Club.objects.filter(slug="x").exists()
    assert not get_user_model().objects.filter(username="x").exists()


# ---------------------------------------------------------------- manage.py create_club

def test_create_club_makes_what_the_set_up_page_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKATCLUB_ADMIN_PASSWORD", PASSWORD)
    out = io.StringIO()
    call_command("create_club", "--name", "Skatrunde Zeitz", "--slug", "zeitz",
                 "--admin", "bernd", "--email", "b@example.org", "--language", "en",
                 "--preset", "isko_tournament", "--stake", "0.10", "--currency", "chf",
                 stdout=out)
    assert "zeitz" in out.getvalue()
    club = Club.objects.get(slug="zeitz")
    assert club.language == "en"
    profile = RuleProfile.objects.get(club=club)
    assert (profile.name, profile.scoring, profile.currency) == (
        "ISkO tournament", "seeger_fabian", "CHF")
    user = get_user_model().objects.get(username="bernd")
    assert user.check_password(PASSWORD)
    assert Membership.objects.get(club=club).user == user
    # a second club for the same account, and a taken short name is refused
    call_command("create_club", "--name", "Zwei", "--slug", "zwei", "--admin", "bernd",
                 "--existing-admin", stdout=io.StringIO())
    assert Membership.objects.filter(user=user, role="admin").count() == 2
    with pytest.raises(CommandError, match="zeitz"):
        call_command("create_club", "--name", "Z", "--slug", "zeitz", "--admin", "carl",
                     stdout=io.StringIO())
    assert not get_user_model().objects.filter(username="carl").exists()


def test_create_club_refuses_a_weak_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKATCLUB_ADMIN_PASSWORD", "12345")
    with pytest.raises(CommandError, match="password"):
        call_command("create_club", "--name", "Z", "--slug", "z", "--admin", "carl")
    assert not Club.objects.exists()


# ---------------------------------------------------------------- registration

@pytest.fixture
def open_registration(settings: Any) -> None:
    settings.CLUB_REGISTRATION = True
    settings.REGISTRATION_MAX_PER_ADDRESS = 3
    settings.REGISTRATION_WINDOW = 3600
    cache.clear()


def test_registration_is_closed_by_default() -> None:
    make_club()
    for url in (reverse("scoring:register"),
                reverse("scoring:register-confirm", args=["anything"])):
        assert Client().get(url).status_code == 404
        assert Client().post(url, setup_data()).status_code == 404
    assert "register" not in Client().get("/").content.decode()


@pytest.mark.parametrize("language, subject", [("de", "Bestätigen Sie die Anmeldung von"),
                                               ("en", "Confirm the registration of")])
def test_registration_confirms_the_address_then_makes_the_club(
        open_registration: None, language: str, subject: str) -> None:
    other = make_club()
    make_user(other, "admin")
    client = Client()
    response = client.post(reverse("scoring:register"), setup_data(language=language),
                           HTTP_ACCEPT_LANGUAGE="de" if language == "en" else "en")
    assert response.status_code == 200
    assert not Club.objects.filter(slug="gera").exists()
    user = get_user_model().objects.get(username="anna")
    assert not user.is_active
    assert Client().post(reverse("login"), {"username": "anna", "password": PASSWORD})\
        .status_code == 200  # cannot sign in yet
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.org"] and message.subject.startswith(subject)
    url = found_in(r"https?://\S+", message.body, 0)
    assert url.startswith(settings.SITE_URL + "/")  # never the request's host
    path = url.removeprefix(settings.SITE_URL)
    assert client.get(path).status_code == 200  # a GET (a mail scanner) changes nothing
    assert not Club.objects.filter(slug="gera").exists()
    response = client.post(path)
    assert response.status_code == 302
    club = Club.objects.get(slug="gera")
    assert club.language == language
    user = get_user_model().objects.get(pk=user.pk)
    assert user.is_active
    assert list(user.memberships.values_list("club__slug", "role")) == [("gera", "admin")]
    # its own admin and nothing of anyone else's
    assert client.get(reverse("scoring:club", args=[other.slug])).status_code == 404
    assert client.get(reverse("scoring:members", args=["gera"])).status_code == 200
    # the link works once
    again = Client().post(path, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 410 and "confirmed already" in again.content.decode()
    assert Club.objects.filter(slug="gera").count() == 1


def test_a_forged_confirmation_link_is_refused(open_registration: None) -> None:
    response = Client().post(reverse("scoring:register-confirm", args=["abc:def"]),
                             HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 410 and "not valid" in response.content.decode()


def test_registration_is_limited_per_address(open_registration: None) -> None:
    for n in range(3):
        response = Client().post(reverse("scoring:register"),
                                 setup_data(slug=f"c{n}", username=f"u{n}"),
                                 REMOTE_ADDR="10.1.1.1")
        assert response.status_code == 200
    response = Client().post(reverse("scoring:register"), setup_data(slug="c9", username="u9"),
                             REMOTE_ADDR="10.1.1.1", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429 and "Too many registrations" in response.content.decode()
    assert not get_user_model().objects.filter(username="u9").exists()
    assert len(mail.outbox) == 3
    assert Client().post(reverse("scoring:register"), setup_data(slug="c8", username="u8"),
                         REMOTE_ADDR="10.1.1.2").status_code == 200


def test_registrations_from_one_ipv6_64_count_as_one_address(open_registration: None) -> None:
    for n in range(3):
        response = Client().post(reverse("scoring:register"),
                                 setup_data(slug=f"c{n}", username=f"u{n}"),
                                 REMOTE_ADDR=f"2001:db8:7:8::{n + 1}")
        assert response.status_code == 200
    response = Client().post(reverse("scoring:register"), setup_data(slug="c9", username="u9"),
                             REMOTE_ADDR="2001:db8:7:8:ffff::9")
    assert response.status_code == 429
    assert Client().post(reverse("scoring:register"), setup_data(slug="c8", username="u8"),
                         REMOTE_ADDR="2001:db8:7:9::1").status_code == 200


def _registered_days_ago(username: str, days: float) -> Any:
    user = get_user_model().objects.get(username=username)
    user.date_joined = timezone.now() - timedelta(days=days)
    user.save(update_fields=["date_joined"])
    return user


def test_an_unconfirmed_registration_frees_its_user_name_once_its_link_expired(
        open_registration: None) -> None:
    """The attack run: a registration never confirmed kept its user name for good."""
    assert Client().post(reverse("scoring:register"), setup_data()).status_code == 200
    again = setup_data(slug="gera2", email="other@example.org", username="Anna")
    # while the link works, the name is taken (however it is capitalised)
    _registered_days_ago("anna", onboarding.REGISTRATION_DAYS - 0.1)
    taken = Client().post(reverse("scoring:register"), again, HTTP_ACCEPT_LANGUAGE="en")
    assert "is taken" in taken.content.decode()
    stale = _registered_days_ago("anna", onboarding.REGISTRATION_DAYS + 0.1)
    response = Client().post(reverse("scoring:register"), again, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and "is taken" not in response.content.decode()
    assert not get_user_model().objects.filter(pk=stale.pk).exists()
    fresh = get_user_model().objects.get(username="Anna")
    assert not fresh.is_active and fresh.email == "other@example.org"
    assert len(mail.outbox) == 2


def test_confirmed_and_deactivated_accounts_keep_their_names(open_registration: None) -> None:
    """Only a registration never confirmed is freed: an account that was confirmed (it
    administers its club) or that signed in before it was deactivated keeps its name."""
    assert Client().post(reverse("scoring:register"), setup_data()).status_code == 200
    path = found_in(r"https?://\S+", mail.outbox[0].body, 0).split("://", 1)[1]
    path = path[path.index("/"):]
    assert Client().post(path).status_code == 302  # confirmed
    confirmed = _registered_days_ago("anna", 30)
    club = make_club()
    left = make_user(club, "viewer", username="berta")
    left.is_active = False
    left.last_login = timezone.now() - timedelta(days=20)
    left.save()
    Membership.objects.filter(user=left).delete()  # left the club, then deactivated
    _registered_days_ago("berta", 30)
    for name, slug in (("anna", "x1"), ("berta", "x2")):
        response = Client().post(reverse("scoring:register"),
                                 setup_data(username=name, slug=slug),
                                 HTTP_ACCEPT_LANGUAGE="en")
        assert "is taken" in response.content.decode()
    assert get_user_model().objects.filter(pk__in=[confirmed.pk, left.pk]).count() == 2


@pytest.mark.parametrize("mode", ["refuse", "close"])
def test_a_registration_whose_mail_fails_leaves_nothing(open_registration: None,
                                                        settings: Any, mode: str) -> None:
    with smtp_server(mode) as server:
        for key, value in server.settings().items():
            setattr(settings, key, value)
        response = Client().post(reverse("scoring:register"), setup_data(),
                                 HTTP_ACCEPT_LANGUAGE="en")
        assert server.connections == 1 and server.messages == 0
    assert response.status_code == 200
    assert "could not be sent" in response.content.decode()
    assert not get_user_model().objects.filter(username="anna").exists()
    assert not Club.objects.filter(slug="gera").exists()


@pytest.mark.django_db(transaction=True)
def test_two_first_runs_at_the_same_moment_make_one_club() -> None:
    """A real race, on PostgreSQL (where transactions do not take the write lock when they
    begin, as SQLite's do here): two threads with a connection each start the first run at
    the same moment; one makes the club, the other is refused, and nothing of it is left."""
    import threading

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises write transactions from their start (IMMEDIATE)")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def run(n: int) -> None:
        try:
            barrier.wait()
            onboarding.first_run(
                club=NewClub(f"Club {n}", f"club-{n}", "de", "hoyle", Decimal(0), "EUR"),
                username=f"admin{n}", email=f"a{n}@example.org", password=PASSWORD)
            outcomes.append("made")
        except onboarding.AlreadySetUp:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["made", "refused"]
    assert Club.objects.count() == 1
    assert get_user_model().objects.count() == 1
