"""Import in the interchange format (deal-record.md "An evening"), for one evening or a whole
club: checked in full first (writes/import_checks.py: the JSON's shape, every table through
the engine), then the club's players, profiles and seasons found or made and the evenings
written in one transaction: any problem raises ``ImportProblem`` with a message naming the
table and the deal, and nothing is written. The export is reads/export.py."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import language
from scoring.models import AuditEntry, Club, Deal, Evening, Player, RuleProfile, Season
from scoring.reads.export import evening_export
from scoring.writes import scores
from scoring.writes.import_checks import (
    PLACE_NAMES,
    RULE_KEYS,
    PlannedEvening,
    check_club,
    check_evening,
    check_profile_name,
)
from scoring.writes.import_problems import (
    ImportProblem,
    Refusal,
    Where,
    Words,
    at_place,
    problem_at,
    tick,
)
from scoring.writes.services import Actor, check_season, evening_audit, table_create

# ---------------------------------------------------------------- writing

def _write_evening(plan: PlannedEvening, club: Club, players: dict[str, Player],
                   where: Where | None) -> Evening:
    doc = plan.doc
    season = None
    if doc.get("season") is not None:
        season = Season.objects.filter(club=club, name=doc["season"]).first()
        if season is None:
            raise problem_at(where, Words(_("Club %(club)s has no season %(season)s (import "
                                           "the whole club, or create the season first)."),
                                        club=repr(club.slug), season=repr(doc["season"])))
    evening = Evening(club=club, date=datetime.date.fromisoformat(doc["date"]), name=doc["name"],
                      profile_name=doc.get("profile_name", ""),
                      closed=doc.get("closed", False), season=season,
                      series_rounds=doc.get("series_rounds"), **plan.rules)
    try:
        evening.full_clean()
        check_season(evening)
    except ValidationError as err:
        raise problem_at(where, Refusal(err)) from None
    evening.save()
    for index, table in enumerate(plan.tables, 1):
        tick()
        seated = []
        for name in table.players:
            if name not in players:
                players[name] = Player.objects.create(club=club, name=name)
            seated.append(players[name])
        try:
            made = table_create(evening=evening, players=seated, first_dealer=table.first_dealer,
                                number=table.number, series=table.series)
        except ValidationError as err:
            raise problem_at(at_place(where, Words(_("Table %(number)s"), number=index)),
                           Refusal(err)) from None
        live = iter(table.deals)
        deleted = dict(table.deleted)
        rows = []
        for position in range(1, len(table.deals) + len(deleted) + 1):
            if position in deleted:
                rows.append(Deal(table=made, position=position, record=deleted[position],
                                 deleted=True))
            else:
                rows.append(Deal(table=made, position=position, record=next(live)))
        Deal.objects.bulk_create(rows)
    scores.rebuild(evening.tables.all())  # the federation ranking's rows, as a save keeps them
    return evening


def _club(slug: str, name: str | None = None, language: str | None = None) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        club = Club(slug=slug, name=name or slug, language=language or "de")
        try:
            club.full_clean()
        except ValidationError as err:
            raise problem_at(Words(_("Club %(club)s"), club=repr(slug)), Refusal(err)) from None
        club.save()
    return club


def _run(write: Any) -> Any:
    """One transaction: any problem rolls everything back and is reported as ImportProblem."""
    try:
        with transaction.atomic():
            return write()
    except ImportProblem:
        raise
    except ValidationError as err:
        raise ImportProblem(Refusal(err)) from None
    except DatabaseError as err:
        raise ImportProblem(Words(_("The database refused the import: %(error)s"),
                                  error=str(err))) from None


# An evening counts as already there (and is not added again) when the club has an evening
# of the same date and name whose content is identical: its export, but for "closed", equals
# the export of the evening as the file would make it. Anything else in the file (one deal
# differs, another season) is another evening and is added. Every import is written to the
# evening's audit log: who ran it, which file, what was added or found already there.
IMPORT_ACTOR = Actor(None, "import")


@dataclass
class ImportReport:
    """What an import did: the club, the evenings added and those already there."""

    club: Club
    added: list[Evening] = field(default_factory=list)
    skipped: list[Evening] = field(default_factory=list)  # already there: nothing added


def _content(evening: Evening) -> dict[str, Any]:
    document = evening_export(evening)
    document.pop("closed", None)
    return document


def _add_evening(plan: PlannedEvening, club: Club, players: dict[str, Player],
                 where: Where | None,
                 report: ImportReport, actor: Actor, source: str) -> Evening:
    """Write the planned evening, unless the club has it already (see IMPORT_ACTOR above);
    either way the evening's audit log gets an entry."""
    tick()
    what = source or gettext("standard input")
    day = datetime.date.fromisoformat(plan.doc["date"])  # checked by check_evening
    same = list(Evening.objects.filter(club=club, date=day, name=plan.doc["name"])
                .select_related("club", "season"))
    known = dict(players)
    savepoint = transaction.savepoint() if same else None
    evening = _write_evening(plan, club, players, where)
    if savepoint is not None:  # the club has an evening of that date and name
        content = _content(evening)
        twin = next((e for e in same if _content(e) == content), None)
        if twin is not None:
            transaction.savepoint_rollback(savepoint)
            players.clear()
            players.update(known)
            report.skipped.append(twin)
            evening_audit(twin, AuditEntry.Action.IMPORT, actor, gettext(
                "%(file)s: this evening is already there (same date, name and content); "
                "nothing added.") % {"file": what}, after={"file": source, "added": False})
            return twin
        transaction.savepoint_commit(savepoint)
    tables = evening.tables.count()
    deals = Deal.objects.filter(table__evening=evening).count()
    report.added.append(evening)
    evening_audit(evening, AuditEntry.Action.IMPORT, actor, gettext(
        "%(file)s: added with %(tables)d tables and %(deals)d deals.") % {
            "file": what, "tables": tables, "deals": deals},
        after={"file": source, "added": True, "tables": tables, "deals": deals})
    return evening


