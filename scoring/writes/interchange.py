"""Import and export in the interchange format (deal-record.md "An evening"), for one evening
or a whole club, and the score sheet as CSV.

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
that on a move between installations.

Import checks everything before it writes (the JSON's shape, every table through the engine,
the club's players and seasons) and writes in one transaction: any problem raises
``ImportProblem`` with a message naming the table and the deal, and nothing is written.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from time import monotonic
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, models, transaction
from django.db.models import Prefetch
from django.utils import translation
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import SkatError, evaluate, evaluate_table
from scoring.engine.errors import Localized, language
from scoring.models import (
    AuditEntry,
    Club,
    Deal,
    Evening,
    Player,
    RuleProfile,
    Season,
    Seat,
    Table,
)
from scoring.reads.sheet import ScoreSheet, overbid_words, table_document
from scoring.spreadsheet import csv_text
from scoring.writes import scores
from scoring.writes.services import Actor, check_season, evening_audit, table_create

CONTRACT_TABLE_KEYS = ("rules", "options", "scoring", "players", "first_dealer", "stake",
                       "currency", "settlement", "deals")
RULE_KEYS = ("rules", "options", "scoring", "stake", "currency", "settlement")
EVENING_KEYS = frozenset({"club", "date", "name", "profile_name", "closed", "season",
                          "series_rounds", "tables", *RULE_KEYS})
TABLE_KEYS = frozenset({*CONTRACT_TABLE_KEYS, "number", "series", "deleted_deals"})
CLUB_KEYS = frozenset({"club", "name", "language", "players", "rule_profiles", "seasons",
                       "evenings"})


class Words:
    """A sentence of the reader, or a part of one ("Table 2, deal 3"), in either language:
    a template marked for translation (gettext_lazy, ``%(name)s`` placeholders) and its
    values, put together only when a language is asked for. A value that is words itself
    (Words, an engine ``SkatError`` through its own German catalogue, a model's refusal)
    renders in the same language; any other value (numbers, the file's own text, field names
    of the format) is shown as it is."""

    __slots__ = ("template", "params")

    def __init__(self, template: str | Promise, /, **params: object) -> None:
        self.template = template
        self.params = params

    def in_lang(self, lang: str) -> str:
        lang = language(lang)
        with translation.override(lang):
            values = {key: value.in_lang(lang) if isinstance(value, Localized) else value
                      for key, value in self.params.items()}
            return str(self.template) % values

    def __str__(self) -> str:
        return self.in_lang("en")

    def __repr__(self) -> str:
        return f"Words({str(self.template)!r}, {self.params!r})"


class _Refusal:
    """A model's ValidationError inside a message: Django's own messages are lazy, so they
    come out in the language asked for."""

    __slots__ = ("error",)

    def __init__(self, error: ValidationError) -> None:
        self.error = error

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            return " ".join(str(m) for m in self.error.messages)


class _Number:
    """A large number, grouped the way the language writes it (20,971,520 / 20.971.520)."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            return number_format(self.value, force_grouping=True)


Where = Words | str  # a place in the file ("Table 1, deal 3") or a field name ("date")


def _at(place: Where | None, what: Where) -> Where:
    """``what`` at ``place``: "Table 1: number", "Evening 2: Table 1, deal 3: …"; at the
    top of the file just ``what``."""
    if place is None or place == "":
        return what
    return Words(_("%(where)s: %(what)s"), where=place, what=what)


class ImportProblem(Exception):
    """The file cannot be imported; says why in a sentence, naming table and deal.

    ``str()`` is the sentence in English, the language of the interchange contract and of
    the import commands (as ``SkatError.message``); ``message_in(lang)`` is it in "de" or
    "en", for a page. A problem made of text already translated (the CSV readers') is that
    text in every language."""

    def __init__(self, message: Words | Localized | str) -> None:
        super().__init__(message)
        self.words = message

    def message_in(self, lang: str | None) -> str:
        if isinstance(self.words, str):
            return self.words
        return self.words.in_lang(language(lang))

    def in_lang(self, lang: str) -> str:
        """An ImportProblem inside another's message renders like Words."""
        return self.message_in(lang)

    def __str__(self) -> str:
        return self.message_in("en")


class OverBounds(Exception):
    """A file beyond what one upload may make the site do (its entries, the time its check
    takes): refused as a whole, before anything is held or written. Not an ImportProblem, so
    that no reader turns it into one problem among others."""

    def __init__(self, message: Words) -> None:
        super().__init__(message)
        self.words = message

    def message_in(self, lang: str | None) -> str:
        return self.words.in_lang(language(lang))

    def __str__(self) -> str:
        return self.message_in("en")


# The time a check (or import) may still take, when one is bounded (budget below): a
# monotonic deadline, looked at between the steps of the reader (every table, deal and
# thousand items walked), so that a file that would keep a worker busy stops with a message.
_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "import_deadline", default=None)


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Bound the reading and writing inside to ``seconds``: past it, OverBounds."""
    token = _DEADLINE.set((monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def tick() -> None:
    """OverBounds if the budget of the check in hand is spent."""
    bound = _DEADLINE.get()
    if bound is not None and monotonic() > bound[0]:
        raise OverBounds(Words(_("Checking the file took longer than %(seconds)s seconds, "
                                  "the most one upload may take; nothing was saved. Import a "
                                  "file this large with manage.py import_club, or split it."),
                               seconds=_Seconds(bound[1])))


class _Seconds:
    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value

    def in_lang(self, lang: str) -> str:
        with translation.override(language(lang)):
            return number_format(self.value, decimal_pos=0 if self.value == int(self.value)
                                 else None)


def _problem(place: Where | None, what: Words | Localized) -> ImportProblem:
    """A problem at a place of the file: "Table 1, deal 2: note must be …"."""
    if place is None or place == "":
        return ImportProblem(what)
    return ImportProblem(Words(_("%(where)s: %(what)s"), where=place, what=what))


# ---------------------------------------------------------------- export

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


# ---------------------------------------------------------------- reading a file

def _no_constant(name: str) -> Any:
    raise ImportProblem(Words(_("Invalid JSON: %(value)s is not a number JSON allows."),
                              value=name))


# What Python's JSON reader says is wrong (json/decoder.py), marked for translation: English
# as Python says it, German from the catalogue; a message not listed is shown as it is.
JSON_ERRORS: dict[str, str | Promise] = {
    "Expecting value": _("Expecting value"),
    "Expecting property name enclosed in double quotes":
        _("Expecting property name enclosed in double quotes"),
    "Expecting ':' delimiter": _("Expecting ':' delimiter"),
    "Expecting ',' delimiter": _("Expecting ',' delimiter"),
    "Unterminated string starting at": _("Unterminated string starting at"),
    "Invalid control character at": _("Invalid control character at"),
    "Invalid \\escape": _("Invalid \\escape"),
    "Invalid \\uXXXX escape": _("Invalid \\uXXXX escape"),
    "Extra data": _("Extra data"),
    "Illegal trailing comma before end of object":
        _("Illegal trailing comma before end of object"),
    "Illegal trailing comma before end of array":
        _("Illegal trailing comma before end of array"),
}


# Limits of what a file may hold (issue 16): the whole file, how deep objects and lists nest,
# a free-text note on a deal, and every other text of a record. An export of the largest club
# stays far inside them; a file beyond them is refused before anything is read further.
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 16  # a club file nests 10 deep (club, evenings, tables, deals, ramsch, points …)
MAX_DEAL_DEPTH = 4  # a deal: record → ramsch → points → a number, plus a margin of one
MAX_NOTE = 500
MAX_RECORD_TEXT = 200


def loads(raw: bytes) -> Any:
    if len(raw) > MAX_FILE_BYTES:
        raise ImportProblem(Words(_("The file is too large: %(size)s bytes; at most "
                                     "%(limit)s bytes can be imported at once."),
                                  size=_Number(len(raw)), limit=_Number(MAX_FILE_BYTES)))
    try:
        document = json.loads(raw, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ImportProblem(Words(_("The file is not UTF-8 text."))) from None
    except json.JSONDecodeError as err:
        raise ImportProblem(Words(
            _("Invalid JSON at line %(line)d, column %(column)d: %(error)s."),
            line=err.lineno, column=err.colno,
            error=Words(JSON_ERRORS[err.msg]) if err.msg in JSON_ERRORS else err.msg,
        )) from None
    except RecursionError:
        raise ImportProblem(_too_deep(raw)) from None
    except ValueError:  # a number of more digits than Python converts
        raise ImportProblem(Words(_("Invalid JSON: a number has more than %(digits)d "
                                     "digits."), digits=sys.get_int_max_str_digits())) from None
    check_nesting(document)
    return document


def _too_deep(raw: bytes) -> Words:
    """Where a file too deep for the JSON parser first nests deeper than MAX_DEPTH: found by
    a scan of the text that keeps the path (object keys, list indexes) without recursion,
    so that the message names the table and deal as for any other problem."""
    text = raw.decode("utf-8", errors="replace")
    stack: list[list[Any]] = []  # [is_object, key or index, expecting a key]
    line, column, index, length = 1, 0, 0, len(text)
    while index < length:
        char = text[index]
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        elif char == '"':
            end = index + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if stack and stack[-1][0] and stack[-1][2]:
                try:
                    stack[-1][1] = json.loads(text[index:end + 1])
                except ValueError:
                    stack[-1][1] = text[index + 1:end]
                stack[-1][2] = False
            column += end - index
            index = end
        elif char in "{[":
            if len(stack) >= MAX_DEPTH:
                path = tuple(step[1] for step in stack)
                return Words(_("%(where)s: nested too deep at line %(line)d, column "
                                "%(column)d (objects and lists at most %(depth)d levels "
                                "deep)."), where=_place(path), line=line, column=column,
                             depth=MAX_DEPTH)
            stack.append([True, None, True] if char == "{" else [False, 0, False])
        elif char in "}]" and stack:
            stack.pop()
        elif char == "," and stack:
            if stack[-1][0]:
                stack[-1][2] = True
            else:
                stack[-1][1] += 1
        index += 1
    return Words(_("The file is nested too deep: objects and lists at most %(depth)d levels "
                    "deep."), depth=MAX_DEPTH)


PLACE_NAMES: dict[str, str | Promise] = {
    "evenings": _("Evening %(number)s"), "tables": _("Table %(number)s"),
    "players": _("Player %(number)s"), "rule_profiles": _("Rule profile %(number)s"),
    "seasons": _("Season %(number)s"),
}


def _deal(table: Where | None, number: int, *, deleted: bool = False) -> Words:
    """A deal of a table as the messages name it: "Table 1, deal 3", "Table 1, deleted deal 1"."""
    if table is None:
        return Words(_("deleted deal %(number)s") if deleted else _("deal %(number)s"),
                     number=number)
    return Words(_("%(table)s, deleted deal %(number)s") if deleted
                 else _("%(table)s, deal %(number)s"), table=table, number=number)


def _place(path: tuple[Any, ...]) -> Where:
    """Where in a club or evening document a path leads, as the import's messages name it:
    "Evening 2: Table 1, deal 3" or "Table 1, deleted deal 1"."""
    parts: list[Where] = []
    rest = list(path)
    while rest:
        key = str(rest.pop(0))
        index = rest.pop(0) if rest and isinstance(rest[0], int) else None
        if index is None:
            continue
        if key in ("deals", "deleted_deals"):
            table = parts.pop() if parts else None
            parts.append(_deal(table, index + 1, deleted=key == "deleted_deals"))
        elif key in PLACE_NAMES:
            parts.append(Words(PLACE_NAMES[key], number=index + 1))
        else:
            break
    if not parts:
        return Words(_("The file"))
    place = parts[0]
    for part in parts[1:]:
        place = _at(place, part)
    return place


def check_nesting(document: Any, limit: int = MAX_DEPTH) -> None:
    """Objects and lists nest at most ``limit`` deep; walked without recursion, so that any
    depth is refused cleanly, naming the table and deal it is in."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(document, ())]
    walked = 0
    while stack:
        item, path = stack.pop()
        walked += 1
        if not walked % 4096:
            tick()
        if isinstance(item, dict | list):
            if len(path) >= limit:
                raise ImportProblem(Words(_("%(where)s: nested too deep (objects and lists "
                                             "at most %(depth)d levels deep)."),
                                          where=_place(path), depth=limit))
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            stack.extend((sub, (*path, key)) for key, sub in pairs)


