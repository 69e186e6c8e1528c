"""How a score sheet is written, the same on the web page and on paper: numbers with a real
minus sign (U+2212), signed entries, the players' short names, the Kontra, Bock and Ramsch
marks, the level letters (H Sn SnA Sw SwA O), the historical book layout's rows, the Seeger-Fabian
footer, a deal in words, and the season pages' numbers (grouped points, one decimal, money
with its currency).

Neutral ground: the template filters (scoring/templatetags/) register these functions and the
printed documents (scoring/pdf/) call them directly, so printing never depends on the web
layer."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import get_language, gettext_noop, ngettext, pgettext
from django.utils.translation import gettext as _

from scoring.reads.deal_labels import details_of, game_label, result_label
from scoring.reads.score_sheet import ScoreSheet, SheetRow

MINUS = "\u2212"


def minus(value: Any) -> str:
    """A number with a real minus sign (U+2212), readable on a ruled sheet; "" for None."""
    if value is None or value == "":
        return ""
    try:
        number = int(value)
    except (TypeError, ValueError):
        text = str(value)
        return MINUS + text[1:] if text.startswith("-") else text
    return f"{MINUS}{-number}" if number < 0 else str(number)


def signed(value: Any) -> str:
    """Like ``minus`` but positive numbers get a plus sign (entries, changes)."""
    text = minus(value)
    if text and not text.startswith(MINUS) and text != "0":
        return "+" + text
    return text


def initial(name: str) -> str:
    """A player's short mark for the dealer column: the first name."""
    return (name or "").split(" ")[0]


def short_names(sheet: ScoreSheet) -> list[str]:
    """The players' first names, or the full name where a first name repeats at the table."""
    first = [initial(name) for name in sheet.players]
    return [f if first.count(f) == 1 else full for f, full in zip(first, sheet.players,
                                                                  strict=True)]


@dataclass(frozen=True)
class BookEntry:
    number: int  # the deal
    entry: int
    balance: int
    underline: bool


def book_rows(sheet: ScoreSheet) -> list[list[BookEntry | None]]:
    """The historical layout (000/001 books): each player's column lists only that player's
    entries with the running balance; the k-th line holds each player's k-th entry."""
    columns: list[list[BookEntry]] = [[] for _ in sheet.players]
    for row in sheet.rows:
        for p, entry in enumerate(row.entries):
            if entry is not None:
                columns[p].append(BookEntry(row.number, entry, row.totals[p],
                                            p in row.underline))
    length = max((len(c) for c in columns), default=0)
    return [[c[k] if k < len(c) else None for c in columns] for k in range(length)]


@dataclass(frozen=True)
class SeegerFabianLine:
    won: int
    lost: int
    won_bonus: int
    lost_malus: int
    others_lost: int
    others_bonus: int
    points: int
    total: int


def seeger_fabian(sheet: ScoreSheet) -> list[SeegerFabianLine]:
    """The Seeger-Fabian footer per player: game points + won × 50 − lost × 50 + the others'
    lost games × 40 (3-table) or × 30 (4-table) = the Seeger-Fabian total."""
    if sheet.seeger_fabian_totals is None:
        return []
    all_lost = sum(sheet.lost)
    bonus = sheet.lost_bonus
    return [
        SeegerFabianLine(
            won=sheet.won[p], lost=sheet.lost[p], won_bonus=50 * sheet.won[p],
            lost_malus=-50 * sheet.lost[p], others_lost=all_lost - sheet.lost[p],
            others_bonus=bonus * (all_lost - sheet.lost[p]), points=sheet.totals[p],
            total=sheet.seeger_fabian_totals[p])
        for p in range(len(sheet.players))
    ]


def _kontra_name(row: SheetRow, names: list[str] | None) -> str:
    seat = row.kontra_by
    if names is None or seat is None or not 0 <= seat < len(names):
        return ""
    return names[seat]


