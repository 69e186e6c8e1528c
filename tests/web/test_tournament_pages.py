"""The tournament pages: the organiser's desk (register, paid, check-in, withdraw, draw,
settings), the documents (seat list, table cards, standard lists, ranking PDF and CSV), the
ranking page, and who may see what: the organiser's pages for the club's admins only, the
ranking for every member, nothing for another club, anonymous visitors or a table code;
the public board only while opted in."""

from __future__ import annotations

import csv
import gzip
import html
import io
import re
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse

from scoring.models import Entrant, Table, Tournament
from scoring.views import board
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .test_sheet_pages import grant_code
from .tournaments import fill_series, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()  # what a worker keeps of rendered boards


def played(public: bool = True) -> Tournament:
    tournament = make_tournament(make_club(), public=public)
    tw.series_draw(tournament=tournament, seed=1)
    fill_series(tournament, 1)
    tw.series_draw(tournament=tournament, seed=2)
    fill_series(tournament, 2, leave=1)
    return tournament


def organiser_urls(t: Tournament) -> dict[str, str]:
    table = Table.objects.filter(evening=t.evening, series=1).first()
    assert table is not None
    return {
        "create": reverse("scoring:tournament-create", args=[t.club.slug]),
        "desk": reverse("scoring:tournament", args=[t.pk]),
        "seats": reverse("scoring:tournament-seats-pdf", args=[t.pk, 1]),
        "seat-page": reverse("scoring:tournament-seats", args=[t.pk, 1]),
        "desk-search": reverse("scoring:tournament", args=[t.pk]) + "?q=Gast&page=2",
        "cards": reverse("scoring:tournament-cards-pdf", args=[t.pk, 1]),
        "list": reverse("scoring:tournament-list-pdf", args=[t.pk, 1, table.number]),
        "blank": reverse("scoring:tournament-list-pdf", args=[t.pk, 1, table.number])
        + "?blank=1",
    }


def post_urls(t: Tournament) -> dict[str, str]:
    entrant = t.entrants.first()
    assert entrant is not None
    return {
        "entrant": reverse("scoring:tournament-entrant", args=[t.pk, entrant.pk]),
        "settings": reverse("scoring:tournament-settings", args=[t.pk]),
        "draw": reverse("scoring:tournament-draw", args=[t.pk]),
    }


def member_urls(t: Tournament) -> dict[str, str]:
    return {
        "results": reverse("scoring:tournament-results", args=[t.pk]),
        "results-pdf": reverse("scoring:tournament-results-pdf", args=[t.pk]),
        "results-csv": reverse("scoring:tournament-results-csv", args=[t.pk]),
    }


def board_urls(t: Tournament) -> dict[str, str]:
    key = t.board_key
    return {name: reverse(f"scoring:{name}", args=[key]) for name in (
        "board", "board-tv", "board-fragment", "board-tv-fragment", "board-version")}


def test_the_organiser_sees_every_page_and_document(client: Client) -> None:
    t = played()
    client.force_login(make_user(t.club, "admin"))
    for name, url in {**organiser_urls(t), **member_urls(t)}.items():
        response = client.get(url)
        assert response.status_code == 200, name
    assert client.get(organiser_urls(t)["seats"])["Content-Type"] == "application/pdf"


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_scorers_and_viewers_read_the_ranking_but_not_the_desk(client: Client,
                                                             role: str) -> None:
    t = played()
    client.force_login(make_user(t.club, role))
    for name, url in organiser_urls(t).items():
        assert client.get(url).status_code == 403, name
    for name, url in post_urls(t).items():
        assert client.post(url, {"action": "paid"}).status_code == 403, name
    for name, url in member_urls(t).items():
        assert client.get(url).status_code == 200, name


def test_another_clubs_admin_gets_404_everywhere(client: Client) -> None:
    t = played(public=False)
    client.force_login(make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"))
    urls = {**organiser_urls(t), **member_urls(t)}
    urls.pop("create")  # their own club's form would be fine; ours is 404
    for name, url in urls.items():
        assert client.get(url).status_code == 404, name
    for name, url in post_urls(t).items():
        assert client.post(url, {"action": "paid"}).status_code == 404, name
    assert client.get(organiser_urls(t)["create"]).status_code == 404
    for name, url in board_urls(t).items():
        assert client.get(url).status_code == 404, name


def test_anonymous_visitors_and_table_codes_see_nothing_but_a_public_board(
        client: Client) -> None:
    t = played(public=False)
    table = Table.objects.filter(evening=t.evening).first()
    assert table is not None
    for who in ("anonymous", "table code"):
        if who == "table code":
            grant_code(client, table)
        for name, url in {**organiser_urls(t), **member_urls(t)}.items():
            response = client.get(url)
            assert response.status_code in (302, 404), (who, name)
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("login")), (who, name)
        for name, url in post_urls(t).items():
            assert client.post(url, {"action": "paid"}).status_code in (302, 404), (who, name)
        for name, url in board_urls(t).items():
            assert client.get(url).status_code == 404, (who, name)
    assert Entrant.objects.filter(tournament=t, paid=False).count() == 0


