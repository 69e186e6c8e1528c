"""Issue 26, item 9: no CSV the site writes hands a spreadsheet a formula. Names, clubs,
teams and tandems as typed ("=HYPERLINK(…)", "@SUM(…)", "+1+2", "-2+3", a tab or a carriage
return first) come out as text with an apostrophe; numbers stay numbers. Every CSV answer is
checked here; tests/test_architecture.py fails on a csv writer outside scoring/spreadsheet.py."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Entrant, Player, Table
from scoring.spreadsheet import FORMULA_START, cell, csv_text

from .factories import make_club, make_table, make_user, won
from .test_sheet_pages import play
from .test_tournament_pages import played

pytestmark = pytest.mark.django_db

NASTY = ['=HYPERLINK("http://x","klick")', "@SUM(1+1)", "+1+2", "-2+3*cmd|' /C calc'!A0",
         "\t=1+1", "\r=1+1", "Anna;=1+1"]


def cells(body: str, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=delimiter))


def no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for value in row:
            if value.startswith(FORMULA_START):
                # a plain number is a number, never a formula
                assert value.lstrip("-").replace(",", "").replace(".", "").isdigit(), value
            # a reader splitting on the other separator must not find one either
            for part in value.replace(";", ",").split(",")[1:]:
                assert not part.lstrip(" \t").startswith(("=", "+", "-", "@")), value


def test_the_helper_keeps_formulas_text_and_numbers_numbers() -> None:
    assert cell('=HYPERLINK("x")') == '\'=HYPERLINK("x")'
    assert cell("@SUM(1)") == "'@SUM(1)" and cell("+1+2") == "'+1+2"
    assert cell("\t=1") == "'\t=1" and cell("\r=1") == "'\r=1"
    assert cell("Anna;=1+1") == "Anna;'=1+1"
    assert cell(-3) == -3 and cell("-3") == "-3" and cell("12,50") == "12,50"
    assert cell("Anna") == "Anna"
    assert csv_text([["=1", 2]], bom=False) == "'=1,2\r\n"


def test_the_tournament_results_csv_writes_nasty_names_as_text(client: Client) -> None:
    t = played()
    entrants = list(Entrant.objects.filter(tournament=t).select_related("player")
                    .order_by("number"))
    for entrant, nasty in zip(entrants, NASTY, strict=False):
        Player.objects.filter(pk=entrant.player_id).update(name=nasty)
        Entrant.objects.filter(pk=entrant.pk).update(home_club=nasty, team=nasty,
                                                     tandem=nasty, category=nasty)
    cache.clear()
    client.force_login(make_user(t.club, "viewer"))
    response = client.get(reverse("scoring:tournament-results-csv", args=[t.pk]))
    assert response.status_code == 200
    rows = cells(response.content.decode("utf-8"), ";")
    flat = [value for row in rows for value in row]
    for nasty in NASTY[:-1]:
        assert "'" + nasty in flat, nasty  # the name is there, as text
    assert "Anna;'=1+1" in flat
    no_formula(rows)


def test_the_sheet_csv_writes_nasty_names_as_text(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    play(table, [won(1), won(2, 40)])
    seats = list(table.seats.order_by("position"))
    for seat, nasty in zip(seats, NASTY, strict=False):
        Player.objects.filter(pk=seat.player_id).update(name=nasty)
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)
    cache.clear()
    client.force_login(make_user(club, "viewer"))
    response = client.get(reverse("scoring:sheet-csv", args=[table.pk]))
    assert response.status_code == 200
    rows = cells(response.content.decode("utf-8"), ",")
    for nasty in NASTY[:4]:
        assert "'" + nasty in rows[0], nasty
    no_formula(rows)
