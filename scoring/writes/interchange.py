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

import csv
import datetime
import io
import json
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from scoring.engine import SkatError, evaluate, evaluate_table
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


class ImportProblem(Exception):
    """The file cannot be imported; ``str()`` says why in a sentence, naming table and deal."""


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
    raise ValueError(f"{name} is not a number JSON allows")


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
        raise ImportProblem(f"The file is too large: {len(raw):,} bytes; at most "
                            f"{MAX_FILE_BYTES:,} bytes can be imported at once.")
    try:
        document = json.loads(raw, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ImportProblem("The file is not UTF-8 text.") from None
    except json.JSONDecodeError as err:
        raise ImportProblem(
            f"Invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}.") from None
    except RecursionError:
        raise ImportProblem(_too_deep(raw)) from None
    except ValueError as err:
        raise ImportProblem(f"Invalid JSON: {err}.") from None
    check_nesting(document)
    return document


def _too_deep(raw: bytes) -> str:
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
                return (f"{_place(path)}: nested too deep at line {line}, column {column} "
                        f"(objects and lists at most {MAX_DEPTH} levels deep).")
            stack.append([True, None, True] if char == "{" else [False, 0, False])
        elif char in "}]" and stack:
            stack.pop()
        elif char == "," and stack:
            if stack[-1][0]:
                stack[-1][2] = True
            else:
                stack[-1][1] += 1
        index += 1
    return f"The file is nested too deep: objects and lists at most {MAX_DEPTH} levels deep."


def _place(path: tuple[Any, ...]) -> str:
    """Where in a club or evening document a path leads, as the import's messages name it:
    "Evening 2: Table 1, deal 3" or "Table 1, deleted deal 1"."""
    parts: list[str] = []
    rest = list(path)
    while rest:
        key = rest.pop(0)
        index = rest.pop(0) if rest and isinstance(rest[0], int) else None
        if index is None:
            continue
        name = {"evenings": "Evening", "tables": "Table", "deals": "deal",
                "deleted_deals": "deleted deal", "players": "Player",
                "rule_profiles": "Rule profile", "seasons": "Season"}.get(str(key))
        if name is None:
            break
        if name in ("deal", "deleted deal") and parts:
            parts[-1] += f", {name} {index + 1}"
        else:
            parts.append(f"{name} {index + 1}")
    return ": ".join(parts) or "The file"


def check_nesting(document: Any, limit: int = MAX_DEPTH) -> None:
    """Objects and lists nest at most ``limit`` deep; walked without recursion, so that any
    depth is refused cleanly, naming the table and deal it is in."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(document, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict | list):
            if len(path) >= limit:
                raise ImportProblem(f"{_place(path)}: nested too deep (objects and lists at "
                                    f"most {limit} levels deep).")
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


def _check_record(record: Any, spot: str) -> dict[str, Any]:
    """What the engine leaves to the reader in a deal record: its nesting, the free-text
    ``note`` (text for people, at most MAX_NOTE characters, or null), and the size of every
    other text in it (a penalty's reason, a card)."""
    if not isinstance(record, dict):
        raise ImportProblem(f"{spot}: a deal must be a JSON object.")
    if _depth(record) > MAX_DEAL_DEPTH:
        raise ImportProblem(f"{spot}: nested too deep (a deal record nests at most "
                            f"{MAX_DEAL_DEPTH} levels).")
    note = record.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
        raise ImportProblem(f"{spot}: note must be a text of at most {MAX_NOTE} characters.")
    stack: list[Any] = [record]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_RECORD_TEXT and item is not note:
                raise ImportProblem(f"{spot}: a text in the record is longer than "
                                    f"{MAX_RECORD_TEXT} characters.")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return record


def _clean_json(value: Any, where: str) -> None:
    """What a database's JSON column cannot keep: NUL characters, non-finite numbers."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ImportProblem(f"{where}: text must not contain NUL characters.")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ImportProblem(f"{where}: numbers must be finite.")
        elif isinstance(item, dict):
            for key, sub in item.items():
                stack.append(key)
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)


def _object(value: Any, where: str, allowed: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportProblem(f"{where} must be a JSON object.")
    unknown = sorted(str(k) for k in value if k not in allowed)
    if unknown:
        raise ImportProblem(f"{where}: unknown field {unknown[0]!r}.")
    return value


def _text(value: Any, where: str, *, max_length: int = 100, blank: bool = False) -> str:
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise ImportProblem(f"{where} must be a non-empty text.")
    if len(value) > max_length or "\x00" in value:
        raise ImportProblem(f"{where} must be at most {max_length} characters.")
    return value


def _int(value: Any, where: str, low: int, high: int, *, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if type(value) is not int or not low <= value <= high:
        raise ImportProblem(f"{where} must be a whole number from {low} to {high}.")
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise ImportProblem(f"{where} must be true or false.")
    return value


def _date(value: Any, where: str) -> datetime.date:
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise ImportProblem(f"{where} must be a date written YYYY-MM-DD.") from None


def _slug(value: Any, where: str) -> str:
    text = _text(value, where, max_length=50)
    try:
        validate_slug(text)
    except ValidationError:
        raise ImportProblem(f"{where} must be a short name of letters, digits, - and _.") from None
    return text


def _messages(err: ValidationError) -> str:
    return " ".join(str(m) for m in err.messages)


def _rules(source: dict[str, Any], where: str) -> dict[str, Any]:
    """The rule fields checked the way a profile or an evening checks them (model clean)."""
    values = {key: source.get(key) for key in RULE_KEYS}
    for key in ("rules", "scoring", "currency"):
        if not isinstance(values[key], str):
            raise ImportProblem(f"{where}: {key} must be a text.")
    if not isinstance(values["options"], dict):
        raise ImportProblem(f"{where}: options must be a JSON object.")
    if values["settlement"] is not None and not isinstance(values["settlement"], dict):
        raise ImportProblem(f"{where}: settlement must be a JSON object or null.")
    if not isinstance(values["stake"], str):
        raise ImportProblem(f"{where}: stake must be a decimal written as text, e.g. \"0.05\".")
    try:
        stake = Decimal(values["stake"])
        if not stake.is_finite():
            raise ArithmeticError
    except ArithmeticError:
        raise ImportProblem(f"{where}: stake must be a decimal such as \"0.05\".") from None
    values["stake"] = stake
    values["settlement"] = values["settlement"] or {}
    probe = RuleProfile(name="x", **values)
    try:
        probe.full_clean(exclude=["club", "name"])
    except ValidationError as err:
        raise ImportProblem(f"{where}: {_messages(err)}") from None
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
    where = f"Table {index}"
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
            raise ImportProblem(f"{where}: {key} differs from the evening's; an evening has "
                                "one set of rules for all its tables.")
    number = _int(doc.get("number", index), f"{where}: number", 1, 999)
    series = _int(doc.get("series", 1), f"{where}: series", 1, 99)
    engine_doc = {key: doc[key] for key in CONTRACT_TABLE_KEYS if key in doc}
    engine_doc.update({key: (str(rules[key]) if key == "stake" else rules[key])
                       for key in RULE_KEYS})
    engine_doc["settlement"] = rules["settlement"] or None
    if not isinstance(doc.get("deals"), list):
        raise ImportProblem(f"{where}: deals must be a list of deal records.")
    for k, record in enumerate(doc["deals"], 1):
        _check_record(record, f"{where}, deal {k}")
    try:
        result = evaluate_table(engine_doc)
    except SkatError as err:
        at = f", deal {err.deal}" if err.deal is not None else ""
        field = f" ({err.field})" if err.field and err.deal is None else ""
        raise ImportProblem(f"{where}{at}{field}: {err.message}") from None
    players = list(result["players"]) if isinstance(result["players"], list) else []
    if not players:  # the engine also takes a number of players; a table to store needs names
        raise ImportProblem(f"{where}: players must be a list of names.")
    if series_rounds is not None:
        length = series_rounds * len(players)
        counted = sum(1 for row in result["deals"] if row["counts"])
        if counted > length:
            raise ImportProblem(f"{where}: a series has {length} games here; this table has "
                                f"{counted}.")
    deals = []
    for record in engine_doc["deals"]:
        stored = dict(record)
        if stored.pop("bock_manual", None) is not True and "bock" in stored:
            stored["bock"] = None  # the tracker decides; a correction may move Bock rounds
        deals.append(stored)
    deleted_raw = doc.get("deleted_deals", [])
    if not isinstance(deleted_raw, list):
        raise ImportProblem(f"{where}: deleted_deals must be a list.")
    total = len(deals) + len(deleted_raw)
    deleted: list[tuple[int, dict[str, Any]]] = []
    seen: set[int] = set()
    for k, item in enumerate(deleted_raw, 1):
        spot = f"{where}, deleted deal {k}"
        item = _object(item, spot, frozenset({"position", "record"}))
        position = _int(item.get("position"), f"{spot}: position", 1, total)
        assert position is not None
        if position in seen:
            raise ImportProblem(f"{spot}: position {position} is given twice.")
        seen.add(position)
        record = item.get("record")
        if not isinstance(record, dict):
            raise ImportProblem(f"{spot}: record must be a JSON object.")
        _check_record(record, spot)
        deleted.append((position, record))
    for k, (position, record) in enumerate(deleted, 1):
        _check_deleted(engine_doc, deals, deleted, position, record,
                       f"{where}, deleted deal {k}")
    return _PlannedTable(number or index, series or 1, players,
                         int(engine_doc.get("first_dealer", 0)), deals, sorted(deleted,
                                                                              key=lambda x: x[0]))


def _check_deleted(engine_doc: dict[str, Any], live: list[dict[str, Any]],
                   deleted: list[tuple[int, dict[str, Any]]], position: int,
                   record: dict[str, Any], spot: str) -> None:
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
        field = f" ({err.field})" if err.field else ""
        raise ImportProblem(f"{spot}{field}: {err.message}") from None


def check_evening(raw: Any, where: str = "", club_slug: str | None = None) -> _PlannedEvening:
    """Everything about an evening document that needs no database, checked in full."""
    prefix = f"{where}: " if where else ""
    if not where:
        check_nesting(raw)
    doc = _object(raw, where or "The evening", EVENING_KEYS)
    _clean_json({k: v for k, v in doc.items() if k != "tables"}, where or "The evening")
    _slug(doc.get("club"), f"{prefix}club")
    if club_slug is not None and doc["club"] != club_slug:
        raise ImportProblem(f"{prefix}the evening belongs to club {doc['club']!r}, not "
                            f"{club_slug!r}.")
    _date(doc.get("date"), f"{prefix}date")
    _text(doc.get("name"), f"{prefix}name")
    _text(doc.get("profile_name", ""), f"{prefix}profile_name", blank=True)
    _bool(doc.get("closed", False), f"{prefix}closed")
    if doc.get("season") is not None:
        _text(doc["season"], f"{prefix}season")
    series_rounds = _int(doc.get("series_rounds"), f"{prefix}series_rounds", 1, 50, null=True)
    tables = doc.get("tables")
    if not isinstance(tables, list):
        raise ImportProblem(f"{prefix}tables must be a list of tables.")
    if "rules" in doc:
        rule_source = doc
    elif tables and isinstance(tables[0], dict):
        rule_source = tables[0]
    else:
        raise ImportProblem(f"{prefix}an evening without tables must give its rules.")
    options = rule_source.get("options")
    rules = _rules({**rule_source, "options": {} if options is None else options,
                    "stake": rule_source.get("stake", "0"),
                    "currency": rule_source.get("currency", "EUR"),
                    "scoring": rule_source.get("scoring", "classic"),
                    "rules": rule_source.get("rules", "isko")}, f"{prefix}rules")
    planned = []
    places: set[tuple[int, int]] = set()
    for index, table in enumerate(tables, 1):
        try:
            plan = _check_table(table, index, rules, series_rounds)
        except ImportProblem as err:
            raise ImportProblem(f"{prefix}{err}") from None
        if (plan.series, plan.number) in places:
            raise ImportProblem(f"{prefix}Table {index}: series {plan.series} has two tables "
                                f"numbered {plan.number}.")
        places.add((plan.series, plan.number))
        planned.append(plan)
    return _PlannedEvening(doc, rules, planned)


# ---------------------------------------------------------------- writing

def _write_evening(plan: _PlannedEvening, club: Club, players: dict[str, Player],
                   where: str) -> Evening:
    doc = plan.doc
    prefix = f"{where}: " if where else ""
    season = None
    if doc.get("season") is not None:
        season = Season.objects.filter(club=club, name=doc["season"]).first()
        if season is None:
            raise ImportProblem(f"{prefix}club {club.slug!r} has no season {doc['season']!r} "
                                "(import the whole club, or create the season first).")
    evening = Evening(club=club, date=_date(doc["date"], "date"), name=doc["name"],
                      profile_name=doc.get("profile_name", ""),
                      closed=doc.get("closed", False), season=season,
                      series_rounds=doc.get("series_rounds"), **plan.rules)
    try:
        evening.full_clean()
        check_season(evening)
    except ValidationError as err:
        raise ImportProblem(f"{prefix}{_messages(err)}") from None
    evening.save()
    for index, table in enumerate(plan.tables, 1):
        seated = []
        for name in table.players:
            if name not in players:
                players[name] = Player.objects.create(club=club, name=name)
            seated.append(players[name])
        try:
            made = table_create(evening=evening, players=seated, first_dealer=table.first_dealer,
                                number=table.number, series=table.series)
        except ValidationError as err:
            raise ImportProblem(f"{prefix}Table {index}: {_messages(err)}") from None
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
            raise ImportProblem(f"Club {slug!r}: {_messages(err)}") from None
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
        raise ImportProblem(_messages(err)) from None
    except DatabaseError as err:
        raise ImportProblem(f"The database refused the import: {err}") from None


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


def _add_evening(plan: _PlannedEvening, club: Club, players: dict[str, Player], where: str,
                 report: ImportReport, actor: Actor, source: str) -> Evening:
    """Write the planned evening, unless the club has it already (see IMPORT_ACTOR above);
    either way the evening's audit log gets an entry."""
    what = source or _("standard input")
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
            evening_audit(twin, AuditEntry.Action.IMPORT, actor, _(
                "%(file)s: this evening is already there (same date, name and content); "
                "nothing added.") % {"file": what}, after={"file": source, "added": False})
            return twin
        transaction.savepoint_commit(savepoint)
    tables = evening.tables.count()
    deals = Deal.objects.filter(table__evening=evening).count()
    report.added.append(evening)
    evening_audit(evening, AuditEntry.Action.IMPORT, actor, _(
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
        _add_evening(plan, club, players, "", report, actor, source)
        return report

    result: ImportReport = _run(write)
    return result


def import_club(raw: Any, *, actor: Actor = IMPORT_ACTOR, source: str = "") -> Club:
    """Import a club document: its players, rule profiles and seasons are found by name or
    created (one that exists must match the file), its evenings are added (but those the
    club has already: same date, name and content); all or nothing."""
    return import_club_report(raw, actor=actor, source=source).club


def import_club_report(raw: Any, *, actor: Actor = IMPORT_ACTOR, source: str = "",
                       ) -> ImportReport:
    """import_club, saying which evenings were added and which were already there."""
    check_nesting(raw)
    doc = _object(raw, "The club", CLUB_KEYS)
    slug = _slug(doc.get("club"), "club")
    name = _text(doc.get("name", slug), "name")
    language = doc.get("language", "de")
    if language not in ("de", "en"):
        raise ImportProblem("language must be \"de\" or \"en\".")
    people = doc.get("players", [])
    if not isinstance(people, list):
        raise ImportProblem("players must be a list.")
    wanted_players = []
    for k, person in enumerate(people, 1):
        person = _object(person, f"Player {k}", frozenset({"name", "guest"}))
        wanted_players.append((_text(person.get("name"), f"Player {k}: name"),
                               _bool(person.get("guest", False), f"Player {k}: guest")))
    profiles = doc.get("rule_profiles", [])
    if not isinstance(profiles, list):
        raise ImportProblem("rule_profiles must be a list.")
    wanted_profiles = []
    for k, profile in enumerate(profiles, 1):
        where = f"Rule profile {k}"
        profile = _object(profile, where, frozenset({"name", *RULE_KEYS}))
        wanted_profiles.append((_text(profile.get("name"), f"{where}: name"),
                                _rules(profile, where)))
    seasons = doc.get("seasons", [])
    if not isinstance(seasons, list):
        raise ImportProblem("seasons must be a list.")
    wanted_seasons = []
    for k, season in enumerate(seasons, 1):
        where = f"Season {k}"
        season = _object(season, where, frozenset({
            "name", "start", "end", "evaluation", "best_of", "min_evenings", "series_rounds"}))
        fields = {
            "name": _text(season.get("name"), f"{where}: name"),
            "start": _date(season.get("start"), f"{where}: start"),
            "end": _date(season.get("end"), f"{where}: end"),
            "evaluation": season.get("evaluation", "seeger_fabian"),
            "best_of": _int(season.get("best_of"), f"{where}: best_of", 1, 999, null=True),
            "min_evenings": _int(season.get("min_evenings", 1), f"{where}: min_evenings",
                                 0, 999),
            "series_rounds": _int(season.get("series_rounds"), f"{where}: series_rounds",
                                  1, 50, null=True),
        }
        if fields["evaluation"] not in Season.Evaluation.values:
            raise ImportProblem(f"{where}: evaluation must be classic or seeger_fabian.")
        if fields["end"] < fields["start"]:
            raise ImportProblem(f"{where}: the season cannot end before it starts.")
        wanted_seasons.append(fields)
    evenings = doc.get("evenings", [])
    if not isinstance(evenings, list):
        raise ImportProblem("evenings must be a list.")
    plans = [check_evening(e, f"Evening {k}", club_slug=slug)
             for k, e in enumerate(evenings, 1)]

    def write() -> ImportReport:
        club = _club(slug, name, language)
        report = ImportReport(club)
        players = {p.name: p for p in Player.objects.filter(club=club)}
        for person, guest in wanted_players:
            if person not in players:
                players[person] = Player.objects.create(club=club, name=person, guest=guest)
        for title, rules in wanted_profiles:
            existing = RuleProfile.objects.filter(club=club, name=title).first()
            if existing is None:
                RuleProfile.objects.create(club=club, name=title, **rules)
            elif existing.rules_dict() != RuleProfile(name=title, **rules).rules_dict():
                raise ImportProblem(f"Rule profile {title!r} exists in the club with other "
                                    "rules.")
        for fields in wanted_seasons:
            existing_season = Season.objects.filter(club=club, name=fields["name"]).first()
            if existing_season is None:
                Season.objects.create(club=club, **fields)
            elif any(getattr(existing_season, key) != value for key, value in fields.items()):
                raise ImportProblem(f"Season {fields['name']!r} exists in the club with other "
                                    "settings.")
        for k, plan in enumerate(plans, 1):
            _add_evening(plan, club, players, f"Evening {k}", report, actor, source)
        return report

    result: ImportReport = _run(write)
    return result


# ---------------------------------------------------------------- the sheet as CSV

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A separator (a comma, or the semicolon German spreadsheets split on) followed, maybe after
# blanks, by a formula's first character: a reader splitting on it would start a cell there.
_FORMULA_AFTER_SEPARATOR = re.compile(r"([;,][ \t]*)([=+\-@])")


def _cell(value: Any) -> Any:
    """A text cell as a spreadsheet must read it: one that starts like a formula (a player
    named "=HYPERLINK(…)") gets a leading apostrophe so it stays text, and so does every part
    after a ``;`` or ``,`` (a player named "Anna;=1+1"), whichever separator the reader splits
    on. The writer quotes every text cell; numbers stay numbers."""
    if not isinstance(value, str):
        return value
    value = _FORMULA_AFTER_SEPARATOR.sub(r"\1'\2", value)
    if value.startswith(_FORMULA_START):
        return "'" + value
    return value


def sheet_csv(sheet: ScoreSheet) -> str:
    """The score sheet's rows as CSV (UTF-8 with BOM, so that Excel reads umlauts): the
    columns of the sheet, then per player the entry and the running total. Headings in the
    active language, as on the sheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    head = [_("No."), _("Dealer"), _("Declarer"), _("Game"), _("Details"), _("Bid"),
            _("Result"), "Kontra/Re", "Bock"]
    total = _("Total")
    for name in sheet.players:
        head += [name, f"{name} ({total})"]
    writer.writerow([_cell(c) for c in head])
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
        writer.writerow([_cell(c) for c in cells])
    return "\ufeff" + out.getvalue()