def kontra_mark(row: SheetRow, names: list[str] | None = None) -> str:
    """The K/R column (issue 36: its "R" also meant a Ramsch round, and who said Kontra was
    stored but never shown): "K Anna" Kontra said by Anna, "K Anna/Re" and the declarer
    answered Re; "K", "K/Re" where the record does not say who. ``names``: the sheet's short
    names by seat."""
    if row.kontra not in ("kontra", "re"):
        return ""
    name = _kontra_name(row, names)
    mark = f"K {name}" if name else "K"
    return mark + "/Re" if row.kontra == "re" else mark


def kontra_words(row: SheetRow, names: list[str] | None = None) -> str:
    """Kontra and Re in words, with who said Kontra: "Kontra: Anna", "Kontra: Anna, Re";
    "Kontra", "Kontra, Re" where the record does not say who; "" without Kontra."""
    if row.kontra not in ("kontra", "re"):
        return ""
    name = _kontra_name(row, names)
    words = _("Kontra: %(name)s") % {"name": name} if name else "Kontra"
    return words + ", Re" if row.kontra == "re" else words


CORRECTED_MARK = "*"
_CORRECTED_WORDS = {"edit": gettext_noop("corrected"), "delete": gettext_noop("deleted"),
                    "restore": gettext_noop("restored"), "create": gettext_noop("added")}


def correction_notes(sheet: ScoreSheet) -> list[str]:
    """The footnotes of the deals changed after every player had signed (issue 36: the
    director's correction was not marked on the PDF): which deal, how, who, when and why;
    the deal's row carries CORRECTED_MARK. The sheet page and its PDF alike."""
    numbers = {row.deal_id: row.number for row in sheet.rows}
    notes = []
    for c in sheet.corrections:
        when = date_format(timezone.localtime(c.at), "SHORT_DATETIME_FORMAT")
        what = _(_CORRECTED_WORDS.get(c.action, "corrected"))
        number = numbers.get(c.deal_id)
        if number is None:  # deleted since: it has no row
            notes.append(_("A deal %(what)s after signing by %(who)s, %(when)s: %(reason)s")
                         % {"what": what, "who": c.actor, "when": when, "reason": c.reason})
        else:
            notes.append(_("%(mark)s Deal %(number)s %(what)s after signing by %(who)s, "
                           "%(when)s: %(reason)s") % {
                               "mark": CORRECTED_MARK, "number": number, "what": what,
                               "who": c.actor, "when": when, "reason": c.reason})
    return notes


def bock_mark(row: SheetRow) -> str:
    return f"×{1 << row.bock}" if row.bock else ""


RAMSCH_MARK = "Ra"


def ramsch_mark(row: SheetRow) -> str:
    """"Ra" on a deal of a Ramsch round (it was "R", which the K/R column uses for Re)."""
    return RAMSCH_MARK if row.ramsch_round else ""


def games_words(counted: int, length: int | None, recorded: int) -> str:
    """How many games a table has played, said alike on every page that counts them (the
    sheet, the evening overview, its PDF summary, the evening ranking; issue 23). A game is
    what counts toward the rounds and the series length (DECISIONS.md §5): a game, a Ramsch,
    a passed-in deal; a misdeal (dealt again), a penalty and a Grand Hand inside a Ramsch
    round (unless it counts there) are recorded but are no game of the series, and are
    said apart: "20 von 48 Spielen · 2 Einträge nicht gezählt"."""
    if length is not None:
        said = _("%(count)s of %(length)s games") % {"count": counted, "length": length}
    else:
        said = ngettext("%(count)s game", "%(count)s games", counted) % {"count": counted}
    others = max(0, recorded - counted)
    if others:
        said += " · " + ngettext("%(count)s entry not counted", "%(count)s entries not counted",
                                 others) % {"count": others}
    return said


def sheet_games_words(sheet: ScoreSheet) -> str:
    """games_words of a table's sheet (its evening's series length at its size)."""
    length = sheet.table.evening.series_length(len(sheet.players))
    return games_words(sheet.counted, length, sheet.deals)


