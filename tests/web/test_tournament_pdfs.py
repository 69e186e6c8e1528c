"""The tournament's printed documents, read back with poppler: the seat list for the wall,
the table cards with their codes, the standard list (blank and filled from the recorded
deals, with the Seeger-Fabian footer) and the ranking. Saved as PNG under screenshots/ to be
looked at."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Table
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.reads.tournament import tournament_ranking
from scoring.views.club import format_code
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .pdfs import needs_poppler, text
from .tournaments import fill_series, make_tournament

pytestmark = [pytest.mark.django_db, needs_poppler]


def save(pdf: bytes, folder: Path, name: str) -> None:
    path = folder / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "70", str(path), str(folder / name)],
                   check=True, timeout=120)


def test_the_documents(client: Client, screenshot_dir: Path) -> None:
    t = make_tournament(make_club(), rounds=12)
    tw.series_draw(tournament=t, seed=4)
    fill_series(t, 1)
    client.force_login(make_user(t.club, "admin"))
    tables = list(tables_with_everything(Table.objects.filter(evening=t.evening, series=1)))
    four = next(table for table in tables if table.seats.count() == 4)

    seats = client.get(reverse("scoring:tournament-seats-pdf", args=[t.pk, 1])).content
    save(seats, screenshot_dir, "tournament-seats")
    words = text(seats)
    assert "Sitzplan" in words
    for table in tables:
        for seat in table.seats.all():
            assert seat.player.name in words

    cards = client.get(reverse("scoring:tournament-cards-pdf", args=[t.pk, 1])).content
    save(cards, screenshot_dir, "tournament-cards")
    for number, table in enumerate(tables, start=1):
        page = text(cards, (number + 1) // 2)  # two A5 cards to an A4 sheet
        assert f"Tisch {table.number}" in page and format_code(table.access_code) in page

    url = reverse("scoring:tournament-list-pdf", args=[t.pk, 1, four.number])
    filled = client.get(url).content
    blank = client.get(url + "?blank=1").content
    save(filled, screenshot_dir, "tournament-list-filled")
    save(blank, screenshot_dir, "tournament-list-blank")
    sheet = table_sheet(four, "de", explain=False)
    assert sheet.seeger_fabian_totals is not None
    filled_words = text(filled)
    assert "Spielliste" in filled_words and "Seeger-Fabian" in filled_words
    for total in sheet.seeger_fabian_totals:
        assert str(total).replace("-", "\u2212") in filled_words or str(total) in filled_words
    # 48 lines at a 4-table (12 rounds of 4 games), numbered 1 to 48 in order, none more
    numbered = [int(n) for n in re.findall(r"^ *(\d+) +\S", filled_words, re.M)]
    assert numbered == list(range(1, 49)), numbered
    blank_words = text(blank)
    assert "von Hand" in blank_words
    assert str(sheet.seeger_fabian_totals[0]) not in blank_words.split()

    ranking = client.get(reverse("scoring:tournament-results-pdf", args=[t.pk])).content
    save(ranking, screenshot_dir, "tournament-ranking")
    words = text(ranking)
    rows = tournament_ranking(t).rows
    assert rows[0].name in words and "Rangliste" in words and "Preisgeld" in words
