"""A tournament's printed documents, each rendered by the one renderer (pdf/documents.py,
weasy.py) and cached under what it prints: the ranking and the standard lists under the
tournament's board version, which every saved deal and every change of registration or
seating moves on; the seat list and the table cards under the series' seating
(``seating_version``), which no deal changes:

- the seat list for the wall (Sitzplan): everybody by surname ("Wagner, Paula") with start
  number, table and seat, and each table with its players;
- a table card per table (Tischkarte) with its access code and QR code (the QR codes are
  drawn by the web layer, qr.py, and handed in: printing does not import the web), two A5
  cards to an A4 sheet, cut in the middle;
- the rankings (Rangliste) after a series or overall, with categories, teams, tandems,
  prizes and the money;
- the standard list (Spielliste) of a table and series, blank to be filled by hand or filled
  from the recorded deals: deal number, game, value, a column per player (name and start
  number) with the running score and the won/lost marks, the Seeger-Fabian footer and the
  signatures, on one A4 page.

Why grids (issue 24): WeasyPrint lays out an HTML table box by box, about 1 ms per cell on this
machine, so the seat list and the ranking of 1,001 players took 4-7 s. Their long lists are
printed like the score sheet (pdf/grid.py): one ``<pre>`` of DejaVu Sans Mono per block of
lines, every column padded to its width in characters, the ruling one SVG behind it; a block
of ``CHUNK`` lines is one box for WeasyPrint instead of 10 per line. No styled span inside a
line (a bold cell costs a box per line): the points column is shaded instead.
The seat list cuts its own pages (its lines have a fixed height); the ranking's sections
flow, as rows of one table whose head (the column titles) WeasyPrint repeats on each page.
"""

from __future__ import annotations

import hashlib
import json
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.collation import name_key
from scoring.models import Seat, Table, Tournament
from scoring.money import money
from scoring.notation import minus, seeger_fabian, short_names, signed
from scoring.pdf import grid
from scoring.pdf.documents import Document
from scoring.reads.sheet import table_sheet, tables_with_everything
from scoring.reads.signing import printed_signatures
from scoring.reads.tournament import (
    Group,
    Row,
    board_version,
    series_tables,
    tournament_ranking,
)

# Bump when a printed layout changes, so that PDFs of the old layout are not served.
FORMAT = 4  # 4: the seat list by surname (issue 35)

# The page of templates/scoring/tournament/_style_pdf.html: A4, 14 mm top and bottom, 12 mm
# at the sides.
PAGE_WIDTH_MM = 186.0
PAGE_HEIGHT_MM = 269.0
HEAD_MM = 16.0  # the first page's title and subtitle (.doc-head: a fixed height)
SECTION_MM = 10.0  # a section's heading on a page of its own (.section-head)
CHUNK = 8  # lines per block of a flowing grid: one box for WeasyPrint
LEADING = 1.3  # line height over font size


def _font(columns: Sequence[grid.Column], most: float, least: float = 6.0) -> float:
    """The largest size (in 0.1 pt, at most ``most``) at which the grid fits the width."""
    fits = PAGE_WIDTH_MM / (grid.grid_width(columns) * grid.MONO_ADVANCE * grid.MM_PER_PT)
    return max(least, min(most, math.floor(fits * 10) / 10))


def _line_mm(font_pt: float) -> float:
    return round(font_pt * grid.MM_PER_PT * LEADING, 2)


def _text(value: object) -> str:
    """Text as one grid line can hold it (one line, no glyph the monospaced font lacks)."""
    return grid.grid_text(str(value))


def _width(texts: Sequence[str], title: str, least: int, most: int) -> int:
    longest = max((len(t) for t in texts), default=0)
    return max(least, grid.title_width(title), min(most, longest))


