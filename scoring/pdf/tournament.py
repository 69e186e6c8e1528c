"""A tournament's printed documents, each rendered by the one renderer (pdf/documents.py,
weasy.py) and cached under what it prints (the tournament's board version, which every saved
deal and every change of registration or seating moves on):

- the seat list for the wall (Sitzplan): everybody by name with table and seat, and each
  table with its players;
- a table card per table (Tischkarte) with its access code and QR code (the QR codes are
  drawn by the web layer, qr.py, and handed in: printing does not import the web);
- the rankings (Rangliste) after a series or overall, with categories, teams, tandems,
  prizes and the money;
- the standard list (Spielliste) of a table and series, blank to be filled by hand or filled
  from the recorded deals: deal number, game, value, a column per player with the running
  score and the won/lost marks, the Seeger-Fabian footer and the signatures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation

from scoring.collation import name_key
from scoring.models import Table, Tournament
from scoring.notation import minus, seeger_fabian, short_names, signed
from scoring.pdf.documents import Document
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.reads.signing import printed_signatures
from scoring.reads.tournament import board_version, tournament_ranking


def _series_tables(tournament: Tournament, series: int) -> list[Table]:
    return list(tables_with_everything(Table.objects.filter(
        evening_id=tournament.evening_id, series=series)).order_by("number"))


def _key(tournament: Tournament, kind: str, lang: str, *extra: object) -> str:
    parts = ":".join(str(e) for e in extra)
    return f"tournament:{kind}:{lang}:{parts}:{board_version(tournament)}"


def seat_list(tournament: Tournament, series: int, lang: str) -> Document:
    def html() -> str:
        with translation.override(lang):
            tables = _series_tables(tournament, series)
            numbers = dict(tournament.entrants.values_list("player_id", "number"))
            people = sorted(
                ((seat.player.name, numbers.get(seat.player_id), table.number, seat.position + 1)
                 for table in tables for seat in table.seats.all()),
                key=lambda p: name_key(p[0]))
            return render_to_string("scoring/tournament/seats_pdf.html", {
                "tournament": tournament, "series": series, "tables": tables,
                "people": people, "lang": lang, "generated": timezone.localtime()})
    return Document("seats", _key(tournament, "seats", lang, series),
                    f"sitzplan-serie-{series}.pdf", html)


@dataclass
class Card:
    table: Table
    code: str  # as printed: ABCD-EFGH
    url: str
    qr: str  # inline SVG


def table_cards(tournament: Tournament, series: int, lang: str,
                card: Callable[[Table], Card]) -> Document:
    def html() -> str:
        with translation.override(lang):
            cards = [card(t) for t in _series_tables(tournament, series)]
            return render_to_string("scoring/tournament/cards_pdf.html", {
                "tournament": tournament, "series": series, "cards": cards, "lang": lang})
    return Document("cards", _key(tournament, "cards", lang, series),
                    f"tischkarten-serie-{series}.pdf", html)


def rankings(tournament: Tournament, after: int | None, lang: str) -> Document:
    def html() -> str:
        with translation.override(lang):
            ranking = tournament_ranking(tournament, after)
            return render_to_string("scoring/tournament/ranking_pdf.html", {
                "tournament": tournament, "ranking": ranking, "lang": lang,
                "generated": timezone.localtime()})
    return Document("ranking", _key(tournament, "ranking", lang, after),
                    f"rangliste-{after or 'gesamt'}.pdf", html)


@dataclass
class ListRow:
    number: int
    game: str
    value: str
    cells: list[tuple[str, str]]  # per player: running score (where it changed), mark


def _list_rows(table: Table, lang: str) -> tuple[list[ListRow], Any]:
    sheet = table_sheet(table, lang, explain=False)
    rows = []
    for row in sheet.rows:
        cells = []
        for p, entry in enumerate(row.entries):
            mark = ""
            if row.declarer == p and row.won is not None:
                mark = "+" if row.won else "−"
            cells.append(("" if entry is None else minus(row.totals[p]), mark))
        # the declarer's entry, signed (a lost game counts double), else the game value
        entry = row.entries[row.declarer] if row.declarer is not None else None
        value = (signed(entry) if entry is not None
                 else "" if row.value is None else str(row.value))
        rows.append(ListRow(row.number, row.game, value, cells))
    return rows, sheet


def standard_list(tournament: Tournament, series: int, number: int, blank: bool,
                  lang: str) -> Document:
    def html() -> str:
        with translation.override(lang):
            table = next(t for t in _series_tables(tournament, series) if t.number == number)
            players = [seat.player.name for seat in table.seats.all()]
            length = tournament.evening.series_length(len(players)) or 48
            rows: list[ListRow] = []
            footer: list[Any] = []
            initials: list[str] = [n[:2] for n in players]
            if not blank:
                rows, sheet = _list_rows(table, lang)
                footer = seeger_fabian(sheet)
                initials = short_names(sheet)
            filled = {r.number: r for r in rows}
            lines = [filled.get(k) or ListRow(k, "", "", [("", "")] * len(players))
                     for k in range(1, max(length, len(rows)) + 1)]
            return render_to_string("scoring/tournament/list_pdf.html", {
                "tournament": tournament, "series": series, "table": table,
                "players": players, "initials": initials, "lines": lines,
                "footer": footer, "blank": blank, "seats": len(players),
                "bonus": 40 if len(players) == 3 else 30, "lang": lang,
                "signatures": [] if blank else printed_signatures(table)})
    kind = "blank" if blank else "filled"
    return Document("list", _key(tournament, "list", lang, series, number, kind),
                    f"spielliste-serie-{series}-tisch-{number}{'-leer' if blank else ''}.pdf",
                    html)
