"""The printed score sheet, read back from the PDF: every entry and running total, the totals,
Seeger-Fabian and money lines match the engine; umlauts and suit symbols survive; the column
titles repeat on every page under "Page x of y"; the book layout; 3 to 6 players."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.engine import evaluate_table, generate_deals
from scoring.models import Club, Deal, Player, RuleProfile, Table
from scoring.presets import PRESETS
from scoring.reads.sheet import table_document, tables_with_everything
from scoring.writes.services import deal_delete, evening_create, table_create

from . import pdfs
from .factories import login, make_club, won
from .test_sheet_pages import ME, play

pytestmark = [pytest.mark.django_db, pdfs.needs_poppler]
EN = {"accept-language": "en"}
NAMES = ["Jürgen Weiß", "Käthe Öztürk", "Björn Groß", "Ännchen Süß", "Ölaf Bär", "Üwe Mäß"]


def umlaut_table(club: Club, players: int = 4, preset: str = "club_evening",
                 deals: int = 0, seed: int = 5, stake: str = "0.05") -> Table:
    profile = RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])
    seated = [Player.objects.get_or_create(club=club, name=name)[0] for name in
              NAMES[:players]]
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             stake=Decimal(stake))
    table = table_create(evening=evening, players=seated)
    if deals:
        records = generate_deals(deals, players, "isko", evening.options, seed=seed)
        Deal.objects.bulk_create(Deal(table=table, position=i + 1, record=record)
                                 for i, record in enumerate(records))
        Table.objects.filter(pk=table.pk).update(version=deals)
    return Table.objects.select_related("evening__club").get(pk=table.pk)


def engine_result(table: Table) -> Any:  # the ScoredTable, read as JSON
    """What the engine says, straight from the stored records (not through the sheet)."""
    full = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    return evaluate_table(table_document(full))


def get_pdf(client: Client, table: Table, lang: str = "en", **params: str) -> bytes:
    response = client.get(reverse("scoring:sheet-pdf", args=[table.pk]), params,
                          headers={"accept-language": lang})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def deal_lines(text: str) -> dict[int, str]:
    """Printed deal rows by deal number (a row starts with its number and the dealer)."""
    rows: dict[int, str] = {}
    for line in text.splitlines():
        head = line.split()
        if len(head) >= 2 and head[0].isdigit() and not head[1].startswith(("of", "·")):
            rows.setdefault(int(head[0]), line)
    return rows


def expected_tail(row: dict[str, Any], players: int) -> list[str]:
    """A row's printed numbers at its end: per seat the entry (if any) and the total."""
    tail = []
    for seat in range(players):
        entry = row["entries"].get(str(seat))
        if entry is not None:
            tail.append(str(entry))
        tail.append(str(row["totals"][str(seat)]))
    return tail


def test_every_entry_and_running_total_matches_the_engine(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, deals=60)
    login(client, club)
    pdf = get_pdf(client, table)
    text = pdfs.text(pdf)
    result = engine_result(table)
    rows = deal_lines(text)
    assert sorted(rows) == list(range(1, 61))
    for row in result["deals"]:
        tail = expected_tail(row, 4)
        assert pdfs.numbers(rows[row["number"]])[-len(tail):] == tail, row["number"]
    # Bock, Kontra and Ramsch rounds happened, so the check covered doubled entries
    assert any(r["bock"] for r in result["deals"])
    assert any(r["kind"] == "ramsch" for r in result["deals"])
    totals = pdfs.numbers(pdfs.line_starting(text, "Total"))
    assert totals == [str(result["totals"][str(p)]) for p in range(4)]
    money = pdfs.numbers(pdfs.line_starting(text, "Settlement (EUR)"))
    net = result["settlement"]["net"]
    assert [Decimal(m) for m in money] == [Decimal(net[str(p)]) for p in range(4)]
    assert sum(Decimal(m) for m in money) == 0


def test_umlauts_suit_symbols_and_the_head(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, deals=60)
    login(client, club)
    text = pdfs.text(get_pdf(client, table))
    for name in NAMES[:4]:
        assert name in text  # the head lists the full names
    for short in ("Jürgen", "Käthe", "Björn", "Ännchen"):
        assert short in text.split("No.", 1)[1]  # and the column titles the first names
    for suit in "♣♠♥♦":
        assert f"{suit} " in text
    assert "Skatfreunde Altenburg" in text and "Kontra and Re" in text
    assert "0.05 EUR per point" in text


def test_german_by_default_with_decimal_commas(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club)
    login(client, club)
    play(table, [won(1), {**won(2, 40), "game": "hearts"}, won(3), won(0)])
    text = pdfs.text(get_pdf(client, table, lang="de"))
    assert "Kreuz" in text and "♥ Herz" in text and "Jürgen Weiß" in text
    result = engine_result(table)
    expected = [Decimal(result["settlement"]["net"][str(p)]) for p in range(4)]
    assert any(v % 1 for v in expected)  # so that the comma shows
    money_line = [line for line in text.splitlines() if "(EUR)" in line][-1]
    printed = pdfs.numbers(money_line)
    assert all("," in n for n in printed)
    assert [Decimal(n.replace(",", ".")) for n in printed] == expected


