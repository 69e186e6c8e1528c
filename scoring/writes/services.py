"""Every write to deals goes through here: one transaction each, checked by the engine,
refused when stale, idempotent on retry, and written to the audit log."""

from __future__ import annotations

import random
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.engine import SkatError, record_json, ruleset
from scoring.models import (
    AuditEntry,
    Deal,
    Evening,
    HeldOperation,
    Scoring,
    Season,
    Seat,
    Table,
    Tournament,
)
from scoring.reads.standings import evening_ranking
from scoring.writes import scores, seating
from scoring.writes.table_ops import (
    DELETE,
    EDIT,
    RESTORE,
    SAVE,
    Actor,
    HeldFullError,
    StaleTable,
    TableOp,
    _forget_states,
    _raising,
    clear_signatures,
    deal_delete,
    deal_edit,
    deal_record,
    deal_restore,
    held_deposit,
    held_device,
    held_of_device,
    held_summary,
    held_target,
    locked_message,
    sync_drop,
    sync_outcome,
)

# The deal changes live in table_ops (one operation service); their names stay importable
# from here, where the rest of the code has always found them.
__all__ = [
    "Actor", "HeldFullError", "StaleTable", "clear_signatures", "deal_delete", "deal_edit",
    "deal_record", "deal_restore", "held_deposit", "held_device", "held_of_device",
    "held_summary", "held_target", "locked_message", "sync_drop", "sync_outcome",
    "_forget_states",
]


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
        # Through the one operation service, at the table's current version, under the
        # held operation's own request ID (a tablet sending it again then hears "stored").
        kinds: dict[str, str] = {HeldOperation.Op.SAVE: SAVE, HeldOperation.Op.EDIT: EDIT,
                                 HeldOperation.Op.DELETE: DELETE}
        kind = kinds.get(held.op, RESTORE)
        reason = note
        if held.op != HeldOperation.Op.SAVE and table.signed_at is None:
            reason = held.reason or note or _("accepted by the club admin")
        record = record_json(held.deal_record()) if kind in (SAVE, EDIT) else None
        deal = _raising(TableOp(
            table=table, actor=actor, kind=kind, request_id=held.request_id,
            base_version=table.version, record=record,
            deal_id=target.pk if target is not None else None, reason=reason, accepting=True))
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