def grid_block(lines: Sequence[grid.Line], columns: Sequence[grid.Column], font_pt: float,
               shade: Sequence[int] = ()) -> SafeString:
    """One block of grid lines: a ``div.grid`` of its exact height, the ruling behind the
    ``<pre>``. The style attribute is the PDF's own (never served to a browser)."""
    line_mm = _line_mm(font_pt)
    style = (f"font-size: {font_pt:.1f}pt; line-height: {line_mm:.2f}mm; "
             f"width: {grid.grid_width(columns)}ch; height: {len(lines) * line_mm:.3f}mm")
    body = "\n".join(grid.line_html(line, columns) for line in lines)
    return mark_safe(f'<div class="grid" style="{style}">'
                     f"{grid.ruling_svg(lines, columns, font_pt, line_mm, shade)}"
                     f"<pre>{body}</pre></div>")


@dataclass
class FlowingGrid:
    """A list that flows over pages: its column titles (repeated on every page) and its
    lines in blocks of about ``CHUNK`` (never between a line and the ones joined to it)."""

    head: SafeString
    blocks: list[SafeString]


def flowing_grid(titles: Sequence[tuple[str, int]], columns: Sequence[grid.Column],
                 lines: Sequence[grid.Line], most_pt: float,
                 shade: Sequence[int] = ()) -> FlowingGrid:
    font_pt = _font(columns, most_pt)
    head = grid.head_lines(titles, columns)
    blocks: list[SafeString] = []
    block: list[grid.Line] = []
    for line in lines:
        if len(block) >= CHUNK and not line.joined:
            blocks.append(grid_block(block, columns, font_pt, shade))
            block = []
        block.append(line)
    if block:
        blocks.append(grid_block(block, columns, font_pt, shade))
    return FlowingGrid(_head_block(head, columns, font_pt), blocks)


def _head_block(lines: Sequence[grid.Line], columns: Sequence[grid.Column],
                font_pt: float) -> SafeString:
    """The column titles of a flowing grid, repeated on each page: shaded and ruled by CSS
    (an SVG positioned inside the table's head was drawn at the page's top, over the
    title, on the first page)."""
    line_mm = _line_mm(font_pt)
    style = (f"font-size: {font_pt:.1f}pt; line-height: {line_mm:.2f}mm; "
             f"width: {grid.grid_width(columns)}ch")
    body = "\n".join(grid.line_html(line, columns) for line in lines)
    return mark_safe(f'<div class="grid head" style="{style}"><pre>{body}</pre></div>')


def _key(tournament: Tournament, kind: str, lang: str, *extra: object,
         version: str | None = None) -> str:
    """Keyed by the board version unless ``version`` says what else the document prints."""
    parts = ":".join(str(e) for e in extra)
    return (f"skatclub-pdf:tournament:{FORMAT}:{kind}:{lang}:{parts}:"
            f"{board_version(tournament) if version is None else version}")


def seating_version(tournament: Tournament, series: int) -> str:
    """What the seat list and the table cards of a series print, as a digest: the
    tournament's version (registration, settings), its name, date and club, and each seat of
    the series with its table (number, code) and its player's name and start number. Three
    queries (a row per seat, a row per entrant, the tournament). A saved deal moves the
    board version on (at 250 tables a few times a second while they play) but changes none
    of this: the wall's seat list and the cards are rendered once a series, and again only
    when somebody is seated anew or renamed."""
    seats = list(Seat.objects.filter(table__evening_id=tournament.evening_id,
                                     table__series=series)
                 .order_by("table__number", "position")
                 .values_list("table__number", "table__access_code", "position", "player_id",
                              "player__name"))
    numbers = sorted(tournament.entrants.values_list("player_id", "number"))
    current = Tournament.objects.filter(pk=tournament.pk).values_list(
        "version", "name", "date", "club__name").get()
    state = json.dumps([current, seats, numbers], default=str)
    return hashlib.sha256(state.encode()).hexdigest()[:32]


# ------------------------------------------------------------------ the seat list


def _surname_split(name: str) -> tuple[str, str, str]:
    """(surname, given names, an addition in brackets): the last word of the name is the
    surname ("Paula Wagner (Gotha)": "Wagner", "Paula", "(Gotha)")."""
    words = name.split()
    extra: list[str] = []
    while len(words) > 1 and words[-1].startswith("(") and words[-1].endswith(")"):
        extra.insert(0, words.pop())
    if len(words) < 2:
        return " ".join(words), "", " ".join(extra)
    return words[-1], " ".join(words[:-1]), " ".join(extra)


