"""Issue 23, item 6: every 404, 403 and 500 is the site's own page (base.html) in the
visitor's language, German by default, never Django's bare English "Not Found" (DEBUG off,
as pytest-django runs). The 500 page is rendered without the request's context and without
a query: it must answer when the database is what failed."""

from __future__ import annotations

from unittest import mock

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from pytest_django import DjangoAssertNumQueries

from scoring.views import errors
from scoring.writes.services import Actor, evening_close

from .factories import make_club, make_table, make_user

pytestmark = pytest.mark.django_db

SITE = 'class="site-header"'  # base.html's header: the site's own page


def test_a_closed_evenings_table_code_gets_the_sites_404_in_german(client: Client) -> None:
    table = make_table(make_club())
    client.get(reverse("scoring:code", args=[table.access_code]))
    screen = reverse("scoring:table", args=[table.pk])
    assert client.get(screen).status_code == 200
    evening_close(evening=table.evening, actor=Actor(None, "admin"))
    response = client.get(screen)
    assert response.status_code == 404
    html = response.content.decode()
    assert SITE in html and '<html lang="de">' in html
    assert "Seite nicht gefunden" in html and "Tischcode" in html
    assert "Not Found" not in html


def test_a_table_code_device_gets_its_clubs_language(client: Client) -> None:
    """An English-speaking club's tablet that chose no language: its 404 is English; once
    the visitor chose German (the language switch's cookie), German."""
    club = make_club()
    club.language = "en"
    club.save()
    table = make_table(club)
    client.get(reverse("scoring:code", args=[table.access_code]))
    evening_close(evening=table.evening, actor=Actor(None, "admin"))
    screen = reverse("scoring:table", args=[table.pk])
    english = client.get(screen)
    assert english.status_code == 404 and "Page not found" in english.content.decode()
    assert english["Content-Language"] == "en"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert "Seite nicht gefunden" in client.get(screen).content.decode()


def test_the_404_speaks_the_visitors_language(client: Client) -> None:
    english = client.get("/no-such-page/", headers={"accept-language": "en"})
    assert english.status_code == 404
    html = english.content.decode()
    assert SITE in html and "Page not found" in html and '<html lang="en">' in html
    german = Client().get("/no-such-page/")  # no wish: German
    assert "Seite nicht gefunden" in german.content.decode()


def test_a_403_is_the_sites_page_in_german() -> None:
    table = make_table(make_club())
    scorer = Client()
    scorer.force_login(make_user(table.evening.club, "scorer"))
    response = scorer.post(reverse("scoring:settlement", args=[table.evening_id]), {})
    assert response.status_code == 403
    html = response.content.decode()
    assert SITE in html and "Nicht erlaubt" in html and "Forbidden" not in html


def test_a_refused_csrf_token_is_the_sites_page_too() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("scoring:code-entry"), {"code": "x"})
    assert response.status_code == 403
    html = response.content.decode()
    assert SITE in html and "Diese Seite ist veraltet" in html
    assert "CSRF verification failed" not in html


@pytest.mark.urls("tests.web.error_urls")
def test_a_500_is_the_sites_page_in_the_visitors_language() -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert SITE in html and "Etwas ist schiefgegangen" in html
    assert "Server Error" not in html
    english = client.get("/boom/", headers={"accept-language": "en"})
    assert "Something went wrong" in english.content.decode()


def test_the_500_page_reads_nothing(django_assert_num_queries: DjangoAssertNumQueries,
                                    ) -> None:
    """No request context, no query: the page also answers when the database is down."""
    request = RequestFactory().get("/")
    with django_assert_num_queries(0):
        response = errors.server_error(request)
    assert response.status_code == 500 and SITE in response.content.decode()


def test_the_500_page_falls_back_to_plain_words() -> None:
    with mock.patch("django.template.loader.get_template",
                    side_effect=RuntimeError("x")), \
            translation.override("de"):
        response = errors.server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500 and "Etwas ist schiefgegangen" in html
