"""Bringing old lists in from the browser (issue 16): an uploaded file is checked in full and
shown as a preview (what will be added, what is there already, every problem named by line,
table or deal); the file is held, with its SHA-256, until the club admin confirms, and then
imported in one transaction by the same reader the commands use (imports.py for the JSON
of deal-record.md, paper.py for the CSV of a paper season).

The preview of a JSON file is the import itself, run in a transaction that is rolled back:
so what it says will be added is exactly what the confirmation adds (unless someone changed
the club in between; the confirmation checks everything again).

The file is read and checked once, at its upload (issue 26): the preview is kept with the
held file (PendingImport.checked) and its page only shows it, so that looking at a preview
again costs nothing. What one upload may make the site do is bounded (settings IMPORT_MAX_*):
its size, its entries (evenings, tables, deals, players), the objects and lists of its JSON,
the lines of a CSV, and the seconds its check takes; a file beyond a bound is refused with a
message naming it (OverBounds), and nothing is held.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring.models import (
    Club,
    Deal,
    Evening,
    PendingImport,
    Player,
    RuleProfile,
    Season,
    Table,
)
from scoring.writes.import_checks import loads
from scoring.writes.import_problems import (
    ImportProblem,
    Number,
    OverBounds,
    Words,
    budget,
    tick,
)
from scoring.writes.imports import (
    ImportReport,
    ProfileClash,
    import_club_report,
    import_evening_report,
)
from scoring.writes.paper import import_totals, plan_totals
from scoring.writes.services import Actor
from scoring.writes.sheetcsv import import_sheet, plan_sheet


def max_bytes() -> int:
    """The largest file a club admin may upload (IMPORT_MAX_BYTES); a larger club file is
    imported with `manage.py import_club` (import_checks.MAX_FILE_BYTES)."""
    return int(settings.IMPORT_MAX_BYTES)


UPLOAD_MAX_BYTES = 8 * 1024 * 1024  # the default of IMPORT_MAX_BYTES
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
    # rule profiles the club has under the file's names with other rules: name, the settings
    # that differ in words, the name suggested to take the file's under
    clashes: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """What PendingImport.checked keeps."""
        return {"kind": self.kind, "new_players": self.new_players, "problems": self.problems,
                "totals": self.totals, "clashes": self.clashes,
                "evenings": [{**line.__dict__, "date": line.date.isoformat()}
                             for line in self.evenings]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Preview:
        return cls(kind=data["kind"], new_players=list(data["new_players"]),
                   problems=list(data["problems"]), totals=int(data["totals"]),
                   clashes=list(data.get("clashes", [])),
                   evenings=[EveningLine(**{**line, "date": datetime.date.fromisoformat(
                       line["date"])}) for line in data["evenings"]])

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


def import_document(document: Any, club: Club, *, actor: Actor, source: str,
                    profiles: dict[str, str] | None = None) -> ImportReport:
    """Import a parsed evening or club file for ``club`` (which the file must name): all or
    nothing, the evenings the club has already are not added again."""
    _check_club(document, club)
    if kind_of(document) == PendingImport.Kind.CLUB:
        return import_club_report(document, actor=actor, source=source, profiles=profiles)
    return import_evening_report(document, actor=actor, source=source)


def import_json(content: bytes, club: Club, *, actor: Actor, source: str,
                profiles: dict[str, str] | None = None) -> ImportReport:
    """import_document of the file's bytes."""
    return import_document(loads(content), club, actor=actor, source=source,
                           profiles=profiles)


