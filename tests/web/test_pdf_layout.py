"""The printed sheet stays readable: column titles are never cut short (two lines where a title
is wider than its figures), and a 5- or 6-table is printed across the page at 7.5 pt or more
instead of about 6 pt on an upright page. Read back from the PDF (pdftotext -bbox, pdfinfo)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scoring.engine import active_seats
from scoring.models import Player, RuleProfile, Table
from scoring.pdf import grid
from scoring.presets import PRESETS
from scoring.writes.services import evening_create, table_create

from . import pdfs
from .factories import login, make_club
from .test_sheet_pages import play

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]
NAMES = ["Hans-Jürgen Müller-Lüdenscheid", "Maximilian Oberhuber", "Özlem Kaya",
         "Änne Schröder-Wittgenstein", "Friedrich Wilhelm", "Bartholomäus Zimmermann"]
TITLES = {"de": ["Nr.", "Geber", "Alleinspieler", "Spiel", "m/o", "Reizwert", "Augen", "K/R",
                 "Bock"],
          "en": ["No.", "Dealer", "Declarer", "Game", "with/without", "Bid", "Card points",
                 "K/R", "Bock"]}
# DejaVu Sans Mono: every glyph 1233/2048 em wide, a word's box ascent + descent 1.164 em high
ADVANCE, HEIGHT = 1233 / 2048, 1.164


def long_table(players: int) -> Table:
    """A table of long names: 2 rounds of won suit and Grand games, an overbid one, a Ramsch."""
    club = make_club()
    seated = [Player.objects.get_or_create(club=club, name=n)[0] for n in NAMES[:players]]
    profile = RuleProfile.objects.get(club=club, name=PRESETS["club_evening"]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             stake=Decimal("0.05"))
    table = table_create(evening=evening, players=seated)
    records = []
    for i in range(2 * players):
        seats = active_seats(i % players, players)
        records.append({"kind": "game", "declarer": seats[i % 3],
                        "game": ("clubs", "grand", "hearts")[i % 3], "matadors": 1,
                        "bid": 18, "declarer_points": 70 + i})
    records[1] = {**records[1], "game": "clubs", "bid": 30, "declarer_points": None,
                  "result": "won"}
    del records[1]["declarer_points"]
    seats = active_seats(3 % players, players)
    records[3] = {"kind": "ramsch", "ramsch": {
        "points": {str(seats[0]): 60, str(seats[1]): 40, str(seats[2]): 20},
        "tricks": {str(seats[0]): 5, str(seats[1]): 3, str(seats[2]): 2}, "pushes": 0}}
    play(table, records)
    return table


def sheet_pdf(client: Client, table: Table, lang: str) -> bytes:
    login(client, table.evening.club)
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]),
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return response.content


Word = tuple[str, float, float, float, float]


def word_lines(pdf: bytes) -> list[list[Word]]:
    """The words of page 1 as printed lines (grouped by their baseline), left to right."""
    lines: dict[float, list[Word]] = {}
    for word in pdfs.words(pdf):
        lines.setdefault(round(word[4], 0), []).append(word)
    return [sorted(lines[y], key=lambda w: w[1]) for y in sorted(lines)]


def grid_lines(pdf: bytes, lang: str) -> tuple[str, str, list[list[Word]]]:
    """The two lines of column titles (the one starting "No." and the one above it) and the
    deals' lines under them."""
    lines = word_lines(pdf)
    at = next(i for i, line in enumerate(lines) if line[0][0] == TITLES[lang][0])
    deals = []
    for line in lines[at + 1:]:
        if line[0][0] in ("Summe", "Total"):
            break
        if line[0][0].isdigit():  # not a line of Ramsch card points
            deals.append(line)
    return (" ".join(w[0] for w in lines[at - 1]), " ".join(w[0] for w in lines[at]), deals)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_column_title_is_cut_short(client: Client, players: int, lang: str) -> None:
    table = long_table(players)
    top, bottom, deals = grid_lines(sheet_pdf(client, table, lang), lang)
    assert [int(line[0][0]) for line in deals] == list(range(1, 2 * players + 1))
    assert "…" not in top + bottom
    first_names = [name.split()[0] for name in NAMES[:players]]  # each heads his columns
    with translation.override(lang):
        for title in TITLES[lang] + first_names:
            # whole on the line of titles, or broken over the two lines: "Allein-" over
            # "spieler", "with/" over "without", "Card" over "points"
            assert title in bottom or any(
                upper in top.split() and lower in bottom.split()
                for upper, lower in grid.title_splits(title)), (title, top, bottom)