def test_column_titles_repeat_on_every_page_under_page_x_of_y(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, deals=150, seed=8)
    login(client, club)
    pdf = get_pdf(client, table)
    count = pdfs.pages(pdf)
    # 150 deals, under each Ramsch deal a line of card points, two lines of titles a page
    assert count == 5
    seen: list[int] = []
    for page in range(1, count + 1):
        text = pdfs.text(pdf, page)
        header = pdfs.line_starting(text, "No.")
        assert header.split()[:3] == ["No.", "Dealer", "Declarer"]
        for short in ("Jürgen", "Käthe", "Björn", "Ännchen"):
            assert short in header
        assert f"Page {page} of {count}" in text
        numbers = sorted(deal_lines(text))
        assert numbers == list(range(numbers[0], numbers[-1] + 1))  # consecutive
        seen += numbers
        assert ("Total" in text) == (page == count)  # the foot on the last page only
    assert seen == list(range(1, 151))


def test_seeger_fabian_footer(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, players=3, preset="isko_tournament")
    login(client, club)
    # seat 1 wins 24, seat 2 loses 48, seat 0 wins 24, seat 1 loses 48 (the sheet page's case)
    play(table, [won(1), won(2, 40), won(0), won(1, 40)])
    text = pdfs.text(get_pdf(client, table))
    assert pdfs.numbers(pdfs.line_starting(text, "Games won")) == ["1", "1", "0"]
    assert pdfs.numbers(pdfs.line_starting(text, "Games lost")) == ["0", "1", "1"]
    assert pdfs.numbers(pdfs.line_starting(text, "Won games × 50"))[-3:] == ["50", "50", "0"]
    assert pdfs.numbers(pdfs.line_starting(text, "Lost games × −50"))[-3:] == ["0", "-50",
                                                                             "-50"]
    assert pdfs.numbers(pdfs.line_starting(text, "Others' lost games × 40"))[-3:] == [
        "80", "40", "40"]
    result = engine_result(table)
    assert pdfs.numbers(pdfs.line_starting(text, "Seeger-Fabian points")) == [
        str(result["seeger_fabian_totals"][str(p)]) for p in range(3)] == ["154", "16", "-58"]


def test_the_historical_layout_prints_each_players_entries(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, players=3, deals=30, seed=3)
    login(client, club)
    text = pdfs.text(get_pdf(client, table, layout="historical"))
    assert "Declarer" not in text and "Line" in text
    result = engine_result(table)
    columns: list[list[tuple[int, int]]] = [[], [], []]
    for row in result["deals"]:
        for seat, entry in row["entries"].items():
            columns[int(seat)].append((entry, row["totals"][seat]))
    for number in range(1, max(len(c) for c in columns) + 1):
        line = pdfs.line_starting(text, f"{number} ")
        expected = [str(v) for c in columns if len(c) >= number for v in c[number - 1]]
        assert pdfs.numbers(line)[1:] == expected
    assert pdfs.numbers(pdfs.line_starting(text, "Total")) == [
        str(result["totals"][str(p)]) for p in range(3)]


@pytest.mark.parametrize("players", [3, 5, 6])
def test_tables_of_three_to_six_fit_the_page(client: Client, players: int) -> None:
    club = make_club()
    table = umlaut_table(club, players=players, deals=25, seed=players)
    login(client, club)
    pdf = get_pdf(client, table)
    text = pdfs.text(pdf)
    result = engine_result(table)
    rows = deal_lines(text)
    for row in result["deals"]:
        tail = expected_tail(row, players)
        assert pdfs.numbers(rows[row["number"]])[-len(tail):] == tail
    assert pdfs.numbers(pdfs.line_starting(text, "Total")) == [
        str(result["totals"][str(p)]) for p in range(players)]
    # A4 upright (595 × 842 pt) for 3 players, across the page for 5 and 6 (grid._layout)
    assert pdfs.info(pdf)["Page size"].startswith("595." if players < 5 else "841.")


def test_deleted_deals_are_not_printed_and_an_empty_sheet_prints(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, players=3)
    login(client, club)
    empty = pdfs.text(get_pdf(client, table))
    assert "No deals yet." in empty
    first, second = play(table, [won(1), won(2, 40)])
    deal_delete(deal=second, reason="typo", expected_version=table.version, actor=ME)
    text = pdfs.text(get_pdf(client, table))
    assert sorted(deal_lines(text)) == [1]
    assert pdfs.numbers(pdfs.line_starting(text, "Total")) == ["0", "24", "0"]


def test_no_money_line_without_a_stake(client: Client) -> None:
    club = make_club()
    table = umlaut_table(club, players=3, stake="0")
    login(client, club)
    play(table, [won(1)])
    text = pdfs.text(get_pdf(client, table))
    assert "Settlement" not in text and "per point" not in text
