from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from scoring.models import Club

# The landing page of an installation that has a club (one without any leads to the set-up
# page: test_onboarding.py).
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _a_club() -> None:
    Club.objects.create(name="Skatfreunde Altenburg", slug="altenburg")

GERMAN_SENTENCE = "Skatclub führt die Spiellisten eines Skatclubs"
ENGLISH_SENTENCE = "Skatclub keeps the score sheets of a Skat club"


def test_home_is_german_by_default(client: Client) -> None:
    response = client.get(reverse("scoring:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert "<h1>Skatclub</h1>" in html
    assert GERMAN_SENTENCE in html


def test_home_is_english_for_an_english_browser(client: Client) -> None:
    response = client.get(reverse("scoring:home"), headers={"accept-language": "en"})
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert ENGLISH_SENTENCE in html


def test_language_switch_turns_the_site_english(client: Client) -> None:
    home = reverse("scoring:home")
    response = client.post(reverse("set_language"), {"language": "en", "next": home})
    assert response.status_code == 302
    assert response["Location"] == home

    html = client.get(home).content.decode()
    assert '<html lang="en">' in html
    assert ENGLISH_SENTENCE in html


def test_home_has_landmarks_and_the_language_switch(client: Client) -> None:
    html = client.get(reverse("scoring:home")).content.decode()
    for landmark in ("<header", "<nav", '<main id="main">', "<footer"):
        assert landmark in html
    assert f'action="{reverse("set_language")}"' in html
    assert '<label for="language-select">Sprache</label>' in html


def test_htmx_is_served_locally_not_from_a_cdn(client: Client) -> None:
    html = client.get(reverse("scoring:home")).content.decode()
    assert 'src="/static/vendor/htmx/htmx.min.js"' in html
    assert "unpkg" not in html and "cdn" not in html.lower()
    assert finders.find("vendor/htmx/htmx.min.js")