def _depth(value: Any) -> int:
    """How deep objects and lists nest in ``value`` (0 for a number or text), without
    recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            stack.extend((sub, depth + 1) for sub in
                         (item.values() if isinstance(item, dict) else item))
    return deepest


def _check_record(record: Any, spot: Where) -> dict[str, Any]:
    """What the engine leaves to the reader in a deal record: its nesting, the free-text
    ``note`` (text for people, at most MAX_NOTE characters, or null), and the size of every
    other text in it (a penalty's reason, a card)."""
    if not isinstance(record, dict):
        raise _problem(spot, Words(_("A deal must be a JSON object.")))
    if _depth(record) > MAX_DEAL_DEPTH:
        raise _problem(spot, Words(_("nested too deep (a deal record nests at most "
                                      "%(depth)d levels)."), depth=MAX_DEAL_DEPTH))
    note = record.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
        raise ImportProblem(Words(_("%(what)s must be a text of at most %(count)d "
                                     "characters."), what=_at(spot, "note"), count=MAX_NOTE))
    stack: list[Any] = [record]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_RECORD_TEXT and item is not note:
                raise _problem(spot, Words(_("A text in the record is longer than "
                                              "%(count)d characters."), count=MAX_RECORD_TEXT))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return record


def _clean_json(value: Any, where: Where) -> None:
    """What a database's JSON column cannot keep: NUL characters, non-finite numbers."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise _problem(where, Words(_("Text must not contain NUL characters.")))
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise _problem(where, Words(_("Numbers must be finite.")))
        elif isinstance(item, dict):
            for key, sub in item.items():
                stack.append(key)
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)


def _object(value: Any, where: Where, allowed: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportProblem(Words(_("%(what)s must be a JSON object."), what=where))
    unknown = sorted(str(k) for k in value if k not in allowed)
    if unknown:
        raise _problem(where, Words(_("unknown field %(field)s."), field=repr(unknown[0])))
    return value


def _text(value: Any, where: Where, *, max_length: int = 100, blank: bool = False) -> str:
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise ImportProblem(Words(_("%(what)s must be a non-empty text."), what=where))
    if len(value) > max_length or "\x00" in value:
        raise ImportProblem(Words(_("%(what)s must be at most %(count)d characters."),
                                  what=where, count=max_length))
    return value


def _int(value: Any, where: Where, low: int, high: int, *, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if type(value) is not int or not low <= value <= high:
        raise ImportProblem(Words(_("%(what)s must be a whole number from %(low)d to "
                                     "%(high)d."), what=where, low=low, high=high))
    return value


def _bool(value: Any, where: Where) -> bool:
    if type(value) is not bool:
        raise ImportProblem(Words(_("%(what)s must be true or false."), what=where))
    return value


def _date(value: Any, where: Where) -> datetime.date:
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise ImportProblem(Words(_("%(what)s must be a date written YYYY-MM-DD."),
                                  what=where)) from None


def _slug(value: Any, where: Where) -> str:
    text = _text(value, where, max_length=50)
    try:
        validate_slug(text)
    except ValidationError:
        raise ImportProblem(Words(_("%(what)s must be a short name of letters, digits, - and "
                                     "_."), what=where)) from None
    return text


def _rules(source: dict[str, Any], where: Where) -> dict[str, Any]:
    """The rule fields checked the way a profile or an evening checks them (model clean)."""
    values = {key: source.get(key) for key in RULE_KEYS}
    for key in ("rules", "scoring", "currency"):
        if not isinstance(values[key], str):
            raise ImportProblem(Words(_("%(what)s must be a text."), what=_at(where, key)))
    if not isinstance(values["options"], dict):
        raise ImportProblem(Words(_("%(what)s must be a JSON object."),
                                  what=_at(where, "options")))
    if values["settlement"] is not None and not isinstance(values["settlement"], dict):
        raise ImportProblem(Words(_("%(what)s must be a JSON object or null."),
                                  what=_at(where, "settlement")))
    if not isinstance(values["stake"], str):
        raise ImportProblem(Words(_("%(what)s must be a decimal written as text, e.g. "
                                     "\"0.05\"."), what=_at(where, "stake")))
    try:
        stake = Decimal(values["stake"])
        if not stake.is_finite():
            raise ArithmeticError
    except ArithmeticError:
        raise ImportProblem(Words(_("%(what)s must be a decimal such as \"0.05\"."),
                                  what=_at(where, "stake"))) from None
    values["stake"] = stake
    values["settlement"] = values["settlement"] or {}
    probe = RuleProfile(name="x", **values)
    try:
        probe.full_clean(exclude=["club", "name"])
    except ValidationError as err:
        raise _problem(where, _Refusal(err)) from None
    return values


# ---------------------------------------------------------------- checking an evening

class _PlannedTable:
    def __init__(self, number: int, series: int, players: list[str], first_dealer: int,
                 deals: list[dict[str, Any]], deleted: list[tuple[int, dict[str, Any]]]) -> None:
        self.number, self.series, self.players = number, series, players
        self.first_dealer, self.deals, self.deleted = first_dealer, deals, deleted


class _PlannedEvening:
    def __init__(self, doc: dict[str, Any], rules: dict[str, Any],
                 tables: list[_PlannedTable]) -> None:
        self.doc, self.rules, self.tables = doc, rules, tables


def _check_table(raw: Any, index: int, rules: dict[str, Any], series_rounds: int | None,
                 ) -> _PlannedTable:
    tick()
    where = Words(_("Table %(number)s"), number=index)
    doc = _object(raw, where, TABLE_KEYS)
    _clean_json(doc, where)
    for key in RULE_KEYS:
        if key not in doc:
            continue  # absent: the evening's (deal-record.md: absent options are defaults)
        theirs = doc.get(key)
        ours = str(rules[key]) if key == "stake" else rules[key]
        if key == "settlement":
            theirs, ours = theirs or {}, ours or {}
        if key == "options" and theirs is None:
            theirs = {}
        if key == "stake" and isinstance(theirs, str):
            try:
                same = Decimal(theirs) == rules["stake"]
            except ArithmeticError:
                same = False
            if same:
                continue
        if theirs != ours:
            raise ImportProblem(Words(_("%(what)s differs from the evening's; an evening has "
                                         "one set of rules for all its tables."),
                                      what=_at(where, key)))
    number = _int(doc.get("number", index), _at(where, "number"), 1, 999)
    series = _int(doc.get("series", 1), _at(where, "series"), 1, 99)
    engine_doc = {key: doc[key] for key in CONTRACT_TABLE_KEYS if key in doc}
    engine_doc.update({key: (str(rules[key]) if key == "stake" else rules[key])
                       for key in RULE_KEYS})
    engine_doc["settlement"] = rules["settlement"] or None
    if not isinstance(doc.get("deals"), list):
        raise ImportProblem(Words(_("%(what)s must be a list of deal records."),
                                  what=_at(where, "deals")))
    for k, record in enumerate(doc["deals"], 1):
        if not k % 64:
            tick()
        _check_record(record, _deal(where, k))
    try:
        result = evaluate_table(engine_doc)
    except SkatError as err:
        place: Where = where if err.deal is None else _deal(where, err.deal)
        if err.field and err.deal is None:
            place = Words(_("%(where)s (%(field)s)"), where=where, field=err.field)
        raise _problem(place, err) from None
    players = list(result["players"]) if isinstance(result["players"], list) else []
    if not players:  # the engine also takes a number of players; a table to store needs names
        raise ImportProblem(Words(_("%(what)s must be a list of names."),
                                  what=_at(where, "players")))
    if series_rounds is not None:
        length = series_rounds * len(players)
        counted = sum(1 for row in result["deals"] if row["counts"])
        if counted > length:
            raise _problem(where, Words(_("a series has %(length)d games here; this table "
                                           "has %(count)d."), length=length, count=counted))
    deals = []
    for record in engine_doc["deals"]:
        stored = dict(record)
        if stored.pop("bock_manual", None) is not True and "bock" in stored:
            stored["bock"] = None  # the tracker decides; a correction may move Bock rounds
        deals.append(stored)
    deleted_raw = doc.get("deleted_deals", [])
    if not isinstance(deleted_raw, list):
        raise ImportProblem(Words(_("%(what)s must be a list."),
                                  what=_at(where, "deleted_deals")))
    total = len(deals) + len(deleted_raw)
    deleted: list[tuple[int, dict[str, Any]]] = []
    seen: set[int] = set()
    for k, item in enumerate(deleted_raw, 1):
        spot = _deal(where, k, deleted=True)
        item = _object(item, spot, frozenset({"position", "record"}))
        position = _int(item.get("position"), _at(spot, "position"), 1, total)
        assert position is not None
        if position in seen:
            raise _problem(spot, Words(_("position %(position)d is given twice."),
                                       position=position))
        seen.add(position)
        record = item.get("record")
        if not isinstance(record, dict):
            raise ImportProblem(Words(_("%(what)s must be a JSON object."),
                                      what=_at(spot, "record")))
        _check_record(record, spot)
        deleted.append((position, record))
    for k, (position, record) in enumerate(deleted, 1):
        tick()
        _check_deleted(engine_doc, deals, deleted, position, record,
                       _deal(where, k, deleted=True))
    return _PlannedTable(number or index, series or 1, players,
                         int(engine_doc.get("first_dealer", 0)), deals, sorted(deleted,
                                                                              key=lambda x: x[0]))


def _check_deleted(engine_doc: dict[str, Any], live: list[dict[str, Any]],
                   deleted: list[tuple[int, dict[str, Any]]], position: int,
                   record: dict[str, Any], spot: Where) -> None:
    """A deleted deal is a deal record the table could take back: restored in its place
    (the table then scores), or, where later deals moved the rounds since, valid on its own
    under the table's rules and players. Anything else would break its pages."""
    others = dict(deleted)
    others.pop(position)
    rows = iter(live)
    records = []
    for place in range(1, len(live) + len(deleted) + 1):
        if place == position:
            records.append(record)
        elif place not in others:
            records.append(next(rows))
    try:
        evaluate_table({**engine_doc, "deals": records})
        return
    except SkatError:
        pass
    lone = {key: value for key, value in record.items() if key not in ("bock", "bock_manual")}
    lone.update(rules=engine_doc["rules"], options=engine_doc["options"],
                players=engine_doc.get("players"))
    try:
        evaluate(lone)
    except SkatError as err:
        spot_field = (Words(_("%(where)s (%(field)s)"), where=spot, field=err.field)
                      if err.field else spot)
        raise _problem(spot_field, err) from None


def check_evening(raw: Any, where: Where | None = None,
                  club_slug: str | None = None) -> _PlannedEvening:
    """Everything about an evening document that needs no database, checked in full."""
    if where is None:
        check_nesting(raw)
    doc = _object(raw, where or Words(_("The evening")), EVENING_KEYS)
    _clean_json({k: v for k, v in doc.items() if k != "tables"},
                where or Words(_("The evening")))
    _slug(doc.get("club"), _at(where, "club"))
    if club_slug is not None and doc["club"] != club_slug:
        raise _problem(where, Words(_("The evening belongs to club %(theirs)s, not "
                                       "%(ours)s."), theirs=repr(doc["club"]),
                                    ours=repr(club_slug)))
    _date(doc.get("date"), _at(where, "date"))
    _text(doc.get("name"), _at(where, "name"))
    _text(doc.get("profile_name", ""), _at(where, "profile_name"), blank=True)
    _bool(doc.get("closed", False), _at(where, "closed"))
    if doc.get("season") is not None:
        _text(doc["season"], _at(where, "season"))
    series_rounds = _int(doc.get("series_rounds"), _at(where, "series_rounds"), 1, 50,
                         null=True)
    tables = doc.get("tables")
    if not isinstance(tables, list):
        raise ImportProblem(Words(_("%(what)s must be a list of tables."),
                                  what=_at(where, "tables")))
    if "rules" in doc:
        rule_source = doc
    elif tables and isinstance(tables[0], dict):
        rule_source = tables[0]
    else:
        raise _problem(where, Words(_("An evening without tables must give its rules.")))
    options = rule_source.get("options")
    rules = _rules({**rule_source, "options": {} if options is None else options,
                    "stake": rule_source.get("stake", "0"),
                    "currency": rule_source.get("currency", "EUR"),
                    "scoring": rule_source.get("scoring", "classic"),
                    "rules": rule_source.get("rules", "isko")}, _at(where, "rules"))
    planned = []
    places: set[tuple[int, int]] = set()
    for index, table in enumerate(tables, 1):
        try:
            plan = _check_table(table, index, rules, series_rounds)
        except ImportProblem as err:
            raise _problem(where, err) from None
        if (plan.series, plan.number) in places:
            raise _problem(_at(where, Words(_("Table %(number)s"), number=index)), Words(
                _("series %(series)d has two tables numbered %(number)d."),
                series=plan.series, number=plan.number))
        places.add((plan.series, plan.number))
        planned.append(plan)
    return _PlannedEvening(doc, rules, planned)


# ---------------------------------------------------------------- writing

def _write_evening(plan: _PlannedEvening, club: Club, players: dict[str, Player],
                   where: Where | None) -> Evening:
    doc = plan.doc
    season = None
    if doc.get("season") is not None:
        season = Season.objects.filter(club=club, name=doc["season"]).first()
        if season is None:
            raise _problem(where, Words(_("Club %(club)s has no season %(season)s (import "
                                           "the whole club, or create the season first)."),
                                        club=repr(club.slug), season=repr(doc["season"])))
    evening = Evening(club=club, date=_date(doc["date"], "date"), name=doc["name"],
                      profile_name=doc.get("profile_name", ""),
                      closed=doc.get("closed", False), season=season,
                      series_rounds=doc.get("series_rounds"), **plan.rules)
    try:
        evening.full_clean()
        check_season(evening)
    except ValidationError as err:
        raise _problem(where, _Refusal(err)) from None
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
            raise _problem(_at(where, Words(_("Table %(number)s"), number=index)),
                           _Refusal(err)) from None
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
            raise _problem(Words(_("Club %(club)s"), club=repr(slug)), _Refusal(err)) from None
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
        raise ImportProblem(_Refusal(err)) from None
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


def _add_evening(plan: _PlannedEvening, club: Club, players: dict[str, Player],
                 where: Where | None,
                 report: ImportReport, actor: Actor, source: str) -> Evening:
    """Write the planned evening, unless the club has it already (see IMPORT_ACTOR above);
    either way the evening's audit log gets an entry."""
    tick()
    what = source or gettext("standard input")
    same = list(Evening.objects.filter(club=club, date=_date(plan.doc["date"], "date"),
                                       name=plan.doc["name"]).select_related("club",
                                                                             "season"))
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
    check_nesting(raw)
    doc = _object(raw, Words(_("The club")), CLUB_KEYS)
    slug = _slug(doc.get("club"), "club")
    name = _text(doc.get("name", slug), "name")
    club_language = doc.get("language", "de")
    if club_language not in ("de", "en"):
        raise ImportProblem(Words(_("%(what)s must be \"de\" or \"en\"."), what="language"))
    people = doc.get("players", [])
    if not isinstance(people, list):
        raise ImportProblem(Words(_("%(what)s must be a list."), what="players"))
    wanted_players = []
    for k, person in enumerate(people, 1):
        who = Words(PLACE_NAMES["players"], number=k)
        person = _object(person, who, frozenset({"name", "guest"}))
        wanted_players.append((_text(person.get("name"), _at(who, "name")),
                               _bool(person.get("guest", False), _at(who, "guest"))))
    profiles = doc.get("rule_profiles", [])
    if not isinstance(profiles, list):
        raise ImportProblem(Words(_("%(what)s must be a list."), what="rule_profiles"))
    wanted_profiles = []
    for k, profile in enumerate(profiles, 1):
        where = Words(PLACE_NAMES["rule_profiles"], number=k)
        profile = _object(profile, where, frozenset({"name", *RULE_KEYS}))
        wanted_profiles.append((_text(profile.get("name"), _at(where, "name")),
                                _rules(profile, where)))
    seasons = doc.get("seasons", [])
    if not isinstance(seasons, list):
        raise ImportProblem(Words(_("%(what)s must be a list."), what="seasons"))
    wanted_seasons = []
    for k, season in enumerate(seasons, 1):
        where = Words(PLACE_NAMES["seasons"], number=k)
        season = _object(season, where, frozenset({
            "name", "start", "end", "evaluation", "best_of", "min_evenings", "series_rounds"}))
        fields = {
            "name": _text(season.get("name"), _at(where, "name")),
            "start": _date(season.get("start"), _at(where, "start")),
            "end": _date(season.get("end"), _at(where, "end")),
            "evaluation": season.get("evaluation", "seeger_fabian"),
            "best_of": _int(season.get("best_of"), _at(where, "best_of"), 1, 999, null=True),
            "min_evenings": _int(season.get("min_evenings", 1), _at(where, "min_evenings"),
                                 0, 999),
            "series_rounds": _int(season.get("series_rounds"), _at(where, "series_rounds"),
                                  1, 50, null=True),
        }
        if fields["evaluation"] not in Season.Evaluation.values:
            raise ImportProblem(Words(_("%(what)s must be classic or seeger_fabian."),
                                      what=_at(where, "evaluation")))
        if fields["end"] < fields["start"]:
            raise _problem(where, Words(_("The season cannot end before it starts.")))
        wanted_seasons.append(fields)
    evenings = doc.get("evenings", [])
    if not isinstance(evenings, list):
        raise ImportProblem(Words(_("%(what)s must be a list."), what="evenings"))
    plans = [check_evening(e, Words(PLACE_NAMES["evenings"], number=k), club_slug=slug)
             for k, e in enumerate(evenings, 1)]

    def write() -> ImportReport:
        club = _club(slug, name, club_language)
        report = ImportReport(club)
        players = {p.name: p for p in Player.objects.filter(club=club)}
        for person, guest in wanted_players:
            if person not in players:
                players[person] = Player.objects.create(club=club, name=person, guest=guest)
        clashes: list[Clash] = []
        for title, rules in wanted_profiles:
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
        for fields in wanted_seasons:
            existing_season = Season.objects.filter(club=club, name=fields["name"]).first()
            if existing_season is None:
                Season.objects.create(club=club, **fields)
            elif any(getattr(existing_season, key) != value for key, value in fields.items()):
                raise ImportProblem(Words(_("Season %(name)s exists in the club with other "
                                             "settings."), name=repr(fields["name"])))
        for k, plan in enumerate(plans, 1):
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
    title = _text(name, Words(_("The new name of a rule profile")))
    existing = RuleProfile.objects.filter(club=club, name=title).first()
    if existing is None:
        RuleProfile.objects.create(club=club, name=title, **rules)
    elif differences(existing, RuleProfile(name=title, **rules)):
        raise ImportProblem(Words(_("Rule profile %(name)s exists in the club with other "
                                     "rules too; choose another name."), name=repr(title)))


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