def surname_first(name: str) -> str:
    """The name as a list by surname shows it: "Wagner, Paula (Gotha)"."""
    surname, given, extra = _surname_split(name)
    shown = f"{surname}, {given}" if given else surname
    return f"{shown} {extra}" if extra else shown


def surname_key(name: str) -> tuple[tuple[str, str], tuple[str, str], tuple[str, str]]:
    """The seat list's order (issue 35): by surname, then the given names, in reading
    order ("Ärger" with the A: scoring.collation.name_key)."""
    surname, given, extra = _surname_split(name)
    return name_key(surname), name_key(given), name_key(extra)


SEATS_MOST_PT = 12.0  # read on the wall


@dataclass
class SeatPage:
    first: bool  # the document's first page: its title above
    heading: str  # a section's heading on the section's first page, else ""
    grid: SafeString


def _rows_per_page(font_pt: float, head_lines: int, above_mm: float) -> int:
    room = (PAGE_HEIGHT_MM - above_mm) / _line_mm(font_pt)
    return max(1, int(room) - head_lines - 1)  # a line's worth of slack against rounding


def _person_cells(person: tuple[str, int | None, int, int] | None) -> list[grid.Cell]:
    if person is None:
        return [grid.EMPTY] * 4
    name, number, table, seat = person
    return [grid.cell(name), grid.cell("" if number is None else str(number)),
            grid.cell(str(table)), grid.cell(str(seat))]


def seat_pages(tournament: Tournament, series: int) -> list[SeatPage]:
    """The seat list's pages: everybody by surname in two halves a page (down the left half,
    then down the right), then the tables with their players. Two queries."""
    seated = dict(series_tables(tournament, series)).get(series, [])
    numbers = dict(tournament.entrants.values_list("player_id", "number"))
    people = [(_text(surname_first(player.name)), numbers.get(player.pk), st.table.number,
               seat + 1)
              for st, seat, player in sorted(
                  ((st, seat, player) for st in seated
                   for seat, player in enumerate(st.players)),
                  key=lambda found: surname_key(found[2].name))]
    titles = [_("Player"), _("No."), _("Table"), _("Seat")]
    half = [
        grid.Column(_width([p[0] for p in people], titles[0], 12, 28), "<", ""),
        grid.Column(_width([str(p[1] or "") for p in people], titles[1], 3, 5), ">"),
        grid.Column(_width([str(p[2]) for p in people], titles[2], 3, 5), ">"),
        grid.Column(_width([str(p[3]) for p in people], titles[3], 1, 5), ">"),
    ]
    columns = [*half, grid.Column(half[0].width, "<", "thick"), *half[1:]]
    font_pt = _font(columns, SEATS_MOST_PT)
    head = grid.head_lines([(t, 1) for t in titles * 2], columns)
    pages: list[SeatPage] = []
    rest = people
    while rest or not pages:
        first = not pages
        rows = _rows_per_page(font_pt, len(head), HEAD_MM if first else 0)
        if len(rest) < 2 * rows:
            rows = math.ceil(len(rest) / 2)
        left, right = rest[:rows], rest[rows:2 * rows]
        lines = [grid.Line([*_person_cells(p), *_person_cells(right[k] if k < len(right)
                                                             else None)], rule_below="thin")
                 for k, p in enumerate(left)]
        pages.append(SeatPage(first, "", grid_block([*head, *lines], columns, font_pt)))
        rest = rest[2 * rows:]

    seats = max((len(st.players) for st in seated), default=4)
    names = [_text(p.name) for st in seated for p in st.players]
    table_titles = [_("Table"), *(_("Seat %(n)s") % {"n": n} for n in range(1, seats + 1))]
    columns = [grid.Column(_width([str(st.table.number) for st in seated],
                                  table_titles[0], 3, 5), ">", "")]
    columns += [grid.Column(_width(names, title, 8, 24), "<", "thick" if n == 0 else "thin")
                for n, title in enumerate(table_titles[1:])]
    font_pt = _font(columns, SEATS_MOST_PT)
    head = grid.head_lines([(t, 1) for t in table_titles], columns)
    lines = [grid.Line([grid.cell(str(st.table.number)),
                        *(grid.cell(_text(p.name)) for p in st.players),
                        *[grid.EMPTY] * (seats - len(st.players))], rule_below="thin")
             for st in seated]
    start = 0
    while start < len(lines):
        heading = _("Tables") if start == 0 else ""
        rows = _rows_per_page(font_pt, len(head), SECTION_MM if heading else 0)
        pages.append(SeatPage(False, heading,
                              grid_block([*head, *lines[start:start + rows]], columns,
                                         font_pt)))
        start += rows
    return pages


