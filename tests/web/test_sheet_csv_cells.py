"""The sheet as CSV: every text cell quoted, and no separator opens a spreadsheet formula."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.utils import translation

from scoring.models import Player, Table
from scoring.reads.export import sheet_csv
from scoring.reads.sheet import table_sheet, tables_with_everything

from .factories import make_club, make_table
from .seasons import game, play

pytestmark = pytest.mark.django_db


FORMULA = ("=", "+", "-", "@")
NUMBER = re.compile(r"^-?\d+$")


def _dangerous(cell: str) -> bool:
    """A cell a spreadsheet would take for a formula: after the quotes and blanks a reader
    may leave in front, it starts like one and is not simply a (negative) number."""
    text = cell.lstrip(' "\t')
    return text.startswith(FORMULA) and not NUMBER.match(text.rstrip('"'))


def test_every_text_cell_is_quoted_and_no_separator_opens_a_formula() -> None:
    table = make_table(make_club(), players=3)
    names = ["Anna;=1+1", "Bernd,+SUM(A1)", "Clara; @x"]
    for seat, name in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name)
    play(table, game(1, 1), game(2, 2, won=False))
    table = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    with translation.override("en"):
        text = sheet_csv(table_sheet(table, "en", explain=False))[1:]
    lines = text.split("\r\n")
    # every text cell is in quotes; the numbers are not
    assert lines[0].startswith('"No.","Dealer","Declarer"')
    assert re.search(r',-?\d+$', lines[1]) and '"Anna;' in lines[1]
    for delimiter in (";", ","):
        cells = [c for row in csv.reader(io.StringIO(text), delimiter=delimiter) for c in row]
        cells += [c for line in lines for c in line.split(delimiter)]
        assert not [c for c in cells if _dangerous(c)], delimiter
    # read as it is written (comma), the names are there, kept as text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][9:15:2] == ["Anna;'=1+1", "Bernd,'+SUM(A1)", "Clara; '@x"]
    assert rows[1][1] == "Anna;'=1+1" and rows[2][-2:] == ["-72", "-72"]
