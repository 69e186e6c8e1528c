"""The board's two screens (issue 24, item 3): the TV page for a beamer and the phone board.

- The table progress is one line ("Serie 2: 0 von 4 Tischen fertig · 4 spielen"); the phone
  board keeps every table's box folded away below it, the TV page has none.
- Every ranking row carries its start number (id="p…") and, on the phone board, the number
  and club below the name; the TV page turns its pages every data-turn ms (?turn= seconds).
- "Find me" without JavaScript: ?find= looks in the board already rendered (no query, no
  render per viewer): one row found is a redirect that anchors to it, several are listed as
  links, none says so; bad input changes nothing. It exists only where the board does.
test_board_browser.py drives both screens in chromium at 1,001 players."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client

from scoring.models import Seat, Tournament
from scoring.views import board

from .factories import make_club, make_user
from .test_tournament_pages import board_urls, played

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()
    board._local.clear()
    board._newest.clear()


def test_the_table_progress_is_one_line_and_the_tv_page_has_no_boxes(client: Client) -> None:
    t = played()  # series 2 drawn, one deal left at each of its 4 tables
    urls = board_urls(t)
    phone = client.get(urls["board-fragment"]).content.decode()
    line = re.search(r'<h2 class="progress-line">(.*?)</h2>', phone)
    assert line and line[1] == "Serie 2: 0 von 4 Tischen fertig · 4 spielen"
    assert phone.count("<li") == 4 and '<details class="progress-tables">' in phone
    tv = client.get(urls["board-tv-fragment"]).content.decode()
    assert re.search(r'<h2 class="progress-line">Serie 2: 0 von 4 Tischen fertig · 4 spielen'
                     r"</h2>", tv)
    assert "<li" not in tv and "<details" not in tv and 'class="sub"' not in tv
    # every entrant a row with his start number, in both
    numbers = sorted(int(n) for n in re.findall(r'<tr id="p(\d+)">', tv))
    assert numbers == sorted(t.entrants.values_list("number", flat=True))
    assert len(re.findall(r'<tr id="p\d+">', phone)) == 13
    who = t.entrants.select_related("player").get(number=3)
    assert re.search(rf'<tr id="p3">.*?<span class="nm">{who.player.name}</span>'
                     rf'<span class="sub">Nr\. 3', phone)


def test_the_tv_page_turns_at_the_pace_asked_for(client: Client) -> None:
    t = played()
    urls = board_urls(t)
    page = client.get(urls["board-tv"]).content.decode()
    assert 'data-turn="10000"' in page
    assert 'data-format="Seite %(page)s von %(pages)s"' in page and 'id="tv-pager"' in page
    assert 'id="find"' not in page  # no "find me" on a beamer
    assert 'data-turn="3000"' in client.get(urls["board-tv"] + "?turn=3").content.decode()
    for bad in ("0", "301", "abc", "-5", "1e3", "x" * 300):
        answer = client.get(urls["board-tv"], {"turn": bad})
        assert answer.status_code == 200 and 'data-turn="10000"' in answer.content.decode()
    assert "data-turn" not in client.get(urls["board"]).content.decode()


def test_find_me_anchors_to_the_row_without_a_query_or_a_render(
        client: Client, django_assert_num_queries: Any) -> None:
    t = played()
    url = board_urls(t)["board"]
    who = t.entrants.select_related("player").get(number=7)
    with mock.patch.object(board, "_slot", return_value=board._slot()):
        client.get(url)  # the board of this version rendered once, for everybody
        rendered = dict(board._local)
        with django_assert_num_queries(0):
            one = client.get(url, {"find": " 7 "})
            assert one.status_code == 302
            assert one["Location"] == f"{url}?find=7&at=7#p7"
            shown = client.get(one["Location"])
            by_name = client.get(url, {"find": who.player.name.upper()})
            several = client.get(url, {"find": "a"})
            nobody = client.get(url, {"find": "Xaver"})
        assert board._local == rendered  # nothing rendered for a viewer
    html = shown.content.decode()
    assert shown.status_code == 200 and 'value="7"' in html
    # issue 35: the one found is named with his table and seat in the latest series
    seat = Seat.objects.select_related("table").get(
        player=who.player, table__evening=t.evening, table__series=2)
    assert re.search(rf'1 gefunden: <a href="#p7">\d+\. {who.player.name} \(Nr\. 7\): '
                     rf'\D*{seat.table.number}\D+{seat.position + 1}</a>', html)
    assert '<tr id="p7">' in html  # the row the anchor names
    assert by_name.status_code == 302 and by_name["Location"].endswith("at=7#p7")
    names = [e.player.name for e in t.entrants.select_related("player")
             if "a" in e.player.name.casefold()]
    assert len(names) > 1
    listed = several.content.decode()
    assert several.status_code == 200
    assert f"{len(names)} gefunden:" in listed
    assert len(re.findall(r'<a href="#p\d+">', listed)) == min(len(names), board.FIND_SHOWN)
    assert "Niemand gefunden." in nobody.content.decode()


def test_find_me_takes_any_input_and_reads_names_as_written(client: Client) -> None:
    t = played()
    url = board_urls(t)["board"]
    who = t.entrants.select_related("player").get(number=5)
    who.player.name = "Jörg <O'Neil> & Söhne"
    who.player.save(update_fields=["name"])
    t.version += 1  # a new board (the name is read afresh with it)
    t.save(update_fields=["version"])
    answer = client.get(url, {"find": "<o'neil> & SÖHNE"})
    assert answer.status_code == 302 and answer["Location"].endswith("#p5")
    for bad in ("x" * 5000, "%00", "\x00", "  ", "999999999999999999999", "<script>"):
        response = client.get(url, {"find": bad})
        assert response.status_code == 200, bad
        assert "<script>" not in response.content.decode().split("</head>")[1]
    assert client.get(board_urls(t)["board-tv"], {"find": "5"}).status_code == 200


def test_find_me_is_there_only_where_the_board_is(client: Client) -> None:
    hidden = played(public=False)
    for user in (None, make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"),
                 make_user(hidden.club, "viewer"), make_user(hidden.club, "admin")):
        if user is not None:
            client.force_login(user)
        assert client.get(board_urls(hidden)["board"], {"find": "1"}).status_code == 404
    client.logout()
    Tournament.objects.filter(pk=hidden.pk).update(public=True)
    board.forget(hidden)
    assert client.get(board_urls(hidden)["board"], {"find": "1"}).status_code == 302
    Tournament.objects.filter(pk=hidden.pk).update(public=False)
    board.forget(hidden)
    assert client.get(board_urls(hidden)["board"], {"find": "1"}).status_code == 404