def suggested_name(name: str, club: Club) -> str:
    """The name offered for the file's profile: "<name> (Import)", numbered when the club
    has that name too."""
    taken = set(RuleProfile.objects.filter(club=club).values_list("name", flat=True))
    for number in range(1, 100):
        suffix = " (Import)" if number == 1 else f" (Import {number})"
        candidate = name[:100 - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    return name  # a club with a hundred imports of one name: the admin names it


def preview_document(document: Any, club: Club, *, actor: Actor, source: str) -> Preview:
    """What ``import_document`` would do, and nothing written. A clash of rule profiles is
    shown with each setting that differs, and the rest as if the file's profile were taken
    under the suggested name."""
    kind = kind_of(document)
    clashes: list[dict[str, Any]] = []
    try:
        with transaction.atomic():
            known = set(Player.objects.filter(club=club).values_list("name", flat=True))
            try:
                report = import_document(document, club, actor=actor, source=source)
            except ProfileClash as clash:
                lang = get_language()
                names = {c.name: suggested_name(c.name, club) for c in clash.clashes}
                clashes = [{"name": c.name, "suggested": names[c.name],
                            "differences": [d.in_lang(lang) for d in c.differences]}
                           for c in clash.clashes]
                report = import_document(document, club, actor=actor, source=source,
                                         profiles=names)
            preview = Preview(kind, evenings=_lines(report), new_players=sorted(
                set(Player.objects.filter(club=club).values_list("name", flat=True)) - known),
                clashes=clashes)
            raise _DryRun(preview)
    except _DryRun as done:
        return done.preview
    except ImportProblem as err:
        return Preview(kind, problems=[err.message_in(get_language())])


def preview_json(content: bytes, club: Club, *, actor: Actor, source: str) -> Preview:
    """What ``import_json`` would do, and nothing written."""
    try:
        document = loads(content)
    except ImportProblem as err:
        return Preview(PendingImport.Kind.EVENING, problems=[err.message_in(get_language())])
    return preview_document(document, club, actor=actor, source=source)


# ---------------------------------------------------------------- the bounds of one upload

def _too_many(what: str, count: int, limit: int) -> OverBounds:
    templates = {
        "objects": gettext_lazy("The file holds %(count)s JSON objects and lists; one upload "
                                "may hold at most %(limit)s."),
        "evenings": gettext_lazy("The file holds %(count)s evenings; one upload may hold at "
                                 "most %(limit)s."),
        "tables": gettext_lazy("The file holds %(count)s tables; one upload may hold at most "
                               "%(limit)s."),
        "deals": gettext_lazy("The file holds %(count)s deals; one upload may hold at most "
                              "%(limit)s."),
        "players": gettext_lazy("The file holds %(count)s players; one upload may hold at "
                                "most %(limit)s."),
        "lines": gettext_lazy("The file has %(count)s lines; one upload may hold at most "
                              "%(limit)s."),
    }
    return OverBounds(Words(templates[what], count=Number(count), limit=Number(limit)))


def _bound(what: str, count: int) -> None:
    limit = int(getattr(settings, f"IMPORT_MAX_{what.upper()}"))
    if count > limit:
        raise _too_many(what, count, limit)


def _list(value: Any, key: str) -> list[Any]:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, list) else []


def check_entries(document: Any) -> None:
    """The evenings, tables, deals and players a parsed file holds, each within its bound
    (OverBounds): counted before anything is checked in depth."""
    evenings = _list(document, "evenings") if kind_of(document) == PendingImport.Kind.CLUB \
        else [document]
    _bound("evenings", len(evenings))
    tables = [table for evening in evenings for table in _list(evening, "tables")]
    _bound("tables", len(tables))
    _bound("deals", sum(len(_list(t, "deals")) + len(_list(t, "deleted_deals"))
                        for t in tables))
    names = {name for table in tables for name in _list(table, "players")
             if isinstance(name, str)}
    names.update(str(p.get("name")) for p in _list(document, "players")
                 if isinstance(p, dict) and isinstance(p.get("name"), str))
    _bound("players", max(len(names), len(_list(document, "players"))))


def _check_json(content: bytes, club: Club, *, actor: Actor, source: str) -> Preview:
    # JSON's objects and lists, counted in the bytes (a brace inside a text counts too):
    # the parser is not given more than the bound allows
    _bound("objects", content.count(b"{") + content.count(b"["))
    try:
        document = loads(content)
    except ImportProblem as err:
        return Preview(PendingImport.Kind.EVENING, problems=[err.message_in(get_language())])
    tick()
    check_entries(document)
    return preview_document(document, club, actor=actor, source=source)


