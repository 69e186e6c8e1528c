"""The checks of an import in the interchange format (deal-record.md "An evening"): the
file read as JSON within its bounds, then everything about an evening or a club that needs no
database, every table through the engine. Nothing here writes: ``check_evening`` gives the
planned evening, ``check_club`` the planned club, that writes/imports.py writes in one
transaction."""

from __future__ import annotations

import datetime
import json
import math
import sys
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.collation import invisible_characters
from scoring.engine import DEFAULT, SkatError, evaluate, evaluate_table
from scoring.models import RuleProfile, Season
from scoring.writes.import_problems import (
    ImportProblem,
    Number,
    Refusal,
    Where,
    Words,
    at_place,
    problem_at,
    tick,
)

CONTRACT_TABLE_KEYS = ("rules", "options", "scoring", "players", "first_dealer", "stake",
                       "currency", "settlement", "deals")
RULE_KEYS = ("rules", "options", "scoring", "stake", "currency", "settlement")
EVENING_KEYS = frozenset({"club", "date", "name", "profile_name", "closed", "season",
                          "series_rounds", "tables", *RULE_KEYS})
TABLE_KEYS = frozenset({*CONTRACT_TABLE_KEYS, "number", "series", "deleted_deals"})
CLUB_KEYS = frozenset({"club", "name", "language", "players", "rule_profiles", "seasons",
                       "evenings"})


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
                                  size=Number(len(raw)), limit=Number(MAX_FILE_BYTES)))
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
        place = at_place(place, part)
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
        raise problem_at(spot, Words(_("A deal must be a JSON object.")))
    if _depth(record) > MAX_DEAL_DEPTH:
        raise problem_at(spot, Words(_("nested too deep (a deal record nests at most "
                                      "%(depth)d levels)."), depth=MAX_DEAL_DEPTH))
    note = record.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
        raise ImportProblem(Words(_("%(what)s must be a text of at most %(count)d "
                                     "characters."), what=at_place(spot, "note"), count=MAX_NOTE))
    stack: list[Any] = [record]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_RECORD_TEXT and item is not note:
                raise problem_at(spot, Words(_("A text in the record is longer than "
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
                raise problem_at(where, Words(_("Text must not contain NUL characters.")))
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise problem_at(where, Words(_("Numbers must be finite.")))
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
        raise problem_at(where, Words(_("unknown field %(field)s."), field=repr(unknown[0])))
    return value


def _text(value: Any, where: Where, *, max_length: int = 100, blank: bool = False) -> str:
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise ImportProblem(Words(_("%(what)s must be a non-empty text."), what=where))
    if len(value) > max_length or "\x00" in value:
        raise ImportProblem(Words(_("%(what)s must be at most %(count)d characters."),
                                  what=where, count=max_length))
    return value


def _name(value: Any, where: Where, *, max_length: int = 100) -> str:
    """The name of a person or a club: a text (``_text``) without invisible or control
    characters (issue 35: bidi controls and zero-width ones would reach lists and boards)."""
    text = _text(value, where, max_length=max_length)
    bad = invisible_characters(text)
    if bad:
        raise ImportProblem(Words(_("%(what)s may not contain invisible or control "
                                    "characters (%(codes)s)."),
                                  what=where, codes=", ".join(bad)))
    return text


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
            raise ImportProblem(Words(_("%(what)s must be a text."), what=at_place(where, key)))
    if not isinstance(values["options"], dict):
        raise ImportProblem(Words(_("%(what)s must be a JSON object."),
                                  what=at_place(where, "options")))
    if values["settlement"] is not None and not isinstance(values["settlement"], dict):
        raise ImportProblem(Words(_("%(what)s must be a JSON object or null."),
                                  what=at_place(where, "settlement")))
    if not isinstance(values["stake"], str):
        raise ImportProblem(Words(_("%(what)s must be a decimal written as text, e.g. "
                                     "\"0.05\"."), what=at_place(where, "stake")))
    try:
        stake = Decimal(values["stake"])
        if not stake.is_finite():
            raise ArithmeticError
    except ArithmeticError:
        raise ImportProblem(Words(_("%(what)s must be a decimal such as \"0.05\"."),
                                  what=at_place(where, "stake"))) from None
    values["stake"] = stake
    values["settlement"] = values["settlement"] or {}
    probe = RuleProfile(name="x", **values)
    try:
        probe.full_clean(exclude=["club", "name"])
    except ValidationError as err:
        raise problem_at(where, Refusal(err)) from None
    return values


# ---------------------------------------------------------------- checking an evening

class PlannedTable:
    def __init__(self, number: int, series: int, players: list[str], first_dealer: int,
                 deals: list[dict[str, Any]], deleted: list[tuple[int, dict[str, Any]]]) -> None:
        self.number, self.series, self.players = number, series, players
        self.first_dealer, self.deals, self.deleted = first_dealer, deals, deleted


class PlannedEvening:
    def __init__(self, doc: dict[str, Any], rules: dict[str, Any],
                 tables: list[PlannedTable]) -> None:
        self.doc, self.rules, self.tables = doc, rules, tables


def _check_table(raw: Any, index: int, rules: dict[str, Any], series_rounds: int | None,
                 ) -> PlannedTable:
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
                                      what=at_place(where, key)))
    number = _int(doc.get("number", index), at_place(where, "number"), 1, 999)
    series = _int(doc.get("series", 1), at_place(where, "series"), 1, 99)
    engine_doc = {key: doc[key] for key in CONTRACT_TABLE_KEYS if key in doc}
    engine_doc.update({key: (str(rules[key]) if key == "stake" else rules[key])
                       for key in RULE_KEYS})
    engine_doc["settlement"] = rules["settlement"] or None
    if not isinstance(doc.get("deals"), list):
        raise ImportProblem(Words(_("%(what)s must be a list of deal records."),
                                  what=at_place(where, "deals")))
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
        raise problem_at(place, err) from None
    players = list(result["players"]) if isinstance(result["players"], list) else []
    if not players:  # the engine also takes a number of players; a table to store needs names
        raise ImportProblem(Words(_("%(what)s must be a list of names."),
                                  what=at_place(where, "players")))
    for name in players:
        _name(name, at_place(where, "players"))
    if series_rounds is not None:
        length = series_rounds * len(players)
        counted = sum(1 for row in result["deals"] if row["counts"])
        if counted > length:
            raise problem_at(where, Words(_("a series has %(length)d games here; this table "
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
                                  what=at_place(where, "deleted_deals")))
    total = len(deals) + len(deleted_raw)
    deleted: list[tuple[int, dict[str, Any]]] = []
    seen: set[int] = set()
    for k, item in enumerate(deleted_raw, 1):
        spot = _deal(where, k, deleted=True)
        item = _object(item, spot, frozenset({"position", "record"}))
        position = _int(item.get("position"), at_place(spot, "position"), 1, total)
        assert position is not None
        if position in seen:
            raise problem_at(spot, Words(_("position %(position)d is given twice."),
                                       position=position))
        seen.add(position)
        record = item.get("record")
        if not isinstance(record, dict):
            raise ImportProblem(Words(_("%(what)s must be a JSON object."),
                                      what=at_place(spot, "record")))
        _check_record(record, spot)
        deleted.append((position, record))
    for k, (position, record) in enumerate(deleted, 1):
        tick()
        _check_deleted(engine_doc, deals, deleted, position, record,
                       _deal(where, k, deleted=True))
    return PlannedTable(number or index, series or 1, players,
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
        raise problem_at(spot_field, err) from None


def check_evening(raw: Any, where: Where | None = None,
                  club_slug: str | None = None) -> PlannedEvening:
    """Everything about an evening document that needs no database, checked in full."""
    if where is None:
        check_nesting(raw)
    doc = _object(raw, where or Words(_("The evening")), EVENING_KEYS)
    _clean_json({k: v for k, v in doc.items() if k != "tables"},
                where or Words(_("The evening")))
    _slug(doc.get("club"), at_place(where, "club"))
    if club_slug is not None and doc["club"] != club_slug:
        raise problem_at(where, Words(_("The evening belongs to club %(theirs)s, not "
                                       "%(ours)s."), theirs=repr(doc["club"]),
                                    ours=repr(club_slug)))
    _date(doc.get("date"), at_place(where, "date"))
    _text(doc.get("name"), at_place(where, "name"))
    _text(doc.get("profile_name", ""), at_place(where, "profile_name"), blank=True)
    _bool(doc.get("closed", False), at_place(where, "closed"))
    if doc.get("season") is not None:
        _text(doc["season"], at_place(where, "season"))
    series_rounds = _int(doc.get("series_rounds"), at_place(where, "series_rounds"), 1, 50,
                         null=True)
    tables = doc.get("tables")
    if not isinstance(tables, list):
        raise ImportProblem(Words(_("%(what)s must be a list of tables."),
                                  what=at_place(where, "tables")))
    if "rules" in doc:
        rule_source = doc
    elif tables and isinstance(tables[0], dict):
        rule_source = tables[0]
    else:
        raise problem_at(where, Words(_("An evening without tables must give its rules.")))
    options = rule_source.get("options")
    rules = _rules({**rule_source, "options": {} if options is None else options,
                    "stake": rule_source.get("stake", "0"),
                    "currency": rule_source.get("currency", "EUR"),
                    "scoring": rule_source.get("scoring", "classic"),
                    "rules": rule_source.get("rules", DEFAULT)}, at_place(where, "rules"))
    planned = []
    places: set[tuple[int, int]] = set()
    for index, table in enumerate(tables, 1):
        try:
            plan = _check_table(table, index, rules, series_rounds)
        except ImportProblem as err:
            raise problem_at(where, err) from None
        if (plan.series, plan.number) in places:
            raise problem_at(at_place(where, Words(_("Table %(number)s"), number=index)), Words(
                _("series %(series)d has two tables numbered %(number)d."),
                series=plan.series, number=plan.number))
        places.add((plan.series, plan.number))
        planned.append(plan)
    return PlannedEvening(doc, rules, planned)


@dataclass
class PlannedClub:
    """A club document checked in full: what import_club will find or make, and write."""

    slug: str
    name: str
    language: str
    players: list[tuple[str, bool]]  # (name, guest)
    profiles: list[tuple[str, dict[str, Any]]]  # (name, rule fields)
    seasons: list[dict[str, Any]]  # a Season's fields
    evenings: list[PlannedEvening]


def check_club(raw: Any) -> PlannedClub:
    """Everything about a club document that needs no database, checked in full."""
    check_nesting(raw)
    doc = _object(raw, Words(_("The club")), CLUB_KEYS)
    slug = _slug(doc.get("club"), "club")
    name = _name(doc.get("name", slug), "name")
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
        wanted_players.append((_name(person.get("name"), at_place(who, "name")),
                               _bool(person.get("guest", False), at_place(who, "guest"))))
    profile_docs = doc.get("rule_profiles", [])
    if not isinstance(profile_docs, list):
        raise ImportProblem(Words(_("%(what)s must be a list."), what="rule_profiles"))
    wanted_profiles = []
    for k, profile in enumerate(profile_docs, 1):
        where = Words(PLACE_NAMES["rule_profiles"], number=k)
        profile = _object(profile, where, frozenset({"name", *RULE_KEYS}))
        wanted_profiles.append((_text(profile.get("name"), at_place(where, "name")),
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
            "name": _text(season.get("name"), at_place(where, "name")),
            "start": _date(season.get("start"), at_place(where, "start")),
            "end": _date(season.get("end"), at_place(where, "end")),
            "evaluation": season.get("evaluation", "seeger_fabian"),
            "best_of": _int(season.get("best_of"), at_place(where, "best_of"), 1, 999, null=True),
            "min_evenings": _int(season.get("min_evenings", 1), at_place(where, "min_evenings"),
                                 0, 999),
            "series_rounds": _int(season.get("series_rounds"), at_place(where, "series_rounds"),
                                  1, 50, null=True),
        }
        if fields["evaluation"] not in Season.Evaluation.values:
            raise ImportProblem(Words(_("%(what)s must be classic or seeger_fabian."),
                                      what=at_place(where, "evaluation")))
        if fields["end"] < fields["start"]:
            raise problem_at(where, Words(_("The season cannot end before it starts.")))
        wanted_seasons.append(fields)
    evenings = doc.get("evenings", [])
    if not isinstance(evenings, list):
        raise ImportProblem(Words(_("%(what)s must be a list."), what="evenings"))
    plans = [check_evening(e, Words(PLACE_NAMES["evenings"], number=k), club_slug=slug)
             for k, e in enumerate(evenings, 1)]
    return PlannedClub(slug, name, club_language, wanted_players, wanted_profiles,
                       wanted_seasons, plans)


def check_profile_name(name: str) -> str:
    """A new name for a rule profile of the file (the choice on a clash), checked as the
    file's own names are."""
    return _text(name, Words(_("The new name of a rule profile")))
