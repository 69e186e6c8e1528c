"""A season played on paper, brought in as CSV so that the standings continue (issue 16).

One line per player and evening, with a header line naming the columns (German or English,
any order, case and spacing ignored), separated by ``;`` or ``,``:

=================  ==========================================  ==========================
column             headers accepted                            value
=================  ==========================================  ==========================
player (required)  player, name, Spieler                       the name on the lists
date (required)    date, Datum                                 31.10.2025 or 2025-10-31
evening            evening, Abend, Veranstaltung               default "Clubabend"
points (required)  points, game points, Punkte, Spielpunkte    whole number, e.g. −120
won (required)     won, games won, gewonnen, gewonnene Spiele  games won as declarer
lost (required)    lost, games lost, verloren, verlorene       games lost as declarer
                   Spiele
Seeger-Fabian      seeger-fabian, Seeger-Fabian-Punkte, SF     whole number; required in
                                                               a Seeger-Fabian season
money              money, amount, Geld, Betrag                 1,50 or 1.50 or −2,00 €
=================  ==========================================  ==========================

Numbers may carry German thousands points (1.234) and decimal commas (−1,50); the minus may
be ``-`` or ``−``. Every line is checked before anything is written, and every problem is
named by its line. The lines of one date and evening name make one evening of the season
chosen, with no tables: its totals are stored as ``ImportedTotal`` rows and the evening is
closed. An evening the club has already with exactly these totals is not added again (so a
file imported twice adds nothing the second time); an evening of that date and name with
anything else is refused. Each evening's audit log says who imported which file.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.collation import invisible_characters
from scoring.engine import DEFAULT
from scoring.models import (
    AuditEntry,
    Evening,
    ImportedTotal,
    Player,
    Scoring,
    Season,
)
from scoring.reads.people import players_by_name
from scoring.writes.import_problems import ImportProblem
from scoring.writes.services import Actor, check_season, evening_audit

MAX_LINES = 5000
MAX_CELL = 100
DEFAULT_EVENING = "Clubabend"

HEADERS = {
    "player": ("player", "name", "spieler", "spielername", "player name"),
    "date": ("date", "datum"),
    "evening": ("evening", "abend", "veranstaltung", "evening name"),
    "points": ("points", "game points", "punkte", "spielpunkte"),
    "won": ("won", "games won", "gewonnen", "gewonnene spiele", "gew"),
    "lost": ("lost", "games lost", "verloren", "verlorene spiele", "verl"),
    "seeger_fabian": ("seeger fabian", "seeger fabian points", "seeger fabian punkte", "sf",
                      "seegerfabian"),
    "money": ("money", "amount", "geld", "betrag"),
}
REQUIRED = ("player", "date", "points", "won", "lost")
# How a message names a column: the header a list in the reader's language would use.
COLUMN_NAMES = {"player": ("player", "Spieler"), "date": ("date", "Datum"),
                "evening": ("evening", "Abend"), "points": ("points", "Punkte"),
                "won": ("won", "gewonnen"), "lost": ("lost", "verloren"),
                "seeger_fabian": ("Seeger-Fabian", "Seeger-Fabian"), "money": ("money", "Geld")}
_HEADER_OF = {alias: key for key, aliases in HEADERS.items() for alias in aliases}
_WHOLE = re.compile(r"[+-]?(\d{1,3}(\.\d{3})+|\d+)")
_MONEY = re.compile(r"[+-]?(\d{1,3}(\.\d{3})*|\d+)(,\d{1,2})?|[+-]?\d+(\.\d{1,2})?")


def _header(cell: str) -> str:
    text = cell.strip().lstrip("\ufeff").lower().replace("_", " ").replace("-", " ")
    return " ".join(text.split())


def _sign(text: str) -> str:
    return text.strip().replace("\u2212", "-").replace(" ", "").replace("\u00a0", "")


def whole_number(text: str) -> int | None:
    """A whole number as a German or English list writes it, or None."""
    text = _sign(text)
    if not _WHOLE.fullmatch(text):
        return None
    return int(text.replace(".", ""))


def amount(text: str) -> Decimal | None:
    """An amount of money, "1,50", "1.234,50", "-2.00", "3 €", or None."""
    text = _sign(text).removesuffix("€").removesuffix("EUR")
    if not _MONEY.fullmatch(text):
        return None
    if "," in text:
        text = text.replace(".", "").replace(",", ".")
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def day(text: str) -> datetime.date | None:
    text = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return datetime.date.fromisoformat(text)
        found = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", text)
        if found:
            return datetime.date(int(found[3]), int(found[2]), int(found[1]))
    except ValueError:
        return None
    return None


@dataclass
class TotalLine:
    line: int
    player: str
    points: int
    won: int
    lost: int
    seeger_fabian: int | None
    money: Decimal | None


@dataclass
class PaperEvening:
    date: datetime.date
    name: str
    lines: list[TotalLine]
    existing: Evening | None = None  # the club has it already, with these totals

    @property
    def added(self) -> bool:
        return self.existing is None


@dataclass
class PaperPlan:
    season: Season
    evenings: list[PaperEvening] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _rows(content: bytes) -> tuple[list[str], list[tuple[int, list[str]]]]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = content.decode("cp1252")  # a German spreadsheet's "CSV" without UTF-8
        except UnicodeDecodeError:
            raise ImportProblem(_("The file is not text (UTF-8 or Windows-1252).")) from None
    if "\x00" in text:
        raise ImportProblem(_("The file is not text (UTF-8 or Windows-1252)."))
    first = text.split("\n", 1)[0]
    separator = ";" if first.count(";") >= first.count(",") and ";" in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    rows: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            if reader.line_num > MAX_LINES + 1:
                raise ImportProblem(_("The file has more than %(count)d lines.") % {
                    "count": MAX_LINES})
            rows.append((reader.line_num, cells))
    except csv.Error as err:
        raise ImportProblem(_("Line %(line)d: not readable as CSV (%(error)s).") % {
            "line": reader.line_num, "error": err}) from None
    rows = [(n, cells) for n, cells in rows if any(c.strip() for c in cells)]
    if not rows:
        raise ImportProblem(_("The file is empty."))
    return rows[0][1], rows[1:]


def _columns(head: list[str]) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, cell in enumerate(head):
        key = _HEADER_OF.get(_header(cell))
        if key is None:
            raise ImportProblem(_(
                "Line 1: unknown column %(name)s. The columns are: player, date, evening, "
                "points, won, lost, Seeger-Fabian, money (or in German: Spieler, Datum, Abend, "
                "Punkte, gewonnen, verloren, Seeger-Fabian, Geld).") % {"name": repr(cell)})
        if key in columns:
            raise ImportProblem(_("Line 1: the column %(name)s is given twice.") % {
                "name": repr(cell)})
        columns[key] = index
    missing = [key for key in REQUIRED if key not in columns]
    if missing:
        german = (get_language() or "de").startswith("de")
        raise ImportProblem(_("Line 1: the column %(name)s is missing.") % {
            "name": COLUMN_NAMES[missing[0]][int(german)]})
    return columns


def _line(number: int, cells: list[str], columns: dict[str, int], season: Season,
          ) -> tuple[TotalLine, datetime.date, str] | list[str]:
    """One line read, or its problems (each naming the line)."""
    problems: list[str] = []

    def cell(key: str) -> str:
        index = columns.get(key)
        return cells[index].strip() if index is not None and index < len(cells) else ""

    def problem(message: str) -> None:
        problems.append(_("Line %(line)d: %(problem)s") % {"line": number, "problem": message})

    if len(cells) > len(columns):
        problem(_("more cells than columns."))
    if any(len(c) > MAX_CELL for c in cells):
        problem(_("a cell is longer than %(count)d characters.") % {"count": MAX_CELL})
        return problems
    player = cell("player")
    if not player:
        problem(_("the player's name is missing."))
    elif invisible_characters(player):
        problem(_("the player's name contains invisible or control characters "
                  "(%(codes)s): type it again without them.")
                % {"codes": ", ".join(invisible_characters(player))})
    when = day(cell("date"))
    if when is None:
        problem(_("%(value)s is not a date (31.10.2025 or 2025-10-31).") % {
            "value": repr(cell("date"))})
    elif not season.start <= when <= season.end:
        problem(_("%(date)s is not within the season %(season)s (%(start)s to %(end)s).") % {
            "date": date_format(when, "SHORT_DATE_FORMAT"), "season": season.name,
            "start": date_format(season.start, "SHORT_DATE_FORMAT"),
            "end": date_format(season.end, "SHORT_DATE_FORMAT")})
    name = cell("evening") or DEFAULT_EVENING
    numbers: dict[str, int | None] = {}
    for key, words, low, high in (
            ("points", _("points"), -100_000, 100_000),
            ("won", _("games won"), 0, 999), ("lost", _("games lost"), 0, 999),
            ("seeger_fabian", _("Seeger-Fabian points"), -100_000, 100_000)):
        text = cell(key)
        if key == "seeger_fabian" and not text:
            numbers[key] = None
            if season.evaluation == Season.Evaluation.SEEGER_FABIAN:
                problem(_("the season is evaluated by Seeger-Fabian: give the Seeger-Fabian "
                          "points (column Seeger-Fabian)."))
            continue
        value = whole_number(text)
        if value is None or not low <= value <= high:
            problem(_("%(what)s must be a whole number from %(low)d to %(high)d, not "
                      "%(value)s.") % {"what": words, "low": low, "high": high,
                                       "value": repr(text)})
        numbers[key] = value
    money = None
    if cell("money"):
        money = amount(cell("money"))
        if money is None or abs(money) >= 10**8:
            problem(_("%(value)s is not an amount of money (such as 1,50).") % {
                "value": repr(cell("money"))})
    if problems:
        return problems
    assert when is not None
    return (TotalLine(number, player, numbers["points"] or 0, numbers["won"] or 0,
                      numbers["lost"] or 0, numbers["seeger_fabian"], money), when, name)


def _figures(lines: list[TotalLine] | list[ImportedTotal]) -> set[tuple[Any, ...]]:
    out = set()
    for line in lines:
        name = line.player if isinstance(line, TotalLine) else line.player.name
        out.add((name, line.points, line.won, line.lost, line.seeger_fabian, line.money))
    return out


def _one_person_twice(lines: list[TotalLine], records: dict[str, Player]) -> str:
    """A problem if two lines of one evening name two records of one person (one merged
    into the other at the desk): the evening would count him twice. "" if none do."""
    first: dict[int, TotalLine] = {}
    for line in lines:
        record = records.get(line.player)
        if record is None:
            continue
        if record.pk in first:
            other = first[record.pk]
            return _("Lines %(first)d and %(line)d: %(other)s and %(player)s are one person "
                     "(the desk merged the two records into %(kept)s): give the evening's "
                     "total once.") % {"first": other.line, "line": line.line,
                                       "other": other.player, "player": line.player,
                                       "kept": record.name}
        first[record.pk] = line
    return ""


def plan_totals(content: bytes, season: Season) -> PaperPlan:
    """Read and check the whole file against the club: what would be added, what is there
    already, and every problem by line. Writes nothing."""
    plan = PaperPlan(season)
    try:
        head, rows = _rows(content)
        columns = _columns(head)
    except ImportProblem as err:
        plan.problems.append(str(err))
        return plan
    groups: dict[tuple[datetime.date, str], list[TotalLine]] = defaultdict(list)
    seen: dict[tuple[datetime.date, str, str], int] = {}
    for number, cells in rows:
        read = _line(number, cells, columns, season)
        if isinstance(read, list):
            plan.problems += read
            continue
        line, when, name = read
        key = (when, name, line.player)
        if key in seen:
            plan.problems.append(_("Line %(line)d: %(player)s at %(evening)s on %(date)s is "
                                   "given twice (also in line %(first)d).") % {
                "line": number, "player": line.player, "evening": name,
                "date": date_format(when, "SHORT_DATE_FORMAT"), "first": seen[key]})
            continue
        seen[key] = number
        groups[(when, name)].append(line)
    if not rows:
        plan.problems.append(_("The file has a header line but no lines of totals."))
    club = season.club
    records = players_by_name(club)
    known = set(records)
    for (when, name), lines in sorted(groups.items()):
        twice = _one_person_twice(lines, records)
        if twice:
            plan.problems.append(twice)
            continue
        evening = PaperEvening(when, name, lines)
        same = list(Evening.objects.filter(club=club, date=when, name=name)
                    .prefetch_related("imported_totals__player", "tables"))
        twin = next((e for e in same if not e.tables.all() and e.season_id == season.pk
                     and _figures(list(e.imported_totals.all())) == _figures(lines)), None)
        if twin is not None:
            evening.existing = twin
        elif same:
            plan.problems.append(_(
                "Lines %(lines)s: the club has an evening %(evening)s on %(date)s already, "
                "with other results; rename the evening in the file (column evening) or "
                "delete the other one first.") % {
                "lines": ", ".join(str(line.line) for line in lines), "evening": name,
                "date": date_format(when, "SHORT_DATE_FORMAT")})
            continue
        plan.evenings.append(evening)
    plan.new_players = sorted({line.player for e in plan.evenings if e.added
                               for line in e.lines} - known)
    return plan


def import_totals(content: bytes, season: Season, *, actor: Actor, source: str) -> PaperPlan:
    """Check the file in full, then add its new evenings in one transaction (or raise
    ImportProblem naming every problem's line, and write nothing)."""
    with transaction.atomic():
        plan = plan_totals(content, season)
        if plan.problems:
            raise ImportProblem(" ".join(plan.problems))
        club = season.club
        players = players_by_name(club)
        what = source or _("standard input")
        for paper in plan.evenings:
            if not paper.added:
                assert paper.existing is not None
                evening_audit(paper.existing, AuditEntry.Action.IMPORT, actor, _(
                    "%(file)s: these totals from paper are already there; nothing added.") % {
                        "file": what}, after={"file": source, "added": False})
                continue
            evening = Evening(
                club=club, date=paper.date, name=paper.name, season=season, closed=True,
                rules=DEFAULT, options={}, stake=Decimal("0"),
                scoring=(Scoring.SEEGER_FABIAN
                         if season.evaluation == Season.Evaluation.SEEGER_FABIAN
                         else Scoring.CLASSIC))
            try:
                evening.full_clean()
                check_season(evening)
            except ValidationError as err:
                raise ImportProblem(" ".join(err.messages)) from None
            evening.save()
            for line in paper.lines:
                if line.player not in players:
                    players[line.player] = Player.objects.create(club=club, name=line.player)
            ImportedTotal.objects.bulk_create([
                ImportedTotal(evening=evening, player=players[line.player], points=line.points,
                              won=line.won, lost=line.lost, seeger_fabian=line.seeger_fabian,
                              money=line.money, source=source[:255], line=line.line)
                for line in paper.lines])
            paper.existing = None
            evening_audit(evening, AuditEntry.Action.IMPORT, actor, _(
                "%(file)s: totals from paper of %(count)d players added.") % {
                    "file": what, "count": len(paper.lines)},
                after={"file": source, "added": True, "players": len(paper.lines)})
    return plan
