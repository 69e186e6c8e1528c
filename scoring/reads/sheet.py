"""Reads: a table's deals turned into the score sheet (one source for HTML and PDF), the
evening overview, a live preview of a deal not yet saved, and the audit log.

Everything is derived from the stored records by the engine on each call, with a constant
number of queries per page."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext, pgettext, pgettext_lazy

from scoring.collation import name_key
from scoring.engine import SkatError, TableDeal, evaluate_table
from scoring.engine.deal import QUICK_RESULTS
from scoring.engine.games import HISTORIC_GAMES, ISKO_GAMES, Game
from scoring.engine.settlement import SettlementOptions, minor_unit, parse_settlement_options
from scoring.models import AuditEntry, Deal, Evening, HeldOperation, Seat, Table
from scoring.money import rate

SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def tables_with_everything(queryset: QuerySet[Table]) -> QuerySet[Table]:
    """The prefetches every sheet needs: three queries however many deals."""
    return queryset.select_related("evening__club").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        # Only what a sheet reads: the timestamps' converters cost more than the rest of a row.
        Prefetch("deals", queryset=Deal.objects.only(
            "id", "table_id", "position", "record", "deleted").order_by("position")),
    )


def table_document(table: Table, records: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The table as a deal-record.md table (the engine's input and the export format)."""
    evening = table.evening
    if records is None:
        records = [d.record for d in table.deals.all() if not d.deleted]
    return {
        **evening.rules_dict(),
        "players": [seat.player.name for seat in table.seats.all()],
        "first_dealer": table.first_dealer,
        "deals": records,
    }


@dataclass
class SheetRow:
    number: int
    deal_id: int
    kind: str
    dealer: int
    active: tuple[int, ...]
    declarer: int | None
    game: str
    symbol: str
    red: bool
    details: list[str]
    bid: int | None
    result: str
    kontra: str
    bock: int
    ramsch_round: bool
    won: bool | None
    value: int | None
    entries: list[int | None]
    totals: list[int]
    seeger_fabian: list[int | None] | None
    round_end: bool
    underline: frozenset[int]
    explanation: str
    result_key: str = ""  # the quick result tapped ("lost_schneider" …), "" for card points
    # What the printed sheet shows in its own columns (the screen folds them into "details"):
    game_base: str = ""  # the game without its declarations: "Null" of "Null Ouvert Hand"
    matadors: int | None = None  # with n = +n, without n = −n; None where a game has none
    levels: frozenset[str] = frozenset()  # "hand", "schneider", "schwarz_announced" …
    result_short: str = ""  # card points, tricks or a quick result in a few letters
    overbid: bool = False  # the declarer made fewer than he bid: lost whatever he took
    ramsch_points: list[int | None] = field(default_factory=list)  # card points per seat
    bock_manual: bool = False  # bock.manual (DECISIONS.md §9): the table set this level
    bock_round: bool = False  # bock.manual: the table queued a Bock round after this deal
    bock_notes: list[str] = field(default_factory=list)  # both in words (also in details)
    # A Ramsch as the engine scored it (issue 23): who lost (the seats charged), how many took
    # no trick (Jungfrau), who took every trick (Durchmarsch); notation.ramsch_words says it
    ramsch_losers: tuple[int, ...] = ()
    ramsch_jungfrau: int = 0
    ramsch_durchmarsch: int | None = None

    @property
    def sits_out(self) -> list[bool]:
        """Per seat: not playing this deal (the dealer at a 4-table, two people at 5/6)."""
        return [p not in self.active for p in range(len(self.entries))]

    @property
    def says_lost(self) -> bool:
        """The result column already reads "lost …" (a quick result), so no second mark."""
        return self.result_key.startswith("lost")


@dataclass(frozen=True)
class EngineMessage:
    """An engine refusal as a page shows it: ``message`` is in the page's language."""

    field: str | None
    message: str
    deal: int | None

    @classmethod
    def of(cls, err: SkatError, lang: str) -> EngineMessage:
        return cls(err.field, err.message_in(lang), err.deal)


@dataclass
class ScoreSheet:
    table: Table
    players: list[str]
    rows: list[SheetRow]
    totals: list[int]
    seeger_fabian_totals: list[int] | None
    won: list[int]
    lost: list[int]
    next_dealer: int
    next_active: list[int]
    next_round: int
    next_deal_in_round: int  # 1…n
    next_bock: int
    next_ramsch_round: bool
    next_ramsch_deal: int  # 1…n inside a Ramsch round, else 0
    bock_pending: int
    settlement: dict[str, Any] | None
    beer_loser: int | None
    deleted: list[Deal] = field(default_factory=list)
    error: EngineMessage | None = None  # the stored deals no longer score (should not happen)
    passed: list[int] = field(default_factory=list)  # passed-in deals each seat sat in on
    counted: int = 0  # deals that count toward rounds and the series length
    deals: int = 0  # live deals recorded, also where only the last rows were built

    @property
    def seeger_fabian(self) -> bool:
        return self.seeger_fabian_totals is not None

    @property
    def lost_bonus(self) -> int:
        return 40 if len(self.players) == 3 else 30

    @property
    def bock(self) -> BockStatus:
        return bock_status(self)

    @property
    def bock_words(self) -> list[tuple[str, str]]:
        return bock_words(self)


