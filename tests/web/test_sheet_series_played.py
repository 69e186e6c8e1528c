"""A list whose series is played names no next round and no next dealer (issue 36, build
item 5: finished lists said "Runde 13 · nächster Geber"): the score sheet and the evening's
overview say the series is played instead, as the table screen's header does."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Table
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .tournaments import fill_series, make_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_a_played_series_shows_no_next_round_or_dealer(client: Client) -> None:
    t = make_tournament(make_club(), players=8, series=2)  # 1 round: 4 games a table
    tw.series_draw(tournament=t, seed=1)
    fill_series(t, 1, leave=1, sign=False)
    client.force_login(make_user(t.club, "admin"))
    table = Table.objects.filter(evening=t.evening, series=1).order_by("number").first()
    assert table is not None
    sheet = reverse("scoring:sheet", args=[table.pk])
    overview = reverse("scoring:evening", args=[t.evening_id])
    for url in (sheet, overview):  # one game still to play: the next dealer is named
        page = client.get(url).content.decode()
        assert "next dealer" in page and "Series 1 played" not in page
    fill_series(t, 1, sign=False)
    for url in (sheet, overview):
        page = client.get(url).content.decode()
        assert "next dealer" not in page and "Round 2" not in page, url
        assert "Series 1 played" in page
