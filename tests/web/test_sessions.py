"""Sessions live in the shared cache and, written through, in the database (cached_db): a
flushed or culled cache signs nobody out, and signing out ends the session in both, so that
a copied cookie does not outlive the sign-out."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from .factories import make_club, make_user

pytestmark = pytest.mark.django_db


def signed_in(cookie: str, slug: str) -> bool:
    """Whether a fresh browser with only this session cookie sees the club's page."""
    browser = Client()
    browser.cookies[settings.SESSION_COOKIE_NAME] = cookie
    return browser.get(reverse("scoring:club", args=[slug])).status_code == 200


def test_sessions_are_read_from_the_shared_cache_and_kept_in_the_database() -> None:
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
    store = import_module(settings.SESSION_ENGINE).SessionStore
    assert store.cache_key_prefix and settings.SESSION_CACHE_ALIAS in settings.CACHES


def test_a_flushed_cache_signs_nobody_out(client: Client) -> None:
    club = make_club()
    make_user(club, "viewer", username="anna")
    assert client.login(username="anna", password="pw-for-tests-only")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=cookie).exists()  # written through
    caches[settings.SESSION_CACHE_ALIAS].clear()  # a restart of Redis, a cull
    assert signed_in(cookie, club.slug)
    assert signed_in(cookie, club.slug)  # and from the cache again


def test_signing_out_ends_the_session_in_the_cache_and_the_database(client: Client) -> None:
    club = make_club()
    make_user(club, "viewer", username="anna")
    client.post(reverse("login"), {"username": "anna", "password": "pw-for-tests-only"})
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert signed_in(cookie, club.slug)
    assert client.post(reverse("logout")).status_code == 302
    assert not Session.objects.filter(session_key=cookie).exists()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    assert caches[settings.SESSION_CACHE_ALIAS].get(store.cache_key_prefix + cookie) is None
    assert not signed_in(cookie, club.slug)  # the copied cookie is worth nothing now


# ---------------------------------------------------------------- the signed-in account

@pytest.fixture(autouse=True)
def _accounts_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in production (tests/django_fixtures.py switches keeping off everywhere else)."""
    from scoring import access

    monkeypatch.setattr(access, "SIGNED_IN_SECONDS", 60)


def test_the_signed_in_account_is_read_once_and_dropped_when_it_changes(
        client: Client) -> None:
    """scoring.access.SignedInBackend: a member's requests read their account from the shared
    cache; a new password signs out the sessions made with the old one at their next request,
    and a deactivated account is out at once, in every process (scoring/apps.py)."""
    club = make_club()
    anna = make_user(club, "viewer", username="anna")
    assert client.login(username="anna", password="pw-for-tests-only")
    url = reverse("scoring:club", args=[club.slug])
    assert client.get(url).status_code == 200  # reads the account, keeps it
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    assert not [q for q in queries if '"auth_user"' in q["sql"]]
    other = Client()
    assert other.login(username="anna", password="pw-for-tests-only")
    cookie = other.cookies[settings.SESSION_COOKIE_NAME].value
    assert signed_in(cookie, club.slug)
    anna.set_password("a-new-password-4711")
    anna.save()  # as the password change does; this session's hash is the old password's
    assert not signed_in(cookie, club.slug)
    assert client.login(username="anna", password="a-new-password-4711")
    assert client.get(url).status_code == 200
    anna.is_active = False
    anna.save()  # an admin deactivates the account
    assert client.get(url).status_code != 200


def test_an_account_kept_in_the_cache_is_refused_when_inactive() -> None:
    """Even an inactive account that is still kept (changed behind the models' back) is
    refused, as by Django's own backend."""
    from django.contrib.auth import get_user_model

    from scoring.access import SignedInBackend
    from scoring.apps import SIGNED_IN_CACHE, signed_in_key

    club = make_club()
    anna = make_user(club, "viewer", username="anna")
    backend = SignedInBackend()
    assert backend.get_user(anna.pk) == anna
    kept = caches[SIGNED_IN_CACHE].get(signed_in_key(anna.pk))
    assert kept is not None
    version, user = kept  # kept under the account's version
    user.is_active = False  # as if deactivated by a bulk update, which sends no signal
    caches[SIGNED_IN_CACHE].set(signed_in_key(anna.pk), (version, user))
    assert get_user_model().objects.get(pk=anna.pk).is_active
    assert backend.get_user(anna.pk) is None


@pytest.mark.django_db(transaction=True)
def test_a_deactivation_committed_while_a_request_reads_the_account_signs_it_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26, item 3, the interleaving made certain: a request reads the account from the
    database (still active); then, before it keeps it, an admin's deactivation commits (and
    drops the kept copy); then the request keeps what it read. Before, that copy was served
    for a minute; now it is kept under a version the deactivation made old, and the next
    request reads the account again and is refused."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.backends import ModelBackend

    from scoring.access import SignedInBackend

    club = make_club()
    anna = make_user(club, "viewer", username="anna")
    backend = SignedInBackend()
    original = ModelBackend.get_user
    deactivated: list[int] = []

    def read_then_deactivated(self: ModelBackend, user_id: Any) -> Any:
        user = original(self, user_id)  # read while still active
        if not deactivated:
            account = get_user_model().objects.get(pk=user_id)
            account.is_active = False
            account.save()  # commits at once (no transaction around): the signals ran
            deactivated.append(account.pk)
        return user

    with monkeypatch.context() as patch:
        patch.setattr(ModelBackend, "get_user", read_then_deactivated)
        assert backend.get_user(anna.pk) == anna  # the request in flight had read it
    assert deactivated == [anna.pk]
    assert backend.get_user(anna.pk) is None  # the next request: signed out


def test_the_kept_account_costs_one_cache_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The poll stays cheap: a kept account is one get_many and no query."""
    from scoring.access import SignedInBackend
    from scoring.apps import SIGNED_IN_CACHE

    club = make_club()
    anna = make_user(club, "viewer", username="anna")
    backend = SignedInBackend()
    assert backend.get_user(anna.pk) == anna
    cache = caches[SIGNED_IN_CACHE]
    calls: list[str] = []
    def counted(name: str) -> Any:
        method = getattr(cache, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return method(*args, **kwargs)
        return call

    for name in ("get", "get_many", "set", "add"):
        monkeypatch.setattr(cache, name, counted(name))
    with CaptureQueriesContext(connection) as queries:
        assert backend.get_user(anna.pk) == anna
    assert calls == ["get_many"] and len(queries) == 0
