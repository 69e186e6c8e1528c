"""The whole day of a Preisskat of 1,001 players on SQLite (issue 24, item 1): series 1 played
and signed through the services, series 2 drawn against repeats, played and signed, series 3
seeded by the standings; after the draws every tournament page and document answers 200 from
cold caches with exactly the queries the same day takes at 41 players, the desk under 300 kB.
The field is built by the scale test's big_tournament and played through the services
(fill_series). Measured: nothing broke (no statement with one parameter per row on this path);
about 3 minutes, most of it the 2 × 1,001 signatures and ~2,000 deals."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Table, Tournament
from scoring.reads.tournament import series_history
from scoring.views import board
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .test_tournament_scale import DESK_BYTES, big_tournament, tournament_urls
from .tournaments import fill_series

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def day_urls(t: Tournament, series: int) -> list[str]:
    """Every page of the tournament (the scale test's list), the seat list of each drawn
    series, the last series' seat list, cards and a standard list (PDF), its last table's
    screen, and the ranking after each earlier series."""
    urls = tournament_urls(t)
    last = Table.objects.filter(evening=t.evening, series=series).order_by("number").last()
    assert last is not None
    urls += [reverse("scoring:table", args=[last.pk]),
             reverse("scoring:tournament-seats-pdf", args=[t.pk, series]),
             reverse("scoring:tournament-cards-pdf", args=[t.pk, series]),
             reverse("scoring:tournament-list-pdf", args=[t.pk, series, last.number])]
    urls += [reverse("scoring:tournament-seats", args=[t.pk, n]) for n in range(2, series + 1)]
    urls += [reverse("scoring:tournament-results", args=[t.pk]) + f"?after={n}"
             for n in range(1, series)]
    return urls


def open_all(client: Client, urls: list[str]) -> dict[str, int]:
    """Each page once from cold caches (results, PDFs, the board computed afresh): its
    queries; every answer 200."""
    counts: dict[str, int] = {}
    failed: dict[str, Any] = {}
    for url in urls:
        cache.clear()
        board._local.clear()
        board._newest.clear()
        try:
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            status: Any = response.status_code
            match = response.wsgi_request.resolver_match
            assert match is not None
            query = url.partition("?")[2]
            counts[f"{match.url_name} {match.kwargs.get('series', '')} {query}"] = len(queries)
        except Exception as err:  # noqa: BLE001
            status = repr(err)[:300]
        if status != 200:
            failed[url] = status
    assert failed == {}
    return counts


def play_the_day(client: Client, players: int, slug: str) -> tuple[Tournament, dict[str, int]]:
    """Series 1 drawn (big_tournament), played and signed; series 2 drawn against repeats,
    played and signed; series 3 seeded by the standings. The pages' queries after each draw
    (series 2: the desk and the new seat list; series 3: every page)."""
    club = make_club(slug, f"Skatclub {slug}")
    client.force_login(make_user(club, "admin"))
    t = big_tournament(club, players)
    fill_series(t, 1)
    tw.series_draw(tournament=t, seed=2)
    counts = open_all(client, [reverse("scoring:tournament", args=[t.pk]),
                               reverse("scoring:tournament-seats", args=[t.pk, 2])])
    fill_series(t, 2)
    tw.tournament_settings(tournament=t, reseat="standings", tie_rule=t.tie_rule,
                           prizes=t.prizes, public=t.public)
    tw.series_draw(tournament=t, seed=3)
    assert t.draws.get(number=3).method == "standings"
    counts.update({f"{url} (3)": n for url, n in open_all(client, day_urls(t, 3)).items()})
    return t, counts


def test_the_whole_day_of_1001_players_with_the_queries_of_41(client: Client) -> None:
    _small, few = play_the_day(Client(), 41, "klein")
    t, counts = play_the_day(client, 1001, "gross")
    history = series_history(t)
    assert [len(series) for series in history] == [251, 251, 251]
    assert all(sorted(n for table in series for n in table) == list(range(1, 1002))
               for series in history)
    desk = client.get(reverse("scoring:tournament", args=[t.pk]))
    assert len(desk.content) < DESK_BYTES, len(desk.content)
    assert counts == few
