"""The printed score sheet as a character grid, paginated here rather than by WeasyPrint.

Why a grid: WeasyPrint lays out a ``<table>`` cell by cell (about 10 ms per row of a score
sheet, 10.7 s for 1,000 deals on this machine), and most of that is per box: styles, line
breaking and drawing for every cell. A score sheet is a grid of short texts in fixed columns,
so each page here is *one* ``<pre>`` block in DejaVu Sans Mono, one text line per deal, every
column padded to its width in characters. Only what must differ gets an inline element (the
bold entry, a red one, a red suit). The ruling is one small inline SVG per page behind the
text, drawn in grid units (x in characters, y in lines), so its lines meet the text exactly.

Pages are cut here: the number of lines a page holds is known (fixed line height), so every
page is a block of its own with the column titles repeated at its top and the totals,
Seeger-Fabian and money lines on the last page together with at least one deal.

Everything here is plain Python on a ``ScoreSheet`` (the one source the HTML sheet renders
too); ``scoring.pdf.documents`` puts it into the template and hands it to WeasyPrint.
"""

from __future__ import annotations

import functools
import html
import math
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.notation import (
    CORRECTED_MARK,
    MINUS,
    bock_mark,
    book_rows,
    kontra_mark,
    level_marks,
    levels_legend,
    marks_legend,
    minus,
    ramsch_mark,
    ramsch_words,
    seeger_fabian,
    short_names,
    unique_prefixes,
)
from scoring.reads.sheet import QUICK_SHORT, ScoreSheet, SheetRow

MONO_FONT = "DejaVu Sans Mono"
MONO_ADVANCE = 1233 / 2048  # DejaVu Sans Mono: every glyph is this many em wide
MM_PER_PT = 25.4 / 72



@dataclass(frozen=True)
class Paper:
    """The printable area of an A4 page: the margins are in scoring/pdf/print.css (15 mm top
    and bottom, 10 mm at the sides) and must agree."""

    width_mm: float
    height_mm: float
    landscape: bool


PORTRAIT = Paper(190.0, 267.0, False)
LANDSCAPE = Paper(277.0, 180.0, True)
CONTENT_WIDTH_MM = PORTRAIT.width_mm
CONTENT_HEIGHT_MM = PORTRAIT.height_mm
LINE_MM = 4.2  # one deal
MAX_FONT_PT = 8.0
MIN_FONT_PT = 5.0
HEAD_MM = 30.0  # the sheet's head on page 1 (club, date, players, rules): fixed height
END_MM = 30.0  # legend (up to four lines) and signature lines under the grid on the last page
NOTE_MM = 3.5  # one footnote of a correction after signing (issue 36), on top of END_MM

GAP = 1  # characters between two columns; a rule runs through its middle
EDGE = 1  # a blank character at either end of every line, the frame through its middle
ELLIPSIS = "…"

# Ruling, in millimetres, and the shading of Bock and Ramsch rounds (colours as on screen).
THIN_MM = 0.12
THICK_MM = 0.45
ROUND_MM = 0.55
RULE = "#9a9a90"
STRONG = "#1b1b1b"
SHADES = {"bock": "#fff0c2", "ramsch": "#dde8f8", "head": "#ecebe3", "sum": "#f4f3ec"}

# ------------------------------------------------------------------ cells and columns

@dataclass(frozen=True)
class Column:
    width: int  # characters
    align: str = "<"  # "<" left, ">" right, "^" centred
    rule: str = "thin"  # on the column's left edge: "thin", "thick" or ""


@dataclass(frozen=True)
class Cell:
    """A cell's text in parts, each with a style: "" plain, "b" bold, "n" bold red (a
    negative entry), "r" red (♥ ♦). ``span`` columns are merged (their gaps included)."""

    parts: tuple[tuple[str, str], ...] = ()
    span: int = 1
    align: str | None = None  # overrides the column's

    @property
    def text(self) -> str:
        return "".join(text for text, _style in self.parts)


def cell(text: str = "", style: str = "", span: int = 1, align: str | None = None) -> Cell:
    return Cell(((text, style),) if text else (), span, align)


EMPTY = Cell()


