"""Reads: a table's deals turned into the score sheet (one source for HTML and PDF), the
evening overview, a live preview of a deal not yet saved, and the audit log.

Everything is derived from the stored records by the engine on each call, with a constant
number of queries per page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from scoring.engine import SkatError, evaluate_table
from scoring.engine.deal import QUICK_RESULTS
from scoring.engine.games import HISTORIC_GAMES, ISKO_GAMES, Game
from scoring.models import AuditEntry, Deal, Evening, Seat, Table

SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def tables_with_everything(queryset: QuerySet[Table]) -> QuerySet[Table]:
    """The prefetches every sheet needs: three queries however many deals."""
    return queryset.select_related("evening__club").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("deals", queryset=Deal.objects.order_by("position")),
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

    @property
    def says_lost(self) -> bool:
        """The result column already reads "lost …" (a quick result), so no second mark."""
        return self.result_key.startswith("lost")


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
    error: SkatError | None = None  # the stored deals no longer score (should not happen)
    counted: int = 0  # deals that count toward rounds and the series length

    @property
    def seeger_fabian(self) -> bool:
        return self.seeger_fabian_totals is not None

    @property
    def lost_bonus(self) -> int:
        return 40 if len(self.players) == 3 else 30


def game_for(rules: str, options: dict[str, Any], key: str) -> Game | None:
    if rules == "isko":
        return ISKO_GAMES[options.get("grand_base", 24)].get(key)
    return HISTORIC_GAMES.get(rules, {}).get(key)


def game_label(rules: str, options: dict[str, Any], record: dict[str, Any],
               lang: str) -> tuple[str, str, bool]:
    """(name, suit symbol, red?) of a record, e.g. ("Kreuz", "♣", False)."""
    kind = record.get("kind")
    if kind != "game":
        names = {"passed": _("passed in"), "ramsch": _("Ramsch"), "penalty": _("penalty"),
                 "misdeal": _("misdeal")}
        return names.get(str(kind), str(kind)), "", False
    game = game_for(rules, options, str(record.get("game")))
    if game is None:
        return str(record.get("game")), "", False
    name = game.name_de if lang == "de" else game.name_en
    if game.null:
        name += " Ouvert" if record.get("ouvert") else ""
        name += " Hand" if record.get("hand") else ""
    symbol = SUIT_SYMBOLS.get(game.trump or "", "")
    return name, symbol, game.trump in ("H", "D")


DECLARATION_LABELS = [
    ("hand", gettext_noop("Hand")), ("ouvert", gettext_noop("Ouvert")),
    ("schneider_announced", gettext_noop("Schneider announced")),
    ("schwarz_announced", gettext_noop("Schwarz announced")),
]


def details_of(record: dict[str, Any]) -> list[str]:
    """The declarations a scorer reads out: "mit 2", "Hand", "Schneider angesagt" …"""
    out = []
    matadors = record.get("matadors")
    if isinstance(matadors, int) and matadors:
        out.append((_("with %d") if matadors > 0 else _("without %d")) % abs(matadors))
    # Translated only when the declaration applies: a sheet asks this for every row.
    out += [_(label) for key, label in DECLARATION_LABELS if record.get(key) is True]
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


def result_label(record: dict[str, Any]) -> str:
    quick = record.get("result")
    if quick in QUICK_RESULTS:
        return _(QUICK_LABELS[quick])
    points = record.get("declarer_points")
    tricks = record.get("declarer_tricks")
    if points is not None:
        return str(points)
    if tricks is not None:
        return ngettext("%d trick", "%d tricks", tricks) % tricks
    return ""


def _by_seat(values: dict[str, int] | None, players: int) -> list[int | None]:
    values = values or {}
    return [values.get(str(p)) for p in range(players)]


def table_sheet(table: Table, lang: str, explain: bool = True) -> ScoreSheet:
    """The score sheet of a table fetched with ``tables_with_everything``."""
    evening = table.evening
    deals = list(table.deals.all())
    live = [d for d in deals if not d.deleted]
    document = table_document(table, [d.record for d in live])
    players = document["players"]
    n = len(players)
    try:
        result = evaluate_table(document, lang=lang, explain=explain)
    except SkatError as err:  # stored data the engine refuses: show it, never a 500
        return _empty_sheet(table, players, deals, err)
    rows = []
    for deal, row in zip(live, result["deals"], strict=True):
        record = deal.record
        name, symbol, red = game_label(evening.rules, evening.options, record, lang)
        declarer = record.get("declarer") if record.get("kind") == "game" else None
        rows.append(SheetRow(
            number=row["number"], deal_id=deal.pk, kind=row["kind"], dealer=row["dealer"],
            active=tuple(row["active"]), declarer=declarer, game=name, symbol=symbol, red=red,
            details=details_of(record), bid=record.get("bid"), result=result_label(record),
            result_key=str(record.get("result") or ""),
            kontra=record.get("kontra") or "none", bock=row["bock"],
            ramsch_round=row["ramsch_round"], won=row["won"], value=row["value"],
            entries=_by_seat(row["entries"], n), totals=[row["totals"][str(p)] for p in range(n)],
            seeger_fabian=_by_seat(row.get("seeger_fabian"), n) if "seeger_fabian" in row
            else None,
            round_end=row["round_end"], underline=frozenset(row["underline"]),
            explanation=row.get("explanation", ""),
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
        counted=sum(1 for row in result["deals"] if row["counts"]),
    )


def _empty_sheet(table: Table, players: list[str], deals: list[Deal],
                 err: SkatError) -> ScoreSheet:
    n = len(players)
    return ScoreSheet(
        table=table, players=players, rows=[], totals=[0] * n, seeger_fabian_totals=None,
        won=[0] * n, lost=[0] * n, next_dealer=table.first_dealer, next_active=[],
        next_round=1, next_deal_in_round=1, next_bock=0, next_ramsch_round=False,
        next_ramsch_deal=0, bock_pending=0, settlement=None,
        beer_loser=None, deleted=[d for d in deals if d.deleted], error=err,
    )


@dataclass
class Preview:
    """What saving this record would write: the new row, or the engine's refusal."""

    row: SheetRow | None
    error: SkatError | None


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
    row = result["deals"][index - 1]
    n = len(table.seats.all())
    name, symbol, red = game_label(table.evening.rules, table.evening.options, record, lang)
    return Preview(SheetRow(
        number=row["number"], deal_id=replace.pk if replace else 0, kind=row["kind"],
        dealer=row["dealer"], active=tuple(row["active"]),
        declarer=record.get("declarer") if record.get("kind") == "game" else None,
        game=name, symbol=symbol, red=red, details=details_of(record), bid=record.get("bid"),
        result=result_label(record), result_key=str(record.get("result") or ""),
        kontra=record.get("kontra") or "none", bock=row["bock"],
        ramsch_round=row["ramsch_round"], won=row["won"], value=row["value"],
        entries=_by_seat(row["entries"], n), totals=[row["totals"][str(p)] for p in range(n)],
        seeger_fabian=None, round_end=row["round_end"], underline=frozenset(row["underline"]),
        explanation=row.get("explanation", ""),
    ), None)


def evening_tables(evening: Evening) -> QuerySet[Table]:
    # the series being played first: it is what the organiser follows during the evening
    return tables_with_everything(evening.tables.all()).order_by("-series", "number")


def audit_for_evening(evening: Evening) -> QuerySet[AuditEntry]:
    return evening.audit.select_related("table", "deal", "user").order_by("-at", "-id")


def audit_for_deal(deal: Deal) -> QuerySet[AuditEntry]:
    return deal.audit.select_related("user").order_by("at", "id")