def import_evening(raw: Any, *, actor: Actor = IMPORT_ACTOR, source: str = "") -> Evening:
    """Import an evening document (already parsed JSON); all or nothing. An evening the
    club has already (same date, name and content) is returned and nothing is added."""
    report = import_evening_report(raw, actor=actor, source=source)
    return (report.added + report.skipped)[0]


def import_evening_report(raw: Any, *, actor: Actor = IMPORT_ACTOR, source: str = "",
                          ) -> ImportReport:
    plan = check_evening(raw)

    def write() -> ImportReport:
        club = _club(plan.doc["club"])
        players = {p.name: p for p in Player.objects.filter(club=club)}
        report = ImportReport(club)
        _add_evening(plan, club, players, None, report, actor, source)
        return report

    result: ImportReport = _run(write)
    return result


def import_club(raw: Any, *, actor: Actor = IMPORT_ACTOR, source: str = "") -> Club:
    """Import a club document: its players, rule profiles and seasons are found by name or
    created (one that exists must match the file), its evenings are added (but those the
    club has already: same date, name and content); all or nothing."""
    return import_club_report(raw, actor=actor, source=source).club


def import_club_report(raw: Any, *, actor: Actor = IMPORT_ACTOR, source: str = "",
                       profiles: dict[str, str] | None = None) -> ImportReport:
    """import_club, saying which evenings were added and which were already there.

    A rule profile of the file that the club has under the same name with other rules is a
    ProfileClash, unless ``profiles`` says what to do with it: file's name → another name to
    take the file's profile under, or "" to keep the club's own and not take the file's."""
    choices = profiles or {}
    wanted = check_club(raw)

    def write() -> ImportReport:
        club = _club(wanted.slug, wanted.name, wanted.language)
        report = ImportReport(club)
        players = {p.name: p for p in Player.objects.filter(club=club)}
        for person, guest in wanted.players:
            if person not in players:
                players[person] = Player.objects.create(club=club, name=person, guest=guest)
        clashes: list[Clash] = []
        for title, rules in wanted.profiles:
            existing = RuleProfile.objects.filter(club=club, name=title).first()
            theirs = RuleProfile(name=title, **rules)
            if existing is None:
                RuleProfile.objects.create(club=club, name=title, **rules)
            elif not differences(existing, theirs):
                pass
            elif title not in choices:
                clashes.append(Clash(title, differences(existing, theirs)))
            elif choices[title]:  # the file's profile under another name
                _take_as(club, choices[title], rules)
            # else: the club's own profile of that name stays, the file's is not taken
        if clashes:
            raise ProfileClash(clashes)
        for fields in wanted.seasons:
            existing_season = Season.objects.filter(club=club, name=fields["name"]).first()
            if existing_season is None:
                Season.objects.create(club=club, **fields)
            elif any(getattr(existing_season, key) != value for key, value in fields.items()):
                raise ImportProblem(Words(_("Season %(name)s exists in the club with other "
                                             "settings."), name=repr(fields["name"])))
        for k, plan in enumerate(wanted.evenings, 1):
            _add_evening(plan, club, players, Words(PLACE_NAMES["evenings"], number=k),
                         report, actor, source)
        return report

    result: ImportReport = _run(write)
    return result