def test_the_public_board_shows_the_ranking_without_signing_in(client: Client) -> None:
    t = played(public=True)
    urls = board_urls(t)
    page = client.get(urls["board"])
    assert page.status_code == 200
    html = page.content.decode()
    first = t.entrants.order_by("number").first()
    assert first is not None and first.player.name in html
    assert "Preisgeld" not in html and "Startgeld" not in html  # no money on the board
    tv = client.get(urls["board-tv"]).content.decode()
    assert 'class="tv"' in tv and "board.js" in tv
    version = client.get(urls["board-version"])
    etag = version["ETag"]
    assert client.get(urls["board-version"], HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_saved_deal_moves_the_board_version(client: Client) -> None:
    t = played(public=True)
    url = board_urls(t)["board-version"]
    before = client.get(url).json()["version"]
    cache.clear()  # the version is cached for a second
    fill_series(t, 2)
    after = client.get(url).json()["version"]
    assert before != after
    fragment = client.get(board_urls(t)["board-fragment"])
    assert fragment["X-Board-Version"] == after


def test_new_fees_move_the_version_the_documents_are_keyed_by(client: Client) -> None:
    from scoring.reads.tournament import board_version
    from scoring.writes.services import evening_settlement

    t = make_tournament(make_club())  # fees change only until series 1 is drawn
    before = board_version(t)
    evening = t.evening
    evening_settlement(evening=evening, stake=evening.stake, currency=evening.currency,
                       settlement={"lost_game_fee": "1.00"}, expected_version=evening.version)
    assert board_version(t) != before


def test_switching_the_board_off_hides_it_at_once(client: Client) -> None:
    t = played(public=True)
    assert client.get(board_urls(t)["board"]).status_code == 200
    admin = Client()
    admin.force_login(make_user(t.club, "admin"))
    admin.post(reverse("scoring:tournament-settings", args=[t.pk]), {
        "reseat": "draw", "tie_rule": "won", "prizes": "50%", "public": ""})
    assert client.get(board_urls(t)["board"]).status_code == 404
    assert client.get("/board/not-a-key/").status_code == 404


def test_registering_marking_and_drawing_through_the_desk(client: Client) -> None:
    t = make_tournament(make_club(), players=6)
    client.force_login(make_user(t.club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    response = client.post(desk, {"name": "Olga Ort", "home_club": "SC Ort", "paid": "on",
                                  "at_door": "on", "category": "Damen"})
    assert response.status_code == 302
    olga = t.entrants.get(player__name="Olga Ort")
    assert olga.paid and olga.checked_in and olga.at_door and olga.number == 7
    # bad input: a clear message, nothing changed
    response = client.post(desk, {"name": "", "home_club": "x"})
    assert response.status_code == 200 and t.entrants.count() == 7
    url = reverse("scoring:tournament-entrant", args=[t.pk, olga.pk])
    client.post(url, {"action": "unpaid"})
    assert not Entrant.objects.get(pk=olga.pk).paid
    client.post(url, {"action": "nonsense"})
    # Olga has not paid: the organiser confirms the draw all the same (issue 24)
    response = client.post(reverse("scoring:tournament-draw", args=[t.pk]),
                           {"seed": "77", "unpaid_ok": "on"})
    assert response.status_code == 302
    drawn = t.draws.get()
    assert drawn.seed == 77 and drawn.number == 1
    assert Table.objects.filter(evening=t.evening, series=1).count() == 2
    response = client.post(reverse("scoring:tournament-draw", args=[t.pk]), {"seed": "x"})
    assert response.status_code == 302 and t.draws.count() == 1
    page = client.get(desk).content.decode()
    assert "77" in page


def test_creating_a_tournament(client: Client) -> None:
    club = make_club()
    client.force_login(make_user(club, "admin"))
    url = reverse("scoring:tournament-create", args=[club.slug])
    form = client.get(url)
    assert form.status_code == 200
    profile = form.context["form"].fields["profile"].initial
    response = client.post(url, {
        "name": "Preisskat im Advent", "date": "2026-12-05", "profile": profile,
        "series_count": "3", "series_rounds": "12", "entry_fee": "12.00",
        "lost_fee": "0.50", "lost_fee_from": "4", "lost_fee_high": "1.00",
        "passed_fee": "0.00", "categories": "Damen, Jugend, Senioren",
        "team_fee": "20", "tandem_fee": "", "reseat": "standings", "tie_rule": "shared",
        "prizes": "50.00\n25%\n10%", "public": "on"})
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(name="Preisskat im Advent")
    assert t.categories == ["Damen", "Jugend", "Senioren"] and t.tandem_fee is None
    assert t.prizes == ["50.00", "25%", "10%"]
    evening = t.evening
    assert evening.series_rounds == 12 and evening.series_length(4) == 48
    assert evening.series_length(3) == 36
    assert evening.options == {} and evening.scoring == "seeger_fabian"  # ISkO tournament
    assert evening.settlement == {"lost_game_fee_tiers": [
        {"from": 1, "fee": "0.50"}, {"from": 4, "fee": "1.00"}]}
    bad = client.post(url, {"name": "X", "date": "2026-12-05", "profile": profile,
                            "series_count": "2", "series_rounds": "12", "entry_fee": "1",
                            "lost_fee": "0", "passed_fee": "0", "reseat": "draw",
                            "tie_rule": "won", "prizes": "120%"})
    assert bad.status_code == 200 and not Tournament.objects.filter(name="X").exists()


def test_the_csv_has_every_ranked_player(client: Client) -> None:
    t = played()
    client.force_login(make_user(t.club, "viewer"))
    body = client.get(member_urls(t)["results-csv"]).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body), delimiter=";"))
    assert len(rows) == 1 + 13
    assert rows[1][0] == "1"


