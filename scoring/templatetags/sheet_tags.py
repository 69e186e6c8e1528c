"""Template helpers for the score sheet: the partial renders a ``ScoreSheet`` alone (HTML page,
htmx fragment and PDF share it), so everything it needs beyond the sheet is derived here; how
numbers and marks are written comes from scoring/notation.py, which the PDFs use too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from scoring.money import money
from scoring.notation import (
    CORRECTED_MARK,
    bock_mark,
    book_rows,
    correction_notes,
    games_words,
    initial,
    kontra_mark,
    kontra_words,
    marks_legend,
    minus,
    ramsch_mark,
    ramsch_words,
    record_summary,
    seeger_fabian,
    sheet_games_words,
    short_names,
    signed,
)
from scoring.reads.rule_words import SEPARATOR, house_rules
from scoring.reads.sheet import ScoreSheet, SheetRow, overbid_words

register = template.Library()
for _filter in (minus, signed, initial, short_names, book_rows, seeger_fabian, kontra_mark,
                kontra_words, bock_mark, correction_notes):
    register.filter(_filter)


@register.filter
def at(sequence: Any, index: int) -> Any:
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


@dataclass(frozen=True)
class Cell:
    seat: int
    entry: int | None
    total: int
    declarer: bool
    dealer: bool
    out: bool  # sits out this deal (the dealer at a 4-table, two people at 5/6)
    underline: bool


@register.filter
def cells(row: SheetRow) -> list[Cell]:
    """The per-player cells of one row of the standard layout."""
    return [
        Cell(seat=p, entry=entry, total=row.totals[p], declarer=p == row.declarer,
             dealer=p == row.dealer, out=p not in row.active, underline=p in row.underline)
        for p, entry in enumerate(row.entries)
    ]


# A deal id no table reaches, replaced in the one reversed URL (a reverse() per row costs
# more than the rest of the row).
_ID_SLOT = 2147483647


@register.simple_tag
def sheet_body(sheet: ScoreSheet, short: list[str]) -> SafeString:
    """The body rows of the standard layout, one ``<tr>`` per deal.

    Written in Python rather than as template tags: a 150-deal sheet is some 20,000 template
    nodes and took about 30 ms to render, which alone used most of the 50 ms a save and its
    re-rendered sheet may take. The markup is what the template wrote; every text that comes
    from people or the engine is escaped here."""
    if not sheet.rows:
        return mark_safe("")
    lost_word = escape(_("lost"))
    out_title = escape(_("deals and sits out"))
    out_mark = escape(pgettext("sits out as dealer, one letter", "D"))
    sits_out = escape(_("sits out"))
    points_word = escape(_("Card points"))
    how = escape(_("How it was computed"))
    history = escape(pgettext("changes of a deal", "History"))
    ramsch_round = escape(_("Ramsch round"))
    history_url = escape(reverse("scoring:deal-history", args=[sheet.table.pk, _ID_SLOT]))
    slot = str(_ID_SLOT)
    names = [escape(name) for name in short]
    changed = sheet.corrected
    after_signing = escape(_("changed after signing"))
    out: list[str] = []
    for row in sheet.rows:
        classes = f"kind-{row.kind}"
        if row.round_end:
            classes += " round-end"
        if row.bock:
            classes += " bock"
        if row.ramsch_round:
            classes += " ramsch-round"
        if row.won is False:
            classes += " lost"
        corrected = ""
        if row.deal_id in changed:  # changed after every player had signed (issue 36)
            classes += " corrected"
            corrected = (f'<abbr class="corrected-mark" title="{after_signing}">'
                         f"{CORRECTED_MARK}</abbr>")
        explanation = escape(row.explanation) if row.explanation else ""
        title = f' title="{explanation}"' if explanation else ""
        symbol = (f'<span class="suit{" red" if row.red else ""}" aria-hidden="true">'
                  f"{row.symbol}</span> " if row.symbol else "")
        overbid = overbid_words(row)
        if overbid:
            lost = f' <span class="lost-mark overbid-mark">{escape(overbid)}</span>'
        elif row.won is False and row.kind == "game" and not row.says_lost:
            lost = f' <span class="lost-mark">{lost_word}</span>'
        else:
            lost = ""
        ramsch = (f' <abbr class="ramsch-mark" title="{ramsch_round}">{ramsch_mark(row)}</abbr>'
                  if row.ramsch_round else "")
        ramsch_points = ""
        if row.ramsch_points:
            items = [f"{names[p]} {v}" for p, v in enumerate(row.ramsch_points)
                     if v is not None]
            said = " ".join(f"<span>{item}{',' if i < len(items) - 1 else ''}</span>"
                            for i, item in enumerate(items))
            ramsch_points = (f'{", " if row.details else ""}'
                             f'<span class="ramsch-points">{points_word}: {said}</span>')
        kontra = ""
        if row.kontra in ("kontra", "re"):  # who said it (issue 36), in full in its title
            kontra = (f'<abbr title="{escape(kontra_words(row, sheet.players))}">'
                      f'{escape(kontra_mark(row, short))}</abbr>')
        outcome = ramsch_words(row, short)
        if outcome:
            lost += f' <span class="ramsch-outcome">{escape(outcome)}</span>'
        out.append(
            f'<tr id="deal-{row.deal_id}" class="{classes}"{title}>'
            f'<th scope="row" class="num">{row.number}{corrected}</th>'
            f'<td class="dealer">{names[row.dealer]}</td>'
            f'<td class="declarer">{"" if row.declarer is None else names[row.declarer]}</td>'
            f'<td class="game">{symbol}{escape(row.game)}</td>'
            f'<td class="details">{escape(", ".join(row.details))}{ramsch_points}</td>'
            f'<td class="num">{"" if row.bid is None else row.bid}</td>'
            f'<td class="num result">{escape(row.result)}{lost}</td>'
            f'<td class="mark kontra">{kontra}</td>'
            f'<td class="mark">{bock_mark(row)}{ramsch}</td>')
        for p, entry in enumerate(row.entries):
            cell = "player-cell"
            if p not in row.active:
                cell += " out"
            if p == row.declarer:
                cell += " declarer-cell"
            if p == row.dealer:
                cell += " dealer-cell"
            shown = ("" if entry is None else
                     f'<span class="entry{" neg" if entry < 0 else ""}">{minus(entry)}</span>')
            if p not in row.active:
                shown = (f'<abbr class="out-mark" title="{out_title}">{out_mark}</abbr>'
                         if p == row.dealer else
                         f'<span class="out-mark">–<span class="visually-hidden"> {sits_out}'
                         "</span></span>") + shown
            out.append(f'<td class="{cell}">{shown}'
                       f'<span class="total">{minus(row.totals[p])}</span></td>')
        details = (f'<details><summary><span class="info-mark" aria-hidden="true">i</span>'
                   f'<span class="visually-hidden">{how}</span></summary>'
                   f'<p class="explanation">{explanation}</p></details>' if explanation else "")
        out.append(f'<td class="tools">{details}'
                   f'<a href="{history_url.replace(slot, str(row.deal_id))}">{history}</a>'
                   "</td></tr>\n")
    return mark_safe("".join(out))  # every variable part is escaped above


@register.simple_tag
def sheet_legend(sheet: ScoreSheet) -> str:
    """The K/R and Bock marks said once under the sheet, as the PDF says them."""
    short = short_names(sheet)
    return marks_legend(short[0], short[0]) if short else ""


@register.filter
def net_money(sheet: ScoreSheet) -> list[str] | None:
    """Each player's net amount of the settlement, or None when nothing is settled."""
    settlement = sheet.settlement or {}
    net = settlement.get("net")
    if not net or settlement.get("stake") in (None, "0", "0.00", "0.0000"):
        return None
    return [money(net.get(str(p), "")) for p in range(len(sheet.players))]


