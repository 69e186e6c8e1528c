"""Every write to deals goes through here: one transaction each, checked by the engine,
refused when stale, idempotent on retry, and written to the audit log."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _

from scoring.engine import SkatError, evaluate_table
from scoring.models import AuditEntry, Deal, Table
from scoring.selectors import table_document


@dataclass(frozen=True)
class Actor:
    """Who is writing: a signed-in user, or a device holding a table code."""

    user: AbstractBaseUser | AnonymousUser | None
    label: str

    @property
    def user_or_none(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None


class StaleTable(Exception):
    """Another device changed the table since this form was shown."""

    def __init__(self, table: Table) -> None:
        super().__init__("stale")
        self.table = table


def _claim_version(table: Table, expected_version: int) -> bool:
    """Move the table to the next version if it is still at ``expected_version``.

    A conditional UPDATE is atomic on every database: of two devices saving against the same
    version exactly one wins; the other sees 0 rows and is refused as stale."""
    return bool(
        Table.objects.filter(pk=table.pk, version=expected_version)
        .update(version=F("version") + 1)
    )


def _check_table(table: Table, records: list[dict[str, Any]]) -> None:
    """Score the whole table as it would be: raises SkatError naming the deal."""
    document = table_document(table, records)
    evaluate_table(document)


def _audit(deal: Deal, action: str, actor: Actor, before: Any, after: Any, reason: str) -> None:
    table = deal.table
    AuditEntry.objects.create(
        evening_id=table.evening_id, table=table, deal=deal, action=action,
        user=actor.user_or_none, actor=actor.label[:150], before=before, after=after,
        reason=reason,
    )


def _live_records(table: Table, replace: dict[int, dict[str, Any] | None] | None = None,
                  ) -> list[dict[str, Any]]:
    """The table's records in order, with some deals replaced (None = left out)."""
    replace = replace or {}
    records = []
    for pk, record, deleted in table.deals.order_by("position").values_list(
            "pk", "record", "deleted"):
        if pk in replace:
            if replace[pk] is not None:
                records.append(replace[pk])
        elif not deleted:
            records.append(record)
    return records


def deal_record(*, table: Table, record: dict[str, Any], expected_version: int, actor: Actor,
                request_id: uuid.UUID | None = None) -> Deal:
    """Append a deal. A retried request (same ``request_id``) returns the deal it made."""
    if request_id is not None:
        existing = Deal.objects.filter(table=table, request_id=request_id).first()
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            if not _claim_version(table, expected_version):
                raise StaleTable(Table.objects.get(pk=table.pk))
            _check_table(table, _live_records(table) + [record])
            last = table.deals.aggregate(last=Max("position"))["last"] or 0
            deal = Deal.objects.create(table=table, position=last + 1, record=record,
                                       request_id=request_id)
            _audit(deal, AuditEntry.Action.CREATE, actor, None, record, "")
    except IntegrityError:
        # The same request committed on another connection a moment ago.
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


def deal_edit(*, deal: Deal, record: dict[str, Any], reason: str, expected_version: int,
              actor: Actor) -> Deal:
    """Correct a deal; everything after it is recomputed (Bock rounds move)."""
    return _change(deal, AuditEntry.Action.EDIT, record, reason, expected_version, actor)


def deal_delete(*, deal: Deal, reason: str, expected_version: int, actor: Actor) -> Deal:
    return _change(deal, AuditEntry.Action.DELETE, None, reason, expected_version, actor)


def deal_restore(*, deal: Deal, reason: str, expected_version: int, actor: Actor) -> Deal:
    return _change(deal, AuditEntry.Action.RESTORE, deal.record, reason, expected_version,
                   actor)


def _change(deal: Deal, action: str, record: dict[str, Any] | None, reason: str,
            expected_version: int, actor: Actor) -> Deal:
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
        _check_table(table, _live_records(table, {fresh.pk: record}))
        before = None if fresh.deleted else fresh.record
        if action == AuditEntry.Action.EDIT:
            fresh.record = record
        fresh.deleted = action == AuditEntry.Action.DELETE
        fresh.save(update_fields=["record", "deleted", "updated"])
        _audit(fresh, action, actor, before, record, reason.strip())
    table.version = expected_version + 1
    return fresh


# ---------------------------------------------------------------- evenings and tables

def evening_create(*, club: Any, date: Any, profile: Any, name: str = "Clubabend",
                   stake: Any = None, currency: str | None = None) -> Any:
    """An evening with a frozen copy of the profile's rules (later profile changes never
    reach it)."""
    from scoring.models import Evening

    evening = Evening(
        club=club, date=date, name=name, profile_name=profile.name, rules=profile.rules,
        options=profile.options, scoring=profile.scoring,
        stake=profile.stake if stake is None else stake,
        currency=currency or profile.currency, settlement=profile.settlement,
    )
    evening.full_clean()
    evening.save()
    return evening


def table_create(*, evening: Any, players: list[Any], first_dealer: int = 0,
                 number: int | None = None) -> Table:
    """A table of 3 to 6 of the club's players, seated in the order given."""
    from django.core.exceptions import ValidationError

    from scoring.models import Seat

    if not 3 <= len(players) <= 6:
        raise ValidationError(_("A table has 3 to 6 players."))
    if len({p.pk for p in players}) != len(players):
        raise ValidationError(_("A player can sit at a table only once."))
    if any(p.club_id != evening.club_id for p in players):
        raise ValidationError(_("Every player must belong to the club."))
    if not 0 <= first_dealer < len(players):
        raise ValidationError(_("The first dealer must be one of the players."))
    with transaction.atomic():
        if number is None:
            number = (evening.tables.aggregate(last=Max("number"))["last"] or 0) + 1
        table = Table.objects.create(evening=evening, number=number, first_dealer=first_dealer)
        Seat.objects.bulk_create(
            Seat(table=table, position=i, player=p) for i, p in enumerate(players))
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

    from scoring.engine.settlement import SettlementError, minor_unit, parse_settlement_options
    from scoring.engine.settlement import settle as dry_settle
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
        changed = Evening.objects.filter(pk=evening.pk, version=expected_version).update(
            stake=stake, currency=currency, settlement=settlement, version=F("version") + 1)
        if not changed:
            raise StaleEvening(Evening.objects.get(pk=evening.pk))
    evening.refresh_from_db(fields=["stake", "currency", "settlement", "version"])
    return evening