def ramsch_words(row: SheetRow, names: list[str]) -> str:
    """What happened in a Ramsch, for the sheet and its PDF alike (issue 23): who lost
    ("Verlierer: Bernd"; a tie names each), Jungfrau when a player took no trick, and the
    Durchmarsch with who made it; "" for any other row."""
    if row.kind != "ramsch":
        return ""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else str(seat)

    if row.ramsch_durchmarsch is not None:
        return _("Durchmarsch: %(name)s") % {"name": name(row.ramsch_durchmarsch)}
    parts = []
    if row.ramsch_losers:
        parts.append(ngettext("Loser: %(names)s", "Losers: %(names)s",
                              len(row.ramsch_losers))
                     % {"names": ", ".join(name(s) for s in row.ramsch_losers)})
    if row.ramsch_jungfrau:
        parts.append("Jungfrau")
    return " · ".join(parts)


# The level ticks in the order of a paper list (table-screen.md): Hand, Schneider, angesagt,
# Schwarz, angesagt, Ouvert. Each column's title means one thing (issue 36: "H S A S A O" said
# S and A twice): H, Sn, SnA, Sw, SwA, O, the same letters in German and English (A:
# angesagt, announced); the legend says them in the glossary's words.
LEVELS = ("hand", "schneider", "schneider_announced", "schwarz", "schwarz_announced", "ouvert")
TICK = "×"
LEVEL_WORDS = {
    "hand": gettext_noop("Hand"), "schneider": "Schneider",
    "schneider_announced": gettext_noop("Schneider announced"), "schwarz": "Schwarz",
    "schwarz_announced": gettext_noop("Schwarz announced"), "ouvert": "Ouvert",
}


def level_letters() -> list[str]:
    return [pgettext("level, short: Hand", "H"),
            pgettext("level, short: Schneider", "Sn"),
            pgettext("level, short: Schneider announced", "SnA"),
            pgettext("level, short: Schwarz", "Sw"),
            pgettext("level, short: Schwarz announced", "SwA"),
            pgettext("level, short: Ouvert", "O")]


def level_marks(row: SheetRow) -> str:
    """A row's levels in the sheet's short letters, in the order of a paper list: "H Sn SnA"
    (Hand, Schneider, Schneider announced)."""
    return " ".join(short for short, level in zip(level_letters(), LEVELS, strict=True)
                    if level in row.levels)


def levels_legend() -> str:
    """The level columns' titles said once in full: "H Hand, Sn Schneider, …"."""
    return _("Levels: %(levels)s.") % {"levels": ", ".join(
        f"{short} {_(LEVEL_WORDS[level])}" for short, level in zip(
            level_letters(), LEVELS, strict=True))}


def marks_legend(mark: str, name: str) -> str:
    """The K/R and Bock columns' marks said once (the sheet page and its PDF alike), with
    the first player as the example: ``mark`` as the K/R column writes him, ``name``."""
    return _("K/R: K %(mark)s Kontra said by %(name)s, /Re and the declarer answered Re. "
             "Bock: ×2, ×4 the deal's factor; %(ramsch)s a deal of a Ramsch round.") % {
                 "mark": mark or "A", "name": name or "A", "ramsch": RAMSCH_MARK}


def unique_prefixes(names: list[str]) -> list[str]:
    """Each name's shortest beginning that no other name at the table shares ("Jürgen",
    "Jutta", "Käthe" → "Jü", "Ju", "K"): who said Kontra in the printed sheet's narrow K/R
    column. A name that is another's beginning stays whole."""
    out = []
    for i, name in enumerate(names):
        others = [n for j, n in enumerate(names) if j != i]
        size = next((k for k in range(1, len(name) + 1)
                     if not any(o.startswith(name[:k]) for o in others)), len(name))
        out.append(name[:size])
    return out


