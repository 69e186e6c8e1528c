"""The league pages speak German first (issue 25): the terms of art on a group's page, the
league page and the public page. The German words come from the catalogue; the league
pages' entries are merged into it from the part's de-web.po."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from .factories import make_club, make_user
from .leagues import make_day, make_league

pytestmark = pytest.mark.django_db


def test_the_league_pages_speak_german(client: Client) -> None:
    league = make_league(make_club(), public=True)
    make_day(league)
    group = league.groups.get()
    client.force_login(make_user(league.club, "admin"))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    page = client.get(reverse("scoring:league-group", args=[group.pk])).content.decode()
    for word in ("Tabelle", "Mannschaft", "1. Spieltag", "Wertungspunkte", "Spielpunkte",
                 "Rangliste der Spieler"):
        assert word in page, word
    assert "League table" not in page and "Match day" not in page
    page = client.get(reverse("scoring:league", args=[league.pk])).content.decode()
    for word in ("Mannschaften", "Spieltag", "Ersatzspieler", "Mannschaftsführer",
                 "Staffelleiter", "Staffel hinzufügen"):
        assert word in page, word
    page = client.get(reverse("scoring:leagues", args=[league.club.slug])).content.decode()
    assert "Mannschaftsligen" in page and "Spieltag" in page
    client.logout()
    page = client.get(reverse("scoring:league-public", args=[league.board_key])).content.decode()
    assert "Tabelle" in page and "Spieltage" in page