def check(*, club: Club, actor: Actor, kind: str, name: str, content: bytes,
          options: dict[str, Any]) -> Preview:
    """The preview of an upload, checked once and within the bounds (OverBounds)."""
    if len(content) > max_bytes():
        raise OverBounds(Words(gettext_lazy("The file is too large: %(size)s bytes; one upload "
                                            "may hold at most %(limit)s bytes."),
                               size=Number(len(content)), limit=Number(max_bytes())))
    with budget(float(settings.IMPORT_MAX_SECONDS)):
        if kind == PendingImport.Kind.SHEET:
            _bound("lines", content.count(b"\n"))
            return preview_sheet(content, _evening_of_options(options, club))
        if kind == PendingImport.Kind.TOTALS:
            _bound("lines", content.count(b"\n"))
            return preview_totals(content, _season_of_options(options, club))
        return _check_json(content, club, actor=actor, source=name)


# ---------------------------------------------------------------- the file held in between

def hold(*, club: Club, user: Any, kind: str, name: str, content: bytes,
         options: dict[str, Any] | None = None) -> PendingImport:
    """Check an uploaded file (OverBounds: refused, nothing held) and keep it with its
    preview for its confirmation; this user's older uploads to the club and anything expired
    go. ``kind`` "json" (or evening, club): the file says which."""
    options = options or {}
    seen = check(club=club, actor=Actor(user, user.get_username()), kind=kind, name=name,
                 content=content, options=options)
    PendingImport.objects.filter(created__lt=expiry_cutoff()).delete()
    PendingImport.objects.filter(club=club, user=user).delete()
    return PendingImport.objects.create(club=club, user=user, kind=seen.kind, name=name[:255],
                                        digest=digest_of(content), content=content,
                                        options=options, checked=seen.as_json())


def held(*, club: Club, user: Any, pk: int, digest: str) -> PendingImport | None:
    """The file this user uploaded to this club, if it is still there, unexpired, and has
    the SHA-256 the preview showed (else None: upload it again)."""
    pending = PendingImport.objects.filter(
        pk=pk, club=club, user=user, created__gte=expiry_cutoff()).first()
    if pending is None or pending.digest != digest or not pending.checked:
        return None
    if digest_of(bytes(pending.content)) != digest:
        return None
    return pending


def evenings_of(report: ImportReport) -> list[Evening]:
    return [*report.added, *report.skipped]


# ---------------------------------------------------------------- a season on paper (CSV)

def _season_of_options(options: dict[str, Any], club: Club) -> Season | None:
    pk = options.get("season")
    return Season.objects.filter(pk=pk, club=club).first() if pk else None


def _season_of(pending: PendingImport) -> Season | None:
    return _season_of_options(pending.options, pending.club)


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


def _evening_of_options(options: dict[str, Any], club: Club) -> Evening | None:
    pk = options.get("evening")
    return Evening.objects.filter(pk=pk, club=club).first() if pk else None


def _evening_of(pending: PendingImport) -> Evening | None:
    return _evening_of_options(pending.options, pending.club)


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


def preview(pending: PendingImport) -> Preview | None:
    """The preview of a held file as its upload checked it: nothing is read again (None: a
    file held before previews were kept; it is uploaded again)."""
    return Preview.from_json(pending.checked) if pending.checked else None


@dataclass
class Outcome:
    added: int
    skipped: int


def confirm(pending: PendingImport, *, actor: Actor,
            profiles: dict[str, str] | None = None) -> Outcome:
    """Import the held file in one transaction (ImportProblem, OverBounds: nothing written);
    the held file is removed once imported. A file whose check found problems is not read
    again; the import checks everything again (the club may have changed), within the same
    bounds. ``profiles``: what to do with each rule profile that clashes (import_club)."""
    checked = preview(pending)
    if checked is None or checked.problems:
        raise ImportProblem(checked.problems[0] if checked and checked.problems else
                            _("The file was not checked; upload it again."))
    with budget(float(settings.IMPORT_MAX_SECONDS)), transaction.atomic():
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
            report = import_json(content, pending.club, actor=actor, source=pending.name,
                                 profiles=profiles)
            outcome = Outcome(len(report.added), len(report.skipped))
        pending.delete()
    return outcome
