"""Issue 23, item 6: a closed evening's table screen (read-only) says the evening is closed and
shows no state for a next deal: no round and deal number, no dealer or seats, no Bock round
running or waiting, no Ramsch round, no "Online"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engine import active_seats
from scoring.writes.services import Actor, evening_close

from . import pdfs
from .factories import login, make_club
from .test_pdf_story import story_table
from .test_sheet_pages import play

pytestmark = pytest.mark.django_db


def status_of(client: Client, pk: int) -> str:
    html = client.get(reverse("scoring:table", args=[pk])).content.decode()
    header = re.search(r'<header class="table-status">.*?</header>', html, re.S)
    connection = re.search(r'<p class="connection".*?</p>', html, re.S)
    assert header and connection
    return " ".join(re.sub(r"<[^>]+>", " ", header[0] + connection[0]).split())


def test_a_closed_tables_screen_shows_no_next_deal(client: Client) -> None:
    club = make_club()
    table = story_table(club)
    # Deal 5's 60:60 brings a Bock round; deal 7's queues another (test_sheet_story.py).
    play(table, [{"kind": "game", "declarer": active_seats(1, 4)[0], "game": "grand",
                  "matadors": 1, "bid": 18, "declarer_points": 70},
                 {"kind": "game", "declarer": active_seats(2, 4)[0], "game": "hearts",
                  "matadors": 1, "bid": 18, "result": "sixty"}])
    login(client, club, role="scorer")
    open_text = status_of(client, table.pk)
    for text in ("Bockrunde wartet", "Bock 3 von 4", "Geber", "Runde", "Online"):
        assert text in open_text, text  # the open table says all this …
    evening_close(evening=table.evening, actor=Actor(None, "admin"))
    closed = status_of(client, table.pk)
    for text in ("Bockrunde", "Bock 3", "Ramschrunde", "Geber", "Runde", "Online"):
        assert text not in closed, (text, closed)  # … the closed one none of it
    assert "Abend abgeschlossen" in closed
    assert "Tisch 1" in closed  # and still its name and totals
    # … and a poll that comes back after a lost connection says so again, not "Online"
    html = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert 'data-online="Abend abgeschlossen"' in html


def test_a_closed_tables_sheet_overview_and_pdf_show_no_next_deal(client: Client) -> None:
    club = make_club()
    table = story_table(club)
    play(table, [{"kind": "game", "declarer": active_seats(1, 4)[0], "game": "grand",
                  "matadors": 1, "bid": 18, "declarer_points": 70},
                 {"kind": "game", "declarer": active_seats(2, 4)[0], "game": "hearts",
                  "matadors": 1, "bid": 18, "result": "sixty"}])
    login(client, club, role="scorer")
    urls = {"sheet": reverse("scoring:sheet", args=[table.pk]),
            "overview": reverse("scoring:evening", args=[table.evening_id])}

    def next_lines() -> dict[str, str]:
        out = {}
        for name, url in urls.items():
            html = client.get(url).content.decode()
            found = re.findall(r'<p class="sheet-next[^"]*">(.*?)</p>', html, re.S)
            assert found, name
            out[name] = " ".join(re.sub(r"<[^>]+>", " ", " ".join(found)).split())
        pdf = client.get(reverse("scoring:sheet-pdf", args=[table.pk])).content
        out["pdf"] = " ".join(pdfs.text(pdf).split())
        return out

    for name, text in next_lines().items():
        assert "Bockrunde wartet" in text and "nächster Geber" in text, name
    evening_close(evening=table.evening, actor=Actor(None, "admin"))
    for name, text in next_lines().items():
        assert "Bockrunde wartet" not in text and "nächster Geber" not in text, (name, text)
        assert "Abend abgeschlossen" in text, name
