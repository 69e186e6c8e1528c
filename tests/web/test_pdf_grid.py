"""The character grid of the printed sheet (scoring/pdf/grid.py), without WeasyPrint: the
pages, the repeated titles, the ruling (round lines, Bock and Ramsch shading, the book
layout's underlines), widths and escaping."""

from __future__ import annotations

import re
import unicodedata

import pytest
from django.utils import translation

from scoring.models import Player, Table
from scoring.pdf import grid
from scoring.reads.sheet import ScoreSheet, table_sheet, tables_with_everything

from .factories import make_club, won
from .test_pdf_sheet import umlaut_table
from .test_sheet_pages import RAMSCH, play

pytestmark = pytest.mark.django_db


def sheet_of(table: Table) -> ScoreSheet:
    return table_sheet(tables_with_everything(Table.objects.filter(pk=table.pk)).get(), "en",
                       explain=False)


def round_rule_rows(svg: str) -> list[int]:
    """The lines under which the strong round rule runs (the path drawn thickest)."""
    paths = re.findall(r'<path d="(M0 [^"]*)" stroke="#1b1b1b" stroke-width="([0-9.]+)"', svg)
    widest = max(paths, key=lambda p: float(p[1]))[0] if paths else ""  # horizontal ones
    return [int(y) for y in re.findall(r"M0 (\d+)H", widest)]


def test_pages_repeat_the_titles_and_end_with_the_totals() -> None:
    club = make_club()
    table = umlaut_table(club, deals=150, seed=8)
    with translation.override("en"):
        printed = grid.standard_grid(sheet_of(table), None, "")
    pages = printed.pages
    # 150 deals, under each Ramsch deal a line of card points, two lines of titles a page;
    # upright since the six level columns became one (issue 36): across the page it took 5
    assert not printed.paper.landscape
    assert len(pages) == 4
    for page in pages:
        assert all(line.bold and line.shade == "head" for line in page.lines[:2])
        limit = grid.lines_per_page(page.first, printed.paper)
        assert len(page.lines) <= limit
        titles = "\n".join(page.html.splitlines()[:2])
        assert "No." in titles and "Jürgen" in titles and "Card" in titles
    deal_lines = [line for page in pages for line in page.lines[2:]
                  if line.cells and line.cells[0].text.isdigit()]
    assert [int(line.cells[0].text) for line in deal_lines] == list(range(1, 151))
    assert "Total" in pages[-1].html and all("Total" not in p.html for p in pages[:-1])


def test_the_last_page_never_holds_the_totals_alone() -> None:
    head = [grid.Line([grid.cell("t")])]
    room = grid.lines_per_page(True) - 1
    body = [grid.Line([grid.cell(str(i))]) for i in range(room)]  # page 1 full to the brim
    foot = [grid.Line([grid.cell("Total")])]
    pages = grid.paginate(head, body, foot)
    assert len(pages) == 2
    assert pages[1].lines[0] is head[0] and pages[1].lines[-1] is foot[0]
    assert len(pages[1].lines) >= 3  # the titles, at least one deal, the totals


def test_a_thick_rule_closes_each_round_and_bock_and_ramsch_rounds_are_shaded() -> None:
    club = make_club()
    table = umlaut_table(club, players=3)
    # 60:60 starts a Bock round (deals 2-4), then a Ramsch round; rounds of 3 deals
    play(table, [won(1, 60), won(2), won(0), won(1), RAMSCH, RAMSCH])
    with translation.override("en"):
        sheet = sheet_of(table)
        page = grid.standard_grid(sheet, None, "").pages[0]
    assert [row.round_end for row in sheet.rows] == [False, False, True, False, False, True]
    # lines 1 and 2 hold the titles: deal k is line k + 2, each Ramsch deal followed by a line
    # of card points (deal 5 on line 7 and 8, deal 6 on line 9 and 10)
    assert round_rule_rows(page.svg) == [5, 10]
    shades = [line.shade for line in page.lines[2:10]]
    assert shades == ["", "bock", "bock", "bock", "ramsch", "ramsch", "ramsch", "ramsch"]
    assert [line.joined for line in page.lines[2:10]] == [False] * 5 + [True, False, True]
    assert grid.SHADES["bock"] in page.svg and grid.SHADES["ramsch"] in page.svg


def test_the_book_layout_underlines_every_nth_entry() -> None:
    club = make_club()
    table = umlaut_table(club, players=3, deals=30, seed=3)
    with translation.override("en"):
        sheet = sheet_of(table)
        printed = grid.book_grid(sheet, None, "")
    underlined = [line for page in printed.pages for line in page.lines if line.underline]
    per_column = [sum(1 for row in sheet.rows if row.entries[p] is not None) for p in range(3)]
    # each underline covers a player's two sub-columns (entry and balance)
    assert sum(len(line.underline) for line in underlined) == 2 * sum(n // 3 for n in
                                                                      per_column)
    assert "M" in printed.pages[0].svg.split('stroke="#1b1b1b"')[-2]


def test_six_players_are_printed_across_the_page_at_a_readable_size() -> None:
    club = make_club()
    small = umlaut_table(club, players=3, deals=10)
    large = umlaut_table(club, players=6, deals=10)
    with translation.override("en"):
        three = grid.standard_grid(sheet_of(small), None, "")
        six = grid.standard_grid(sheet_of(large), None, "")
    for printed in (three, six):
        width_mm = printed.width * grid.MONO_ADVANCE * printed.font_pt * grid.MM_PER_PT
        assert width_mm <= printed.paper.width_mm
        assert grid.READABLE_PT <= printed.font_pt <= grid.MAX_FONT_PT
    assert three.paper is grid.PORTRAIT and six.paper is grid.LANDSCAPE


def test_cells_are_fitted_escaped_and_styled() -> None:
    assert grid.fit("Grand-Tourné", 8, "<") == "Grand-T…"
    assert grid.fit("48", 5, ">") == "   48"
    assert grid.fit("K", 3, "^") == " K "
    columns = [grid.Column(6), grid.Column(4, ">", "thick")]
    line = grid.Line([grid.cell("<b>&x"), grid.cell("−48", "n")])
    assert grid.line_html(line, columns) == ' &lt;b&gt;&amp;x   <b class="neg">−48</b>'
    red = grid.Line([grid.Cell((("♥", "r"), (" Herz", ""))), grid.cell("20", "b")])
    assert grid.line_html(red, columns) == ' <span class="red">♥</span> Herz   <b>20</b>'


def test_text_is_one_character_per_cell() -> None:
    decomposed = unicodedata.normalize("NFD", "Jürgen")
    assert len(decomposed) == 7 and grid.grid_text(decomposed) == "Jürgen"
    assert grid.grid_text("Anna\nMaria") == "Anna Maria"
    if grid._mono_coverage() is not None:  # DejaVu Sans Mono has no CJK: keep the columns
        assert grid.grid_text("李 Wei") == "? Wei"


def test_a_player_name_cannot_break_the_markup() -> None:
    club = make_club()
    table = umlaut_table(club, players=3)
    first_seat = table.seats.first()
    assert first_seat is not None, "the table has seats"
    Player.objects.filter(pk=first_seat.player_id).update(name="<i>Eve</i> & Co")
    play(table, [won(0)])
    with translation.override("en"):
        page = grid.standard_grid(sheet_of(table), None, "").pages[0]
    assert "<i>" not in page.html and "&lt;i&gt;Eve" in page.html
