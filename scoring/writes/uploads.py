"""Bringing old lists in from the browser (issue 16): an uploaded file is checked in full and
shown as a preview (what will be added, what is there already, every problem named by line,
table or deal); the file is held, with its SHA-256, until the club admin confirms, and then
imported in one transaction by the same reader the commands use (interchange.py for the JSON
of deal-record.md, paper.py for the CSV of a paper season).

The preview of a JSON file is the import itself, run in a transaction that is rolled back:
so what it says will be added is exactly what the confirmation adds (unless someone changed
the club in between; the confirmation checks everything again).
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.models import Club, Deal, Evening, PendingImport, Player, Season, Table
from scoring.writes.interchange import (
    ImportProblem,
    ImportReport,
    import_club_report,
    import_evening_report,
    loads,
)
from scoring.writes.paper import import_totals, plan_totals
from scoring.writes.services import Actor
from scoring.writes.sheetcsv import import_sheet, plan_sheet

# The largest file a club admin may upload; a larger club file is imported with
# `manage.py import_club` (interchange.MAX_FILE_BYTES).
UPLOAD_MAX_BYTES = 8 * 1024 * 1024
# How long an uploaded file waits for its confirmation.
PENDING_FOR = datetime.timedelta(hours=1)


def digest_of(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


@dataclass
class EveningLine:
    """One evening of a file as the preview shows it."""

    date: datetime.date
    name: str
    season: str | None
    tables: int
    deals: int
    deleted: int
    players: list[str]
    added: bool  # False: the club has it already (same date, name and content)
    paper: bool = False  # totals from a paper list, no deals


@dataclass
class Preview:
    """What an upload would do: the evenings to add or skip, new players, or the problems
    that stop it (each naming its line, table or deal); nothing is written."""

    kind: str
    evenings: list[EveningLine] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    totals: int = 0  # paper totals to add (CSV)

    @property
    def added(self) -> list[EveningLine]:
        return [e for e in self.evenings if e.added]

    @property
    def skipped(self) -> list[EveningLine]:
        return [e for e in self.evenings if not e.added]

    @property
    def nothing_new(self) -> bool:
        return not self.problems and not self.added


class _DryRun(Exception):
    def __init__(self, preview: Preview) -> None:
        super().__init__("dry run")
        self.preview = preview


def _lines(report: ImportReport) -> list[EveningLine]:
    lines = []
    for evening, added in [(e, True) for e in report.added] + [(e, False)
                                                               for e in report.skipped]:
        tables = list(Table.objects.filter(evening=evening).prefetch_related("seats__player"))
        deals = Deal.objects.filter(table__evening=evening)
        names = sorted({seat.player.name for table in tables for seat in table.seats.all()})
        lines.append(EveningLine(
            date=evening.date, name=evening.name,
            season=evening.season.name if evening.season else None, tables=len(tables),
            deals=deals.filter(deleted=False).count(), deleted=deals.filter(deleted=True).count(),
            players=names, added=added))
    lines.sort(key=lambda line: (line.date, line.name))
    return lines


def kind_of(document: Any) -> str:
    """An evening file or a club file (export_evening, export_club)."""
    if isinstance(document, dict) and "evenings" in document:
        return PendingImport.Kind.CLUB
    return PendingImport.Kind.EVENING


def kind_of_bytes(content: bytes) -> str:
    try:
        return kind_of(loads(content))
    except ImportProblem:
        return PendingImport.Kind.EVENING  # its preview names the problem


def expiry_cutoff() -> datetime.datetime:
    """Held files uploaded before this have expired."""
    return timezone.now() - PENDING_FOR


def _check_club(document: Any, club: Club) -> None:
    slug = document.get("club") if isinstance(document, dict) else None
    if slug != club.slug:
        raise ImportProblem(_("The file belongs to club %(theirs)s, not to %(ours)s: "
                              "a club imports only its own files.") % {
            "theirs": repr(slug) if isinstance(slug, str) else _("(none)"),
            "ours": repr(club.slug)})


def import_json(content: bytes, club: Club, *, actor: Actor, source: str) -> ImportReport:
    """Import an evening or club file for ``club`` (which the file must name): all or
    nothing, the evenings the club has already are not added again."""
    document = loads(content)
    _check_club(document, club)
    if kind_of(document) == PendingImport.Kind.CLUB:
        return import_club_report(document, actor=actor, source=source)
    return import_evening_report(document, actor=actor, source=source)


def preview_json(content: bytes, club: Club, *, actor: Actor, source: str) -> Preview:
    """What ``import_json`` would do, and nothing written."""
    try:
        kind = kind_of(loads(content))
    except ImportProblem as err:
        return Preview(PendingImport.Kind.EVENING, problems=[err.message_in(get_language())])
    try:
        with transaction.atomic():
            known = set(Player.objects.filter(club=club).values_list("name", flat=True))
            report = import_json(content, club, actor=actor, source=source)
            preview = Preview(kind, evenings=_lines(report), new_players=sorted(
                set(Player.objects.filter(club=club).values_list("name", flat=True)) - known))
            raise _DryRun(preview)
    except _DryRun as done:
        return done.preview
    except ImportProblem as err:
        return Preview(kind, problems=[err.message_in(get_language())])


# ---------------------------------------------------------------- the file held in between

def hold(*, club: Club, user: Any, kind: str, name: str, content: bytes,
         options: dict[str, Any] | None = None) -> PendingImport:
    """Keep an uploaded file for its confirmation; this user's older uploads to the club
    and anything expired go."""
    PendingImport.objects.filter(created__lt=expiry_cutoff()).delete()
    PendingImport.objects.filter(club=club, user=user).delete()
    return PendingImport.objects.create(club=club, user=user, kind=kind, name=name[:255],
                                        digest=digest_of(content), content=content,
                                        options=options or {})


def held(*, club: Club, user: Any, pk: int, digest: str) -> PendingImport | None:
    """The file this user uploaded to this club, if it is still there, unexpired, and has
    the SHA-256 the preview showed (else None: upload it again)."""
    pending = PendingImport.objects.filter(
        pk=pk, club=club, user=user, created__gte=expiry_cutoff()).first()
    if pending is None or pending.digest != digest:
        return None
    if digest_of(bytes(pending.content)) != digest:
        return None
    return pending


def evenings_of(report: ImportReport) -> list[Evening]:
    return [*report.added, *report.skipped]


# ---------------------------------------------------------------- a season on paper (CSV)

def _season_of(pending: PendingImport) -> Season | None:
    pk = pending.options.get("season")
    return Season.objects.filter(pk=pk, club=pending.club).first() if pk else None


def preview_totals(content: bytes, season: Season | None) -> Preview:
    if season is None:
        return Preview(PendingImport.Kind.TOTALS, problems=[
            _("The season chosen for these totals is gone; upload the file again.")])
    plan = plan_totals(content, season)
    evenings = [EveningLine(
        date=e.date, name=e.name, season=season.name, tables=0, deals=0, deleted=0,
        players=sorted(line.player for line in e.lines), added=e.added, paper=True)
        for e in plan.evenings]
    return Preview(PendingImport.Kind.TOTALS, evenings=evenings, new_players=plan.new_players,
                   problems=plan.problems,
                   totals=sum(len(e.lines) for e in plan.evenings if e.added))


def _evening_of(pending: PendingImport) -> Evening | None:
    pk = pending.options.get("evening")
    return Evening.objects.filter(pk=pk, club=pending.club).first() if pk else None


def _gone() -> str:
    return _("The evening chosen for this score sheet is gone; upload the file again.")


def preview_sheet(content: bytes, evening: Evening | None) -> Preview:
    if evening is None:
        return Preview(PendingImport.Kind.SHEET, problems=[_gone()])
    plan = plan_sheet(content, evening)
    if plan.problems:
        return Preview(PendingImport.Kind.SHEET, problems=plan.problems)
    known = set(Player.objects.filter(club=evening.club).values_list("name", flat=True))
    return Preview(PendingImport.Kind.SHEET, evenings=[EveningLine(
        date=evening.date, name=evening.name,
        season=evening.season.name if evening.season else None, tables=1,
        deals=len(plan.records), deleted=0, players=plan.players, added=plan.added)],
        new_players=sorted(set(plan.players) - known) if plan.added else [])


def preview(pending: PendingImport, *, actor: Actor) -> Preview:
    """The preview of a held file, whatever it holds."""
    content = bytes(pending.content)
    if pending.kind == PendingImport.Kind.SHEET:
        return preview_sheet(content, _evening_of(pending))
    if pending.kind == PendingImport.Kind.TOTALS:
        return preview_totals(content, _season_of(pending))
    return preview_json(content, pending.club, actor=actor, source=pending.name)


@dataclass
class Outcome:
    added: int
    skipped: int


def confirm(pending: PendingImport, *, actor: Actor) -> Outcome:
    """Import the held file in one transaction (ImportProblem: nothing written); the held
    file is removed once imported."""
    with transaction.atomic():
        content = bytes(pending.content)
        if pending.kind == PendingImport.Kind.SHEET:
            evening = _evening_of(pending)
            if evening is None:
                raise ImportProblem(_gone())
            sheet = import_sheet(content, evening, actor=actor, source=pending.name)
            outcome = Outcome(int(sheet.existing is None), int(sheet.existing is not None))
        elif pending.kind == PendingImport.Kind.TOTALS:
            season = _season_of(pending)
            if season is None:
                raise ImportProblem(_("The season chosen for these totals is gone; upload "
                                      "the file again."))
            plan = import_totals(content, season, actor=actor, source=pending.name)
            outcome = Outcome(sum(1 for e in plan.evenings if e.added),
                              sum(1 for e in plan.evenings if not e.added))
        else:
            report = import_json(content, pending.club, actor=actor, source=pending.name)
            outcome = Outcome(len(report.added), len(report.skipped))
        pending.delete()
    return outcome