def test_pages_read_in_constant_queries(client: Client,
                                        django_assert_max_num_queries: Any) -> None:
    t = played()
    client.force_login(make_user(t.club, "admin"))
    for url in (reverse("scoring:tournament", args=[t.pk]),
                reverse("scoring:tournament-results", args=[t.pk])):
        client.get(url)
        with django_assert_max_num_queries(25):
            client.get(url)
    cache.clear()
    with django_assert_max_num_queries(2):  # the opted-in tournament, its version
        client.get(board_urls(t)["board-version"])
    with django_assert_max_num_queries(0):  # within a second: from the cache
        client.get(board_urls(t)["board-version"])


def test_the_board_fragment_is_compressed_for_a_browser_that_accepts_it(
        client: Client) -> None:
    t = played(public=True)
    url = board_urls(t)["board-fragment"]
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    first = t.entrants.order_by("number").first()
    assert first is not None and first.player.name in plain.content.decode()
    assert len(packed.content) * 3 < len(plain.content)
    for response in (plain, packed):
        assert "Accept-Encoding" in response["Vary"]  # a cache in between keeps both apart
        assert response["X-Board-Version"] == plain["X-Board-Version"]
    # a new version is a new board, compressed or not
    cache.clear()
    fill_series(t, 2)
    moved = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert moved["X-Board-Version"] != plain["X-Board-Version"]
    assert gzip.decompress(moved.content) == client.get(url).content


def test_a_poll_is_one_cache_round_trip_without_query_or_session(
        client: Client, django_assert_num_queries: Any) -> None:
    t = played(public=True)
    urls = board_urls(t)
    # Within one slot of VERSION_SECONDS: a poll that crosses into the next slot reads the
    # version afresh (one query, by design), and on a slow run the steps below can take a second.
    slot = board._slot()
    with mock.patch.object(board, "_slot", return_value=slot):
        etag = client.get(urls["board-version"])["ETag"]
        client.get(urls["board-fragment"])
    shared = caches["default"]
    with mock.patch.object(board, "_slot", return_value=slot), \
            mock.patch.object(shared, "get_many", wraps=shared.get_many) as get_many, \
            mock.patch.object(shared, "get", wraps=shared.get) as get, \
            mock.patch.object(shared, "set", wraps=shared.set) as set_, \
            django_assert_num_queries(0):
        poll = client.get(urls["board-version"], HTTP_IF_NONE_MATCH=etag)
        assert poll.status_code == 304 and get_many.call_count == 1
        # the board of that version: from this worker's memory, not the shared cache
        fragment = client.get(urls["board-fragment"])
        assert fragment.status_code == 200 and get_many.call_count == 2
    assert get.call_count == 0 and set_.call_count == 0
    for response in (poll, fragment):
        assert not response.cookies  # no session, no CSRF cookie for a viewer
        assert "Cookie" not in response.get("Vary", "")
    assert poll["ETag"] == etag and poll["Cache-Control"] == "no-cache"