def record_summary(record: dict[str, Any] | None, rules: str, options: dict[str, Any],
                   players: list[str], lang: str) -> str:
    """A deal record as a scorer reads it: "Bernd: ♣ Kreuz, mit 1, Hand · 18 · 74"."""
    if not record:
        return ""
    name, symbol, _red = game_label(rules, options, record, lang)
    parts = [f"{symbol} {name}".strip()]
    declarer = record.get("declarer")
    kind = record.get("kind")
    if kind == "game" and isinstance(declarer, int) and 0 <= declarer < len(players):
        parts[0] = f"{players[declarer]}: {parts[0]}"
    if kind == "penalty" and isinstance(record.get("penalty"), dict):
        penalty = record["penalty"]
        seat = penalty.get("seat")
        who = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
        parts.append(f"{who} {penalty.get('points', '')} {penalty.get('reason', '')}".strip())
    if kind == "ramsch" and isinstance(record.get("ramsch"), dict):
        points = record["ramsch"].get("points") or {}
        parts.append(" / ".join(
            f"{players[int(k)] if k.isdigit() and int(k) < len(players) else k} {v}"
            for k, v in sorted(points.items())))
    parts += details_of(record, name)
    if record.get("bid"):
        parts.append(_("bid %(bid)s") % {"bid": record["bid"]})
    result = result_label(record)
    if result:
        parts.append(result)
    if record.get("kontra") in ("kontra", "re"):
        by = record.get("kontra_by")  # who said it (issue 36: stored, never shown)
        said = (_("Kontra: %(name)s") % {"name": players[by]}
                if isinstance(by, int) and 0 <= by < len(players) else "Kontra")
        parts.append(said + ", Re" if record["kontra"] == "re" else said)
    return " · ".join(p for p in parts if p)


def points(value: Any) -> str:
    """24729 → "24.729" in German, "24,729" in English, with a real minus sign."""
    if value is None or value == "":
        return ""
    return _formatted(get_language(), int(value), None)


def decimal1(value: Any) -> str:
    """1474.5 → "1.474,5" in German; −8.5 → "−8,5"; "" for None."""
    if value is None or value == "":
        return ""
    return _formatted(get_language(), Decimal(value), 1)


def match_point(value: Any) -> str:
    """Wertungspunkte: whole as they are, a shared place's half with the language's decimal
    sign, 2.5 → "2,5" in German, "2.5" in English (league-day.md)."""
    return points(value) if float(value).is_integer() else decimal1(value)


def match_points(plus: Any, minus_points: Any) -> str:
    """A team's Wertungspunkte as a league writes them, plus:minus: "7:2", "2,5:0,5"."""
    return f"{match_point(plus)}:{match_point(minus_points)}"


@lru_cache(maxsize=16384)
def _formatted(language: str | None, value: int | Decimal, places: int | None) -> str:
    """A number as the language writes it. Kept per language and value: a season table of
    1,000 players writes some 6,000 numbers, mostly the same ones each time it is rendered
    again after a change, and Django's number_format looks up the language's separators on
    every call."""
    text = number_format(value, places, force_grouping=True)
    return MINUS + text[1:] if text.startswith("-") else text


def money(amounts: dict[str, Decimal] | None) -> str:
    """{"EUR": Decimal("-3.45")} → "−3,45 EUR"; several currencies one after the other."""
    if not amounts:
        return ""
    language = get_language()
    return " · ".join(f"{_formatted(language, amounts[currency], 2)} {currency}"
                      for currency in sorted(amounts))


def sign_class(value: Any) -> str:
    """"neg" for a negative number, for the red figures."""
    try:
        return "neg" if value is not None and Decimal(value) < 0 else ""
    except (ArithmeticError, ValueError, TypeError):
        return ""


def money_sign(amounts: dict[str, Decimal] | None) -> str:
    return "neg" if amounts and any(v < 0 for v in amounts.values()) else ""
