"""Issue 23, item 6: a Ramsch row on the score sheet and its PDF says who lost, and Jungfrau
and Durchmarsch when they happened, whichever way the Ramsch was entered (every player's card
points and tricks, or the short way: loser, Jungfrau, Durchmarsch). Both come from the one
ScoreSheet (the engine's outcome of each Ramsch, notation.ramsch_words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Table

from . import pdfs
from .factories import login, make_club, make_table
from .test_pdf_story import row, sheet_pdf
from .test_sheet_pages import play

pytestmark = pytest.mark.django_db

RAMSCHES = [
    # 1: full form; Anna has most card points, Clara took no trick: Jungfrau
    {"kind": "ramsch", "ramsch": {"points": {"0": 70, "1": 50, "2": 0},
                                  "tricks": {"0": 6, "1": 4, "2": 0}}},
    # 2: short form: Bernd lost with 62, nobody without a trick
    {"kind": "ramsch", "ramsch": {"losers": {"1": 62}, "jungfrau": 0, "durchmarsch": None}},
    # 3: short form: Clara took every trick
    {"kind": "ramsch", "ramsch": {"losers": {}, "jungfrau": 2, "durchmarsch": 2}},
]


@pytest.fixture
def table() -> Table:
    table = make_table(make_club(), players=3, preset="club_evening")
    play(table, RAMSCHES)
    return table


def sheet_rows(client: Client, table: Table, lang: str) -> list[str]:
    html = client.get(reverse("scoring:sheet", args=[table.pk]),
                      headers={"accept-language": lang}).content.decode()
    rows = re.findall(r'<tr id="deal-\d+".*?</tr>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", r).split()) for r in rows]


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ["Verlierer: Anna · Jungfrau", "Verlierer: Bernd", "Durchmarsch: Clara"]),
    ("en", ["Loser: Anna · Jungfrau", "Loser: Bernd", "Durchmarsch: Clara"])])
def test_the_sheet_names_the_loser_jungfrau_and_durchmarsch(client: Client, table: Table,
                                                            lang: str, said: list[str]) -> None:
    login(client, table.evening.club)
    rows = sheet_rows(client, table, lang)
    assert len(rows) == 3
    for text, words in zip(rows, said, strict=True):
        assert words in text, (words, text)
    assert "Jungfrau" not in rows[1] and "Durchmarsch" not in rows[0] + rows[1]


def test_the_pdf_says_the_same(client: Client, table: Table, screenshot_dir: Path) -> None:
    login(client, table.evening.club)
    pdf = sheet_pdf(client, table, "de")
    (screenshot_dir / "ramsch-rows-sheet.pdf").write_bytes(pdf)  # pdftoppm it to look
    text = pdfs.text(pdf)
    lines = text.splitlines()
    # Deal 1 (card points given): "Verlierer: Anna · Jungfrau · Augen 70 50 0" under it.
    first = lines.index(row(text, 1))
    assert "Verlierer: Anna · Jungfrau · Augen" in lines[first + 1], lines[first + 1]
    # Deals 2 and 3 (entered the short way): a line of their own under the deal.
    second = lines.index(row(text, 2))
    assert lines[second + 1].strip() == "Verlierer: Bernd"
    third = lines.index(row(text, 3))
    assert lines[third + 1].strip() == "Durchmarsch: Clara"