# ---------------------------------------------------------------- a profile that differs

@dataclass
class Clash:
    """A rule profile of the file that the club has under the same name with other rules:
    each setting that differs, in words (the club's value ≠ the file's)."""

    name: str
    differences: list[Words]


def _option_words(rules: str, options: dict[str, Any]) -> str:
    from scoring.reads.rule_words import house_rules, join_words
    return join_words(house_rules(rules, options)) or gettext("no house rules")


class _Setting:
    """One setting of a rule profile, shown in the language asked for."""

    __slots__ = ("key", "value", "rules")

    def __init__(self, key: str, value: Any, rules: str) -> None:
        self.key, self.value, self.rules = key, value, rules

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            if self.key == "stake":
                return number_format(Decimal(self.value), decimal_pos=2)
            if self.key == "options":
                return _option_words(self.rules, self.value)
            if self.key in ("rules", "scoring"):
                field_ = RuleProfile._meta.get_field(self.key)
                assert isinstance(field_, models.Field)
                return str(dict(field_.choices or []).get(self.value, self.value))
            if self.key == "settlement":
                return json.dumps(self.value, sort_keys=True, ensure_ascii=False)
            return str(self.value)


class _Label:
    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            field_ = RuleProfile._meta.get_field(self.key)
            assert isinstance(field_, models.Field)
            label = str(field_.verbose_name)
            return label[:1].upper() + label[1:]


def differences(ours: RuleProfile, theirs: RuleProfile) -> list[Words]:
    """Each setting in which the file's profile differs from the club's, in words:
    "Einsatz je Punkt 0,00 ≠ 0,01" (the club's first)."""
    mine, other = ours.rules_dict(), theirs.rules_dict()
    out = []
    for key in RULE_KEYS:
        same = (Decimal(mine["stake"]) == Decimal(other["stake"]) if key == "stake"
                else mine.get(key) == other.get(key))
        if not same:
            out.append(Words(_("%(setting)s %(ours)s ≠ %(theirs)s"), setting=_Label(key),
                             ours=_Setting(key, mine.get(key), ours.rules),
                             theirs=_Setting(key, other.get(key), theirs.rules)))
    return out


class ProfileClash(ImportProblem):
    """Rule profiles of the file that the club has under their names with other rules."""

    def __init__(self, clashes: list[Clash]) -> None:
        parts = [Words(_("Rule profile %(name)s exists in the club with other rules (the "
                         "club's ≠ the file's): %(differences)s."), name=repr(c.name),
                       differences=_Joined(c.differences)) for c in clashes]
        super().__init__(parts[0] if len(parts) == 1 else _Joined(parts, " "))
        self.clashes = clashes


class _Joined:
    __slots__ = ("parts", "separator")

    def __init__(self, parts: list[Words], separator: str = "; ") -> None:
        self.parts, self.separator = parts, separator

    def in_lang(self, lang: str) -> str:
        return self.separator.join(part.in_lang(lang) for part in self.parts)


def _take_as(club: Club, name: str, rules: dict[str, Any]) -> None:
    """The file's profile under another name (one the club has must have its rules)."""
    title = check_profile_name(name)
    existing = RuleProfile.objects.filter(club=club, name=title).first()
    if existing is None:
        RuleProfile.objects.create(club=club, name=title, **rules)
    elif differences(existing, RuleProfile(name=title, **rules)):
        raise ImportProblem(Words(_("Rule profile %(name)s exists in the club with other "
                                     "rules too; choose another name."), name=repr(title)))