def seat_list(tournament: Tournament, series: int, lang: str) -> Document:
    def html() -> str:
        with translation.override(lang):
            return render_to_string("scoring/tournament/seats_pdf.html", {
                "tournament": tournament, "series": series,
                "pages": seat_pages(tournament, series), "lang": lang,
                "generated": timezone.localtime()})
    return Document("seats", _key(tournament, "seats", lang, series,
                                  version=seating_version(tournament, series)),
                    f"sitzplan-serie-{series}.pdf", html, house_style=False)


# ------------------------------------------------------------------ table cards

@dataclass
class Card:
    table: Table
    code: str  # as printed: ABCD-EFGH
    url: str
    qr: str  # the QR code of ``url``: a data: URI of a PNG (qr.py); an image is drawn at
    # once where an SVG path of some hundred segments took 10 ms a card
    alt: str = ""  # the QR code's words for a screen reader
    players: list[str] | None = None  # in seat order, filled here


def table_cards(tournament: Tournament, series: int, lang: str,
                card: Callable[[Table], Card], origin: str = "") -> Document:
    """``origin``: the site's address the cards' links and QR codes point to (part of the
    key: a card printed for another address is another document)."""
    def html() -> str:
        with translation.override(lang):
            cards = []
            for st in dict(series_tables(tournament, series)).get(series, []):
                made = card(st.table)
                made.players = [player.name for player in st.players]
                cards.append(made)
            return render_to_string("scoring/tournament/cards_pdf.html", {
                "tournament": tournament, "series": series, "lang": lang,
                "sheets": [cards[i:i + 2] for i in range(0, len(cards), 2)]})
    return Document("cards", _key(tournament, "cards", lang, series, origin,
                                  version=seating_version(tournament, series)),
                    f"tischkarten-serie-{series}.pdf", html, house_style=False)


# ------------------------------------------------------------------ the ranking

RANKING_MOST_PT = 10.0
GROUP_WIDTH = 100  # characters of a team or tandem line (8.7 pt across the page)


def ranking_grid(rows: Sequence[Row], numbers: Sequence[int], with_money: bool) -> FlowingGrid:
    names = [_text(r.name + (f" ({r.entrant.category})" if r.entrant.category else ""))
             for r in rows]
    clubs = [_text(r.entrant.home_club) for r in rows]
    scores = [[minus(r.series.get(n)) for n in numbers] for r in rows]
    # an unpaid winner is marked on the prize list (the organiser settles it before paying out)
    prizes = [(money(r.prize, 2) + ("" if r.entrant.paid else " " + _("not paid")))
              if r.prize else "" for r in rows]
    titles = [_("Place"), _("No."), _("Player"), _("Club"),
              *(_("S%(number)s") % {"number": n} for n in numbers),
              _("Points"), pgettext("result, short", "won"),
              pgettext("result, short", "lost"), *([_("Prize money")] if with_money else [])]
    texts: list[list[str]] = [
        [f"{r.rank}." for r in rows], [str(r.entrant.number) for r in rows], names, clubs,
        *([s[k] for s in scores] for k in range(len(numbers))),
        [minus(r.score) for r in rows], [str(r.won) for r in rows],
        [str(r.lost) for r in rows], *([prizes] if with_money else [])]
    most = {2: 28, 3: 16}
    # the prize column holds "1.234,56 nicht bezahlt": wider than the figures beside it
    prize_column = len(texts) - 1 if with_money else -1
    columns = [grid.Column(_width(t, title, 1, most.get(k, 24 if k == prize_column else 10)),
                           "<" if k in most else ">", "" if k == 0 else "thin")
               for k, (t, title) in enumerate(zip(texts, titles, strict=True))]
    points = 4 + len(numbers)
    columns[points] = grid.Column(columns[points].width, ">", "thick")
    lines = [grid.Line([grid.cell(t[i]) for t in texts], rule_below="thin")
             for i in range(len(rows))]
    return flowing_grid([(t, 1) for t in titles], columns, lines, RANKING_MOST_PT,
                        shade=[points])


