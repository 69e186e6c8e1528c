"""Issue 12, point 6, on the HTML pages: the sheet marks overbid games, Ramsch card points and
the sitting-out dealer, says Bock as the table screen does, writes German numbers in German,
never says "Null Ouvert Ouvert", and the audit log speaks the reader's language."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.engine import active_seats
from scoring.models import Deal, Table
from scoring.reads.sheet import bock_words
from scoring.writes.services import Actor, deal_record

from .factories import login, make_club
from .test_pdf_story import LONG, story_table
from .test_sheet_pages import play

pytestmark = pytest.mark.django_db


def page(client: Client, name: str, pk: int, lang: str) -> str:
    response = client.get(reverse(f"scoring:{name}", args=[pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return response.content.decode()


def deal_row(html: str, table: Table, position: int) -> str:
    deal = Deal.objects.get(table=table, position=position)
    match = re.search(rf'<tr id="deal-{deal.pk}".*?</tr>', html, re.S)
    assert match, position
    return match[0]


def text_of(markup: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", markup).split())


@pytest.mark.parametrize(("lang", "overbid", "won"), [
    ("de", "überreizt (Reizwert 30)", "gewonnen"), ("en", "overbid (bid 30)", "won")])
def test_an_overbid_game_says_overbid_and_never_won(client: Client, lang: str, overbid: str,
                                                    won: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    row = deal_row(page(client, "sheet", table.pk, lang), table, 2)
    result = re.search(r'<td class="num result">(.*?)</td>', row, re.S)
    assert result
    assert overbid in text_of(result[1])
    assert won not in text_of(result[1]).split()
    assert "\u221272" in text_of(row)


@pytest.mark.parametrize(("lang", "label"), [("de", "Augen"), ("en", "Card points")])
def test_ramsch_card_points_of_every_player(client: Client, lang: str, label: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    row = text_of(deal_row(page(client, "sheet", table.pk, lang), table, 4))
    seats = active_seats(3, 4)
    short = [name.split(" ")[0] for name in LONG]
    said = ", ".join(f"{short[p]} {points}" for p, points in sorted(zip(seats, (50, 40, 30),
                                                                      strict=True)))
    assert f"{label}: {said}" in row


@pytest.mark.parametrize(("lang", "mark"), [("de", "G"), ("en", "D")])
def test_the_sitting_out_dealer_is_marked_on_every_row(client: Client, lang: str,
                                                       mark: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    html = page(client, "sheet", table.pk, lang)
    for position in range(1, 6):
        row = deal_row(html, table, position)
        cells = re.findall(r'<td class="player-cell([^"]*)">(.*?)</td>', row, re.S)
        assert len(cells) == 4
        dealer = (table.first_dealer + position - 1) % 4
        assert "out" in cells[dealer][0]
        assert re.search(rf'class="out-mark"[^>]*>{mark}<', cells[dealer][1]), cells[dealer]
        assert all("out-mark" not in c[1] for p, c in enumerate(cells) if p != dealer)


def test_names_are_not_cut_short_on_the_sheet(client: Client) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    html = page(client, "sheet", table.pk, "de")
    assert "…" not in html
    assert '<td class="dealer">Hans-Jürgen</td>' in html
    assert '<td class="dealer">Maximilian</td>' in html


@pytest.mark.parametrize(("lang", "running", "waiting", "wrong"), [
    ("de", "Bock 3 von 4", "+1 Bockrunde wartet", "6 Bockrunden warten"),
    ("en", "Bock 3 of 4", "+1 Bock round waiting", "6 Bock rounds waiting")])
def test_bock_is_said_the_same_on_the_sheet_the_overview_and_the_table_screen(
        client: Client, lang: str, running: str, waiting: str, wrong: str) -> None:
    club = make_club()
    table = story_table(club)
    # deal 5's 60:60 brings a Bock round (deals 6-9); deal 7's queues another: the tracker
    # owes 6 deals, which is the running round's last two and one whole round
    play(table, [{"kind": "game", "declarer": active_seats(1, 4)[0], "game": "grand",
                  "matadors": 1, "bid": 18, "declarer_points": 70},
                 {"kind": "game", "declarer": active_seats(2, 4)[0], "game": "hearts",
                  "matadors": 1, "bid": 18, "result": "sixty"}])
    login(client, club, role="scorer")
    sheet = text_of(page(client, "sheet", table.pk, lang))
    overview = text_of(page(client, "evening", table.evening_id, lang))
    screen = text_of(page(client, "table", table.pk, lang))
    for text in (sheet, overview, screen):
        assert running in text and waiting in text
        assert wrong not in text


@pytest.mark.parametrize(("lang", "amount", "other"), [("de", ",", "."), ("en", ".", ",")])
def test_money_on_the_sheet_in_the_readers_number_format(client: Client, lang: str,
                                                         amount: str, other: str) -> None:
    club = make_club()
    table = story_table(club)
    login(client, club)
    html = page(client, "sheet", table.pk, lang)
    money = re.search(r'<tr class="money">(.*?)</tr>', html, re.S)
    assert money
    figures = re.findall(r'<td class="num">([^<]+)</td>', money[1])
    assert len(figures) == 4
    for figure in figures:
        assert re.fullmatch(rf"\u2212?\d+\{amount}\d\d", figure), figure


def test_null_ouvert_is_never_named_ouvert_twice(client: Client) -> None:
    club = make_club()
    table = story_table(club)
    play(table, [{"kind": "game", "declarer": active_seats(1, 4)[0], "game": "null",
                  "ouvert": True, "hand": True, "bid": 59, "result": "won"}])
    login(client, club)
    # the glossary's German "Null ouvert Hand"; the rules' English "Null Ouvert Hand"
    for lang, name in (("de", "Null ouvert Hand"), ("en", "Null Ouvert Hand")):
        sheet = text_of(page(client, "sheet", table.pk, lang))
        audit = text_of(page(client, "evening-audit", table.evening_id, lang))
        for text in (sheet, audit):
            assert name in text
            assert not re.search(r"Ouvert\W+Ouvert|Hand\W+Hand", text)


def test_the_audit_log_names_a_table_code_in_the_readers_language(client: Client) -> None:
    club = make_club()
    table = story_table(club)
    # written from a German device: the label is stored in German
    deal_record(table=table, record={"kind": "passed"}, expected_version=table.version,
                actor=Actor(None, "Tischcode, Tisch 1"))
    login(client, club)
    english = text_of(page(client, "evening-audit", table.evening_id, "en"))
    assert "table code, table 1" in english and "Tischcode" not in english
    german = text_of(page(client, "evening-audit", table.evening_id, "de"))
    assert "Tischcode, Tisch 1" in german


def fake_sheet(pending: int, level: int, players: int = 4, stacking: str = "queue") -> Any:
    options = {"bock": {"triggers": ["sixty_sixty"], "stacking": stacking}}
    return SimpleNamespace(players=["p"] * players, bock_pending=pending, next_bock=level,
                           table=SimpleNamespace(evening=SimpleNamespace(options=options)))


@pytest.mark.parametrize(("pending", "level", "players", "stacking", "words"), [
    (0, 0, 4, "queue", []),
    # a trigger has just queued a round that starts with the next deal
    (4, 1, 4, "queue", [("bock", "Bock 1 of 4")]),
    (3, 1, 3, "queue", [("bock", "Bock 1 of 3")]),
    # the running round's last deal and two whole rounds behind it
    (9, 1, 4, "queue", [("bock", "Bock 4 of 4"), ("waiting", "+2 Bock rounds waiting")]),
    # a Ramsch round runs first: nothing doubles now, one whole round waits
    (4, 0, 4, "queue", [("waiting", "1 Bock round waiting")]),
    # parallel stacking: two rounds overlap (Doppelbock), 4 + 2 deals owed, nothing waits
    (6, 2, 4, "parallel", [("bock", "Bock ×4"), ("waiting", "6 Bock deals to go")]),
    (3, 1, 3, "parallel", [("bock", "Bock"), ("waiting", "3 Bock deals to go")]),
])
def test_the_tracker_count_in_words(pending: int, level: int, players: int, stacking: str,
                                    words: list[tuple[str, str]]) -> None:
    with translation.override("en"):
        assert bock_words(fake_sheet(pending, level, players, stacking)) == words