@dataclass
class Line:
    cells: list[Cell]
    shade: str = ""  # a key of SHADES
    rule_below: str = ""  # "thin" (every deal), "round" (a round ends), "strong"
    bold: bool = False
    underline: tuple[int, ...] = ()  # columns ruled underneath (the book layout)
    joined: bool = False  # belongs to the line above: never the first line of a page


@dataclass
class Page:
    number: int
    lines: list[Line]
    first: bool
    last: bool
    html: SafeString = field(default=mark_safe(""))
    svg: SafeString = field(default=mark_safe(""))

    @property
    def height_css(self) -> str:
        return f"{len(self.lines) * LINE_MM:.3f}mm"  # not localised: "12,6mm" is no CSS


@dataclass
class Grid:
    """A paginated sheet: ``width`` characters wide at ``font_pt`` on ``paper``."""

    columns: list[Column]
    pages: list[Page]
    font_pt: float
    legend: list[str]
    paper: Paper = PORTRAIT
    end_mm: float = END_MM  # the legend, the notes and the signatures under the grid

    @property
    def end_css(self) -> str:
        return f"{self.end_mm - 1:.1f}mm"  # less its slack; not localised

    @property
    def width(self) -> int:
        return grid_width(self.columns)

    @property
    def font_css(self) -> str:
        return f"{self.font_pt:.1f}pt"


def grid_width(columns: Sequence[Column]) -> int:
    """Characters per line: the columns, the gaps between them and the two edges."""
    return sum(c.width for c in columns) + GAP * (len(columns) - 1) + 2 * EDGE


# ------------------------------------------------------------------ text that fits the grid

@functools.cache
def _mono_coverage() -> frozenset[int] | None:
    """The code points DejaVu Sans Mono has, or None when it cannot be read (then every
    character is trusted)."""
    if shutil.which("fc-match") is None:
        return None
    try:
        path = subprocess.run(
            ["fc-match", "--format=%{file}", MONO_FONT], capture_output=True, text=True,
            timeout=5, check=True).stdout.strip()
        from fontTools.ttLib import TTFont  # WeasyPrint's own dependency

        font = TTFont(path, lazy=True)
        if MONO_FONT not in (font["name"].getDebugName(1) or ""):
            return None
        return frozenset(font.getBestCmap())
    except Exception:  # no font, no fontconfig: print anyway, maybe less aligned
        return None


def grid_text(text: str) -> str:
    """``text`` as one character per grid cell: composed (NFC), one line, and with any
    character the monospaced font lacks (it would come from a proportional fallback font
    and push the rest of the line out of its columns) replaced by "?"."""
    text = unicodedata.normalize("NFC", " ".join(str(text).split()))
    coverage = _mono_coverage()
    if coverage is None or all(ord(ch) in coverage for ch in text):
        return text
    return "".join(ch if ord(ch) in coverage else "?" for ch in text)


def fit(text: str, width: int, align: str) -> str:
    if len(text) > width:
        return text[: max(width - 1, 0)] + ELLIPSIS if width > 0 else ""
    if align == ">":
        return text.rjust(width)
    if align == "^":
        return text.center(width)
    return text.ljust(width)


_TAGS = {"b": ("<b>", "</b>"), "n": ('<b class="neg">', "</b>"),
         "r": ('<span class="red">', "</span>")}


def escape(text: str) -> str:
    return html.escape(text, quote=False)  # text inside <pre>: no attribute values


