"""The "forgot your password" page (issue 26, item 8): it sent 60 mails in 3.2 s to one
address and built its link from the request's Host (``localhost:31337``). Now the mails are
limited per e-mail address typed, per account and per client address, with the same answer
as ever (it tells nobody which addresses have accounts, nor that a limit was reached), and
every link in a mail starts with SITE_URL."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from scoring.models import Membership

from .factories import make_club, make_user

pytestmark = pytest.mark.django_db

SITE = "https://skat.example.org"


@pytest.fixture(autouse=True)
def _site(settings: Settings) -> None:
    settings.SITE_URL = SITE
    settings.PASSWORD_RESET_MAILS_PER_EMAIL = 3
    settings.PASSWORD_RESET_MAILS_PER_ACCOUNT = 3
    settings.PASSWORD_RESET_MAILS_PER_CLIENT = 10
    settings.PASSWORD_RESET_WINDOW = 3600
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]


def ask(email: str, address: str = "10.0.0.1", **extra: Any) -> str:
    response = Client().post(reverse("password_reset"), {"email": email},
                             REMOTE_ADDR=address, **extra)
    assert response.status_code == 302
    return str(response["Location"])


def member(username: str, email: str) -> None:
    user = make_user(make_club() if not Membership.objects.exists() else
                     Membership.objects.first().club, username=username)  # type: ignore[union-attr]
    user.email = email
    user.save()


def test_sixty_requests_for_one_address_send_three_mails() -> None:
    member("anna", "anna@example.org")
    answers = {ask("anna@example.org", f"10.0.{n // 250}.{n % 250 + 1}") for n in range(60)}
    assert len(mail.outbox) == 3
    assert answers == {reverse("password_reset_done")}  # the same answer every time
    # however the address is typed: the same count
    ask("ANNA@Example.org", "10.9.9.9")
    ask(" anna@EXAMPLE.ORG ", "10.9.9.8")
    assert len(mail.outbox) == 3


def test_an_unknown_address_and_a_limited_one_answer_alike() -> None:
    member("anna", "anna@example.org")
    for _ in range(5):
        ask("anna@example.org")
    limited = Client().post(reverse("password_reset"), {"email": "anna@example.org"},
                            follow=True, HTTP_ACCEPT_LANGUAGE="en")
    unknown = Client().post(reverse("password_reset"), {"email": "nobody@example.org"},
                            follow=True, HTTP_ACCEPT_LANGUAGE="en")
    strip = re.compile(r"[A-Za-z0-9]{64}")  # the CSRF tokens
    assert strip.sub("", limited.content.decode()) == strip.sub("", unknown.content.decode())


def test_one_client_asking_for_many_addresses_is_limited() -> None:
    for n in range(20):
        member(f"user{n}", f"user{n}@example.org")
    for n in range(20):
        ask(f"user{n}@example.org", "2001:db8:5:6::" + f"{n + 1:x}")  # one /64
    assert len(mail.outbox) == 10
    ask("user19@example.org", "10.1.1.1")  # another client
    assert len(mail.outbox) == 11


def test_one_account_gets_a_few_mails_whatever_is_typed(settings: Settings) -> None:
    """Two accounts share an address; each is counted on its own too."""
    settings.PASSWORD_RESET_MAILS_PER_EMAIL = 100
    member("anna", "family@example.org")
    member("bert", "family@example.org")
    for n in range(6):
        ask("family@example.org", f"10.0.0.{n + 1}")
    assert sorted(m.to[0] for m in mail.outbox) == ["family@example.org"] * 6
    assert len({found.group(1) for m in mail.outbox
                if (found := re.search(r"/reset/([^/]+)/", str(m.body)))}) == 2  # three each


def test_the_link_is_on_the_site_url_whatever_the_host() -> None:
    member("anna", "anna@example.org")
    ask("anna@example.org", HTTP_HOST="localhost:31337")
    (message,) = mail.outbox
    links = re.findall(r"https?://\S+", str(message.body))
    assert links and all(link.startswith(SITE + "/") for link in links)
    assert "31337" not in message.body and "localhost" not in message.body


def test_invitations_and_registrations_link_to_the_site_url_too(settings: Settings) -> None:
    club = make_club()
    admin = make_user(club, "admin")
    client = Client(HTTP_HOST="localhost:31337")
    client.force_login(admin)
    client.post(reverse("scoring:invitation-create", args=[club.slug]),
                {"role": "scorer", "email": "neu@example.org"})
    settings.CLUB_REGISTRATION = True
    Client(HTTP_HOST="localhost:31337").post(reverse("scoring:register"), {
        "club_name": "Skatfreunde Gera", "slug": "gera", "language": "de",
        "preset": "club_evening", "stake": "0.05", "currency": "eur", "username": "gera",
        "email": "gera@example.org", "password1": "pw-for-tests-only-1",
        "password2": "pw-for-tests-only-1"})
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        links = re.findall(r"https?://\S+", str(message.body))
        assert links and all(link.startswith(SITE + "/") for link in links), message.body