def test_a_worker_keeps_only_a_few_rendered_boards(client: Client) -> None:
    t = played(public=True)
    url = board_urls(t)["board-fragment"]
    versions = set()
    for _ in range(board.LOCAL_ENTRIES + 3):
        cache.clear()
        versions.add(client.get(url)["X-Board-Version"])
        t.refresh_from_db()
        tw.tournament_settings(tournament=t, reseat=t.reseat, tie_rule=t.tie_rule,
                               prizes=t.prizes, public=True)
    assert len(versions) == board.LOCAL_ENTRIES + 3
    assert len(board._local) == board.LOCAL_ENTRIES


def test_the_board_polls_its_fragment_with_the_etag_of_the_board_it_shows(
        client: Client) -> None:
    """static/js/board.js: If-None-Match with the page's ETag → 304 while nothing moved, the
    new board (with its ETag) in the same round trip once a deal moved the version."""
    t = played(public=True)
    urls = board_urls(t)
    for page_url, fragment_url in ((urls["board"], urls["board-fragment"]),
                                   (urls["board-tv"], urls["board-tv-fragment"])):
        page = client.get(page_url).content.decode()
        found = re.search(r'data-etag="([^"]+)"', page)
        assert found is not None
        etag = html.unescape(found.group(1))
        assert etag.startswith('W/"board-')
        unchanged = client.get(fragment_url, HTTP_IF_NONE_MATCH=etag)
        assert unchanged.status_code == 304 and not unchanged.content
        assert unchanged["ETag"] == etag
        # the board speaks the club's language, whatever the visitor's (issue 36)
        other = client.get(fragment_url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="en")
        assert other.status_code == 304
    etag = client.get(urls["board-fragment"])["ETag"]
    cache.clear()
    fill_series(t, 2)
    moved = client.get(urls["board-fragment"], HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert moved["X-Board-Version"] in moved["ETag"]
    again = client.get(urls["board-fragment"], HTTP_IF_NONE_MATCH=f'x, {moved["ETag"]}')
    assert again.status_code == 304


def test_one_worker_renders_a_new_board_while_the_others_serve_the_last_they_had(
        client: Client) -> None:
    """A saved deal must not make every worker render the same board at once while the
    polls queue up: with the render lock held elsewhere, a worker answers with the board it
    has (its own version and ETag), and the new one once it is rendered."""
    t = played(public=True)
    url = board_urls(t)["board-fragment"]
    first = client.get(url)
    old_etag, old_version = first["ETag"], first["X-Board-Version"]
    cache.clear()
    fill_series(t, 2)  # a new version
    lock = f"board:render:{t.board_key}:de:0"
    assert cache.add(lock, "another worker", 30)
    stale = client.get(url)
    assert stale.status_code == 200 and stale["X-Board-Version"] == old_version
    assert stale["ETag"] == old_etag and stale.content == first.content
    assert client.get(url, HTTP_IF_NONE_MATCH=old_etag).status_code == 304
    # the page, too, is the board this worker has, with that board's ETag
    page = client.get(board_urls(t)["board"]).content.decode()
    assert html.escape(old_etag) in page
    cache.delete(lock)
    fresh = client.get(url, HTTP_IF_NONE_MATCH=old_etag)
    assert fresh.status_code == 200 and fresh["X-Board-Version"] != old_version
    assert cache.get(lock) is None  # released after the render


def test_a_worker_without_a_board_renders_even_while_another_does(client: Client) -> None:
    t = played(public=True)
    assert cache.add(f"board:render:{t.board_key}:de:0", "another worker", 30)
    response = client.get(board_urls(t)["board-fragment"])
    assert response.status_code == 200 and response.content


def test_workers_reading_the_version_at_once_agree_on_the_first_stored(
        client: Client) -> None:
    """Two workers that both miss the version of this second: the second one's read (a
    deal saved in between) gives way to the first one's, so the board has one version per
    second and is rendered once."""
    t = played(public=True)
    url = board_urls(t)["board-version"]
    with mock.patch.object(board, "_slot", return_value=123):
        first = client.get(url).json()["version"]
        fill_series(t, 2)  # the version moved meanwhile
        shared = caches["default"]
        real = shared.get_many

        def missed(keys: list[str], version: int | None = None) -> dict[str, Any]:
            found = real(keys, version)
            if len(keys) == 2:  # the poll's look-up: as if it read just before the other add
                found = {k: v for k, v in found.items() if not k.startswith("board:v:")}
            return found

        with mock.patch.object(shared, "get_many", side_effect=missed):
            assert client.get(url).json()["version"] == first
    # the next second reads it afresh
    with mock.patch.object(board, "_slot", return_value=124):
        assert client.get(url).json()["version"] != first