def line_html(line: Line, columns: Sequence[Column]) -> str:
    """One grid line as HTML: every cell padded to its columns, styled parts wrapped."""
    out: list[str] = []
    index = 0
    for item in line.cells:
        span = columns[index: index + item.span]
        width = sum(c.width for c in span) + GAP * (len(span) - 1)
        align = item.align or span[0].align
        text = item.text
        if len(text) > width or all(not style for _part, style in item.parts):
            out.append(escape(fit(text, width, align)))  # a cut text loses its styles
        else:
            room = width - len(text)
            left = room if align == ">" else (room // 2 if align == "^" else 0)
            out.append(" " * left)
            for part, style in item.parts:
                if style:
                    start, end = _TAGS[style]
                    out.append(f"{start}{escape(part)}{end}")
                else:
                    out.append(escape(part))
            out.append(" " * (room - left))
        index += item.span
        if index < len(columns):
            out.append(" " * GAP)
    markup = " " * EDGE + "".join(out).rstrip()
    return f"<b>{markup}</b>" if line.bold else markup


# ------------------------------------------------------------------ the ruling

def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _spanned(line: Line) -> set[int]:
    """The columns whose left edge lies inside one of the line's cells."""
    inside: set[int] = set()
    index = 0
    for item in line.cells:
        inside.update(range(index + 1, index + item.span))
        index += item.span
    return inside


def ruling_svg(lines: Sequence[Line], columns: Sequence[Column], font_pt: float,
               line_mm: float = LINE_MM, shade_columns: Sequence[int] = ()) -> str:
    """The page's ruling behind the text: shading, a thin rule under every line, a thick one
    after each round, the column rules. One SVG in grid units (x: characters, y: lines),
    stretched over the grid box, so rules sit exactly between the columns of text.
    ``line_mm``: the grid's line height (the tournament lists print larger than a sheet);
    ``shade_columns``: columns shaded all the way down (a ranking's points), which costs
    one rectangle where bold text would cost a box per line."""
    width = grid_width(columns)
    height = len(lines)
    char_mm = MONO_ADVANCE * font_pt * MM_PER_PT

    def y_units(mm: float) -> str:
        return _num(mm / line_mm)

    def x_units(mm: float) -> str:
        return _num(mm / char_mm)

    shades: list[str] = []
    run_start, run_shade = 0, ""
    for number, line in enumerate([*lines, Line([])]):
        if line.shade != run_shade:
            if run_shade:
                shades.append(f'<rect x="0" y="{run_start}" width="{width}" '
                              f'height="{number - run_start}" fill="{SHADES[run_shade]}"/>')
            run_start, run_shade = number, line.shade
    for col in shade_columns:
        x0 = EDGE + sum(c.width + GAP for c in columns[:col]) - GAP / 2
        shades.append(f'<rect x="{_num(x0)}" y="0" width="{columns[col].width + GAP}" '
                      f'height="{height}" fill="{SHADES["sum"]}"/>')
    thin_h: list[str] = []
    round_h: list[str] = []
    strong_h: list[str] = []
    under: list[str] = []
    for number, line in enumerate(lines, start=1):
        target = {"thin": thin_h, "round": round_h, "strong": strong_h}.get(line.rule_below)
        if target is not None:
            target.append(f"M0 {number}H{width}")
        for col in line.underline:
            x0 = EDGE + sum(c.width + GAP for c in columns[:col])
            under.append(f"M{x0} {_num(number - 0.06)}H{x0 + columns[col].width}")
    # A column's rule runs down every line except where a cell spans across it (the labels
    # of the foot, a player's name over his two columns).
    covered = [_spanned(line) for line in lines]
    thin_v = [f"M{EDGE / 2} 0V{height}M{width - EDGE / 2} 0V{height}"]
    thick_v: list[str] = []
    x = EDGE
    for number, column in enumerate(columns):
        if number and column.rule:
            edge = _num(x - GAP / 2)
            target = thick_v if column.rule == "thick" else thin_v
            start = None
            for y, hidden in enumerate([*(number in c for c in covered), True]):
                if not hidden and start is None:
                    start = y
                elif hidden and start is not None:
                    target.append(f"M{edge} {start}V{y}")
                    start = None
        x += column.width + GAP

    def path(parts: list[str], colour: str, stroke: str) -> str:
        if not parts:
            return ""
        return (f'<path d="{"".join(parts)}" stroke="{colour}" stroke-width="{stroke}" '
                f'fill="none"/>')

    return (
        f'<svg class="ruling" viewBox="0 0 {width} {height}" preserveAspectRatio="none" '
        f'xmlns="http://www.w3.org/2000/svg" aria-hidden="true">'
        + "".join(shades)
        + path(thin_h, RULE, y_units(THIN_MM))
        + path(thin_v, RULE, x_units(THIN_MM))
        + path(thick_v, STRONG, x_units(THICK_MM))
        + path(round_h, STRONG, y_units(ROUND_MM))
        + path(strong_h, STRONG, y_units(THICK_MM))
        + path(under, STRONG, y_units(THICK_MM))
        + "</svg>"
    )


# ------------------------------------------------------------------ pagination

def lines_per_page(first: bool, paper: Paper = PORTRAIT) -> int:
    height = paper.height_mm - (HEAD_MM if first else 0)
    return int(height // LINE_MM) - 1  # a line's worth of slack against rounding


def paginate(head: Sequence[Line], body: Sequence[Line], foot: Sequence[Line],
             paper: Paper = PORTRAIT, end_mm: float = END_MM) -> list[Page]:
    """Pages of at most ``lines_per_page`` lines, each starting with ``head``; the last page
    also holds ``foot`` and the legend and signatures under the grid, and at least one line
    of ``body`` (a sheet never ends on a page of totals alone)."""
    end_lines = math.ceil(end_mm / LINE_MM)
    pages: list[Page] = []
    rest = list(body)
    while True:
        first = not pages
        room = lines_per_page(first, paper) - len(head)
        if len(rest) + len(foot) + end_lines <= room:
            pages.append(Page(len(pages) + 1, [*head, *rest, *foot], first, True))
            return pages
        take = min(room, max(len(rest) - 1, 0))
        while 0 < take < len(rest) and rest[take].joined:  # keep a deal's lines together
            take -= 1
        if take <= 0:  # the foot alone does not fit on a page: let it run on
            pages.append(Page(len(pages) + 1, [*head, *rest, *foot], first, True))
            return pages
        pages.append(Page(len(pages) + 1, [*head, *rest[:take]], first, False))
        rest = rest[take:]


def font_for(columns: Sequence[Column], paper: Paper = PORTRAIT) -> float:
    """The largest size (in 0.1 pt) at which the grid fits the page width."""
    fits = paper.width_mm / (grid_width(columns) * MONO_ADVANCE * MM_PER_PT)
    return max(MIN_FONT_PT, min(MAX_FONT_PT, math.floor(fits * 10) / 10))


def finish(columns: list[Column], head: list[Line], body: list[Line], foot: list[Line],
           legend: list[str], paper: Paper = PORTRAIT, notes: int = 0) -> Grid:
    """``notes``: footnotes printed under the legend (corrections after signing)."""
    font_pt = font_for(columns, paper)
    end_mm = END_MM + NOTE_MM * notes
    pages = paginate(head, body, foot, paper, end_mm)
    for page in pages:
        page.html = mark_safe("\n".join([line_html(line, columns) for line in page.lines]))
        page.svg = mark_safe(ruling_svg(page.lines, columns, font_pt))
    return Grid(columns, pages, font_pt, legend, paper, end_mm)


# ------------------------------------------------------------------ column titles

# A column title is never cut short: where it is wider than its column's figures it takes two
# lines ("Allein-" over "spieler", "with/" over "without"), broken at a space, a slash or a
# hyphen, or else hyphenated with WeasyPrint's own dictionaries (pyphen); each part at least
# three letters, so no "De-" over "clarer". Only a title that cannot be broken widens its
# column. Two short lines read better than "Alleinsp…" or "Rei…", and cost one line per page.

class _Hyphenator(Protocol):
    """What title_splits asks of pyphen.Pyphen (pyphen ships no types)."""

    def iterate(self, word: str) -> Iterable[tuple[str, str]]: ...


@functools.cache
def _hyphenator(lang: str) -> _Hyphenator | None:
    try:
        import pyphen  # WeasyPrint's own dependency

        hyphenator: _Hyphenator = pyphen.Pyphen(lang="de_DE" if lang == "de" else "en_US")
        return hyphenator
    except Exception:  # no dictionary: titles break at spaces, slashes and hyphens only
        return None


def _language() -> str:
    from django.utils.translation import get_language

    return "de" if (get_language() or "de").startswith("de") else "en"


def title_splits(title: str) -> list[tuple[str, str]]:
    """The ways ``title`` may be broken over two lines, as (top, bottom)."""
    out: list[tuple[str, str]] = []
    for i, ch in enumerate(title):
        if ch == " ":
            out.append((title[:i], title[i + 1:]))
        elif ch in "/-" and 0 < i < len(title) - 1:
            out.append((title[: i + 1], title[i + 1:]))
    if not out:
        hyphenator = _hyphenator(_language())
        if hyphenator is not None:
            out += [(top + "-", bottom) for top, bottom in hyphenator.iterate(title)
                    if len(top) >= 3 and len(bottom) >= 3]
    return [(top, bottom) for top, bottom in out if top.strip() and bottom.strip()]


def title_width(title: str) -> int:
    """The narrowest a column can be and still show ``title`` whole, on at most two lines."""
    return min([len(title), *(max(len(a), len(b)) for a, b in title_splits(title))])


def title_lines(title: str, width: int) -> tuple[str, str]:
    """``title`` in a column ``width`` wide, as (top line, bottom line): on the bottom line
    alone where it fits, else broken where the longer line is shortest."""
    if len(title) <= width:
        return "", title
    fitting = [s for s in title_splits(title) if max(len(s[0]), len(s[1])) <= width]
    if not fitting:
        return "", title  # cannot happen for a column at least title_width wide
    return min(fitting, key=lambda s: (max(len(s[0]), len(s[1])), -len(s[0])))


def head_lines(titles: Sequence[tuple[str, int]], columns: Sequence[Column]) -> list[Line]:
    """The title lines of a grid: ``titles`` as (text, columns spanned); one line, or two
    where a title had to be broken."""
    top: list[Cell] = []
    bottom: list[Cell] = []
    index = 0
    for text, span in titles:
        spanned = columns[index: index + span]
        width = sum(c.width for c in spanned) + GAP * (len(spanned) - 1)
        upper, lower = title_lines(text, width)
        align = "^" if span > 1 else None
        top.append(cell(upper, span=span, align=align))
        bottom.append(cell(lower, span=span, align=align))
        index += span
    if not any(c.text for c in top):
        return [Line(bottom, shade="head", rule_below="strong", bold=True)]
    return [Line(top, shade="head", bold=True),
            Line(bottom, shade="head", rule_below="strong", bold=True)]


# ------------------------------------------------------------------ the standard layout

def _width(texts: Iterable[str], least: int, most: int) -> int:
    return max(least, min(most, max((len(t) for t in texts), default=0)))


def _matadors(values: Iterable[int | None]) -> list[str]:
    with_ = pgettext("matadors, printed", "with %d")
    without = pgettext("matadors, printed", "without %d")
    return [(with_ if value > 0 else without) % abs(value) if value else "" for value in values]


def _signed(value: int | None) -> str:
    return minus(value) if value is not None else ""


def _entry_cell(value: int | None, span: int = 1) -> Cell:
    if value is None:
        return Cell(span=span)
    return cell(minus(value), "n" if value < 0 else "b", span=span)


def _number_cell(value: int | str | None, span: int = 2, bold: bool = False) -> Cell:
    text = minus(value) if value is not None else ""
    negative = text.startswith(MINUS)
    return cell(text, "n" if negative else ("b" if bold else ""), span=span, align=">")


def standard_grid(sheet: ScoreSheet, net_money: list[str] | None,
                  money_label: str) -> Grid:
    """The ruled sheet of table-screen.md: Nr., Geber, Alleinspieler, Spiel, mit/ohne, the
    level ticks, Reizwert, Augen, K/R, Bock, then per player the entry and running total."""
    names = [grid_text(n) for n in short_names(sheet)]
    marks = unique_prefixes(names)  # who said Kontra in a few letters: "K Ä" (issue 36)
    rows = sheet.rows
    corrected = sheet.corrected  # changed after signing (issue 36): "3*"
    titles = [_("No."), _("Dealer"), _("Declarer"), _("Game"),
              pgettext("matadors column, printed", "with/without"),
              _("Levels"), _("Bid"), _("Card points"), "K/R", "Bock"]
    data = _Data(
        numbers=[f"{r.number}{CORRECTED_MARK if r.deal_id in corrected else ''}"
                 for r in rows],
        games=[grid_text(f"{r.symbol} {r.game_base}".strip()) for r in rows],
        mats=_matadors(r.matadors for r in rows),
        bids=[str(r.bid) if r.bid is not None else "" for r in rows],
        results=[grid_text(r.result_short) for r in rows],
        marks=[bock_mark(r) + ramsch_mark(r) for r in rows],
        kontras=[grid_text(kontra_mark(r, marks)) for r in rows],
        levels=[level_marks(r) for r in rows],
        entries=[[_signed(v) for v in r.entries] for r in rows],
        totals=[[minus(v) for v in r.totals] for r in rows],
        dealers=[names[r.dealer] for r in rows],
        declarers=[names[r.declarer] for r in rows if r.declarer is not None],
    )
    out_mark = pgettext("sits out as dealer, one letter", "D")
    paper, cap = _layout(sheet, names, titles, data, net_money)
    columns = _standard_columns(names, cap, titles, data, sheet, net_money)
    fixed = FIXED_COLUMNS
    head = head_lines([*((t, 1) for t in titles), *((name, 2) for name in names)], columns)

    body: list[Line] = []
    card_points = _("Card points")
    for i, row in enumerate(rows):
        body.append(_deal_line(row, data.numbers[i], names, data.games[i], data.mats[i],
                               data.levels[i], data.bids[i], data.results[i],
                               data.marks[i], data.kontras[i], data.entries[i],
                               data.totals[i], out_mark))
        # Who lost the Ramsch, Jungfrau, Durchmarsch: said before its card points, or on a
        # line of its own under a Ramsch entered the short way (no card points).
        outcome = grid_text(ramsch_words(row, names))
        if row.ramsch_points:  # a second line: every player's card points of the Ramsch
            label = f"{outcome} · {card_points}" if outcome else card_points
            body.append(Line(
                [cell(label, span=fixed, align=">"),
                 *[c for v in row.ramsch_points
                   for c in (cell("" if v is None else str(v), align=">"), EMPTY)]],
                shade=body[-1].shade, rule_below=body[-1].rule_below, joined=True))
            body[-2].rule_below = ""
        elif outcome:
            body[-1].rule_below, rule = "", body[-1].rule_below
            body.append(Line([EMPTY, cell(grid_text(outcome), span=fixed - 1)],
                             shade=body[-1].shade, rule_below=rule, joined=True))
        if row.bock_notes:  # bock.manual: what the table decided by hand, under the deal
            body[-1].rule_below, rule = "", body[-1].rule_below
            body.append(Line([EMPTY, cell(grid_text(" · ".join(row.bock_notes)),
                                          span=fixed - 1)],
                             shade=body[-1].shade, rule_below=rule, joined=True))
    if not rows:
        body.append(Line([cell(_("No deals yet."), span=fixed)]))

    foot = _standard_foot(sheet, fixed, net_money, money_label)
    legend = [
        levels_legend(),
        marks_legend(marks[0] if marks else "", names[0] if names else ""),
        _("Bold: the deal's entry; beside it each player's running total. A thick line closes "
          "each round."),
    ]
    # The short words of the printed columns, said once in full.
    legend.append(_("%(mats)s: with or without so many matadors. %(points)s: the declarer's "
                    "card points, or %(won)s/%(lost)s where only the result was entered.")
                  % {"mats": titles[4], "points": titles[-3], "won": QUICK_SHORT["won"],
                     "lost": QUICK_SHORT["lost"]})
    if any(any(r.sits_out) for r in rows):
        legend.append(_("%(mark)s: the dealer, who sits out this deal.") % {"mark": out_mark})
    return finish(columns, head, body, foot, legend, paper, len(sheet.corrections))


FIXED_COLUMNS = 10  # No., Dealer, Declarer, Game, with/without, levels, Bid, Pts, K/R, Bock
# The smallest size the sheet prints at where it can: 7.5 pt of DejaVu Sans Mono still reads
# at arm's length on a club table; 6.5 pt (a 6-table on an upright page) did not.
READABLE_PT = 7.5
LEAST_NAME = 9  # a name is cut to no fewer characters than this


@dataclass(frozen=True)
class _Data:
    """The texts of the standard layout's columns, one per deal (what sets their widths)."""

    numbers: list[str]
    games: list[str]
    mats: list[str]
    bids: list[str]
    results: list[str]
    marks: list[str]
    kontras: list[str]
    levels: list[str]
    entries: list[list[str]]
    totals: list[list[str]]
    dealers: list[str]
    declarers: list[str]


def _layout(sheet: ScoreSheet, names: list[str], titles: list[str], data: _Data,
            net_money: list[str] | None) -> tuple[Paper, int]:
    """The page and the widest names that keep the sheet at READABLE_PT or larger.

    Why: on an upright A4 page a 5- or 6-table's twelve player columns pushed the grid down to
    about 6 pt, which nobody at the table could read. The sheet is printed upright where it
    fits at 7.5 pt with every name whole (a 3- or 4-table, as a club files it); a 5- or
    6-table, or a 4-table of long names, is printed across the page (A4 landscape, 277 mm
    instead of 190 mm of line), and only where that is not enough are names cut, down to
    LEAST_NAME characters, before the size goes below 7.5 pt."""
    widest = max([len(n) for n in names] + [LEAST_NAME])
    papers = [LANDSCAPE] if len(names) >= 5 else [PORTRAIT, LANDSCAPE]

    def readable(paper: Paper, cap: int) -> bool:
        columns = _standard_columns(names, cap, titles, data, sheet, net_money)
        return font_for(columns, paper) >= READABLE_PT

    for paper in papers:
        if readable(paper, widest):
            return paper, widest
    cap = next((c for c in range(widest - 1, LEAST_NAME - 1, -1) if readable(LANDSCAPE, c)),
               LEAST_NAME)
    return LANDSCAPE, cap


def _titled(texts: Iterable[str], title: str, least: int, most: int) -> int:
    """A column as wide as its texts (between ``least`` and ``most``) and never narrower than
    its title needs on two lines."""
    return max(_width(texts, least, most), title_width(title))


def _standard_columns(names: list[str], cap: int, titles: list[str], data: _Data,
                      sheet: ScoreSheet, net_money: list[str] | None) -> list[Column]:
    players = len(names)
    number, dealer, declarer, game, mats = titles[:5]
    bid, result, kontra, bock = titles[-4:]
    columns = [
        Column(_titled(data.numbers, number, 2, 5), ">", ""),
        Column(_titled(data.dealers, dealer, 4, cap)),
        Column(_titled(data.declarers, declarer, 4, cap)),
        Column(_titled(data.games, game, 5, 14)),
        Column(_titled(data.mats, mats, 3, 12)),
        # the row's levels in letters that each mean one thing (issue 36: six columns
        # titled "H S A S A O" said S and A twice): "H Sn SnA", the legend says them
        Column(max(_titled(data.levels, titles[5], 3, 17), len(titles[5])), "<"),
        Column(_titled(data.bids, bid, 3, 4), ">"),
        Column(_titled(data.results, result, 3, 9), ">"),
        Column(_titled(data.kontras, kontra, 3, cap + 5), "^"),
        Column(_titled(data.marks, bock, 3, 4), "^"),
    ]
    assert len(columns) == FIXED_COLUMNS
    footer_numbers = list(sheet.totals)
    for line in seeger_fabian(sheet):
        footer_numbers += [line.won_bonus, line.lost_malus, line.others_bonus, line.total]
    for seat in range(players):
        entry_w = _width([e[seat] for e in data.entries], 3, 7)
        total_w = _width([t[seat] for t in data.totals] + [minus(v) for v in footer_numbers]
                         + (net_money or []), 4, 9)
        # The name over both sub-columns: whole where the names may be this wide, else on
        # two lines; widen the total for it.
        name = names[seat]
        room = max(title_width(name), min(len(name), cap + 3))
        total_w = max(total_w, room - entry_w - GAP)
        columns += [Column(entry_w, ">", "thick"), Column(total_w, ">", "")]
    return columns


def _deal_line(row: SheetRow, number: str, names: list[str], game: str, mats: str,
               levels: str, bid: str, result: str, mark: str, kontra: str, entries: list[str],
               totals: list[str], out_mark: str) -> Line:
    symbol = row.symbol
    if symbol and row.red:
        game_cell = Cell(((symbol, "r"), (game[len(symbol):], "")))
    else:
        game_cell = cell(game)
    cells = [
        cell(number), cell(names[row.dealer]),
        cell(names[row.declarer] if row.declarer is not None else ""), game_cell, cell(mats),
        cell(levels),
        cell(bid), cell(result), cell(kontra), cell(mark),
    ]
    for seat, value in enumerate(row.entries):
        if entries[seat]:
            cells.append(_entry_cell(value))
        elif seat not in row.active:
            cells.append(cell(out_mark if seat == row.dealer else "–", align="^"))
        else:
            cells.append(EMPTY)
        cells.append(cell(totals[seat]))
    shade = "bock" if row.bock else ("ramsch" if row.ramsch_round else "")
    return Line(cells, shade=shade, rule_below="round" if row.round_end else "thin")


def _standard_foot(sheet: ScoreSheet, fixed: int, net_money: list[str] | None,
                   money_label: str) -> list[Line]:
    def line(label: str, values: Sequence[int | str], *, bold: bool = False,
             rule: str = "thin", shade: str = "") -> Line:
        return Line([cell(label, "b" if bold else "", span=fixed, align=">"),
                     *[_number_cell(v, bold=bold) for v in values]],
                    rule_below=rule, shade=shade)

    foot = [line(_("Total"), sheet.totals, bold=True, rule="strong", shade="sum")]
    sf = seeger_fabian(sheet)
    if sf:
        foot += [
            line(_("Games won"), [x.won for x in sf]),
            line(_("Games lost"), [x.lost for x in sf]),
            line(_("Won games × 50"), [x.won_bonus for x in sf]),
            line(_("Lost games × −50"), [x.lost_malus for x in sf]),
            line(_("Others' lost games × %(bonus)s") % {"bonus": sheet.lost_bonus},
                 [x.others_bonus for x in sf]),
            line(_("Seeger-Fabian points"), [x.total for x in sf], bold=True, rule="strong",
                 shade="sum"),
        ]
    if net_money:
        foot.append(line(money_label, net_money, bold=True, rule="strong"))
    return foot


# ------------------------------------------------------------------ the historical layout

def book_grid(sheet: ScoreSheet, net_money: list[str] | None, money_label: str) -> Grid:
    """The 1898 and Hoyle books' layout: one column per player holding only his entries, each
    with the running balance; every n-th entry of a column underlined (DECISIONS §5, H-15)."""
    names = [grid_text(n) for n in short_names(sheet)]
    lines = book_rows(sheet)
    players = len(names)
    label = _("Line")
    # The first column also holds the labels of the foot.
    number_w = _width([str(len(lines)), label, _("Total"), money_label if net_money else ""],
                      3, 18)
    columns = [Column(number_w, ">", "")]
    for seat in range(players):
        own = [book for line in lines if (book := line[seat]) is not None]
        entries = [minus(book.entry) for book in own]
        balances = [minus(book.balance) for book in own]
        entry_w = _width(entries, 4, 7)
        balance_w = _width([*balances, minus(sheet.totals[seat]), *(net_money or [])], 5, 9)
        room = max(title_width(names[seat]), min(len(names[seat]), 14))
        balance_w = max(balance_w, room - entry_w - GAP)
        columns += [Column(entry_w, ">", "thick"), Column(balance_w, ">", "")]
    head = head_lines([(label, 1), *((name, 2) for name in names)], columns)
    body = []
    for number, line in enumerate(lines, start=1):
        cells = [cell(str(number))]
        underline: list[int] = []
        for seat, entry in enumerate(line):
            if entry is None:
                cells += [EMPTY, EMPTY]
                continue
            cells += [_entry_cell(entry.entry), cell(minus(entry.balance))]
            if entry.underline:
                underline += [1 + 2 * seat, 2 + 2 * seat]
        body.append(Line(cells, rule_below="thin", underline=tuple(underline)))
    if not lines:
        body.append(Line([cell(_("No deals yet."), span=len(columns))]))
    foot = [Line([cell(_("Total"), "b", align=">"),
                  *[_number_cell(v, bold=True) for v in sheet.totals]],
                 rule_below="strong", shade="sum")]
    if net_money:
        foot.append(Line([cell(money_label, "b", align=">"),
                          *[_number_cell(v, bold=True) for v in net_money]],
                         rule_below="strong"))
    legend = [_("Each column holds one player's entries with the running balance; a line "
                "under every %(n)d entries.") % {"n": players}]
    return finish(columns, head, body, foot, legend, notes=len(sheet.corrections))
