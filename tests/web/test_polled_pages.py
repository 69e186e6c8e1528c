"""The polled pages (a table's sheet fragment, the evening's live overview) answer from the
digest of what they show (scoring/reads/live.py): 304 to a current If-None-Match without
rendering, the shared cache's HTML for a state any process rendered before, and the overview
re-scores only the tables that changed."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from pytest_django import DjangoAssertNumQueries

from scoring.models import Player, Seat
from scoring.reads import sheet as sheet_reads
from scoring.views import sheet as sheet_views
from scoring.writes.services import deal_delete, table_create

from .factories import login, make_club, make_table, make_user, won
from .test_evening_overview import evening_with_tables
from .test_sheet_pages import EN, ME, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the tables the views score (each call of table_sheet)."""
    calls: list[int] = []
    original = sheet_reads.table_sheet

    def counting(table: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(table.pk)
        return original(table, *args, **kwargs)

    monkeypatch.setattr(sheet_views, "table_sheet", counting)
    return calls


def test_sheet_fragment_answers_304_to_its_etag_and_200_after_a_save(
        client: Client, scored: list[int],
        django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    table = make_table(club)
    play(table, [won(1)])
    login(client, club, "viewer")
    url = reverse("scoring:sheet-fragment", args=[table.pk])
    first = client.get(url, headers=EN)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    etag = first["ETag"]
    with django_assert_max_num_queries(3):  # user, table with the role, seats (session: cache)
        again = client.get(url, headers={**EN, "if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert "sessionid" not in again.cookies  # a viewer's poll writes no session
    assert scored == [table.pk]  # rendered once
    table.refresh_from_db()
    play(table, [won(2, 90)])
    after = client.get(url, headers={**EN, "if-none-match": etag})
    assert after.status_code == 200 and after["ETag"] != etag
    assert after.content.count(b'class="entry') > first.content.count(b'class="entry')


def test_sheet_fragment_is_rendered_once_for_every_viewer_and_again_for_a_renamed_player(
        client: Client, scored: list[int]) -> None:
    club = make_club()
    table = make_table(club)
    play(table, [won(1)])
    login(client, club, "viewer")
    url = reverse("scoring:sheet-fragment", args=[table.pk])
    first = client.get(url, headers=EN)
    other = Client()
    login(other, club, "scorer")
    assert other.get(url, headers=EN).content == first.content
    assert scored == [table.pk]  # the second viewer got the shared cache's copy
    # A seat corrected in the admin changes no version, but the sheet shows the name.
    seat = Seat.objects.get(table=table, position=0)
    Player.objects.filter(pk=seat.player_id).update(name="Neuer Name")
    renamed = client.get(url, headers={**EN, "if-none-match": first["ETag"]})
    assert renamed.status_code == 200 and "Neuer Name" in renamed.content.decode()
    assert len(scored) == 2


def test_sheet_fragment_layouts_and_languages_have_their_own_etags(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    login(client, club, "viewer")
    url = reverse("scoring:sheet-fragment", args=[table.pk])
    tags = {client.get(url, headers=EN)["ETag"],
            client.get(url + "?layout=historical", headers=EN)["ETag"],
            client.get(url, headers={"accept-language": "de"})["ETag"]}
    assert len(tags) == 3


def test_sheet_fragment_stays_404_for_a_stranger_with_an_etag(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    login(client, club, "viewer")
    url = reverse("scoring:sheet-fragment", args=[table.pk])
    etag = client.get(url)["ETag"]
    stranger = Client()
    login(stranger, make_club("other", "Other club"), "admin")
    assert stranger.get(url, headers={"if-none-match": etag}).status_code == 404
    assert Client().get(url, headers={"if-none-match": etag}).status_code in (302, 404)


def test_evening_live_rescored_only_for_the_changed_table_and_304_when_unchanged(
        client: Client, scored: list[int],
        django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    evening = evening_with_tables(club, tables=3)
    first, second, third = evening.tables.order_by("number")
    play(first, [won(1)])
    login(client, club, "viewer")
    url = reverse("scoring:evening-live", args=[evening.pk])
    page = client.get(url, headers=EN)
    assert page.status_code == 200 and sorted(scored) == sorted([first.pk, second.pk,
                                                                  third.pk])
    etag = page["ETag"]
    with django_assert_max_num_queries(4):  # user, evening+role, tables, seats (session: cache)
        again = client.get(url, headers={**EN, "if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert "sessionid" not in again.cookies
    scored.clear()
    second.refresh_from_db()
    play(second, [won(2, 95)])
    changed = client.get(url, headers={**EN, "if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert scored == [second.pk]  # the other tables came from the shared cache
    # only the changed table, to be swapped in place of its own
    assert set(articles(changed)) == {second.pk}
    assert 'hx-swap-oob="true"' in changed.content.decode()
    assert "evening-tables" not in changed.content.decode()
    # what the poller shows after applying it is what a fresh page shows, whose poller
    # names that state
    full = client.get(reverse("scoring:evening", args=[evening.pk]), headers=EN)
    assert {**articles(page), **articles(changed)} == articles(full)
    assert f'data-live-etag="{escape(changed["ETag"])}"' in full.content.decode()

ARTICLE = re.compile(r'id="evening-table-(\d+)"[^>]*>\s*(<article.*?</article>)', re.DOTALL)


def articles(response: Any) -> dict[int, str]:
    """The overview's tables in an answer (a page, a whole poll or a poll's changes)."""
    return {int(pk): html for pk, html in ARTICLE.findall(response.content.decode())}


def test_evening_live_sends_the_whole_overview_to_a_poller_it_cannot_place(
        client: Client) -> None:
    """No If-None-Match, a state never handed out, another language, a table added: the whole
    overview, replacing the poller's by its id."""
    club = make_club()
    evening = evening_with_tables(club, tables=2)
    first, second = evening.tables.order_by("number")
    login(client, club, "viewer")
    url = reverse("scoring:evening-live", args=[evening.pk])
    page = client.get(reverse("scoring:evening", args=[evening.pk]), headers=EN)
    whole = client.get(url, headers=EN)
    assert whole.status_code == 200 and set(articles(whole)) == {first.pk, second.pk}
    assert '<div class="evening-tables" id="evening-tables" hx-swap-oob="true">' in \
        whole.content.decode()
    assert articles(whole) == articles(page)
    play(first, [won(1)])
    forged = f'"evening-{evening.pk}-{"0" * 24}"'
    assert set(articles(client.get(url, headers={**EN, "if-none-match": forged}))) == {
        first.pk, second.pk}
    etag = client.get(url, headers=EN)["ETag"]
    german = client.get(url, headers={"accept-language": "de", "if-none-match": etag})
    assert set(articles(german)) == {first.pk, second.pk} and "Tisch" in \
        german.content.decode()
    players = list(club.players.all())
    third = table_create(evening=evening, players=players[:4])
    grown = client.get(url, headers={**EN, "if-none-match": etag})
    assert set(articles(grown)) == {first.pk, second.pk, third.pk}
    assert 'id="evening-tables" hx-swap-oob="true"' in grown.content.decode()


def test_evening_live_changes_follow_a_chain_of_polls(client: Client) -> None:
    """Each poll names the state of the answer it applied before; applying every answer in
    turn gives what a fresh page shows, and an unchanged overview is 304."""
    club = make_club()
    evening = evening_with_tables(club, tables=4)
    tables = list(evening.tables.order_by("number"))
    login(client, club, "viewer")
    url = reverse("scoring:evening-live", args=[evening.pk])
    page = client.get(reverse("scoring:evening", args=[evening.pk]), headers=EN)
    shown = articles(page)
    etag = unescape(page.content.decode().split('data-live-etag="', 1)[1].split('"', 1)[0])
    for table in [tables[2], tables[0], tables[2], tables[3]]:
        table.refresh_from_db()
        play(table, [won(2)])  # seat 2 never deals the first two deals
        answer = client.get(url, headers={**EN, "if-none-match": etag})
        assert answer.status_code == 200 and set(articles(answer)) == {table.pk}
        shown.update(articles(answer))
        etag = answer["ETag"]
        assert client.get(url, headers={**EN, "if-none-match": etag}).status_code == 304
    fresh = client.get(reverse("scoring:evening", args=[evening.pk]), headers=EN)
    assert shown == articles(fresh)


def test_evening_live_changes_name_their_series_as_the_whole_overview_does(
        client: Client) -> None:
    """A poll's changed tables are rendered as among all the evening's tables: with a second
    series drawn, a changed table of the first is "Series 1 · table 1", as on the page."""
    club = make_club()
    evening = evening_with_tables(club, tables=1)
    first = evening.tables.get()
    players = list(club.players.all())
    table_create(evening=evening, players=players[:4], series=2)
    login(client, club, "viewer")
    url = reverse("scoring:evening-live", args=[evening.pk])
    etag = client.get(url, headers=EN)["ETag"]
    play(first, [won(1)])
    changed = client.get(url, headers={**EN, "if-none-match": etag})
    assert set(articles(changed)) == {first.pk}
    assert "Series 1 · table 1" in articles(changed)[first.pk]
    page = client.get(reverse("scoring:evening", args=[evening.pk]), headers=EN)
    assert articles(page)[first.pk] == articles(changed)[first.pk]


@pytest.fixture
def states_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The states kept as in production, for as long as a test takes (tests/django_fixtures.py
    switches keeping off everywhere else)."""
    from scoring.reads import live

    monkeypatch.setattr(live, "STATES_SECONDS", 3600)


def test_evening_live_reuses_the_table_states_until_a_deal_or_a_second_passes(
        client: Client, states_kept: None, monkeypatch: pytest.MonkeyPatch,
        django_assert_num_queries: DjangoAssertNumQueries) -> None:
    """Hundreds of viewers poll one evening: the tables' states are read once for all of them
    (reads/live.STATES_SECONDS), a deal saved through the services shows at the next poll
    all the same, and a name corrected outside them once the states expire."""
    import time

    from scoring.reads import live

    club = make_club()
    evening = evening_with_tables(club, tables=3)
    first = evening.tables.order_by("number")[0]
    login(client, club, "viewer")
    other = Client()
    login(other, club, "scorer")
    url = reverse("scoring:evening-live", args=[evening.pk])
    etag = client.get(url, headers=EN)["ETag"]
    with django_assert_num_queries(2):  # the user; the evening with the role (no tables)
        assert other.get(url, headers={**EN, "if-none-match": etag}).status_code == 304
    monkeypatch.setattr(live, "STATES_SECONDS", 1)  # as in production, from the next read
    play(first, [won(1)])
    changed = client.get(url, headers={**EN, "if-none-match": etag})
    assert changed.status_code == 200 and set(articles(changed)) == {first.pk}
    etag = changed["ETag"]
    seat = Seat.objects.get(table=first, position=1)
    Player.objects.filter(pk=seat.player_id).update(name="Neuer Name")  # as the admin would
    time.sleep(1.2)  # the states kept for a second are gone by now
    renamed = client.get(url, headers={**EN, "if-none-match": etag})
    assert renamed.status_code == 200 and "Neuer Name" in renamed.content.decode()


def test_sheet_fragment_and_season_table_use_the_kept_states(
        client: Client, states_kept: None, standings_computed: list[int],
        django_assert_num_queries: DjangoAssertNumQueries) -> None:
    """A table's sheet takes its digest from its evening's kept states (no seats read), the
    season table its digest from the season's (none of its five queries); a deal saved
    through the services is on both at the next request."""
    from scoring.demo.season import build_season
    from scoring.models import Season

    build_season(evenings=2, tables=2, series=1, seed=3)
    season = Season.objects.get()
    login(client, season.club, "viewer")
    table = season.evenings.order_by("date").last().tables.first()  # type: ignore[union-attr]
    assert table is not None
    fragment = reverse("scoring:sheet-fragment", args=[table.pk])
    standings = reverse("scoring:season", args=[season.pk])
    client.get(reverse("scoring:evening", args=[table.evening_id]), headers=EN)
    etag = client.get(fragment, headers=EN)["ETag"]
    with django_assert_num_queries(2):  # the user; the table with the role
        assert client.get(fragment, headers={**EN, "if-none-match": etag}).status_code == 304
    before = client.get(standings, headers=EN).content.decode()
    # the user; the season with the role; the header's clubs (membership, club): none of
    # the five queries of the season's digest
    with django_assert_num_queries(4):
        assert client.get(standings, headers=EN).status_code == 200
    assert standings_computed == [season.pk]
    last = table.deals.order_by("position").last()
    assert last is not None
    deal_delete(deal=last, reason="test", expected_version=table.version, actor=ME)
    assert client.get(fragment, headers={**EN, "if-none-match": etag}).status_code == 200
    after = client.get(standings, headers=EN).content.decode()
    assert standings_computed == [season.pk, season.pk]
    assert after.count("<tr") == before.count("<tr") and after != before


def test_evening_live_queries_do_not_grow_with_the_tables(
        client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    for _ in range(6):
        Player.objects.create(club=club, name=f"Gast {_}")
    evening = evening_with_tables(club, tables=8)
    login(client, club, "viewer")
    url = reverse("scoring:evening-live", args=[evening.pk])
    with django_assert_max_num_queries(9):  # every table scored: states + 3 for the tables
        page = client.get(url, headers=EN)
    assert page.content.decode().count('class="compact-sheet"') == 8


# ---------------------------------------------------------------- the season table

@pytest.fixture
def standings_computed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seasons the season table computed standings for."""
    from scoring.reads import standings
    from scoring.views import season as season_views

    calls: list[int] = []
    original = standings.season_standings

    def counting(season: Any) -> Any:
        calls.append(season.pk)
        return original(season)

    monkeypatch.setattr(season_views, "season_standings", counting)
    return calls


def test_season_table_is_computed_once_per_change_for_every_viewer(
        client: Client, standings_computed: list[int]) -> None:
    from scoring.demo.season import build_season
    from scoring.models import Season

    build_season(evenings=2, tables=2, series=1, seed=3)
    season = Season.objects.get()
    login(client, season.club, "viewer")
    url = reverse("scoring:season", args=[season.pk])
    first = client.get(url, headers=EN).content.decode()
    other = Client()
    other.force_login(make_user(season.club, role="viewer", username="viewer-2"))
    assert other.get(url, headers=EN).content.decode().count("<tr") == first.count("<tr")
    assert standings_computed == [season.pk]
    # a deal saved, a player renamed, another sort order, the admin's view: computed again
    table = season.evenings.order_by("date").last().tables.first()  # type: ignore[union-attr]
    assert table is not None
    seat = Seat.objects.filter(table=table).order_by("position").first()
    assert seat is not None
    Player.objects.filter(pk=seat.player_id).update(name="Umbenannt")
    assert "Umbenannt" in client.get(url, headers=EN).content.decode()
    assert len(standings_computed) == 2
    before = client.get(url, headers=EN).content
    last = table.deals.order_by("position").last()
    assert last is not None
    deal_delete(deal=last, reason="test", expected_version=table.version, actor=ME)
    assert client.get(url, headers=EN).content != before  # the table's points changed
    assert len(standings_computed) == 3
    client.get(url + "?sort=-name", headers=EN)
    assert len(standings_computed) == 4
    admin = Client()
    login(admin, season.club, "admin")
    page = admin.get(url, headers=EN).content.decode()
    assert reverse("scoring:season-edit", args=[season.pk]) in page
    assert reverse("scoring:season-edit", args=[season.pk]) not in client.get(
        url, headers=EN).content.decode()
    assert len(standings_computed) == 5


def test_season_table_shows_the_last_one_while_another_worker_computes_the_change(
        client: Client, standings_computed: list[int]) -> None:
    from django.core.cache import caches

    from scoring.demo.season import build_season
    from scoring.models import Season

    build_season(evenings=2, tables=2, series=1, seed=3)
    season = Season.objects.get()
    login(client, season.club, "viewer")
    url = reverse("scoring:season", args=[season.pk])
    before = client.get(url, headers=EN).content
    seat = Seat.objects.filter(table__evening__season=season).first()
    assert seat is not None
    Player.objects.filter(pk=seat.player_id).update(name="Umbenannt")
    cache = caches[sheet_views.POLLED]
    client.get(url, headers=EN)  # computes (renamed), as the first request after the change
    assert len(standings_computed) == 2
    Player.objects.filter(pk=seat.player_id).update(name="Nochmal")
    from scoring.views import season as season_views
    real_add = cache.add
    try:  # another worker holds the "computing" mark of this season
        cache.add = lambda *args, **kwargs: False  # type: ignore[method-assign]
        shown = client.get(url, headers=EN).content.decode()
    finally:
        cache.add = real_add  # type: ignore[method-assign]
    assert "Umbenannt" in shown and "Nochmal" not in shown  # the last one, not computed
    assert len(standings_computed) == 2
    assert "Nochmal" in client.get(url, headers=EN).content.decode()  # computed now
    assert len(standings_computed) == 3
    assert season_views.SEASON_STALE_SECONDS <= 10
    assert before != shown.encode()
