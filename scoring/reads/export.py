"""Export in the interchange format (deal-record.md "An evening"), for one evening or a
whole club, and the score sheet as CSV: reads, nothing is written.

Export is deterministic, so that export → import → export gives the same bytes: keys sorted,
lists in a fixed order (players by name, profiles by name, seasons by start and name,
evenings by date and then by the order they were made, tables by series and number, seats by
position), no database ids, access codes, versions or timestamps. Each deal's ``bock`` is
written as the level the round tracker gives it (DECISIONS.md §8), so a reader sees the Bock;
on import it is stored as null again, so that later corrections may move Bock rounds. Under
option ``bock.manual`` a level the table set by hand (DECISIONS.md §9) is written with
``"bock_manual": true`` and stored as given on import; ``bock_round`` stays in the record.

Deleted deals are not part of the scored table, so ``deals`` never holds them: a reader of the
contract gets exactly the table that was scored. They are kept under the extra key
``deleted_deals`` (``{"position", "record"}``, ``position`` counting every deal of the table),
because a deleted deal can still be restored and the sheet lists it; dropping them would lose
that on a move between installations. The import is writes/imports.py.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext

from scoring.engine import SkatError, evaluate_table
from scoring.models import Club, Deal, Evening, Player, RuleProfile, Season, Seat, Table
from scoring.reads.sheet import ScoreSheet, overbid_words, table_document
from scoring.spreadsheet import csv_text


def dumps(document: dict[str, Any]) -> str:
    """The one way every export is written: sorted keys, two-space indent, UTF-8 text."""
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"


def _tables(evening: Evening) -> list[Table]:
    return list(Table.objects.filter(evening=evening).order_by("series", "number")
                .prefetch_related(
                    Prefetch("seats", queryset=Seat.objects.select_related("player")
                             .order_by("position")),
                    Prefetch("deals", queryset=Deal.objects.order_by("position")))
                .select_related("evening__club"))


def table_export(table: Table) -> dict[str, Any]:
    """A table as deal-record.md "A table", plus number, series and deleted_deals."""
    deals = list(table.deals.all())
    live = [d for d in deals if not d.deleted]
    document = table_document(table, [dict(d.record) for d in live])
    try:
        rows = evaluate_table(document)["deals"]
    except SkatError:
        rows = []  # stored deals the engine refuses: written as stored, bock untouched
    for record, row in zip(document["deals"], rows, strict=False):
        record["bock"] = row["bock"]
        if row.get("bock_manual"):
            record["bock_manual"] = True  # set by hand (bock.manual): an import keeps it
    document["number"] = table.number
    document["series"] = table.series
    document["deleted_deals"] = [
        {"position": index, "record": d.record}
        for index, d in enumerate(deals, 1) if d.deleted]
    return document


def evening_export(evening: Evening) -> dict[str, Any]:
    return {
        "club": evening.club.slug, "date": evening.date.isoformat(), "name": evening.name,
        "profile_name": evening.profile_name, "closed": evening.closed,
        "season": evening.season.name if evening.season is not None else None,
        "series_rounds": evening.series_rounds,
        **evening.rules_dict(),
        "tables": [table_export(table) for table in _tables(evening)],
    }


def _profile_export(profile: RuleProfile) -> dict[str, Any]:
    return {"name": profile.name, **profile.rules_dict()}


def _season_export(season: Season) -> dict[str, Any]:
    return {"name": season.name, "start": season.start.isoformat(),
            "end": season.end.isoformat(), "evaluation": season.evaluation,
            "best_of": season.best_of, "min_evenings": season.min_evenings,
            "series_rounds": season.series_rounds}


def club_export(club: Club) -> dict[str, Any]:
    evenings = Evening.objects.filter(club=club).select_related("club", "season")
    return {
        "club": club.slug, "name": club.name, "language": club.language,
        "players": [{"name": p.name, "guest": p.guest}
                    for p in Player.objects.filter(club=club).order_by("name")],
        "rule_profiles": [_profile_export(p)
                          for p in RuleProfile.objects.filter(club=club).order_by("name")],
        "seasons": [_season_export(s)
                    for s in Season.objects.filter(club=club).order_by("start", "name")],
        "evenings": [evening_export(e) for e in evenings.order_by("date", "id")],
    }


# ---------------------------------------------------------------- the sheet as CSV

def sheet_csv(sheet: ScoreSheet) -> str:
    """The score sheet's rows as CSV (UTF-8 with BOM, so that Excel reads umlauts): the
    columns of the sheet, then per player the entry and the running total. Headings in the
    active language, as on the sheet."""
    rows: list[list[Any]] = []
    head = [gettext("No."), gettext("Dealer"), gettext("Declarer"), gettext("Game"),
            gettext("Details"), gettext("Bid"), gettext("Result"), "Kontra/Re", "Bock"]
    total = gettext("Total")
    for name in sheet.players:
        head += [name, f"{name} ({total})"]
    rows.append(head)
    players = sheet.players
    for row in sheet.rows:
        kontra = {"kontra": "Kontra", "re": "Re"}.get(row.kontra, "")
        cells: list[Any] = [
            row.number, players[row.dealer],
            players[row.declarer] if row.declarer is not None else "",
            row.game, ", ".join(row.details), "" if row.bid is None else row.bid,
            # the result as the sheet says it: a lost overbid game says so
            " ".join(part for part in (row.result, overbid_words(row)) if part),
            kontra, f"×{2 ** row.bock}" if row.bock else "",
        ]
        for entry, running in zip(row.entries, row.totals, strict=True):
            cells += ["" if entry is None else entry, running]
        rows.append(cells)
    return csv_text(rows, quote_text=True)