def group_grid(groups: Sequence[Group], with_money: bool = False) -> FlowingGrid:
    """Teams or tandems: a line each, the members (with their points) wrapped below, and the
    list's prize money where the organiser set prizes for it."""
    titles = [_("Place"), _("Name"), _("Players"), _("Points"),
              pgettext("result, short", "won"), pgettext("result, short", "lost"),
              *([_("Prize money")] if with_money else [])]
    texts = [[f"{g.rank}." for g in groups], [_text(g.name) for g in groups], [],
             [minus(g.score) for g in groups], [str(g.won) for g in groups],
             [str(g.lost) for g in groups],
             *([[money(g.prize, 2) if g.prize else "" for g in groups]] if with_money else [])]
    widths = [_width(t, title, 1, 24) for t, title in zip(texts, titles, strict=True)]
    widths[2] = max(20, GROUP_WIDTH - sum(widths) - grid.GAP * (len(widths) - 1)
                    - 2 * grid.EDGE)
    columns = [grid.Column(w, "<" if k in (1, 2) else ">", "" if k == 0 else "thin")
               for k, w in enumerate(widths)]
    lines: list[grid.Line] = []
    for i, group in enumerate(groups):
        members = ", ".join(f"{_text(m.name)} ({minus(m.score)})" for m in group.members)
        wrapped = textwrap.wrap(members, widths[2]) or [""]
        for k, part in enumerate(wrapped):
            cells = [grid.cell(t[i]) if k == 0 and t else grid.EMPTY for t in texts]
            cells[2] = grid.cell(part)
            lines.append(grid.Line(cells, rule_below="thin" if k == len(wrapped) - 1 else "",
                                   joined=k > 0))
    return flowing_grid([(t, 1) for t in titles], columns, lines, RANKING_MOST_PT,
                        shade=[3])


def rankings(tournament: Tournament, after: int | None, lang: str) -> Document:
    def html() -> str:
        with translation.override(lang):
            ranking = tournament_ranking(tournament, after)
            numbers = ranking.series_numbers
            return render_to_string("scoring/tournament/ranking_pdf.html", {
                "tournament": tournament, "ranking": ranking, "lang": lang,
                "overall": ranking_grid(ranking.rows, numbers, True),
                # each category, the teams and the tandems: a list of its own, with its
                # prizes where the organiser set some (reads/tournament.py PrizeList)
                "lists": [(pl, ranking_grid(pl.rows, numbers, pl.money)  # type: ignore[arg-type]
                           if pl.kind == "category"
                           else group_grid(pl.rows, pl.money))  # type: ignore[arg-type]
                          for pl in ranking.prize_lists if pl.rows],
                "generated": timezone.localtime()})
    return Document("ranking", _key(tournament, "ranking", lang, after),
                    f"rangliste-{after or 'gesamt'}.pdf", html, house_style=False)


# ------------------------------------------------------------------ the standard list

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
            table = tables_with_everything(Table.objects.filter(
                evening_id=tournament.evening_id, series=series, number=number)).get()
            seated = [seat.player for seat in table.seats.all()]
            players = [player.name for player in seated]
            starts = dict(tournament.entrants.filter(
                player__in=[player.pk for player in seated]).values_list("player_id", "number"))
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
                "players": players,
                "heads": [(player.name, starts.get(player.pk)) for player in seated],
                "initials": initials, "lines": lines,
                "footer": footer, "blank": blank, "seats": len(players),
                "bonus": 40 if len(players) == 3 else 30, "lang": lang,
                "signatures": [] if blank else printed_signatures(table)})
    kind = "blank" if blank else "filled"
    return Document("list", _key(tournament, "list", lang, series, number, kind),
                    f"spielliste-serie-{series}-tisch-{number}{'-leer' if blank else ''}.pdf",
                    html, house_style=False)
