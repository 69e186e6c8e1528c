"""Reads: a table's deals turned into the score sheet (one source for HTML and PDF), the
evening overview, a live preview of a deal not yet saved, and the held operations' list.
The sheet's shapes (ScoreSheet, SheetRow, the Bock state) are in score_sheet.py, a deal in
words and the forms' choices in deal_labels.py, the evening's money in evening_money.py, its
ranking in evening_ranking.py, the audit log's queries in audit.py (their names are still
importable from here).

Everything is derived from the stored records by the engine on each call, with a constant
number of queries per page."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.utils.translation import gettext as _

from scoring.engine import SkatError, TableDeal, evaluate_table
from scoring.models import Deal, Evening, HeldOperation, Player, Seat, Table

# Names that moved to their own modules (issue 27), still importable from here.
from scoring.reads.audit import audit_for_deal as audit_for_deal
from scoring.reads.audit import audit_for_evening as audit_for_evening
from scoring.reads.audit import sheet_numbers as sheet_numbers
from scoring.reads.deal_labels import CONCESSION_CHOICES as CONCESSION_CHOICES
from scoring.reads.deal_labels import DECLARATION_LABELS as DECLARATION_LABELS
from scoring.reads.deal_labels import KONTRA_CHOICES as KONTRA_CHOICES
from scoring.reads.deal_labels import (
    OVERBID_SHORT,
    bock_notes,
    game_base_name,
    ramsch_points,
    result_of,
    result_short,
)
from scoring.reads.deal_labels import QUICK_LABELS as QUICK_LABELS
from scoring.reads.deal_labels import QUICK_SHORT as QUICK_SHORT
from scoring.reads.deal_labels import RECORD_NAMES as RECORD_NAMES
from scoring.reads.deal_labels import SUIT_SYMBOLS as SUIT_SYMBOLS
from scoring.reads.deal_labels import details_of as details_of
from scoring.reads.deal_labels import game_for as game_for
from scoring.reads.deal_labels import game_label as game_label
from scoring.reads.deal_labels import result_label as result_label
from scoring.reads.evening_money import EveningMoney as EveningMoney
from scoring.reads.evening_money import Payment as Payment
from scoring.reads.evening_money import PlayerMoney as PlayerMoney
from scoring.reads.evening_money import SeatMoney as SeatMoney
from scoring.reads.evening_money import TableMoney as TableMoney
from scoring.reads.evening_money import evening_money as evening_money
from scoring.reads.evening_ranking import Standing as Standing
from scoring.reads.evening_ranking import evening_ranking as evening_ranking
from scoring.reads.score_sheet import BockStatus as BockStatus
from scoring.reads.score_sheet import EngineMessage as EngineMessage
from scoring.reads.score_sheet import ScoreSheet as ScoreSheet
from scoring.reads.score_sheet import SheetRow as SheetRow
from scoring.reads.score_sheet import bock_status as bock_status
from scoring.reads.score_sheet import bock_words as bock_words


def tables_with_everything(queryset: QuerySet[Table]) -> QuerySet[Table]:
    """The prefetches every sheet needs: three queries however many deals."""
    return queryset.select_related("evening__club").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        # Only what a sheet reads: the timestamps' converters cost more than the rest of a row.
        Prefetch("deals", queryset=Deal.objects.only(
            "id", "table_id", "position", "record", "deleted").order_by("position")),
    )


def table_in_full(pk: int) -> Table:
    """The table ``pk`` with everything its sheet needs (three queries); the caller has
    checked that the request may see it."""
    return tables_with_everything(Table.objects.filter(pk=pk)).get()


def tables_of_player(evening: Evening, player: Player) -> QuerySet[Table]:
    """The evening's tables ``player`` sat at, series by series, with everything their sheets
    need."""
    return tables_with_everything(
        Table.objects.filter(evening=evening, seats__player=player)).order_by("series")


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
            "kontra_by": (record.get("kontra_by")
                          if isinstance(record.get("kontra_by"), int) else None),
            "game_base": game_base_name(rules, options, record, lang),
            "matadors": row.get("matadors"), "levels": frozenset(row.get("levels") or ()),
            "result_short": str(OVERBID_SHORT) if overbid else result_short(record),
            "overbid": overbid, "ramsch_points": ramsch_points(record, players),
            "bock_manual": manual, "bock_round": queued,
            "bock_notes": bock_notes(row["bock"], manual, queued)}


def overbid_words(row: SheetRow) -> str:
    """The sheet's mark of a lost overbid game, "overbid (bid 30)"; "" for any other row (a
    quick "lost" already says it)."""
    if row.overbid and not row.says_lost:
        return _("overbid (bid %(bid)s)") % {"bid": row.bid}
    return ""


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