def font_sizes(pdf: bytes, lang: str) -> set[float]:
    """The sizes (pt) the grid prints at, from the width and the height of the numbers on the
    deals' lines (DejaVu Sans Mono: the width of a word says its size)."""
    sizes = set()
    for line in grid_lines(pdf, lang)[2]:
        for word, x0, y0, x1, y1 in line:
            if word.isdigit():
                sizes.add(round((x1 - x0) / (len(word) * ADVANCE), 1))
                sizes.add(round((y1 - y0) / HEIGHT, 1))
    return sizes


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_six_table_prints_across_the_page_at_a_readable_size(client: Client,
                                                               lang: str) -> None:
    pdf = sheet_pdf(client, long_table(6), lang)
    assert pdfs.info(pdf)["Page size"].startswith("841.89 x 595.")  # A4 landscape
    sizes = font_sizes(pdf, lang)
    assert sizes and min(sizes) >= grid.READABLE_PT, sizes
    # and nobody's name is cut on it either
    text = pdfs.text(pdf)
    assert "…" not in text


def test_before_this_a_six_table_printed_at_about_six_points() -> None:
    """The measure of the test above can fail: the upright page would hold the 6-table at no
    more than 6.5 pt, below READABLE_PT."""
    club_table = long_table(6)
    from scoring.reads.sheet import table_sheet, tables_with_everything

    with translation.override("de"):
        sheet = table_sheet(tables_with_everything(Table.objects.filter(pk=club_table.pk))
                            .get(), "de", explain=False)
        printed = grid.standard_grid(sheet, None, "")
    upright = grid.font_for(printed.columns, grid.PORTRAIT)
    assert upright < grid.READABLE_PT <= printed.font_pt and printed.paper.landscape


@pytest.mark.parametrize(("lang", "title", "width", "lines"), [
    ("de", "Alleinspieler", 9, ("Allein-", "spieler")),
    ("de", "Reizwert", 5, ("Reiz-", "wert")),
    ("en", "with/without", 7, ("with/", "without")),
    ("en", "Card points", 9, ("Card", "points")),
    ("en", "Declarer", 7, ("", "Declarer")),  # never "De-" over "clarer": its column widens
    ("de", "Geber", 5, ("", "Geber")),
])
def test_titles_break_where_a_reader_expects(lang: str, title: str, width: int,
                                             lines: tuple[str, str]) -> None:
    with translation.override(lang):
        assert grid.title_lines(title, width) == lines
        assert grid.title_width(title) == max(len(lines[0]), len(lines[1]))


@pytest.mark.parametrize("layout", ["standard", "historical"])
def test_a_long_first_name_heads_its_columns_whole(client: Client, layout: str) -> None:
    """A first name of 25 letters (the sheet heads a player's columns with his first name) is
    printed whole: on one line where the page has room (the standard layout goes across the
    page for it), else broken at its hyphen over the two title lines (the book layout)."""
    table = long_table(3)
    Player.objects.filter(name=NAMES[0]).update(name="Maximilianhausen-Oberberg Ritter")
    login(client, table.evening.club)
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]), {"layout": layout},
                          headers={"accept-language": "de"})
    assert response.status_code == 200
    text = pdfs.text(response.content)
    assert "…" not in text, text
    lines = [" ".join(line) for line in ([w[0] for w in ws]
                                         for ws in word_lines(response.content))]
    first = next(i for i, line in enumerate(lines) if line.split()[0] == "1")  # deal or line 1
    top, bottom = lines[first - 2].split(), lines[first - 1].split()
    assert "Maximilianhausen-Oberberg" in bottom or (
        "Maximilianhausen-" in top and "Oberberg" in bottom), (top, bottom)
    assert ("Maximilianhausen-" in top) == (layout == "historical")
