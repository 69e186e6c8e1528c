"""evaluate() for one deal and evaluate_table() for an evening at one table."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from .deal import (
    KIND_NAMES,
    KINDS,
    LONE_FIELDS,
    RECORD_FIELDS,
    Context,
    Scored,
    bocked,
    check_not_a_game,
    explanation,
    game_scorer,
    legal_bids,
    score_game,
    score_passed,
    score_penalty,
)
from .errors import Phrase, SkatError, who
from .explain import LANGUAGES
from .fields import Record, active_seats, seat
from .options import Options
from .ramsch import score_ramsch, short_form
from .records import deal_record, is_record
from .rulesets import OptionsCache
from .scores import DealScore, ScoredEvening, ScoredTable, TableDeal
from .settlement import SettlementError, parse_settlement_options, parse_stake, settle
from .tracker import RoundTracker, bock_standing, bock_triggers

TABLE_FIELDS = frozenset({
    "rules", "options", "scoring", "players", "first_dealer", "stake", "currency",
    "settlement", "deals", "name", "number", "table",
    # Added by Skatclub's export (deal-record.md: "add fields if needed"); not scored.
    "series", "deleted_deals",
})
SCORINGS = ("classic", "seeger_fabian", "beer")
_DEALER = Phrase("The dealer")
_FIRST_DEALER = Phrase("The first dealer")

_options_cache = OptionsCache()
_contexts: dict[tuple[int, tuple[str, ...] | None], tuple[Options, Context]] = {}


def _context(system: str, options: Options, players: int,
             names: tuple[str, ...] | None) -> Context:
    key = (id(options), names)
    hit = _contexts.get(key)
    if hit is not None and hit[0] is options:
        return hit[1]
    ctx = Context(system, options, players, names, legal_bids(system, options))
    if len(_contexts) > 256:
        _contexts.clear()
    _contexts[key] = (options, ctx)
    return ctx


def _players(raw: object) -> tuple[int, tuple[str, ...] | None]:
    if type(raw) is int:
        if not 3 <= raw <= 6:
            raise SkatError("players", "A table has 3 to 6 people.")
        return raw, None
    if not isinstance(raw, list) or not 3 <= len(raw) <= 6:
        raise SkatError("players", "Players must be 3 to 6 names (or their number).")
    names = []
    for name in raw:
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise SkatError("players", "Every player needs a name (up to 100 characters).")
        names.append(name.strip())
    if len(set(names)) != len(names):
        raise SkatError("players", "Two players have the same name.")
    return len(names), tuple(names)


def _lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise SkatError(None, "Language must be one of {choices}.", choices=", ".join(LANGUAGES))
    return lang


def _unknown(d: Record, allowed: frozenset[str]) -> None:
    if not d.keys() <= allowed:
        key = sorted(k for k in d if k not in allowed)[0]
        raise SkatError(str(key), "Unknown field {key!r}.", key=key)


def _bock_field(d: Record) -> int | None:
    raw = d.get("bock")
    if raw is None:
        return None
    if type(raw) is not int or not 0 <= raw <= 8:
        raise SkatError("bock", "Bock must be null or a level: 0, 1 (×2), 2 (×4) …")
    return raw


def _manual_fields(d: Record, options: Options, counting: bool) -> tuple[bool, bool]:
    """``bock_round`` and ``bock_manual`` (DECISIONS.md §9): (Bock round queued, the deal's
    ``bock`` is its own). Both need option bock.manual; a record that is not counted (penalty,
    misdeal) is never doubled and starts no round."""
    manual = options.bock is not None and options.bock.manual
    bock_round = d.get("bock_round")
    marked = d.get("bock_manual")
    for key, value in (("bock_round", bock_round), ("bock_manual", marked)):
        if value is not None and not isinstance(value, bool):
            raise SkatError(key, "{key} must be true or false.", key=key)
    if bock_round and not manual:
        raise SkatError("bock_round", "A Bock round is queued by hand only with option "
                        "bock.manual.")
    if bock_round and not counting:
        raise SkatError("bock_round", "A {kind} record does not count, so it starts no Bock "
                        "round.", kind=KIND_NAMES[str(d.get("kind"))])
    if marked and not manual:
        raise SkatError("bock_manual", "Bock is set by hand only with option bock.manual.")
    if marked and d.get("bock") is None:
        raise SkatError("bock_manual", "bock_manual marks a Bock level set by hand: give the "
                        "level (bock).")
    return bool(bock_round), manual and d.get("bock") is not None


def score_record(d: Record, ctx: Context, active: tuple[int, ...] | None,
                 ramsch_round: bool) -> Scored:
    """Score one record of any kind; ``active`` is None when the dealer is unknown."""
    kind = d.get("kind")
    if kind == "game":
        for key in ("ramsch", "penalty"):
            if d.get(key) is not None:
                raise SkatError(key, "{key} does not apply to a game record.", key=key)
        return score_game(d, ctx, active, ramsch_round)
    if kind not in KINDS:
        raise SkatError("kind", "kind must be one of {choices}.", choices=", ".join(KINDS))
    assert isinstance(kind, str)
    check_not_a_game(d, kind)
    if kind != "ramsch" and d.get("ramsch") is not None:
        raise SkatError("ramsch", "ramsch does not apply to a {kind} record.",
                        kind=KIND_NAMES[kind])
    if kind != "penalty" and d.get("penalty") is not None:
        raise SkatError("penalty", "penalty does not apply to a {kind} record.",
                        kind=KIND_NAMES[kind])
    if kind == "penalty":
        return score_penalty(d, ctx)
    if ramsch_round and kind == "passed":
        raise SkatError("kind", "In a Ramsch round every deal is played: Ramsch or a Grand Hand.")
    if kind != "ramsch":
        return score_passed(kind)
    if not ramsch_round and ctx.options.ramsch == "off":
        raise SkatError("kind", "Ramsch is not played under these rules (option ramsch).")
    if active is None and not short_form(d.get("ramsch")):
        active = _ramsch_seats(d, ctx.players)
    return score_ramsch(d, ctx, active)


def _ramsch_seats(d: Record, players: int) -> tuple[int, ...]:
    if players == 3:
        return (0, 1, 2)
    points = d.get("ramsch", {}).get("points") if isinstance(d.get("ramsch"), dict) else None
    if isinstance(points, dict) and len(points) == 3:
        try:
            seats = tuple(sorted(int(k) for k in points))
        except ValueError:
            seats = ()
        if len(set(seats)) == 3 and all(0 <= s < players for s in seats):
            return seats
    raise SkatError("dealer", "Say who dealt, so that the three players of the Ramsch are known.")


SEAT_KEYS = tuple(str(p) for p in range(6))


def _result(s: Scored, bock: int) -> DealScore:
    return {
        "kind": s.kind, "won": s.won, "value": s.value, "charged_value": s.charged,
        "overbid": s.overbid, "base": s.base, "multiplier": s.multiplier,
        "entries": {SEAT_KEYS[k]: v for k, v in bocked(s, bock).items()},
        "bock": bock,
    }


# ---------------------------------------------------------------- one deal

# A lone deal with none of these fields is scored under the ISkO defaults at a 3-table.
_PLAIN_DEAL_FIELDS = RECORD_FIELDS - {"dealer", "bock", "bock_round", "bock_manual"}
_DEFAULT_CONTEXT = _context("isko", _options_cache.get("isko", None, 3), 3, None)

def evaluate(deal: object, lang: str = "en") -> DealScore:
    """Score one deal record (deal-record.md "A deal"), its JSON or a typed ``DealRecord``;
    see ``evaluate_table`` for a table."""
    if type(deal) is not dict and is_record(deal):
        deal = deal_record(deal).to_json()
    if type(deal) is not dict:
        raise SkatError(None, "A deal must be a JSON object.")
    if lang not in LANGUAGES:
        _lang(lang)
    if deal.keys() <= _PLAIN_DEAL_FIELDS:  # the common case: ISkO, 3 players, no options
        scored = score_record(deal, _DEFAULT_CONTEXT, (0, 1, 2), ramsch_round=False)
        result = _result(scored, 0)
        result["explanation"] = explanation(scored, lang, 0, None)
        return result
    _unknown(deal, LONE_FIELDS)
    system = deal.get("rules", "isko")
    players, names = _players(deal.get("players", 3))
    options = _options_cache.get(system, deal.get("options"), players)
    ctx = _context(options.system, options, players, names)
    dealer = deal.get("dealer")
    if dealer is not None:
        active: tuple[int, ...] | None = active_seats(
            seat(dealer, "dealer", players, _DEALER), players)
    else:
        active = (0, 1, 2) if players == 3 else None
    bock = _bock_field(deal) or 0
    if bock and ctx.system != "isko":
        raise SkatError("bock", "Bock is played only under the International Skat Order.")
    scored = score_record(deal, ctx, active, ramsch_round=False)
    _manual_fields(deal, options, counting=scored.kind in ("game", "ramsch", "passed"))
    if bock and scored.kind in ("passed", "penalty", "misdeal"):
        raise SkatError("bock", "A {kind} record is never doubled by Bock.",
                        kind=KIND_NAMES[scored.kind])
    result = _result(scored, bock)
    result["explanation"] = explanation(scored, lang, bock, names)
    return result


# ---------------------------------------------------------------- a table

@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Building a table's result allocates a dict per deal, and the cyclic collector would
    rescan the growing, acyclic result again and again (a quarter of the time at 100,000
    deals). Reference counting still frees everything; the caller's setting is restored."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def evaluate_table(table: object, lang: str = "en", explain: bool = False,
                   explain_from: int = 1) -> ScoredTable:
    """Score an evening at one table (deal-record.md "A table") with rounds, Bock, totals and
    the settlement. ``explain`` adds the explanation in ``lang`` of each deal numbered
    ``explain_from`` or later (it costs about a third of the time, so a page asks for it
    only where it shows it: the table screen after a save wants one deal's)."""
    with _cyclic_gc_paused():
        return _evaluate_table(table, lang, explain, explain_from)


def _evaluate_table(table: object, lang: str, explain: bool, explain_from: int
                    ) -> ScoredTable:
    if type(table) is not dict:
        raise SkatError(None, "A table must be a JSON object.")
    _unknown(table, TABLE_FIELDS)
    lang = _lang(lang)
    system = table.get("rules", "isko")
    players, names = _players(table.get("players"))
    options = _options_cache.get(system, table.get("options"), players)
    ctx = _context(options.system, options, players, names)
    scoring = table.get("scoring", "classic")
    if scoring not in SCORINGS:
        raise SkatError("scoring", "scoring must be classic, seeger_fabian or beer.")
    if scoring == "seeger_fabian" and (system != "isko" or players > 4):
        raise SkatError("scoring", "Seeger-Fabian is scored under the International Skat Order "
                        "at tables of 3 or 4.")
    if scoring == "beer" and system != "american1898":
        raise SkatError("scoring", "Beer Skat is scored under the 1898 American rules.")
    first_dealer = seat(table.get("first_dealer", 0), "first_dealer", players, _FIRST_DEALER)
    deals = table.get("deals")
    if not isinstance(deals, list):
        raise SkatError("deals", "deals must be a list of deal records.")
    money = _money_settings(table, scoring)

    explain_lang = lang if explain else None
    tracker = RoundTracker(players, first_dealer, options)
    bock_options = options.bock
    seeger = scoring == "seeger_fabian"
    beer = scoring == "beer"
    seats = range(players)
    totals = [0] * players
    sf_totals = [0] * players
    won = [0] * players
    lost = [0] * players
    passed = [0] * players
    column_entries = [0] * players
    beer_loser: tuple[int, int] | None = None  # (seat, deal number)
    rows: list[TableDeal] = []
    keys = SEAT_KEYS[:players]
    table_row, score_game_fn = _table_row, game_scorer(ctx.system)  # bound once for the loop
    for number, d in enumerate(deals, 1):
        if beer_loser is not None:
            raise SkatError("kind", "The Beer Skat sitting ended at deal {number}: "
                            "{player} reached the limit.", number, number=beer_loser[1],
                            player=who(names, beer_loser[0], start=False))
        try:
            s, row = table_row(d, ctx, tracker, bock_options,
                               explain_lang if number >= explain_from else None, score_game_fn)
            entries = bocked(s, row["bock"]) if row["bock"] or s.cap else s.entries
            if beer:
                entries = _beer_charges(s, entries, players)
        except SkatError as err:
            err.deal = number
            raise
        shown: dict[str, int] = {}
        underline: tuple[int, ...] = ()  # shared and immutable, like "active"
        for p, v in entries.items():
            shown[keys[p]] = v
            totals[p] += v
            column_entries[p] += 1
            if column_entries[p] % players == 0:
                underline += (p,)
        kind = s.kind
        if kind == "game":
            assert s.declarer is not None  # a scored game has its declarer
            if s.won:
                won[s.declarer] += 1
            else:
                lost[s.declarer] += 1
        elif kind == "passed":
            for p in row["active"]:
                passed[p] += 1
        row["number"] = number
        row["entries"] = shown
        row["totals"] = dict(zip(keys, totals))  # noqa: B905 (same length by construction)
        row["underline"] = tuple(sorted(underline)) if len(underline) > 1 else underline
        if seeger:
            sf = _seeger_fabian(s, entries, players)
            for p, v in sf.items():
                sf_totals[p] += v
            row["seeger_fabian"] = {keys[p]: v for p, v in sf.items()}
        rows.append(row)
        if beer and beer_loser is None:
            over = [p for p in seats if totals[p] >= options.beer_limit]
            if over:
                beer_loser = (max(over, key=lambda p: (totals[p], -p)), number)

    upcoming = tracker.upcoming()
    standing = bock_standing(tracker.pending(), upcoming.bock, players,
                             options.bock is not None and options.bock.stacking == "parallel")
    # settlement (and seeger_fabian_totals, beer_loser) follow below, in this key order
    result = cast(ScoredTable, {
        "rules": ctx.system, "scoring": scoring, "players": list(names) if names else players,
        "deals": rows,
        "totals": {str(p): totals[p] for p in seats},
        "games": {"won": {str(p): won[p] for p in seats}, "lost": {str(p): lost[p] for p in seats},
                  # the passed-in deals each seat sat in on (what a passed-deal fee charges)
                  "passed": {str(p): passed[p] for p in seats}},
        "bock_pending": tracker.pending(),
        "next": {"dealer": tracker.dealer, "active": list(tracker.active),
                 "round": tracker.round, "deal_in_round": upcoming.deal_in_round,
                 "bock": upcoming.bock, "ramsch_round": upcoming.ramsch_round,
                 "ramsch_deal": upcoming.ramsch_deal,
                 "bock_position": standing.position, "bock_waiting": standing.waiting,
                 "bock_to_go": standing.to_go},
    })
    if seeger:
        result["seeger_fabian_totals"] = {str(p): sf_totals[p] for p in seats}
    if beer:
        result["beer_loser"] = beer_loser[0] if beer_loser else None
        result["settlement"] = None
    else:
        on = money["options"].on
        basis = sf_totals if on == "seeger_fabian" else totals
        if on == "seeger_fabian" and not seeger:
            raise SkatError("settlement.on", "Settling on Seeger-Fabian points needs scoring "
                            "\"seeger_fabian\".")
        result["settlement"] = settle(
            basis, stake=money["stake"], currency=money["currency"],
            options=money["options"], lost_games=lost, passed_deals=passed)
    return result


def _money_settings(table: Record, scoring: str) -> dict[str, Any]:
    currency = table.get("currency", "EUR")
    try:
        stake = parse_stake(table.get("stake", "0"))
        options = parse_settlement_options(table.get("settlement"))
        if not isinstance(currency, str):
            raise SettlementError("currency", "The currency must be a code such as EUR.")
    except SettlementError as err:
        raise SkatError(err.field, err.template, None, **err.params) from None
    return {"stake": stake, "currency": currency, "options": options}


def _table_row(d: object, ctx: Context, tracker: RoundTracker, bock_options: Any,
               explain: str | None, score_game_fn: Any) -> tuple[Scored, TableDeal]:
    if type(d) is not dict and is_record(d):
        d = deal_record(d).to_json()
    if type(d) is not dict:
        raise SkatError(None, "A deal must be a JSON object.")
    if not d.keys() <= RECORD_FIELDS:
        _unknown(d, RECORD_FIELDS)
    kind = d.get("kind")
    counting = kind == "game" or kind == "ramsch" or kind == "passed"
    dealer, active, round_number, ramsch_round, level = tracker.begin(counting)
    said = d.get("dealer")
    if said is not None and said != dealer:
        raise SkatError("dealer", "Seat {seat} deals this deal, not {said!r}.", seat=dealer,
                        said=said)
    if kind == "game" and "ramsch" not in d and "penalty" not in d:
        s = score_game_fn(d, ctx, active, ramsch_round)
    else:
        s = score_record(d, ctx, active, ramsch_round)
    # A Grand Hand inside a Ramsch round does not count: the same dealer deals again
    # (unless ramsch_round_grand_hand: "counts", DECISIONS.md §9).
    counts = counting and not (ramsch_round and s.kind == "game"
                               and ctx.options.ramsch_round_grand_hand != "counts")
    if counting:
        triggered = bock_triggers(s, bock_options, ramsch_round) if bock_options else 0
        level = tracker.finish(triggered, level if counts else 0, counts)
    bock_round = by_hand = False
    if "bock_round" in d or "bock_manual" in d or (
            d.get("bock") is not None and (bock_options is None or bock_options.manual
                                            or _bock_field(d) != level)):
        bock_round, by_hand = _manual_fields(d, ctx.options, counting)
        given = _bock_field(d)
        if by_hand and counting:
            # DECISIONS.md §9 bock.manual: this level, whatever the tracker says (its own
            # rounds and triggers run on); a Bock round queued by hand starts after this deal.
            assert given is not None
            level = given
            if level:
                tracker.round_quiet = False
        elif given is not None and given != level:
            if by_hand:
                raise SkatError("bock", "A {kind} record is never doubled by Bock.",
                                kind=KIND_NAMES[s.kind])
            raise SkatError("bock", "This deal is played at Bock level {level}, not {said}; "
                            "a table sets Bock by hand only with option bock.manual.",
                            level=level, said=d["bock"])
        if bock_round:
            tracker.queue_round()
    # The row's keys in the order the JSON has always had them; entries, totals, underline
    # and seeger_fabian follow in evaluate_table's loop.
    row = cast(TableDeal, {
        "number": 0, "kind": s.kind, "dealer": dealer, "active": active,
        "round": round_number, "ramsch_round": ramsch_round, "counts": counts,
        "round_end": counts and tracker.counted % tracker.players == 0,
        "bock": level, "won": s.won, "value": s.value, "charged_value": s.charged,
        "overbid": s.overbid, "base": s.base, "multiplier": s.multiplier,
        "matadors": s.matadors, "levels": s.levels,
    })
    if by_hand and counting:
        row["bock_manual"] = True  # the sheet marks a level set by hand
    if s.ramsch is not None:  # who lost, Jungfrau, Durchmarsch: the sheet says them
        losers, jungfrau, taker = s.ramsch
        row["ramsch"] = {"losers": list(losers), "jungfrau": jungfrau, "durchmarsch": taker}
    if bock_round:
        row["bock_round"] = True
    if explain is not None:
        row["explanation"] = explanation(s, explain, level, ctx.names)
    return s, row


def _beer_charges(s: Scored, entries: dict[int, int], players: int) -> dict[int, int]:
    """Beer Skat counts upwards (DECISIONS.md §3, A-27): charges instead of entries."""
    if s.kind == "game":
        if s.kontra != "none":
            raise SkatError("kontra", "Contra is not scored in Beer Skat.")
        assert s.declarer is not None
        entry = entries[s.declarer]
        if entry < 0:
            return {s.declarer: -entry * (players - 1)}
        return {p: entry for p in range(players) if p != s.declarer}
    if s.kind == "ramsch":
        return {p: -v * (players - 1) for p, v in entries.items()}
    return {p: -v for p, v in entries.items()}  # a penalty is charged upwards too


def _seeger_fabian(s: Scored, entries: dict[int, int], players: int) -> dict[int, int]:
    """Game points plus 50 per won game, minus 50 per lost one, and 40 (3-table) or 30
    (4-table) to every other person for each lost game. Kontra and Bock are already in the
    game points; they never multiply the bonuses."""
    if s.kind != "game" or s.declarer is None:
        return entries
    declarer = s.declarer
    entry = entries.get(declarer, 0)
    if s.won:
        return {declarer: entry + 50}
    bonus = 40 if players == 3 else 30
    sf = {p: bonus for p in range(players) if p != declarer}
    sf[declarer] = entry - 50
    return sf


EVENING_FIELDS = frozenset({
    "club", "date", "name", "tables",
    # Added by Skatclub's export: the evening's frozen rules (each table carries its own, which
    # are the ones scored), its profile, season and series length, whether it is closed.
    "rules", "options", "scoring", "stake", "currency", "settlement", "profile_name", "closed",
    "season", "series_rounds",
})


def evaluate_evening(evening: object, lang: str = "en") -> ScoredEvening:
    """An evening (deal-record.md "An evening"): every table scored on its own."""
    if type(evening) is not dict:
        raise SkatError(None, "An evening must be a JSON object.")
    _unknown(evening, EVENING_FIELDS)
    tables = evening.get("tables")
    if not isinstance(tables, list) or not tables:
        raise SkatError("tables", "An evening needs a list of one or more tables.")
    results = []
    for number, table in enumerate(tables, 1):
        try:
            results.append(evaluate_table(table, lang))
        except SkatError as err:
            raise SkatError(err.field, "Table {number}: {message}", err.deal, number=number,
                            message=err) from None
    return {"club": evening.get("club"), "date": evening.get("date"),
            "name": evening.get("name"), "tables": results}


def evaluate_record(obj: object, lang: str = "en") -> DealScore | ScoredTable | ScoredEvening:
    """The `score` command's entry: an evening when it has "tables", a table when it has
    "deals", otherwise one deal."""
    if isinstance(obj, dict) and "tables" in obj:
        return evaluate_evening(obj, lang)
    if isinstance(obj, dict) and "deals" in obj:
        return evaluate_table(obj, lang)
    return evaluate(obj, lang)


__all__ = ["evaluate", "evaluate_table", "evaluate_evening", "evaluate_record"]
