"""A score sheet in its own CSV layout (the one `export_sheet_csv` and the sheet page write,
reads/export.sheet_csv) read back into deals, and added to an evening as a table (issue 16).

The CSV says a deal in a sheet's words (game, details, result, Kontra, Bock) and numbers
(each player's entry and running total), not in the deal record's fields; some fields it
does not say at all (a Ramsch's card points, whether the Spitze was made). So each line is
read into the few records it can mean, and each is scored by the engine at its place in the
table: the first whose entries, Bock level and dealer are exactly the sheet's is taken. A
line no record reproduces is refused, naming the line and what the sheet says; nothing is
written unless every line is read. A table with the same players and the same deals that
the evening has already is not added again.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.collation import invisible_characters
from scoring.engine import SkatError, evaluate_table, ruleset
from scoring.models import AuditEntry, Deal, Evening, Player, Table
from scoring.reads.deal_labels import (
    DECLARATION_LABELS,
    QUICK_LABELS,
    QUICK_RESULT_KEYS,
    RECORD_NAMES,
    game_for,
)
from scoring.reads.people import players_by_name
from scoring.writes import scores
from scoring.writes.import_problems import ImportProblem
from scoring.writes.paper import MAX_LINES, whole_number
from scoring.writes.services import Actor, evening_audit, table_create

FIXED = 9  # No., Dealer, Declarer, Game, Details, Bid, Result, Kontra/Re, Bock
HEADS = {"Nr.": "de", "No.": "en"}


@dataclass
class SheetPlan:
    evening: Evening
    players: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    first_dealer: int = 0
    existing: Table | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def added(self) -> bool:
        return self.existing is None and not self.problems


def _text(content: bytes) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportProblem(_("The file is not text (UTF-8 or Windows-1252).")) from None


def _unformula(cell: str) -> str:
    """The writer's apostrophe before a text that looks like a formula, taken off again."""
    cell = cell.strip()
    if cell.startswith("'") and cell[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return cell[1:]
    return cell


class _Words:
    """The sheet's words in its language, read back into fields."""

    def __init__(self, evening: Evening, lang: str) -> None:
        self.games: dict[str, tuple[str, bool, bool]] = {}  # name -> key, hand, ouvert
        keys = ruleset(evening.rules).game_table(evening.options)
        with translation.override(lang):
            for key in keys:
                game = game_for(evening.rules, evening.options, key)
                if game is None:
                    continue
                name = game.name_de if lang == "de" else game.name_en
                self.games[name.casefold()] = (key, False, False)
                if game.null:
                    ouvert = " ouvert" if lang == "de" else " Ouvert"
                    for hand, open_ in ((True, False), (False, True), (True, True)):
                        label = name + (ouvert if open_ else "") + (" Hand" if hand else "")
                        self.games[label.casefold()] = (key, hand, open_)
            self.kinds = {_(label).casefold(): kind for kind, label in RECORD_NAMES.items()}
            self.declarations = {_(label).casefold(): key for key, label in DECLARATION_LABELS}
            self.quick = {_(label).casefold(): key for key, label in QUICK_LABELS.items()
                          if key in QUICK_RESULT_KEYS}
            self.quick["60:60"] = "sixty"
            self.with_ = re.compile(re.escape(_("with %d")).replace("%d", r"(\d+)"))
            self.without = re.compile(re.escape(_("without %d")).replace("%d", r"(\d+)"))
            self.spitze = re.compile(re.escape(_("Spitze %d")).replace("%d", r"(\d+)"))
            self.tricks = [re.compile(re.escape(ngettext("%d trick", "%d tricks", n))
                                      .replace("%d", r"(\d+)")) for n in (1, 2)]
            self.overbid = re.compile(
                r"\s*" + re.escape(_("overbid (bid %(bid)s)")).replace(
                    re.escape("%(bid)s"), r"\d+") + r"$")
            self.concessions = {_("conceded").casefold(): ["declarer"],
                                _("Schenken, played on").casefold(): ["schenken_schneider",
                                                                      "schenken_schwarz"],
                                _("Schenken").casefold(): ["schenken"]}
            self.bock_by_hand = _("Bock (by hand)").casefold()
            self.no_bock_by_hand = _("no Bock (by hand)").casefold()
            self.bock_round = _("+ Bock round by hand").casefold()


def _entries(cells: list[str], players: int) -> list[int | None] | None:
    out: list[int | None] = []
    for p in range(players):
        text = cells[FIXED + 2 * p].strip() if FIXED + 2 * p < len(cells) else ""
        if not text:
            out.append(None)
            continue
        value = whole_number(text)
        if value is None:
            return None
        out.append(value)
    return out


def _candidates(cells: list[str], words: _Words, players: list[str], entries: list[int | None],
                bock: int) -> list[dict[str, Any]] | str:
    """The records this line can mean, or why it means none."""
    game = cells[3].strip()
    kind = words.kinds.get(game.casefold())
    if kind == "ramsch":
        return _ramsch(entries, bock)
    if kind == "penalty":
        losers = [(p, v) for p, v in enumerate(entries) if v]
        if len(losers) != 1 or losers[0][1] >= 0:
            return _("a penalty takes points from one player.")
        return [{"kind": "penalty", "penalty": {"seat": losers[0][0], "points": -losers[0][1]}}]
    if kind in ("passed", "misdeal"):
        return [{"kind": kind}]
    found = words.games.get(game.casefold())
    if found is None:
        return _("%(game)s is no game of these rules.") % {"game": repr(game)}
    key, hand, ouvert = found
    declarer = cells[2].strip()
    if declarer not in players:
        return _("the declarer %(name)s does not sit at this table.") % {"name": repr(declarer)}
    record: dict[str, Any] = {"kind": "game", "declarer": players.index(declarer), "game": key}
    if hand:
        record["hand"] = True
    if ouvert:
        record["ouvert"] = True
    choices: list[dict[str, Any]] = [{}]
    details = cells[4].strip()
    for phrase, options in words.concessions.items():
        if phrase in details.casefold():
            start = details.casefold().index(phrase)
            details = (details[:start] + details[start + len(phrase):]).strip(", ")
            choices = [{"concession": option} for option in options]
            break
    for part in (p.strip() for p in details.split(",") if p.strip()):
        low = part.casefold()
        if match := words.with_.fullmatch(part):
            record["matadors"] = int(match[1])
        elif match := words.without.fullmatch(part):
            record["matadors"] = -int(match[1])
        elif match := words.spitze.fullmatch(part):
            record["spitze"] = int(match[1])
            choices = [{**c, "spitze_made": made} for c in choices for made in (True, False)]
        elif low in words.declarations:
            record[words.declarations[low]] = True
        elif low == words.bock_by_hand:
            record["bock"] = bock
        elif low == words.no_bock_by_hand:
            record["bock"] = 0
        elif low == words.bock_round:
            record["bock_round"] = True
        else:
            return _("%(words)s is not a declaration the sheet writes.") % {"words": repr(part)}
    bid = cells[5].strip()
    if bid:
        value = whole_number(bid)
        if value is None:
            return _("the bid %(value)s is not a number.") % {"value": repr(bid)}
        record["bid"] = value
    kontra = cells[7].strip().casefold()
    if kontra in ("kontra", "re"):
        record["kontra"] = kontra
        # The sheet does not say who said Kontra. Where the rules need the seat, the first
        # opponent it fits is recorded, and the deal's note says that it was not on the sheet.
        guessed = _("who said Kontra is not on the score sheet this deal was read from")
        opponents = [p for p in range(len(players)) if p != record["declarer"]]
        choices = [*choices, *({**c, "kontra_by": p, "note": guessed}
                               for c in choices for p in opponents)]
    elif kontra:
        return _("%(value)s is neither Kontra nor Re.") % {"value": repr(cells[7].strip())}
    result = words.overbid.sub("", cells[6].strip())
    overbid = result != cells[6].strip()
    results: list[dict[str, Any]]
    if not result and overbid:
        results = [{"result": key} for key in ("won", "won_schneider", "won_schwarz")]
    elif result.casefold() in words.quick:
        results = [{"result": words.quick[result.casefold()]}]
    elif (points := whole_number(result)) is not None:
        results = [{"declarer_points": points}]
    elif any(m := pattern.fullmatch(result) for pattern in words.tricks):
        match = next(m for p in words.tricks if (m := p.fullmatch(result)))
        results = [{"declarer_tricks": int(match[1])}]
    elif not result:
        results = [{}]
    else:
        return _("%(value)s is not a result the sheet writes.") % {"value": repr(result)}
    return [{**record, **choice, **outcome} for choice in choices for outcome in results]


def _ramsch(entries: list[int | None], bock: int) -> list[dict[str, Any]] | str:
    losers = {p: -v for p, v in enumerate(entries) if v is not None and v < 0}
    winners = [p for p, v in enumerate(entries) if v is not None and v > 0]
    out: list[dict[str, Any]] = []
    if not losers and len(winners) == 1:
        for pushes in range(4):
            out.append({"kind": "ramsch", "ramsch": {"losers": {}, "jungfrau": 0,
                                                     "durchmarsch": winners[0],
                                                     "pushes": pushes}})
        return out
    if not losers:
        return _("a Ramsch without a loser.")
    for pushes in range(4):
        for jungfrau in range(3):
            factor = 2 ** (bock + pushes + jungfrau)
            if all(v % factor == 0 and 0 < v // factor <= 120 for v in losers.values()):
                out.append({"kind": "ramsch", "ramsch": {
                    "losers": {str(p): v // factor for p, v in losers.items()},
                    "jungfrau": jungfrau, "durchmarsch": None, "pushes": pushes}})
    return out or _("no Ramsch scores these entries.")


def plan_sheet(content: bytes, evening: Evening) -> SheetPlan:
    """Read the CSV into deals at this evening's rules, every line checked by scoring it;
    writes nothing."""
    plan = SheetPlan(evening)
    try:
        text = _text(content)
    except ImportProblem as err:
        plan.problems.append(str(err))
        return plan
    first = text.split("\n", 1)[0]
    separator = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    rows: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            if reader.line_num > MAX_LINES:
                plan.problems.append(_("The file has more than %(count)d lines.") % {
                    "count": MAX_LINES})
                return plan
            if any(c.strip() for c in cells):
                rows.append((reader.line_num, [_unformula(c) for c in cells]))
    except csv.Error as err:
        plan.problems.append(_("Line %(line)d: not readable as CSV (%(error)s).") % {
            "line": reader.line_num, "error": err})
        return plan
    if not rows:
        plan.problems.append(_("The file is empty."))
        return plan
    head = rows[0][1]
    lang = HEADS.get(head[0].strip()) if head else None
    names = head[FIXED::2]
    if (lang is None or len(head) < FIXED + 6 or (len(head) - FIXED) % 2
            or not 3 <= len(names) <= 6 or len(head) > FIXED + 12):
        plan.problems.append(_("Line 1: this is not the header of a score sheet as Skatclub "
                               "writes it (No., Dealer, Declarer, Game, Details, Bid, Result, "
                               "Kontra/Re, Bock, then each player and their total)."))
        return plan
    plan.players = [n.strip() for n in names]
    if len(set(plan.players)) != len(plan.players) or not all(plan.players):
        plan.problems.append(_("Line 1: every player needs a name of their own."))
        return plan
    for name in plan.players:
        if invisible_characters(name):
            plan.problems.append(_(
                "Line 1: the name %(name)s contains invisible or control characters "
                "(%(codes)s): type it again without them.") % {
                    "name": repr(name), "codes": ", ".join(invisible_characters(name))})
            return plan
    words = _Words(evening, lang)
    document = table_document_for(evening, plan.players)
    for number, cells in rows[1:]:
        problem = _read_line(number, cells, plan, words, document)
        if problem:
            plan.problems.append(_("Line %(line)d: %(problem)s") % {"line": number,
                                                                  "problem": problem})
            return plan  # later lines are scored after this one: they cannot be read now
    if not plan.records:
        plan.problems.append(_("The file has a header line but no deals."))
        return plan
    plan.existing = _twin(evening, plan)
    return plan


def table_document_for(evening: Evening, players: list[str]) -> dict[str, Any]:
    """The table as the engine reads it (reads.sheet.table_document, for a table not yet
    made)."""
    return {**evening.rules_dict(), "players": players, "first_dealer": 0, "deals": []}


def _read_line(number: int, cells: list[str], plan: SheetPlan, words: _Words,
               document: dict[str, Any]) -> str | None:
    players = plan.players
    if len(cells) != FIXED + 2 * len(players):
        return _("%(count)d cells where the header has %(columns)d.") % {
            "count": len(cells), "columns": FIXED + 2 * len(players)}
    if any(len(c) > 200 for c in cells):
        return _("a cell is longer than %(count)d characters.") % {"count": 200}
    entries = _entries(cells, len(players))
    if entries is None:
        return _("an entry is not a whole number.")
    dealer = cells[1].strip()
    if dealer not in players:
        return _("the dealer %(name)s does not sit at this table.") % {"name": repr(dealer)}
    if not plan.records:
        plan.first_dealer = players.index(dealer)
    bock_text = cells[8].strip().lstrip("×x")
    bock = 0
    if bock_text:
        factor = whole_number(bock_text)
        if factor not in (2, 4, 8, 16):
            return _("%(value)s is not a Bock mark (×2, ×4 …).") % {"value": repr(cells[8])}
        bock = {2: 1, 4: 2, 8: 3, 16: 4}[factor]
    options = _candidates(cells, words, players, entries, bock)
    if isinstance(options, str):
        return options
    last_error = None
    for record in options:
        trial = {**document, "first_dealer": plan.first_dealer,
                 "deals": [*plan.records, record]}
        try:
            rows = evaluate_table(trial)["deals"]
        except SkatError as err:
            last_error = err.message_in(_language())
            continue
        row = rows[-1]
        scored = [row["entries"].get(str(p)) for p in range(len(players))]
        if ([v or 0 for v in scored] == [v or 0 for v in entries] and row["bock"] == bock
                and players[row["dealer"]] == dealer):
            totals = [whole_number(cells[FIXED + 2 * p + 1]) for p in range(len(players))]
            if totals != [row["totals"][str(p)] for p in range(len(players))]:
                return _("the totals do not add up to the entries above them.")
            plan.records.append(record)
            return None
    if last_error and len(options) == 1:
        return last_error
    return _("no deal gives the entries, Bock and dealer this line shows.")


def _language() -> str:
    return "de" if (translation.get_language() or "de").startswith("de") else "en"


def _twin(evening: Evening, plan: SheetPlan) -> Table | None:
    for table in evening.tables.prefetch_related("seats__player", "deals"):
        names = [seat.player.name for seat in table.seats.order_by("position")]
        records = [d.record for d in table.deals.order_by("position") if not d.deleted]
        if names == plan.players and records == plan.records:
            return table
    return None


def import_sheet(content: bytes, evening: Evening, *, actor: Actor, source: str) -> SheetPlan:
    """Add the CSV's table to the evening in one transaction, unless the evening has it
    already (ImportProblem naming the line, and nothing written, if a line cannot be read)."""
    with transaction.atomic():
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        plan = plan_sheet(content, evening)
        if plan.problems:
            raise ImportProblem(" ".join(plan.problems))
        what = source or _("standard input")
        if plan.existing is not None:
            evening_audit(evening, AuditEntry.Action.IMPORT, actor, _(
                "%(file)s: this table is already there (same players and deals); nothing "
                "added.") % {"file": what}, after={"file": source, "added": False})
            return plan
        if evening.closed:
            raise ImportProblem(_("This evening is closed: reopen it first."))
        club = evening.club
        known = players_by_name(club)  # a merged record's name: the kept record
        seated: list[Player] = []
        for name in plan.players:
            if name not in known:
                known[name] = Player.objects.create(club=club, name=name)
            twin = next((p for p in seated if p.pk == known[name].pk), None)
            if twin is not None:
                raise ImportProblem(_(
                    "Line 1: %(other)s and %(name)s are one person (the desk merged the two "
                    "records into %(kept)s): a player sits at a table once.") % {
                        "other": plan.players[seated.index(twin)], "name": name,
                        "kept": twin.name})
            seated.append(known[name])
        busy = set(Player.objects.filter(seats__table__evening=evening,
                                         seats__table__series=1).values_list("name", flat=True))
        series = 1 if not busy & set(plan.players) else (
            max(evening.tables.values_list("series", flat=True), default=0) + 1)
        table = table_create(evening=evening, players=seated, first_dealer=plan.first_dealer,
                             series=series)
        Deal.objects.bulk_create(Deal(table=table, position=k, record=record)
                                 for k, record in enumerate(plan.records, 1))
        scores.rebuild(Table.objects.filter(pk=table.pk))  # the federation ranking's rows
        evening_audit(evening, AuditEntry.Action.IMPORT, actor, _(
            "%(file)s: table %(number)d added with %(deals)d deals.") % {
                "file": what, "number": table.number, "deals": len(plan.records)},
            after={"file": source, "added": True, "deals": len(plan.records)})
    return plan
