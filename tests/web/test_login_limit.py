"""Wrong passwords are limited per user name and per address (scoring/views/login.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django import Settings

from .factories import make_club, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts(settings: Settings) -> None:
    cache.clear()
    settings.LOGIN_MAX_FAILURES = 3
    settings.LOGIN_MAX_FAILURES_PER_ADDRESS = 5
    settings.LOGIN_FAILURE_WINDOW = 600


def sign_in(client: Client, username: str, password: str, address: str = "10.0.0.1",
            ) -> TestResponse:
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR=address)


def test_after_too_many_wrong_passwords_even_the_right_one_waits() -> None:
    user = make_user(make_club())
    client = Client()
    for _ in range(3):
        assert sign_in(client, user.username, "wrong").status_code == 200
    response = sign_in(client, user.username, "pw-for-tests-only")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 500
    assert "_auth_user_id" not in client.session
    # Another address does not help: the count is the user name's.
    assert sign_in(Client(), user.username.upper(), "pw-for-tests-only",
                   "10.0.0.2").status_code == 429


def test_the_message_is_german_by_default_and_english_on_request() -> None:
    user = make_user(make_club())
    for _ in range(3):
        sign_in(Client(), user.username, "wrong")
    german = Client().post("/accounts/login/", {"username": user.username, "password": "x"},
                           HTTP_ACCEPT_LANGUAGE="de")
    assert "Zu viele fehlgeschlagene Anmeldeversuche" in german.content.decode()
    english = Client().post("/accounts/login/", {"username": user.username, "password": "x"},
                            HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many failed sign-in attempts" in english.content.decode()


def test_one_address_guessing_many_accounts_is_stopped() -> None:
    make_club()
    for n in range(5):
        assert sign_in(Client(), f"someone-{n}", "guess").status_code == 200
    assert sign_in(Client(), "someone-else", "guess").status_code == 429
    assert sign_in(Client(), "someone-else", "guess", "10.0.0.9").status_code == 200


def test_the_limit_passes_after_the_window(settings: Settings,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import time as real_time

    user = make_user(make_club())
    for _ in range(3):
        sign_in(Client(), user.username, "wrong")
    assert sign_in(Client(), user.username, "pw-for-tests-only").status_code == 429
    later = real_time.time() + 601
    monkeypatch.setattr("scoring.access.time.time", lambda: later)
    assert sign_in(Client(), user.username, "pw-for-tests-only").status_code == 302


def test_a_right_password_clears_the_user_names_count() -> None:
    user = make_user(make_club())
    for _ in range(2):
        sign_in(Client(), user.username, "wrong")
    assert sign_in(Client(), user.username, "pw-for-tests-only").status_code == 302
    for _ in range(2):
        assert sign_in(Client(), user.username, "wrong", "10.0.0.3").status_code == 200
    assert sign_in(Client(), user.username, "pw-for-tests-only", "10.0.0.3").status_code == 302
