"""Issue 23, item 6: the evening summary's game count and the ranking's agree, misdeals and
Ramsch-round games included, and say it in the same words.

What counts is what DECISIONS.md §5 counts toward the rounds and the series length: a game, a
Ramsch, a passed-in deal. A misdeal is dealt again by the same dealer and a Grand Hand inside
a Ramsch round (option ramsch_round_grand_hand "deals_again") does not count; both are
recorded and said apart ("2 Einträge nicht gezählt"). The score sheet, the evening overview,
its PDF summary and the ranking all say notation.games_words of the same counts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engine import evaluate_table
from scoring.models import Evening, Table
from scoring.reads.sheet import table_document

from . import pdfs
from .factories import login, make_club, make_table
from .test_sheet_pages import play

pytestmark = pytest.mark.django_db


def game(declarer: int, **more: Any) -> dict[str, Any]:
    return {"kind": "game", "declarer": declarer, "game": "clubs", "matadors": 1, "bid": 18,
            "result": "won", **more}


RAMSCH = {"kind": "ramsch", "ramsch": {"points": {"0": 50, "1": 40, "2": 30},
                                       "tricks": {"0": 4, "1": 4, "2": 2}}}
GRAND_HAND = {"kind": "game", "declarer": 0, "game": "grand", "hand": True, "matadors": 1,
              "bid": 18, "result": "won"}
MISDEAL = {"kind": "misdeal"}
RECORDS: list[dict[str, Any]] = [
    game(0), MISDEAL, game(1, result="sixty"),  # 60:60: a Bock round, then a Ramsch round
    game(2), MISDEAL, game(0), game(1),  # the Bock round (one misdeal inside it)
    RAMSCH, GRAND_HAND, RAMSCH, RAMSCH,  # the Ramsch round; its Grand Hand is dealt again
    {"kind": "passed"},
]


@pytest.fixture
def table() -> Table:
    table = make_table(make_club(), players=3, preset="club_evening")
    Evening.objects.filter(pk=table.evening_id).update(series_rounds=8)  # 24 games at 3
    table.refresh_from_db()
    play(table, RECORDS)
    return table


def the_count(text: str) -> str:
    match = re.search(r"\d+ von \d+ Spielen( · \d+ Einträge? nicht gezählt)?", text)
    assert match, text[:3000]
    return match[0]


def flat(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_every_page_counts_the_games_alike(client: Client, table: Table) -> None:
    result = evaluate_table(table_document(table, RECORDS))
    rows = result["deals"]
    assert any(row["ramsch_round"] for row in rows)  # the evening has a Ramsch round …
    counted = sum(1 for row in rows if row["counts"])
    assert (len(RECORDS), counted) == (12, 9)  # … and two misdeals and its Grand Hand
    expected = "9 von 24 Spielen · 3 Einträge nicht gezählt"
    login(client, table.evening.club)
    pages = {
        "overview": flat(client.get(reverse("scoring:evening", args=[table.evening_id]))
                         .content.decode()),
        "ranking": flat(client.get(reverse("scoring:evening-ranking",
                                           args=[table.evening_id])).content.decode()),
        "sheet": flat(client.get(reverse("scoring:sheet", args=[table.pk])).content.decode()),
        "summary": " ".join(pdfs.text(client.get(
            reverse("scoring:summary-pdf", args=[table.evening_id])).content).split()),
    }
    for name, text in pages.items():
        assert the_count(text) == expected, name