@register.filter
def last_rows(sheet: ScoreSheet, count: int = 5) -> list[SheetRow]:
    return sheet.rows[-int(count):] if sheet.rows else []


@register.filter
def names(sheet: ScoreSheet, seats: Any) -> str:
    return ", ".join(sheet.players[p] for p in seats or ())


@register.filter
def summary(deal: Any, sheet: ScoreSheet) -> str:
    """A (deleted) deal of the sheet's table in words."""
    evening = sheet.table.evening
    return record_summary(deal.record, evening.rules, evening.options, sheet.players,
                          _lang())


def _lang() -> str:
    return "en" if (get_language() or "de").startswith("en") else "de"


@register.simple_tag
def rules_in_words(evening: Any) -> str:
    """The evening's frozen options in words: the same words as its rule profile's on the
    club page (scoring.reads.rule_words)."""
    return SEPARATOR.join(house_rules(evening.rules, evening.options)) or _("no house rules")


@register.filter
def games_of(sheet: ScoreSheet) -> str:
    """ "20 von 48 Spielen · 2 Einträge nicht gezählt": notation.games_words of a sheet."""
    return sheet_games_words(sheet)


@register.simple_tag
def games_said(counted: int, length: int | None, recorded: int) -> str:
    """notation.games_words, for a page that has the counts but no sheet (the ranking)."""
    return games_words(counted, length, recorded)