@dataclass(frozen=True)
class BockStatus:
    """Where the Bock rounds stand before the next deal, from the round tracker.

    The tracker's ``bock_pending`` counts *deals*: the deals left in the running Bock round
    plus n for every whole round queued behind it (with parallel stacking, the deals left in
    each running round, so a Doppelbock deal owes two). Rounds are worked out from it here,
    once, for every screen and the PDF."""

    level: int  # the next deal's Bock level: 0 none, 1 Bock, 2 Doppelbock …
    length: int  # deals in a round (players at the table)
    position: int  # the next deal is the position-th of its Bock round; 0 where unknown
    waiting: int  # whole Bock rounds queued behind the running one (or waiting to start)
    owed: int  # Bock deals still owed (the tracker's count)
    parallel: bool  # overlapping rounds run at once (Doppelbock) instead of queueing

    @property
    def factor(self) -> int:
        factor: int = 2 ** self.level  # int ** int is typed Any: a negative power is a float
        return factor


def bock_status(sheet: ScoreSheet) -> BockStatus:
    n = max(len(sheet.players), 1)
    options = sheet.table.evening.options or {}
    bock_options = options.get("bock") if isinstance(options, dict) else None
    parallel = isinstance(bock_options, dict) and bock_options.get("stacking") == "parallel"
    pending, level = max(sheet.bock_pending, 0), sheet.next_bock
    position = waiting = 0
    if pending and not parallel:
        if level:
            left = (pending - 1) % n + 1  # deals left in the running round, this one included
            position = n - left + 1
            waiting = (pending - left) // n
        else:
            waiting = -(-pending // n)
    return BockStatus(level, n, position, waiting, pending, parallel)


def bock_words(sheet: ScoreSheet) -> list[tuple[str, str]]:
    """The Bock state in words, as (kind, text): ("bock", "Bock 2 of 4"), ("waiting", "+1 Bock
    round waiting"). The one wording of the sheet, the table screen and the PDF."""
    status = bock_status(sheet)
    out: list[tuple[str, str]] = []
    if status.level:
        text = (_("Bock %(position)s of %(length)s")
                % {"position": status.position, "length": status.length}
                if status.position else "Bock")
        if status.level > 1:
            text += f" ×{status.factor}"
        out.append(("bock", text))
    if status.waiting:
        if status.level:
            text = ngettext("+%(waiting)s Bock round waiting", "+%(waiting)s Bock rounds waiting",
                            status.waiting) % {"waiting": status.waiting}
        else:
            text = ngettext("%(rounds)s Bock round waiting", "%(rounds)s Bock rounds waiting",
                            status.waiting) % {"rounds": status.waiting}
        out.append(("waiting", text))
    elif status.parallel and status.owed:
        out.append(("waiting", ngettext("%(deals)s Bock deal to go", "%(deals)s Bock deals to go",
                                        status.owed) % {"deals": status.owed}))
    return out


def game_for(rules: str, options: dict[str, Any], key: str) -> Game | None:
    if rules == "isko":
        return ISKO_GAMES[options.get("grand_base", 24)].get(key)
    return HISTORIC_GAMES.get(rules, {}).get(key)


RECORD_NAMES = {"passed": gettext_noop("passed in"), "ramsch": gettext_noop("Ramsch"),
                "penalty": gettext_noop("penalty"), "misdeal": gettext_noop("misdeal")}


def game_label(rules: str, options: dict[str, Any], record: dict[str, Any],
               lang: str) -> tuple[str, str, bool]:
    """(name, suit symbol, red?) of a record, e.g. ("Kreuz", "♣", False)."""
    kind = record.get("kind")
    if kind != "game":
        name = RECORD_NAMES.get(str(kind))
        return (_(name) if name else str(kind)), "", False
    game = game_for(rules, options, str(record.get("game")))
    if game is None:
        return str(record.get("game")), "", False
    name = game.name_de if lang == "de" else game.name_en
    if game.null:  # glossary: Null ouvert Hand; the rules' English: Null Ouvert Hand
        name += (" ouvert" if lang == "de" else " Ouvert") if record.get("ouvert") else ""
        name += " Hand" if record.get("hand") else ""
    symbol = SUIT_SYMBOLS.get(game.trump or "", "")
    return name, symbol, game.trump in ("H", "D")


def game_base_name(rules: str, options: dict[str, Any], record: dict[str, Any],
                   lang: str) -> str:
    """The game's own name without Hand or Ouvert ("Null" for Null Ouvert Hand)."""
    if record.get("kind") == "game":
        game = game_for(rules, options, str(record.get("game")))
        if game is not None:
            return game.name_de if lang == "de" else game.name_en
    return game_label(rules, options, record, lang)[0]


DECLARATION_LABELS = [
    ("hand", gettext_noop("Hand")), ("ouvert", gettext_noop("Ouvert")),
    ("schneider_announced", gettext_noop("Schneider announced")),
    ("schwarz_announced", gettext_noop("Schwarz announced")),
]


def details_of(record: dict[str, Any], name: str = "") -> list[str]:
    """The declarations a scorer reads out: "mit 2", "Hand", "Schneider angesagt" …; a
    declaration the game's ``name`` already says ("Null Ouvert") is not said twice."""
    out = []
    matadors = record.get("matadors")
    if isinstance(matadors, int) and matadors:
        out.append((_("with %d") if matadors > 0 else _("without %d")) % abs(matadors))
    # Translated only when the declaration applies: a sheet asks this for every row.
    said = name.casefold().split()
    out += [word for word in (_(label) for key, label in DECLARATION_LABELS
                              if record.get(key) is True) if word.casefold() not in said]
    if record.get("spitze"):
        out.append(_("Spitze %d") % record["spitze"])
    if record.get("concession"):
        out.append({"declarer": _("conceded"), "schenken": _("Schenken")}.get(
            record["concession"], _("Schenken, played on")))
    return out


# Marked for translation here, translated when shown.
QUICK_LABELS = {
    "won": gettext_noop("won"), "won_schneider": gettext_noop("won Schneider"),
    "won_schwarz": gettext_noop("won Schwarz"), "lost": gettext_noop("lost"),
    "lost_schneider": gettext_noop("lost Schneider"),
    "lost_schwarz": gettext_noop("lost Schwarz"), "sixty": "60:60",
}

# The choices of the table screen's Kontra and concession fields (scoring/forms/entry.py),
# also the words of a deal's history.
KONTRA_CHOICES = [("none", pgettext_lazy("no Kontra", "none")), ("kontra", "Kontra"), ("re", "Re")]
CONCESSION_CHOICES = [
    ("", pgettext_lazy("no concession", "none")),
    ("declarer", gettext_lazy("Declarer gave up")),
    ("schenken", gettext_lazy("Schenken accepted")),
    ("schenken_schneider", gettext_lazy("Schenken, played on for Schneider")),
    ("schenken_schwarz", gettext_lazy("Schenken, played on for Schwarz")),
]


def result_label(record: dict[str, Any]) -> str:
    quick = record.get("result")
    if quick in QUICK_RESULTS:
        return _(QUICK_LABELS[quick])
    points = record.get("declarer_points")
    tricks: int | None = record.get("declarer_tricks")
    if points is not None:
        return str(points)
    if tricks is not None:
        return ngettext("%d trick", "%d tricks", tricks) % tricks
    return ""


# A column a few letters wide on the printed sheet; the levels show Schneider and Schwarz.
# Written out as literals so that makemessages finds them.
_WON_SHORT = pgettext_lazy("result, short", "won")
_LOST_SHORT = pgettext_lazy("result, short", "lost")
QUICK_SHORT = {
    "won": _WON_SHORT, "won_schneider": _WON_SHORT, "won_schwarz": _WON_SHORT,
    "lost": _LOST_SHORT, "lost_schneider": _LOST_SHORT, "lost_schwarz": _LOST_SHORT,
}


def result_short(record: dict[str, Any]) -> str:
    quick = record.get("result")
    if quick == "sixty":
        return "60:60"
    if quick in QUICK_SHORT:
        return str(QUICK_SHORT[quick])
    points = record.get("declarer_points")
    if points is not None:
        return str(points)
    tricks: int | None = record.get("declarer_tricks")
    if tricks is not None:
        return pgettext("tricks, short", "%d tr.") % tricks
    return ""


def ramsch_points(record: dict[str, Any], players: int) -> list[int | None]:
    """Each seat's card points of a Ramsch deal (None for a seat that sat out); [] else."""
    ramsch = record.get("ramsch")
    if record.get("kind") != "ramsch" or not isinstance(ramsch, dict):
        return []
    points = ramsch.get("points")
    if not isinstance(points, dict):
        return []
    out: list[int | None] = []
    for p in range(players):
        value = points.get(str(p))
        out.append(value if isinstance(value, int) and not isinstance(value, bool) else None)
    return out


def _printed(row: TableDeal, record: dict[str, Any], rules: str, options: dict[str, Any],
             lang: str, players: int) -> dict[str, Any]:
    """The SheetRow fields of the printed sheet's own columns (and of the screen's marks)."""
    overbid = bool(row.get("overbid"))
    manual, queued = bool(row.get("bock_manual")), bool(row.get("bock_round"))
    outcome: Mapping[str, Any] = row.get("ramsch") or {}
    entries = row.get("entries") or {}
    return {"ramsch_losers": tuple(s for s in outcome.get("losers", ())
                                   if (entries.get(str(s)) or 0) < 0),
            "ramsch_jungfrau": int(outcome.get("jungfrau") or 0),
            "ramsch_durchmarsch": outcome.get("durchmarsch"),
            "game_base": game_base_name(rules, options, record, lang),
            "matadors": row.get("matadors"), "levels": frozenset(row.get("levels") or ()),
            "result_short": str(_OVERBID_SHORT) if overbid else result_short(record),
            "overbid": overbid, "ramsch_points": ramsch_points(record, players),
            "bock_manual": manual, "bock_round": queued,
            "bock_notes": bock_notes(row["bock"], manual, queued)}


def bock_notes(level: int, manual: bool, queued: bool) -> list[str]:
    """What a table decided by hand under bock.manual (DECISIONS.md §9), in words: the deal's
    level set by hand ("Bock (by hand)", or "no Bock (by hand)" where the table played it
    plain against the tracker) and a Bock round queued after it. The engine marks both only
    when true; the sheet, its PDF and its CSV say them in these words."""
    out = []
    if manual:
        out.append(_("Bock (by hand)") if level else _("no Bock (by hand)"))
    if queued:
        out.append(_("+ Bock round by hand"))
    return out


def overbid_words(row: SheetRow) -> str:
    """The sheet's mark of a lost overbid game, "overbid (bid 30)"; "" for any other row (a
    quick "lost" already says it)."""
    if row.overbid and not row.says_lost:
        return _("overbid (bid %(bid)s)") % {"bid": row.bid}
    return ""


_OVERBID_SHORT = pgettext_lazy("result, short", "overbid")


def result_of(record: dict[str, Any], overbid: bool) -> str:
    """The result column: an overbid game is lost whatever the declarer took, so a quick
    "won" is not repeated beside it (the row says "overbid" instead)."""
    if overbid and str(record.get("result") or "").startswith("won"):
        return ""
    return result_label(record)


def _by_seat(values: dict[str, int] | None, players: int) -> list[int | None]:
    values = values or {}
    return [values.get(str(p)) for p in range(players)]


def table_sheet(table: Table, lang: str, explain: bool = True,
                explain_from: int = 1, last_rows: int | None = None) -> ScoreSheet:
    """The score sheet of a table fetched with ``tables_with_everything``; rows numbered
    ``explain_from`` or later carry their explanation when ``explain`` is on. With
    ``last_rows`` only the last that many rows are built (the evening overview shows five;
    totals, counts and the next deal still come from every deal)."""
    evening = table.evening
    deals = list(table.deals.all())
    live = [d for d in deals if not d.deleted]
    document = table_document(table, [d.record for d in live])
    players = document["players"]
    n = len(players)
    try:
        result = evaluate_table(document, lang=lang, explain=explain, explain_from=explain_from)
    except SkatError as err:  # stored data the engine refuses: show it, never a 500
        return _empty_sheet(table, players, deals, EngineMessage.of(err, lang))
    rows = []
    first = max(0, len(live) - last_rows) if last_rows is not None else 0
    for deal, row in itertools.islice(zip(live, result["deals"], strict=True), first, None):
        record = deal.record
        name, symbol, red = game_label(evening.rules, evening.options, record, lang)
        declarer = record.get("declarer") if record.get("kind") == "game" else None
        printed = _printed(row, record, evening.rules, evening.options, lang, n)
        rows.append(SheetRow(
            number=row["number"], deal_id=deal.pk, kind=row["kind"], dealer=row["dealer"],
            active=tuple(row["active"]), declarer=declarer, game=name, symbol=symbol, red=red,
            details=details_of(record, name) + printed["bock_notes"], bid=record.get("bid"),
            result=result_of(record, bool(row.get("overbid"))),
            result_key=str(record.get("result") or ""),
            kontra=record.get("kontra") or "none", bock=row["bock"],
            ramsch_round=row["ramsch_round"], won=row["won"], value=row["value"],
            entries=_by_seat(row["entries"], n), totals=[row["totals"][str(p)] for p in range(n)],
            seeger_fabian=_by_seat(row.get("seeger_fabian"), n) if "seeger_fabian" in row
            else None,
            round_end=row["round_end"], underline=frozenset(row["underline"]),
            explanation=row.get("explanation", ""), **printed,
        ))
    nxt = result["next"]
    sf = result.get("seeger_fabian_totals")
    return ScoreSheet(
        table=table, players=players, rows=rows,
        totals=[result["totals"][str(p)] for p in range(n)],
        seeger_fabian_totals=[sf[str(p)] for p in range(n)] if sf else None,
        won=[result["games"]["won"][str(p)] for p in range(n)],
        lost=[result["games"]["lost"][str(p)] for p in range(n)],
        next_dealer=nxt["dealer"], next_active=nxt["active"], next_round=nxt["round"],
        next_deal_in_round=nxt["deal_in_round"], next_bock=nxt["bock"],
        next_ramsch_round=nxt["ramsch_round"], next_ramsch_deal=nxt["ramsch_deal"],
        bock_pending=result["bock_pending"], settlement=result.get("settlement"),
        beer_loser=result.get("beer_loser"), deleted=[d for d in deals if d.deleted],
        passed=[result["games"]["passed"][str(p)] for p in range(n)],
        counted=sum(1 for row in result["deals"] if row["counts"]), deals=len(live),
    )


def _empty_sheet(table: Table, players: list[str], deals: list[Deal],
                 err: EngineMessage) -> ScoreSheet:
    n = len(players)
    return ScoreSheet(
        table=table, players=players, rows=[], totals=[0] * n, seeger_fabian_totals=None,
        won=[0] * n, lost=[0] * n, next_dealer=table.first_dealer, next_active=[],
        next_round=1, next_deal_in_round=1, next_bock=0, next_ramsch_round=False,
        next_ramsch_deal=0, bock_pending=0, settlement=None,
        beer_loser=None, deleted=[d for d in deals if d.deleted], error=err, passed=[0] * n,
    )


@dataclass
class Preview:
    """What saving this record would write: the new row, or the engine's refusal."""

    row: SheetRow | None
    error: SkatError | None
    totals: list[int] = field(default_factory=list)  # the table's totals then (toggle only)


def deal_preview(table: Table, record: dict[str, Any], lang: str,
                 replace: Deal | None = None) -> Preview:
    """Score the table with ``record`` appended (or in place of ``replace``), so the dealer,
    active seats and Bock level are the ones the saved deal will get."""
    deals = [d for d in table.deals.all() if not d.deleted]
    records = [record if replace is not None and d.pk == replace.pk else d.record for d in deals]
    if replace is None:
        records.append(record)
        index = len(records)  # the new deal is the last one
    else:
        index = next(i for i, d in enumerate(deals) if d.pk == replace.pk) + 1
    try:
        result = evaluate_table(table_document(table, records), lang=lang, explain=True)
    except SkatError as err:
        return Preview(None, err)
    return Preview(_preview_row(table, result["deals"][index - 1], record,
                                replace.pk if replace else 0, lang), None)


def _held_preview(table: Table, held: HeldOperation, lang: str,
                  replace: Deal | None = None) -> Preview:
    try:
        record = held.deal_record()
    except SkatError as err:
        return Preview(None, err)
    return deal_preview(table, record, lang, replace=replace)


def deal_toggle_preview(table: Table, deal: Deal, lang: str) -> Preview:
    """Score the table as it would stand with ``deal`` deleted (if it counts now) or restored
    (if it is deleted now), as ``table``'s prefetched deals say: the totals either way, and
    the restored deal's row."""
    current = next(d for d in table.deals.all() if d.pk == deal.pk)
    restore = current.deleted
    deals = [d for d in table.deals.all() if (restore if d.pk == deal.pk else not d.deleted)]
    index = next((i for i, d in enumerate(deals) if d.pk == deal.pk), None)
    try:
        result = evaluate_table(table_document(table, [d.record for d in deals]), lang=lang,
                                explain=restore, explain_from=(index or 0) + 1)
    except SkatError as err:
        return Preview(None, err)
    n = len(table.seats.all())
    totals = [result["totals"][str(p)] for p in range(n)]
    row = None
    if index is not None:
        row = _preview_row(table, result["deals"][index], current.record, deal.pk, lang)
    return Preview(row, None, totals)


def _preview_row(table: Table, row: TableDeal, record: dict[str, Any], deal_id: int,
                 lang: str) -> SheetRow:
    """A sheet row for a deal not (yet, or not again) stored as it is scored here."""
    n = len(table.seats.all())
    name, symbol, red = game_label(table.evening.rules, table.evening.options, record, lang)
    printed = _printed(row, record, table.evening.rules, table.evening.options, lang, n)
    return SheetRow(
        number=row["number"], deal_id=deal_id, kind=row["kind"],
        dealer=row["dealer"], active=tuple(row["active"]),
        declarer=record.get("declarer") if record.get("kind") == "game" else None,
        game=name, symbol=symbol, red=red,
        details=details_of(record, name) + printed["bock_notes"], bid=record.get("bid"),
        result=result_of(record, bool(row.get("overbid"))),
        result_key=str(record.get("result") or ""),
        kontra=record.get("kontra") or "none", bock=row["bock"],
        ramsch_round=row["ramsch_round"], won=row["won"], value=row["value"],
        entries=_by_seat(row["entries"], n), totals=[row["totals"][str(p)] for p in range(n)],
        seeger_fabian=None, round_end=row["round_end"], underline=frozenset(row["underline"]),
        explanation=row.get("explanation", ""), **printed,
    )


def evening_tables(evening: Evening) -> QuerySet[Table]:
    # the series being played first: it is what the organiser follows during the evening
    return tables_with_everything(evening.tables.all()).order_by("-series", "number")


def audit_for_evening(evening: Evening) -> QuerySet[AuditEntry]:
    # The evening's few tables are fetched by id rather than joined: a join lets PostgreSQL
    # hash every club's tables for one evening's entries (bench/federation.py).
    return (evening.audit.select_related("deal", "user").prefetch_related("table")
            .order_by("-at", "-id"))


def audit_for_deal(deal: Deal) -> QuerySet[AuditEntry]:
    return deal.audit.select_related("user").order_by("at", "id")


def sheet_numbers(deals: QuerySet[Deal]) -> dict[int, int | None]:
    """Each deal's number on the score sheet as it stands (issue 23): the deals that count,
    numbered 1, 2 … per table in their order; a deleted deal has none (its position still
    counts the deals deleted before it, so "no. 29" would name the sheet's row 27). One
    query."""
    numbers: dict[int, int | None] = {}
    counted: dict[int, int] = {}
    for pk, table_id, deleted in deals.order_by("table_id", "position").values_list(
            "id", "table_id", "deleted"):
        if deleted:
            numbers[pk] = None
        else:
            counted[table_id] = counted.get(table_id, 0) + 1
            numbers[pk] = counted[table_id]
    return numbers


# ---------------------------------------------------------------- money and ranking
#
# Every amount below is the engine's (evaluate_table → settle): pair payments, nets, fees,
# transfers and cross-checks per table. Money is settled per table (DECISIONS.md §5/§6); the
# evening's money of a person is the sum over his tables, added up here in Decimal.

@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal
    points: int | None = None  # a pair's difference in points (None for a transfer)


@dataclass(frozen=True)
class SeatMoney:
    seat: int
    player_id: int
    name: str
    points: int  # the total settled on: classic points, or Seeger-Fabian points
    won: int
    lost: int
    passed: int
    net: Decimal  # the sum of his rounded (and capped) pair payments
    fees: Decimal  # lost-game, passed-deal and entry fees, into the club's pot
    balance: Decimal  # net − fees: what he receives (+) or pays (−) in all
    exact: Decimal  # cross-check: stake × (n·S − ΣS), unrounded
    lowest_zero: Decimal  # cross-check: the lowest score taken as zero
    average: Decimal  # cross-check: each score against the average
    capped: bool  # his loss was cut to the loss cap


@dataclass
class TableMoney:
    sheet: ScoreSheet
    seats: list[SeatMoney]
    pairs: list[Payment]
    transfers: list[Payment]
    pot: Decimal
    agree: bool  # the cross-checks give the same money as the pair payments

    @property
    def table(self) -> Table:
        return self.sheet.table

    @property
    def capped(self) -> bool:
        return any(seat.capped for seat in self.seats)


@dataclass(frozen=True)
class PlayerMoney:
    player_id: int
    name: str
    tables: tuple[int, ...]
    net: Decimal
    fees: Decimal
    balance: Decimal


@dataclass
class EveningMoney:
    evening: Evening
    currency: str
    stake: Decimal
    unit: Decimal
    options: SettlementOptions
    tables: list[TableMoney]
    unsettled: list[ScoreSheet]  # tables that settle no money (Beer Skat) or do not score
    players: list[PlayerMoney]
    pot: Decimal

    @property
    def places(self) -> int:
        exponent = self.unit.as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 2

    @property
    def agree(self) -> bool:
        return all(t.agree for t in self.tables)

    @property
    def on_seeger_fabian(self) -> bool:
        return self.options.on == "seeger_fabian"

    @property
    def has_fees(self) -> bool:
        o = self.options
        return bool(o.lost_game_fee or o.lost_game_fee_tiers or o.passed_deal_fee
                    or o.entry_fee)


def _table_money(sheet: ScoreSheet) -> TableMoney | None:
    settlement = sheet.settlement
    if not settlement or sheet.error is not None:
        return None
    names = sheet.players
    ids = [seat.player_id for seat in sheet.table.seats.all()]
    basis = (sheet.seeger_fabian_totals if settlement["on"] == "seeger_fabian"
             and sheet.seeger_fabian_totals is not None else sheet.totals)
    checks = settlement["checks"]
    passed = sheet.passed or [0] * len(names)
    seats = [
        SeatMoney(
            seat=p, player_id=ids[p], name=names[p], points=basis[p], won=sheet.won[p],
            lost=sheet.lost[p], passed=passed[p], net=Decimal(settlement["net"][str(p)]),
            fees=Decimal(settlement["fees"][str(p)]),
            balance=Decimal(settlement["balance"][str(p)]),
            exact=Decimal(checks["exact"][str(p)]),
            lowest_zero=Decimal(checks["lowest_zero"][str(p)]),
            average=Decimal(checks["average"][str(p)]), capped=p in settlement["capped"])
        for p in range(len(names))
    ]
    pairs = [Payment(names[x["payer"]], names[x["payee"]], Decimal(x["amount"]), x["points"])
             for x in settlement["pairs"]]
    transfers = [Payment(names[x["from"]], names[x["to"]], Decimal(x["amount"]))
                 for x in settlement["transfers"]]
    return TableMoney(sheet, seats, pairs, transfers, Decimal(settlement["pot"]),
                      bool(checks["agree"]))


def evening_money(evening: Evening, sheets: list[ScoreSheet]) -> EveningMoney:
    """The evening's settlement: each table's, and each person's sum over his tables."""
    try:
        options = parse_settlement_options(evening.settlement or None)
        unit = minor_unit(evening.currency)
    except SkatError:  # stored settings the engine refuses: every table shows the error
        options, unit = SettlementOptions(), Decimal("0.01")
    tables: list[TableMoney] = []
    unsettled: list[ScoreSheet] = []
    for sheet in sheets:
        money = _table_money(sheet)
        if money is None:
            unsettled.append(sheet)
        else:
            tables.append(money)
    people: dict[int, dict[str, Any]] = {}
    for money in tables:
        for seat in money.seats:
            person = people.setdefault(seat.player_id, {
                "name": seat.name, "tables": [], "net": Decimal(0), "fees": Decimal(0),
                "balance": Decimal(0)})
            person["tables"].append(money.table.number)
            for key in ("net", "fees", "balance"):
                person[key] += getattr(seat, key)
    players = [PlayerMoney(pid, p["name"], tuple(p["tables"]), p["net"], p["fees"],
                           p["balance"]) for pid, p in people.items()]
    return EveningMoney(evening, evening.currency, rate(evening.stake, unit), unit, options, tables,
                        unsettled, players, sum((t.pot for t in tables), Decimal(0)))


@dataclass(frozen=True)
class Standing:
    rank: int
    player_id: int
    name: str
    tables: tuple[int, ...]
    points: int
    seeger_fabian: int | None
    won: int
    lost: int


def evening_ranking(evening: Evening, sheets: list[ScoreSheet]) -> list[Standing]:
    """All players of the evening, best first: by Seeger-Fabian points where the evening is
    scored so (ties: more games won, then fewer lost, DECISIONS.md §2), by classic points
    otherwise; in Beer Skat the lowest count is best. Equal places share a rank."""
    people: dict[int, dict[str, Any]] = {}
    for sheet in sheets:
        seats = list(sheet.table.seats.all())
        for p, name in enumerate(sheet.players):
            person = people.setdefault(seats[p].player_id, {
                "name": name, "tables": [], "points": 0, "sf": None, "won": 0, "lost": 0})
            person["tables"].append(sheet.table.number)
            person["points"] += sheet.totals[p]
            person["won"] += sheet.won[p]
            person["lost"] += sheet.lost[p]
            if sheet.seeger_fabian_totals is not None:
                person["sf"] = (person["sf"] or 0) + sheet.seeger_fabian_totals[p]
    scoring = evening.scoring

    def key(person: dict[str, Any]) -> tuple[int, ...]:
        if scoring == "seeger_fabian":
            return (-(person["sf"] or 0), -person["won"], person["lost"])
        if scoring == "beer":
            return (person["points"],)
        return (-person["points"],)

    ordered = sorted(people.items(), key=lambda item: (key(item[1]), name_key(item[1]["name"])))
    standings: list[Standing] = []
    for index, (pid, person) in enumerate(ordered):
        rank = index + 1
        if standings and key(person) == key(ordered[index - 1][1]):
            rank = standings[-1].rank
        standings.append(Standing(rank, pid, person["name"], tuple(person["tables"]),
                                  person["points"], person["sf"], person["won"],
                                  person["lost"]))
    return standings


# ---------------------------------------------------------------- held operations

@dataclass
class HeldView:
    """A held operation as the club admin judges it: the deal as the sheet would show it
    (a new deal scored at the end of its table as it stands now; a correction beside the
    deal as it is), or why the engine would refuse it now."""

    held: Any
    table: Table
    players: list[str]
    row: SheetRow | None  # what accepting it would write (the deal itself for a deletion)
    current: SheetRow | None  # a corrected deal as it stands now
    error: str = ""

    @property
    def entries(self) -> list[tuple[str, int]]:
        return _named(self.row, self.players)

    @property
    def current_entries(self) -> list[tuple[str, int]]:
        return _named(self.current, self.players)


def _named(row: SheetRow | None, players: list[str]) -> list[tuple[str, int]]:
    if row is None:
        return []
    return [(players[s], e) for s, e in enumerate(row.entries) if e is not None]


HELD_PAGE = 25  # waiting held operations per page of the held list
HELD_DECIDED_SHOWN = 25  # the latest decided ones listed (all are in the audit log)


@dataclass
class HeldPage:
    """A page of the held list: its waiting operations as the admin judges them, how many
    wait in all, the devices they came from (with how many each), the latest decided."""

    views: list[HeldView]
    page: int
    pages: int
    waiting: int
    devices: list[tuple[str, str, int]]  # (device as held_device names it, label, count)
    decided: list[Any]
    decided_count: int


def held_page(evening: Evening, lang: str, page: int = 1) -> HeldPage:
    """One page of the evening's held list: a constant number of queries however many
    operations wait (a device once sent 1,000)."""
    waiting_qs = HeldOperation.objects.filter(table__evening=evening,
                                              state=HeldOperation.State.WAITING)
    devices = [(f"u:{user}" if user is not None else f"a:{actor}", name or actor, count)
               for user, actor, name, count in waiting_qs.order_by().values_list(
                   "user_id", "actor", "user__username").annotate(count=Count("id"))
               .order_by("-count", "actor")]
    merged: dict[str, tuple[str, str, int]] = {}
    for device, label, count in devices:  # an account under several labels: one device
        old = merged.get(device)
        merged[device] = (device, old[1] if old else label, count + (old[2] if old else 0))
    total = sum(count for _d, _l, count in merged.values())
    pages = max(1, -(-total // HELD_PAGE))
    page = min(max(page, 1), pages)
    shown = list(waiting_qs.select_related("deal", "table").order_by("at", "id")[
        (page - 1) * HELD_PAGE:page * HELD_PAGE])
    decided_qs = HeldOperation.objects.filter(table__evening=evening).exclude(
        state=HeldOperation.State.WAITING)
    decided = list(decided_qs.select_related("table").order_by("-resolved_at", "-id")[
        :HELD_DECIDED_SHOWN])
    return HeldPage(_held_views(shown, lang), page, pages, total,
                    sorted(merged.values(), key=lambda d: (-d[2], d[1])), decided,
                    decided_qs.count() if len(decided) == HELD_DECIDED_SHOWN else len(decided))


def _held_views(waiting: list[HeldOperation], lang: str) -> list[HeldView]:
    """The held operations as the admin judges them: their tables read once (a constant
    number of queries), each scored as it stands now."""
    tables = {t.pk: t for t in tables_with_everything(
        Table.objects.filter(pk__in={h.table_id for h in waiting}))}
    sheets = {pk: table_sheet(t, lang, explain=False) for pk, t in tables.items()}
    by_request = {d.request_id: d for t in tables.values() for d in t.deals.all()
                  if d.request_id is not None}
    views = []
    for h in waiting:
        table = tables[h.table_id]
        sheet = sheets[h.table_id]
        rows = {row.deal_id: row for row in sheet.rows}
        target = h.deal or (by_request.get(h.deal_request_id)
                            if h.deal_request_id is not None else None)
        target = next((d for d in table.deals.all() if target and d.pk == target.pk), None)
        view = HeldView(h, table, sheet.players, None, None)
        if h.op == "save":
            preview = _held_preview(table, h, lang)
            view.row = preview.row
            view.error = preview.error.message_in(lang) if preview.error else ""
        elif target is None:
            view.error = _("The deal this changes is not stored: accept the new deal first.")
        elif h.op == "edit":
            view.current = rows.get(target.pk)
            if target.deleted:
                view.error = _("Restore the deal before correcting it.")
            else:
                preview = _held_preview(table, h, lang, replace=target)
                view.row = preview.row
                view.error = preview.error.message_in(lang) if preview.error else ""
        elif h.op == "delete":
            view.row = rows.get(target.pk)
            if target.deleted:
                view.error = _("This deal is already deleted.")
        else:
            if not target.deleted:
                view.error = _("This deal is not deleted.")
            else:
                preview = deal_toggle_preview(table, target, lang)
                view.row = preview.row
                view.error = preview.error.message_in(lang) if preview.error else ""
        views.append(view)
    return views
