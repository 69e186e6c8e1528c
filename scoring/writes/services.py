"""Every write to deals goes through here: one transaction each, checked by the engine,
refused when stale, idempotent on retry, and written to the audit log."""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.engine import DealRecord, ScoredTable, SkatError, evaluate_table, record_json, ruleset
from scoring.models import (
    AuditEntry,
    Deal,
    Evening,
    HeldOperation,
    MatchDay,
    Scoring,
    Season,
    Seat,
    Signature,
    Table,
    Tournament,
)
from scoring.reads import live
from scoring.reads.audit import OFFLINE_MARK
from scoring.reads.sheet import table_document
from scoring.reads.standings import evening_ranking
from scoring.writes import scores, seating


@dataclass(frozen=True)
class Actor:
    """Who is writing: a signed-in user, or a device holding a table code."""

    user: AbstractBaseUser | AnonymousUser | None
    label: str
    # A club admin of the table's club (the tournament director is one): the only one who
    # may change a list after every player has signed it, with a reason (issue 23).
    admin: bool = False
    # The change came through the offline sync (views/sync.py): its deal's audit entry says
    # so (reads.audit.OFFLINE_MARK on the actor), a form's save does not (issue 36).
    offline: bool = False

    @property
    def user_or_none(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None


class StaleTable(Exception):
    """Another device changed the table since this form was shown."""

    def __init__(self, table: Table) -> None:
        super().__init__("stale")
        self.table = table


class _AlreadySaved(Exception):
    """Inside deal_record's transaction: this request's deal was saved meanwhile."""

    def __init__(self, deal: Deal) -> None:
        super().__init__("already saved")
        self.deal = deal


def _claim_version(table: Table, expected_version: int) -> bool:
    """Move the table to the next version if it is still at ``expected_version``.

    A conditional UPDATE is atomic on every database: of two devices saving against the same
    version exactly one wins; the other sees 0 rows and is refused as stale."""
    claimed = bool(
        Table.objects.filter(pk=table.pk, version=expected_version)
        .update(version=F("version") + 1)
    )
    if claimed:
        _forget_states(table.evening)
    return claimed


def _forget_states(evening: Evening) -> None:
    """The polled pages read the states of the evening's tables and of its season again:
    now (this process's next read sees the change) and once more at commit (a poll that read
    them before the commit may have kept them meanwhile)."""
    live.forget_states(evening.pk, evening.season_id)
    transaction.on_commit(partial(live.forget_states, evening.pk, evening.season_id))


def _check_table(table: Table, records: list[dict[str, Any]], *, appended: bool = False,
                 ) -> ScoredTable:
    """Score the whole table as it would be: raises SkatError naming the deal, or when the
    table's series would be longer than the evening's series length. Returns the engine's
    result, with Seeger-Fabian totals wherever the table can have them (for scores.keep)."""
    document = table_document(table, records)
    document["scoring"] = scores.scoring_for(document)
    result = evaluate_table(document)
    length = table.evening.series_length(len(document["players"]))
    if length is None:
        return result
    rows = result["deals"]
    counted = sum(1 for row in rows if row["counts"])
    if appended and records[-1].get("kind") != "penalty":
        # A penalty may still be written under a finished list; a deal may not.
        before = counted - (1 if rows and rows[-1]["counts"] else 0)
        if before >= length:
            raise SkatError(None, _(
                "Series %(series)d is complete: all %(length)d games have been played at this "
                "table. No further deal can be recorded.")
                % {"series": table.series, "length": length})
    if counted > length:
        raise SkatError(None, _(
            "Series %(series)d has %(length)d games; with this change this table would have "
            "played %(count)d.") % {"series": table.series, "length": length, "count": counted})
    return result


def _keep_scores(table: Table, result: ScoredTable) -> None:
    """The table's scores for the federation ranking, in the change's transaction."""
    scores.keep(table, [seat.player_id for seat in table.seats.all()], result)


def _check_open(table: Table) -> None:
    """A closed evening is read-only for everybody until a club admin reopens it."""
    if table.evening.closed:
        raise SkatError(None, _(
            "This evening is closed: its deals cannot be recorded or changed until a club "
            "admin reopens it."))


def _check_binding(table: Table, actor: Actor) -> None:
    """A team league's results are binding some days after the match day (the league's
    setting): from then on only the league secretary (a club admin of the league's club,
    whose evening the match day is) can change them, with the reason every change needs."""
    if actor.admin:
        return
    day = MatchDay.objects.filter(evening_id=table.evening_id).values_list(
        "date", "group__league__binding_days").first()
    if day is not None and timezone.localdate() >= day[0] + timedelta(days=day[1]):
        raise SkatError(None, _(
            "The results of this match day are binding: only the league secretary can "
            "change them."))


def locked_message() -> str:
    return _("Every player has signed this list: it is locked. Only a club admin or the "
             "tournament director can still change it, with a reason.")


def _check_signatures(table: Table, actor: Actor, reason: str) -> None:
    """Inside the change's transaction, after the table's version was claimed (which holds
    the table's row, so no signature can come in between): a list everybody has signed is
    changed only by a club admin, with a reason. Any signatures (all of them or some) are
    cleared by the change: they were given to another list. Raises SkatError."""
    state = Table.objects.filter(pk=table.pk).values("signed_at", "signing").get()
    if state["signed_at"] is not None:
        if not actor.admin:
            raise SkatError(None, locked_message())
        if not reason.strip():
            raise SkatError("reason", _(
                "Every player has signed this list: say why it is changed after signing."))
    if state["signing"]:  # a list nobody ever signed has no signatures to clear
        clear_signatures(table, actor, reason, locked=state["signed_at"] is not None)


def clear_signatures(table: Table, actor: Actor, reason: str, *, locked: bool) -> None:
    """Inside a deal change's transaction (services._check_signatures): the list changed,
    so its signatures no longer hold. Nothing to do for a list nobody has signed; else the
    signatures go, the list says "changed after signing" until everybody has signed again,
    and the audit log keeps who signed and why it changed."""
    signatures = list(Signature.objects.filter(table=table).select_related("player"))
    if not signatures:
        return
    Signature.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(
        signing=F("signing") + 1, signed_at=None, changed_after_signing=True)
    AuditEntry.objects.create(
        evening_id=table.evening_id, table=table, action=AuditEntry.Action.UNSIGN,
        user=actor.user_or_none, actor=actor.label[:150],
        before={"signed": [{"player": s.player.name, "at": s.at.isoformat(),
                            "where": s.where} for s in signatures], "locked": locked},
        reason=reason.strip() or _("The list changed before everybody had signed."))
    table.signed_at = None
    table.changed_after_signing = True
    _forget_states(table.evening)


def _audit(deal: Deal, action: str, actor: Actor, before: Any, after: Any, reason: str,
           request_id: uuid.UUID | None = None, version: int | None = None) -> None:
    table = deal.table
    label = (actor.label[:150 - len(OFFLINE_MARK)] + OFFLINE_MARK if actor.offline
             else actor.label[:150])
    AuditEntry.objects.create(
        evening_id=table.evening_id, table=table, deal=deal, action=action,
        user=actor.user_or_none, actor=label, before=before, after=after,
        reason=reason, request_id=request_id, version=version,
    )


def _live_records(table: Table, replace: dict[int, dict[str, Any] | None] | None = None,
                  ) -> list[dict[str, Any]]:
    """The table's records in order, with some deals replaced (None = left out)."""
    replace = replace or {}
    records = []
    for pk, record, deleted in table.deals.order_by("position").values_list(
            "pk", "record", "deleted"):
        if pk in replace:
            new = replace[pk]
            if new is not None:
                records.append(new)
        elif not deleted:
            records.append(record)
    return records


def deal_record(*, table: Table, record: DealRecord | dict[str, Any], expected_version: int,
                actor: Actor, request_id: uuid.UUID | None = None, closed_ok: bool = False,
                reason: str = "") -> Deal:
    """Append a deal: the typed record (the table screen's form) or its JSON (the offline
    tablet's, a held one's); the model stores the JSON. A retried request (same
    ``request_id``) returns the deal it made.
    ``closed_ok``: a club admin accepts a held deal into a closed evening (held_accept).
    ``reason``: why a club admin adds a deal to a list everybody has signed."""
    record = record_json(record)
    if request_id is not None:
        existing = Deal.objects.filter(table=table, request_id=request_id).first()
        if existing is not None:
            return existing
    if not closed_ok:
        _check_open(table)
    _check_binding(table, actor)
    try:
        with transaction.atomic():
            if not _claim_version(table, expected_version):
                raise StaleTable(Table.objects.get(pk=table.pk))
            if request_id is not None:
                # The claim waits for any other save on this table to commit, so a save of
                # the same request that was still running at the look-up above is visible
                # now. Checking the record again would score it as the next deal and refuse
                # it; the retry must get the deal that was saved, and give the version back.
                done = Deal.objects.filter(table=table, request_id=request_id).first()
                if done is not None:
                    raise _AlreadySaved(done)
            _check_signatures(table, actor, reason)
            result = _check_table(table, _live_records(table) + [record], appended=True)
            last = table.deals.aggregate(last=Max("position"))["last"] or 0
            deal = Deal.objects.create(table=table, position=last + 1, record=record,
                                       request_id=request_id)
            _keep_scores(table, result)
            _audit(deal, AuditEntry.Action.CREATE, actor, None, record, "", request_id,
                   expected_version + 1)
    except _AlreadySaved as saved:
        return saved.deal
    except IntegrityError:
        # The same request committed on another connection a moment ago. The atomic block
        # has rolled back (to its savepoint, inside an outer transaction), so the
        # connection can still be asked.
        if request_id is not None:
            existing = Deal.objects.filter(table=table, request_id=request_id).first()
            if existing is not None:
                return existing
        raise
    except StaleTable:
        if request_id is not None:
            existing = Deal.objects.filter(table=table, request_id=request_id).first()
            if existing is not None:
                return existing
        raise
    table.version = expected_version + 1
    return deal


def deal_edit(*, deal: Deal, record: DealRecord | dict[str, Any], reason: str,
              expected_version: int, actor: Actor, request_id: uuid.UUID | None = None,
              closed_ok: bool = False) -> Deal:
    """Correct a deal (the typed record or its JSON, as ``deal_record``); everything after
    it is recomputed (Bock rounds move)."""
    return _change(deal, AuditEntry.Action.EDIT, record_json(record), reason,
                   expected_version, actor, request_id, closed_ok)


def deal_delete(*, deal: Deal, reason: str, expected_version: int, actor: Actor,
                request_id: uuid.UUID | None = None, closed_ok: bool = False) -> Deal:
    return _change(deal, AuditEntry.Action.DELETE, None, reason, expected_version, actor,
                   request_id, closed_ok)


def deal_restore(*, deal: Deal, reason: str, expected_version: int, actor: Actor,
                 request_id: uuid.UUID | None = None, closed_ok: bool = False) -> Deal:
    return _change(deal, AuditEntry.Action.RESTORE, deal.record, reason, expected_version,
                   actor, request_id, closed_ok)


def _change(deal: Deal, action: str, record: dict[str, Any] | None, reason: str,
            expected_version: int, actor: Actor, request_id: uuid.UUID | None = None,
            closed_ok: bool = False) -> Deal:
    if not closed_ok:
        _check_open(deal.table)
    _check_binding(deal.table, actor)
    if action != AuditEntry.Action.CREATE and not reason.strip():
        raise SkatError("reason", _("Say why the deal is changed."))
    if action == AuditEntry.Action.DELETE and deal.deleted:
        raise SkatError(None, _("This deal is already deleted."))
    if action == AuditEntry.Action.RESTORE and not deal.deleted:
        raise SkatError(None, _("This deal is not deleted."))
    if action == AuditEntry.Action.EDIT and deal.deleted:
        raise SkatError(None, _("Restore the deal before correcting it."))
    table = deal.table
    with transaction.atomic():
        if not _claim_version(table, expected_version):
            raise StaleTable(Table.objects.get(pk=table.pk))
        fresh = Deal.objects.select_for_update().get(pk=deal.pk)
        _check_signatures(table, actor, reason)
        result = _check_table(table, _live_records(table, {fresh.pk: record}))
        before = None if fresh.deleted else fresh.record
        if action == AuditEntry.Action.EDIT:
            fresh.record = record
        fresh.deleted = action == AuditEntry.Action.DELETE
        fresh.save(update_fields=["record", "deleted", "updated"])
        _keep_scores(table, result)
        if request_id is not None and AuditEntry.objects.filter(
                table=table, request_id=request_id, deal__isnull=False).exists():
            raise StaleTable(Table.objects.get(pk=table.pk))  # done already: the caller asks
        _audit(fresh, action, actor, before, record, reason.strip(), request_id,
               expected_version + 1)
    table.version = expected_version + 1
    return fresh


# ---------------------------------------------------------------- evenings and tables

def evening_audit(evening: Any, action: str, actor: Actor, reason: str = "",
                  after: Any = None) -> AuditEntry:
    """An entry of the evening's audit log that concerns no single deal (closed, reopened,
    imported): who, what and when, and why."""
    return AuditEntry.objects.create(
        evening=evening, action=action, user=actor.user_or_none, actor=actor.label[:150],
        after=after, reason=reason.strip())


def evening_close(*, evening: Any, actor: Actor, reason: str = "") -> Any:
    """Close the evening: its deals are read-only for everybody and its table codes stop
    working, until a club admin reopens it. Written to the audit log."""
    with transaction.atomic():
        if not Evening.objects.filter(pk=evening.pk, closed=False).update(closed=True):
            raise ValidationError(_("This evening is already closed."))
        evening_audit(evening, AuditEntry.Action.CLOSE, actor, reason)
    evening.closed = True
    return evening


def evening_reopen(*, evening: Any, actor: Actor, reason: str = "") -> Any:
    """Open a closed evening again (club admins: the view checks); written to the audit log.
    The table codes work again within their dates."""
    with transaction.atomic():
        if not Evening.objects.filter(pk=evening.pk, closed=True).update(closed=False):
            raise ValidationError(_("This evening is not closed."))
        evening_audit(evening, AuditEntry.Action.REOPEN, actor, reason)
    evening.closed = False
    return evening


_FROM_SEASON: Any = object()  # series_rounds not given: the season's, or an open list


def evening_create(*, club: Any, date: Any, profile: Any, name: str = "Clubabend",
                   stake: Any = None, currency: str | None = None, season: Any = None,
                   series_rounds: Any = _FROM_SEASON) -> Any:
    """An evening with a frozen copy of the profile's rules (later profile changes never
    reach it), in ``season`` if given, with series of ``series_rounds`` rounds (None: an
    open list; by default the season's series length)."""
    if series_rounds is _FROM_SEASON:
        series_rounds = season.series_rounds if season is not None else None
    evening = Evening(
        club=club, date=date, name=name, profile_name=profile.name, rules=profile.rules,
        options=profile.options, scoring=profile.scoring,
        stake=profile.stake if stake is None else stake,
        currency=currency or profile.currency, settlement=profile.settlement,
        season=season, series_rounds=series_rounds,
    )
    evening.full_clean()
    check_season(evening)
    evening.save()
    return evening


def check_season(evening: Any) -> None:
    """An evening fits its season: the same club, within its dates, and scored in a way the
    season's evaluation can rank (Seeger-Fabian needs the International Skat Order)."""
    season = evening.season
    if season is None:
        return
    if season.club_id != evening.club_id:
        raise ValidationError(_("The season belongs to another club."))
    if not season.start <= evening.date <= season.end:
        raise ValidationError(
            _("%(date)s is not within the season %(season)s (%(start)s to %(end)s).") % {
                "date": date_format(evening.date, "SHORT_DATE_FORMAT"), "season": season.name,
                "start": date_format(season.start, "SHORT_DATE_FORMAT"),
                "end": date_format(season.end, "SHORT_DATE_FORMAT")})
    if evening.scoring == Scoring.BEER:
        raise ValidationError(_("A Beer Skat evening cannot count toward a season."))
    if (season.evaluation == Season.Evaluation.SEEGER_FABIAN
            and Scoring.SEEGER_FABIAN not in ruleset(evening.rules).scorings):
        raise ValidationError(_(
            "The season is evaluated by Seeger-Fabian, which needs the International Skat "
            "Order."))


def season_assign_evenings(*, season: Any) -> int:
    """Put the club's evenings within the season's dates that belong to no season yet into
    it (those the season can rank); returns how many."""
    assigned = 0
    with transaction.atomic():
        for evening in season.club.evenings.filter(
                season__isnull=True, date__gte=season.start, date__lte=season.end):
            evening.season = season
            try:
                check_season(evening)
            except ValidationError:
                continue
            evening.save(update_fields=["season"])
            assigned += 1
    return assigned


def table_create(*, evening: Any, players: list[Any], first_dealer: int = 0,
                 number: int | None = None, series: int = 1) -> Table:
    """A table of 3 to 6 of the club's players in a series, seated in the order given."""
    if not 3 <= len(players) <= 6:
        raise ValidationError(_("A table has 3 to 6 players."))
    if len({p.pk for p in players}) != len(players):
        raise ValidationError(_("A player can sit at a table only once."))
    if any(p.club_id != evening.club_id for p in players):
        raise ValidationError(_("Every player must belong to the club."))
    if not 0 <= first_dealer < len(players):
        raise ValidationError(_("The first dealer must be one of the players."))
    season = evening.season
    if (season is not None and season.evaluation == Season.Evaluation.SEEGER_FABIAN
            and len(players) > 4):
        raise ValidationError(_(
            "The season is evaluated by Seeger-Fabian, which is scored at tables of 3 or 4."))
    with transaction.atomic():
        if number is None:
            number = (evening.tables.filter(series=series).aggregate(
                last=Max("number"))["last"] or 0) + 1
        table = Table.objects.create(evening=evening, series=series, number=number,
                                     first_dealer=first_dealer)
        Seat.objects.bulk_create(
            Seat(table=table, position=i, player=p) for i, p in enumerate(players))
        scores.seated(table, [p.pk for p in players])
        _forget_states(evening)
    return table


# ---------------------------------------------------------------- the evening's money

class StaleEvening(Exception):
    """Someone else changed the evening's money settings since the form was shown."""

    def __init__(self, evening: Any) -> None:
        super().__init__("stale")
        self.evening = evening


def evening_settlement(*, evening: Any, stake: Any, currency: str,
                       settlement: dict[str, Any], expected_version: int) -> Any:
    """Set the evening's stake, currency and club extras (deal-record.md "Settlement").

    Checked by the model (and so the engine) before anything is written; refused as stale
    when the evening is no longer at ``expected_version``; bumps the version, which also
    makes every printed PDF of the evening out of date."""
    from django.core.exceptions import ValidationError

    from scoring.engine import SettlementError, minor_unit, parse_settlement_options
    from scoring.engine import settle as dry_settle
    from scoring.models import Evening

    candidate = Evening.objects.get(pk=evening.pk)
    candidate.stake, candidate.currency, candidate.settlement = stake, currency, settlement
    candidate.full_clean()
    try:  # the amounts must also be whole units of the currency: settle two empty totals
        dry_settle([0, 0], stake=candidate.stake, currency=currency,
                   options=parse_settlement_options(settlement), lost_games=[0, 0],
                   passed_deals=[0, 0])
        minor_unit(currency)
    except SettlementError as err:
        raise ValidationError({"settlement": err.message}) from None
    with transaction.atomic():
        _refuse_fee_change_after_the_draw(evening, candidate)
        changed = Evening.objects.filter(pk=evening.pk, version=expected_version).update(
            stake=stake, currency=currency, settlement=settlement, version=F("version") + 1)
        if not changed:
            raise StaleEvening(Evening.objects.get(pk=evening.pk))
    evening.refresh_from_db(fields=["stake", "currency", "settlement", "version"])
    return evening


def _refuse_fee_change_after_the_draw(evening: Any, candidate: Any) -> None:
    """A tournament's evening holds its lost-game and passed-deal fees (its club extras) and
    its stake: once series 1 is drawn the players have paid by them and the tables charge by
    them, so the treasurer's page may not change them either (issue 24; the desk's fee form
    refuses the same in writes/preisskat.tournament_fees). Under the tournament's row lock,
    so that a draw cannot slip in between."""
    tournament = Tournament.objects.select_for_update().filter(evening_id=evening.pk).first()
    if tournament is None or not tournament.draws.exists():
        return
    saved = Evening.objects.get(pk=evening.pk)
    if (saved.stake, saved.currency, saved.settlement) != (
            candidate.stake, candidate.currency, candidate.settlement):
        raise ValidationError(_("The fees are fixed once series 1 is drawn: the "
                                "players have paid and the tables charge by them."))


# ---------------------------------------------------------------- series

def _seat_series(evening: Any, groups: list[list[Any]], series: int) -> list[Table]:
    return [table_create(evening=evening, players=group, number=number, series=series)
            for number, group in enumerate(groups, start=1)]


def _check_players(evening: Any, players: list[Any]) -> None:
    """Before a series is seated; table_create checks each table's players."""
    if evening.closed:
        raise ValidationError(_("This evening is closed; no series can be seated."))
    if len({p.pk for p in players}) != len(players):
        raise ValidationError(_("A player can sit at a table only once."))


def series_draw(*, evening: Any, players: list[Any], rng: random.Random | None = None,
                ) -> list[Table]:
    """Seat the evening's first series by lot: tables of 4, 3-tables only as needed."""
    _check_players(evening, players)
    with transaction.atomic():
        if evening.tables.exists():
            raise ValidationError(_("This evening's first series is already seated."))
        groups = seating.draw(players, rng or random.SystemRandom())
        return _seat_series(evening, groups, 1)


def series_seed(*, evening: Any, players: list[Any] | None = None,
                rng: random.Random | None = None) -> list[Table]:
    """Seat the next series by the results so far: places 1–4 at table 1, 5–8 at table 2 …
    (seating.py). ``players`` defaults to everyone of the last series; who has no result yet
    (a latecomer) is seated after the others, and players equal in score, games won and games
    lost are put in order by lot."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        ranking = evening_ranking(evening)
        if not ranking.series:
            raise ValidationError(_("Seat the first series by lot first."))
        last = ranking.series[-1]
        waiting = [t for t in last.tables if t.length is not None and not t.complete]
        if waiting:
            raise ValidationError(_(
                "Series %(series)d is not finished yet: table %(table)d has played %(count)d "
                "of %(length)d games.") % {
                    "series": last.number, "table": waiting[0].table.number,
                    "count": waiting[0].counted, "length": waiting[0].length})
        if players is None:
            players = [player for t in last.tables for player in t.table.players]
        _check_players(evening, players)
        order = list(players)
        rng.shuffle(order)  # the lot, for players equal in every respect
        rows = {row.player.pk: row for row in ranking.rows}
        order.sort(key=lambda p: (0, rows[p.pk].tie_key()) if p.pk in rows else (1, (0, 0, 0)))
        return _seat_series(evening, seating.seed(order), last.number + 1)


# ---------------------------------------------------------------- a tablet's queued operations

def sync_outcome(*, table: Table, action: str, actor: Actor, request_id: uuid.UUID,
                 record: Any, reason: str) -> None:
    """Log what became of a queued operation that changed nothing (refused, met a changed
    table): once per request and outcome, however often the tablet sends it again. The
    entry names the table but no deal, and changes no version (table_live._theirs)."""
    if AuditEntry.objects.filter(table=table, request_id=request_id, action=action).exists():
        return
    AuditEntry.objects.create(
        evening_id=table.evening_id, table=table, action=action, user=actor.user_or_none,
        actor=actor.label[:150], after=record, reason=reason[:2000], request_id=request_id)


def sync_drop(*, table: Table, actor: Actor, request_id: uuid.UUID, dropped: dict[str, Any],
              reason: str) -> AuditEntry:
    """Log that the scorer kept the other device's version and dropped a queued operation of
    this device (a conflict's "keep theirs"): what was dropped (its op, record, request ID,
    deal), who and why; no deal is stored and no version changes. Once per request ID: a
    repeated request gets the first entry."""
    existing = AuditEntry.objects.filter(table=table, request_id=request_id,
                                         action=AuditEntry.Action.DROP).first()
    if existing is not None:
        return existing
    what = {"op": dropped["op"], "request_id": str(dropped["request_id"]),
            "deal": dropped["deal"]}
    return AuditEntry.objects.create(
        evening_id=table.evening_id, table=table, action=AuditEntry.Action.DROP,
        user=actor.user_or_none, actor=actor.label[:150], before=what,
        after=dropped["record"], reason=reason[:2000], request_id=request_id,
        version=table.version)


def held_deposit(*, table: Table, op: str, request_id: uuid.UUID, record: Any,
                 deal: Deal | None, deal_request_id: uuid.UUID | None, reason: str,
                 base_version: int, why: str, actor: Actor) -> HeldOperation:
    """Keep an operation that arrived for a closed evening or with an expired table code
    for the club admin (held_accept, held_discard); once per request ID, audit-logged."""
    existing = HeldOperation.objects.filter(table=table, request_id=request_id).first()
    if existing is not None:
        return existing
    size = len(json.dumps(record, separators=(",", ":"), default=str).encode())
    if size > settings.HELD_RECORD_BYTES:
        raise SkatError("record", _(
            "This deal is too large to be kept for the club admin (%(size)d bytes; a deal "
            "record is well under 1 KB).") % {"size": size})
    waiting = held_of_device(
        HeldOperation.objects.filter(table__evening_id=table.evening_id,
                                     state=HeldOperation.State.WAITING),
        held_device(actor.user_or_none, actor.label[:150])).count()
    if waiting >= settings.HELD_PER_DEVICE:
        raise HeldFull(settings.HELD_PER_DEVICE)
    try:
        with transaction.atomic():
            held = HeldOperation.objects.create(
                table=table, op=op, request_id=request_id, record=record, deal=deal,
                deal_request_id=deal_request_id, reason=reason.strip()[:500],
                base_version=base_version, why=why, user=actor.user_or_none,
                actor=actor.label[:150])
            AuditEntry.objects.create(
                evening_id=table.evening_id, table=table, action=AuditEntry.Action.HELD,
                user=actor.user_or_none, actor=actor.label[:150], after=record,
                reason=held_summary(held), request_id=request_id)
    except IntegrityError:  # the same request, a moment ago on another connection
        return HeldOperation.objects.get(table=table, request_id=request_id)
    return held


class HeldFull(Exception):
    """This device has as many operations waiting for the club admin in this evening as
    settings.HELD_PER_DEVICE allows: nothing more is held until the admin decides."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


def held_device(user: Any, actor: str) -> str:
    """Which device sent a held operation, as the held page names it: the account's, or
    (a table code's device, no account) its label."""
    return f"u:{user.pk}" if user is not None else f"a:{actor}"


def held_of_device(held: QuerySet[HeldOperation], device: str) -> QuerySet[HeldOperation]:
    """The held operations of ``device`` (as held_device names it) among ``held``."""
    kind, _sep, value = device.partition(":")
    if kind == "u" and value.isdecimal() and len(value) < 19:
        return held.filter(user_id=int(value))
    if kind == "a":
        return held.filter(user__isnull=True, actor=value)
    return held.none()


def held_discard_many(*, held: QuerySet[HeldOperation], actor: Actor,
                      reason: str) -> int:
    """Discard every waiting operation among ``held`` at once (the club admin's bulk
    decision, confirmed, with one reason): each stays in the list as discarded and gets its
    own audit entry, as one by one. A constant number of queries however many; returns how
    many were discarded (those decided meanwhile are left as they are)."""
    if not reason.strip():
        raise SkatError("reason", _("Say why the operations are discarded."))
    note = reason.strip()[:500]
    with transaction.atomic():
        chosen = list(held.filter(state=HeldOperation.State.WAITING)
                      .select_for_update(of=("self",)).select_related("deal", "table"))
        HeldOperation.objects.filter(
            pk__in=[h.pk for h in chosen], state=HeldOperation.State.WAITING).update(
                state=HeldOperation.State.DISCARDED, resolved_by=actor.label[:150],
                resolved_at=timezone.now(), resolution=note)
        AuditEntry.objects.bulk_create([AuditEntry(
            evening_id=h.table.evening_id, table=h.table, action=AuditEntry.Action.DISCARD,
            user=actor.user_or_none, actor=actor.label[:150], after=h.record,
            reason=_("%(summary)s; discarded: %(reason)s") % {
                "summary": held_summary(h), "reason": note},
            request_id=h.request_id) for h in chosen], batch_size=200)
    return len(chosen)


def held_summary(held: HeldOperation) -> str:
    """One line for the audit log: what was held, of which deal, and why."""
    what = str(held.get_op_display())
    if held.deal_id is not None:
        what = _("%(op)s of deal no. %(number)d") % {
            "op": what, "number": held.deal.position if held.deal else 0}
    text = _("%(what)s, held because %(why)s") % {"what": what, "why": held.get_why_display()}
    if held.reason:
        text += f" ({held.reason})"
    return text


def held_target(held: HeldOperation) -> Deal | None:
    """The deal a held correction, deletion or restoration is about (None for a new deal,
    or while the new deal it corrects is itself still held)."""
    if held.deal_id is not None:
        return held.deal
    if held.deal_request_id is not None:
        return Deal.objects.filter(table_id=held.table_id,
                                   request_id=held.deal_request_id).first()
    return None


def held_accept(*, held: HeldOperation, actor: Actor, note: str = "") -> Deal:
    """Apply a held operation through the services, at the table's current version (a club
    admin's decision; the view checks). Into a closed evening only with a reason: that is
    an explicit decision, and the audit log keeps it. Raises SkatError (nothing changed)."""
    table = Table.objects.select_related("evening").get(pk=held.table_id)
    closed = table.evening.closed
    if closed and not note.strip():
        raise SkatError("reason", _(
            "The evening is closed: say why this deal is accepted into it all the same."))
    if table.signed_at is not None and not note.strip():
        raise SkatError("reason", _(
            "Every player has signed this list: say why this is accepted into it all the "
            "same."))
    target = held_target(held) if held.op != HeldOperation.Op.SAVE else None
    if held.op != HeldOperation.Op.SAVE and target is None:
        raise SkatError(None, _(
            "The deal this changes is not stored: accept the new deal first."))
    with transaction.atomic():
        if not HeldOperation.objects.filter(
                pk=held.pk, state=HeldOperation.State.WAITING).update(
                    state=HeldOperation.State.ACCEPTED, resolved_by=actor.label[:150],
                    resolved_at=timezone.now(), resolution=note.strip()[:500]):
            raise SkatError(None, _("This operation was already decided."))
        common: dict[str, Any] = {"expected_version": table.version, "actor": actor,
                                  "request_id": held.request_id, "closed_ok": closed}
        if held.op == HeldOperation.Op.SAVE:
            deal = deal_record(table=table, record=held.deal_record(), reason=note, **common)
        else:
            assert target is not None
            target.table = table
            reason = held.reason or note or _("accepted by the club admin")
            if table.signed_at is not None:  # the admin's own reason for changing it
                reason = note
            if held.op == HeldOperation.Op.EDIT:
                deal = deal_edit(deal=target, record=held.deal_record(), reason=reason,
                                 **common)
            elif held.op == HeldOperation.Op.DELETE:
                deal = deal_delete(deal=target, reason=reason, **common)
            else:
                deal = deal_restore(deal=target, reason=reason, **common)
        AuditEntry.objects.create(
            evening_id=table.evening_id, table=table, action=AuditEntry.Action.ACCEPT,
            user=actor.user_or_none, actor=actor.label[:150], after=held.record,
            reason=_("%(summary)s; accepted: %(note)s") % {
                "summary": held_summary(held), "note": note.strip()} if note.strip()
            else held_summary(held), request_id=held.request_id)
    held.state = HeldOperation.State.ACCEPTED
    return deal


def held_discard(*, held: HeldOperation, actor: Actor, reason: str) -> HeldOperation:
    """Discard a held operation (a club admin's decision, with a reason): it stays in the
    list as discarded, and in the audit log with its record."""
    if not reason.strip():
        raise SkatError("reason", _("Say why the operation is discarded."))
    with transaction.atomic():
        if not HeldOperation.objects.filter(
                pk=held.pk, state=HeldOperation.State.WAITING).update(
                    state=HeldOperation.State.DISCARDED, resolved_by=actor.label[:150],
                    resolved_at=timezone.now(), resolution=reason.strip()[:500]):
            raise SkatError(None, _("This operation was already decided."))
        table = held.table
        AuditEntry.objects.create(
            evening_id=table.evening_id, table=table, action=AuditEntry.Action.DISCARD,
            user=actor.user_or_none, actor=actor.label[:150], after=held.record,
            reason=_("%(summary)s; discarded: %(reason)s") % {
                "summary": held_summary(held), "reason": reason.strip()},
            request_id=held.request_id)
    held.state = HeldOperation.State.DISCARDED
    return held
