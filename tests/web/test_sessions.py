"""Sessions live in the shared cache and, written through, in the database (cached_db): a
flushed or culled cache signs nobody out, and signing out ends the session in both, so that
a copied cookie does not outlive the sign-out."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.test import Client
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
