"""Every change to a table's list is one operation through one service (issue 36).

A ``TableOp`` says who changes which table how: save a new deal, correct, delete or restore
one, or drop a queued operation after a conflict ("keep theirs"); at which version; under
which request ID; with which record or reason. ``table_op_apply`` answers a typed outcome,
one of a closed set: ``Stored``, ``Held`` (and why), ``HeldFull``, ``Refused`` (the field and
the message), ``Conflict`` (the version it was made at and the table's now), ``Dropped``. A
repeated request ID gets the first outcome again, marked ``replayed``; it is never an
exception. Only failures nobody expected are raised.

The order, for both the table screen's form and the offline sync (views/entry.py and
views/sync.py are translations between HTTP and this call):

1. One transaction takes the table's row first (a write of it that changes nothing), so
   nothing can sign, close or change the list until the operation is decided.
2. Inside it: what this request already produced (a deal's audit entry, a held operation,
   a drop) is answered again as it was (``table_op_replay``, "replayed"); the deal the
   operation is about; whether it is held (the evening closed, the device's code run out,
   the list signed: decided here, under the lock); the checks (open, binding, reason, the
   deal's state); the version (a conflict, unless "append" or this device's own earlier
   operations made the change); the signatures (a list signed is changed only by a club
   admin, with a reason); the engine on the whole table; the write, the table scores and
   the audit entry.
3. After a rollback, a refusal or a conflict of a queued operation is written to the audit
   log once per request ID (the form shows its refusals on the screen instead).

"Append" needs no retries: it reads the version under the lock it claims it with.
"""

from __future__ import annotations

import dataclasses
import json
import uuid
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import ScoredTable, SkatError, evaluate_table, record_json
from scoring.models import AuditEntry, Deal, Evening, HeldOperation, MatchDay, Signature, Table
from scoring.reads import live
from scoring.reads.audit import OFFLINE_MARK
from scoring.reads.sheet import table_document
from scoring.writes import scores


@dataclass(frozen=True)
class Actor:
    """Who is writing: a signed-in user, or a device holding a table code."""

    user: AbstractBaseUser | AnonymousUser | None
    label: str
    # A club admin of the table's club (the tournament director is one): the only one who
    # may change a list after every player has signed it, with a reason (issue 23).
    admin: bool = False

    @property
    def user_or_none(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None


class StaleTable(Exception):
    """Another device changed the table since this form was shown."""

    def __init__(self, table: Table) -> None:
        super().__init__("stale")
        self.table = table


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
           request_id: uuid.UUID | None = None, version: int | None = None, *,
           offline: bool = False) -> None:
    """The deal's audit entry; ``offline``: the change came through the offline sync, which
    the entry says by a mark on its actor (reads.audit.OFFLINE_MARK: no field of its own)."""
    table = deal.table
    label = (actor.label[:150 - len(OFFLINE_MARK)] + OFFLINE_MARK if offline
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

# ----
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
        raise HeldFullError(settings.HELD_PER_DEVICE)
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


class HeldFullError(Exception):
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

# ---------------------------------------------------------------- the operation

SAVE, EDIT, DELETE, RESTORE, DROP = "save", "edit", "delete", "restore", "drop"
KINDS = (SAVE, EDIT, DELETE, RESTORE)
FORM, SYNC = "form", "sync"  # the two ways in: the table screen's form, a tablet's queue
_ACTION = {SAVE: AuditEntry.Action.CREATE, EDIT: AuditEntry.Action.EDIT,
           DELETE: AuditEntry.Action.DELETE, RESTORE: AuditEntry.Action.RESTORE}


@dataclass(frozen=True)
class DroppedOp:
    """What a "drop" names: the queued operation the scorer dropped, as the tablet had it."""

    kind: str
    request_id: uuid.UUID
    record: dict[str, Any] | None = None
    deal_id: int | None = None


@dataclass(frozen=True)
class TableOp:
    """One change to a table's list. ``record`` is the deal record as JSON (save, edit);
    ``deal_id`` or ``deal_request_id`` (the request ID of its save, still queued on the
    tablet) names the deal of an edit, delete or restore. ``own_version``: the version this
    device's last operation produced (changes up to it are no conflict). ``may_hold``: an
    operation that can no longer be applied (evening closed, list signed) is held for the
    club admin instead of refused (the sync; the form refuses); ``code_lapsed``: the
    device's table code ran out while it was offline (held whatever the list's state).
    ``request_id`` None only for internal callers that need no idempotency."""

    table: Table
    actor: Actor
    kind: str
    request_id: uuid.UUID | None
    base_version: int
    record: dict[str, Any] | None = None
    deal_id: int | None = None
    deal_request_id: uuid.UUID | None = None
    reason: str = ""
    append: bool = False
    own_version: int | None = None
    may_hold: bool = False
    code_lapsed: bool = False
    via: str = FORM
    lang: str = "de"
    dropped: DroppedOp | None = None
    accepting: bool = False  # a club admin accepts this held operation (held_accept)


@dataclass(frozen=True)
class Stored:
    deal_id: int
    position: int
    number: int | None  # the deal's row on the sheet (None: deleted)
    version: int
    replayed: bool = False


@dataclass(frozen=True)
class Held:
    held_id: int
    state: str
    why: str
    resolution: str = ""
    replayed: bool = False


@dataclass(frozen=True)
class HeldFull:
    limit: int


@dataclass(frozen=True)
class Refused:
    field: str | None
    message: str  # in the operation's language
    deal_number: int | None = None
    error: SkatError | None = dataclasses.field(default=None, compare=False)


@dataclass(frozen=True)
class Conflict:
    since: int  # the version the operation was made at (this device's own changes counted)
    version: int  # the table's version now
    deal_id: int | None  # the deal the operation is about


@dataclass(frozen=True)
class Dropped:
    dropped: uuid.UUID
    version: int
    replayed: bool = False


Outcome = Stored | Held | HeldFull | Refused | Conflict | Dropped


class _Refuse(Exception):
    def __init__(self, refused: Refused) -> None:
        super().__init__(refused.message)
        self.refused = refused


def _refused(err: SkatError, lang: str) -> Refused:
    message = err.message_in(lang)
    if err.deal is not None and err.field is None:
        message = _("Deal %(number)s: %(message)s") % {"number": err.deal, "message": message}
    return Refused(err.field, message, err.deal, err)


def _stored(table: Table, deal_id: int, version: int, replayed: bool) -> Stored:
    position, deleted = Deal.objects.filter(pk=deal_id).values_list(
        "position", "deleted").get()
    number = None if deleted else Deal.objects.filter(
        table=table, deleted=False, position__lte=position).count()
    return Stored(deal_id, position, number, version, replayed)


def _held(held: HeldOperation, replayed: bool) -> Held:
    return Held(held.pk, held.state, held.why, held.resolution, replayed)


def table_op_replay(*, table: Table, request_id: uuid.UUID | None,
                    accepting: bool = False) -> Outcome | None:
    """What this request ID already produced at ``table``: the deal it stored, the
    operation held for it (not when a club admin is accepting that one), or its drop."""
    if request_id is None:
        return None
    entries = list(AuditEntry.objects.filter(table=table, request_id=request_id).filter(
        Q(deal__isnull=False) | Q(action=AuditEntry.Action.DROP)).order_by("id").values_list(
        "deal_id", "version", "before"))
    done = next((e for e in entries if e[0] is not None), None)
    if done is not None:
        return _stored(table, done[0], done[1] if done[1] is not None else table.version, True)
    if not accepting:
        held = HeldOperation.objects.filter(table=table, request_id=request_id).first()
        if held is not None:
            return _held(held, True)
    if entries:  # a drop
        what: Any = entries[0][2]
        return Dropped(uuid.UUID(what["request_id"]), entries[0][1] or 0, True)
    return None


def table_op_apply(*, op: TableOp) -> Outcome:
    """The operation, once (see the module's docstring for the order)."""
    if op.kind == DROP:
        return table_op_replay(table=op.table, request_id=op.request_id) or _drop(op)
    try:
        with transaction.atomic():
            outcome = _decide(op)
    except _Refuse as refusal:
        outcome = refusal.refused
    except SkatError as err:  # the engine or a check refused it: the transaction rolled back
        outcome = _refused(err, op.lang)
    except IntegrityError:
        # The same request committed on another connection a moment ago (its deal's
        # request ID is unique): the atomic block rolled back, the connection can be asked.
        replay = table_op_replay(table=op.table, request_id=op.request_id)
        if replay is None:
            raise
        return replay
    if isinstance(outcome, Stored):
        if outcome.replayed:
            return outcome
        op.table.version = outcome.version
        return _stored(op.table, outcome.deal_id, outcome.version, False)
    if op.via == SYNC and op.request_id is not None:
        if isinstance(outcome, Refused):
            sync_outcome(table=op.table, action=AuditEntry.Action.REFUSE, actor=op.actor,
                         request_id=op.request_id, record=op.record, reason=outcome.message)
        elif isinstance(outcome, Conflict):
            sync_outcome(table=op.table, action=AuditEntry.Action.CONFLICT, actor=op.actor,
                         request_id=op.request_id, record=op.record, reason=_(
                             "Another device changed the table since version %(version)d.")
                         % {"version": outcome.since})
    if isinstance(outcome, Conflict):
        op.table.version = outcome.version
    return outcome


def _lock(table: Table) -> dict[str, Any]:
    """Take the table's row for the rest of the transaction (a write that changes nothing:
    the row on PostgreSQL, the database on SQLite) and read its state as it is now."""
    Table.objects.filter(pk=table.pk).update(version=F("version"))
    state: dict[str, Any] = dict(Table.objects.filter(pk=table.pk).values(
        "version", "signed_at", "evening__closed").get())
    return state


def _target(op: TableOp) -> Deal | HeldOperation | None:
    """The deal an edit, deletion or restoration is about (locked): by id, or by the request
    ID of its save; a held save while that is still held."""
    if op.kind == SAVE:
        return None
    deals = Deal.objects.select_for_update(of=("self",)).filter(table=op.table)
    if op.deal_id is not None:
        deal = deals.filter(pk=op.deal_id).first()
        if deal is None:
            raise _Refuse(Refused("deal", _("No such deal at this table.")))
        return deal
    if op.deal_request_id is not None:
        deal = deals.filter(request_id=op.deal_request_id).first()
        if deal is not None:
            return deal
        held = HeldOperation.objects.filter(table=op.table, request_id=op.deal_request_id,
                                            state=HeldOperation.State.WAITING).first()
        if held is not None:
            return held
        raise _Refuse(Refused("deal", _("The deal this changes was never stored.")))
    raise _Refuse(Refused("deal", _("No such deal at this table.")))


def hold_grounds(op: TableOp, state: dict[str, Any],
                 target: Deal | HeldOperation | None) -> str | None:
    """Why the operation is kept for the club admin instead of applied (None: it is not),
    from the table's state read under the lock."""
    if not op.may_hold or op.accepting:
        return None
    if state["evening__closed"]:
        return str(HeldOperation.Why.CLOSED)
    if op.code_lapsed:
        return str(HeldOperation.Why.CODE)
    if state["signed_at"] is not None and not op.actor.admin:
        # Every player signed the list while this device was offline (or before it sent):
        # what it scored is kept for a club admin to accept with a reason, or discard.
        return str(HeldOperation.Why.SIGNED)
    if isinstance(target, HeldOperation):
        return str(target.why)  # a change of a deal that is itself held waits with it
    return None


def _hold(op: TableOp, target: Deal | HeldOperation | None, why: str) -> Outcome:
    assert op.request_id is not None
    try:
        held = held_deposit(
            table=op.table, op=op.kind, request_id=op.request_id, record=op.record,
            deal=target if isinstance(target, Deal) else None,
            deal_request_id=op.deal_request_id, reason=op.reason,
            base_version=op.base_version, why=why, actor=op.actor)
    except HeldFullError as full:
        return HeldFull(full.limit)
    return _held(held, False)


def _check_change(op: TableOp, deal: Deal) -> None:
    """What an edit, deletion or restoration needs, whatever the version."""
    if not op.reason.strip():
        raise SkatError("reason", _("Say why the deal is changed."))
    if op.kind == DELETE and deal.deleted:
        raise SkatError(None, _("This deal is already deleted."))
    if op.kind == RESTORE and not deal.deleted:
        raise SkatError(None, _("This deal is not deleted."))
    if op.kind == EDIT and deal.deleted:
        raise SkatError(None, _("Restore the deal before correcting it."))


def _decide(op: TableOp) -> Outcome:
    """Inside the transaction: everything after the table's row is taken."""
    table = op.table
    state = _lock(table)
    replay = table_op_replay(table=table, request_id=op.request_id, accepting=op.accepting)
    if replay is not None:  # the same request, committed while this one waited for the lock
        return replay
    target = _target(op)
    why = hold_grounds(op, state, target)
    if why is not None:
        return _hold(op, target, why)
    assert not isinstance(target, HeldOperation)
    if state["evening__closed"] and not op.accepting:
        raise SkatError(None, _(
            "This evening is closed: its deals cannot be recorded or changed until a club "
            "admin reopens it."))
    _check_binding(table, op.actor)
    if target is not None:
        _check_change(op, target)
    version = state["version"]
    since = op.base_version
    if op.append:
        since = version
    elif isinstance(op.own_version, int) and since <= op.own_version <= version:
        since = op.own_version  # what this device itself sent since is no conflict
    if since > version:
        return Refused("base_version", _("The table version is missing or not valid."))
    if since != version:
        return Conflict(since, version, target.pk if target is not None else None)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    _forget_states(table.evening)
    reason = op.reason.strip()
    _check_signatures(table, op.actor, reason)
    if target is None:
        return _append(op, version + 1)
    return _change(op, target, version + 1)


def _append(op: TableOp, version: int) -> Stored:
    table, record = op.table, op.record
    assert record is not None
    result = _check_table(table, _live_records(table) + [record], appended=True)
    last = table.deals.aggregate(last=Max("position"))["last"] or 0
    deal = Deal.objects.create(table=table, position=last + 1, record=record,
                               request_id=op.request_id)
    _keep_scores(table, result)
    _audit(deal, AuditEntry.Action.CREATE, op.actor, None, record, "", op.request_id,
           version, offline=op.via == SYNC)
    return Stored(deal.pk, deal.position, None, version)


def _change(op: TableOp, deal: Deal, version: int) -> Stored:
    table = op.table
    record = op.record if op.kind == EDIT else deal.record
    if op.kind == DELETE:
        record = None
    result = _check_table(table, _live_records(table, {deal.pk: record}))
    before = None if deal.deleted else deal.record
    if op.kind == EDIT:
        deal.record = record
    deal.deleted = op.kind == DELETE
    deal.save(update_fields=["record", "deleted", "updated"])
    deal.table = table
    _keep_scores(table, result)
    _audit(deal, _ACTION[op.kind], op.actor, before, record, op.reason.strip(),
           op.request_id, version, offline=op.via == SYNC)
    return Stored(deal.pk, deal.position, None, version)


def _drop(op: TableOp) -> Outcome:
    """Keep theirs: the audit log hears what this device dropped; nothing is stored. An
    operation that was stored after all cannot be dropped (the tablet must reload)."""
    dropped = op.dropped
    assert dropped is not None and op.request_id is not None
    if AuditEntry.objects.filter(table=op.table, request_id=dropped.request_id,
                                 deal__isnull=False).exists():
        return Refused("dropped", _(
            "This was stored already: it can no longer be dropped. Reload the table."))
    what = {SAVE: _("Kept the other device's version; this device's deal was dropped."),
            EDIT: _("Kept the other device's version; this device's correction was "
                    "dropped."),
            DELETE: _("Kept the other device's version; this device's deletion was "
                      "dropped."),
            RESTORE: _("Kept the other device's version; this device's restoration was "
                       "dropped.")}
    reason = what[dropped.kind]
    if op.reason.strip():
        reason = f"{reason} {op.reason.strip()}"
    entry = sync_drop(table=op.table, actor=op.actor, request_id=op.request_id,
                      dropped={"op": dropped.kind, "request_id": dropped.request_id,
                               "record": dropped.record, "deal": dropped.deal_id},
                      reason=reason)
    return Dropped(dropped.request_id, entry.version or 0)


# ---------------------------------------------------------------- the callers that raise

def _raising(op: TableOp) -> Deal:
    """The operation for a caller that wants the deal or an exception (the services'
    deal_record …, the demo data, the held operations' acceptance)."""
    outcome = table_op_apply(op=op)
    if isinstance(outcome, Stored):
        deal = Deal.objects.get(pk=outcome.deal_id)
        deal.table = op.table
        return deal
    if isinstance(outcome, Conflict):
        raise StaleTable(Table.objects.get(pk=op.table.pk))
    if isinstance(outcome, Refused):
        if outcome.error is not None:
            raise outcome.error
        raise SkatError(outcome.field, outcome.message)
    raise AssertionError(outcome)  # pragma: no cover: no holding, no drop here


def _as_json(record: Any) -> dict[str, Any]:
    return record_json(record)


def deal_record(*, table: Table, record: Any, expected_version: int, actor: Actor,
                request_id: uuid.UUID | None = None, closed_ok: bool = False,
                reason: str = "") -> Deal:
    """Append a deal: the typed record or its JSON. A retried request (same ``request_id``)
    returns the deal it made. ``closed_ok``: a club admin accepts a held deal into a closed
    evening (held_accept). ``reason``: why a club admin adds a deal to a list everybody has
    signed. Raises StaleTable or SkatError."""
    return _raising(TableOp(table=table, actor=actor, kind=SAVE, request_id=request_id,
                            base_version=expected_version, record=_as_json(record),
                            reason=reason, accepting=closed_ok))


def deal_edit(*, deal: Deal, record: Any, reason: str, expected_version: int, actor: Actor,
              request_id: uuid.UUID | None = None, closed_ok: bool = False) -> Deal:
    """Correct a deal; everything after it is recomputed (Bock rounds move)."""
    return _raising(TableOp(table=deal.table, actor=actor, kind=EDIT, request_id=request_id,
                            base_version=expected_version, record=_as_json(record),
                            deal_id=deal.pk, reason=reason, accepting=closed_ok))


def deal_delete(*, deal: Deal, reason: str, expected_version: int, actor: Actor,
                request_id: uuid.UUID | None = None, closed_ok: bool = False) -> Deal:
    return _raising(TableOp(table=deal.table, actor=actor, kind=DELETE,
                            request_id=request_id, base_version=expected_version,
                            deal_id=deal.pk, reason=reason, accepting=closed_ok))


def deal_restore(*, deal: Deal, reason: str, expected_version: int, actor: Actor,
                 request_id: uuid.UUID | None = None, closed_ok: bool = False) -> Deal:
    return _raising(TableOp(table=deal.table, actor=actor, kind=RESTORE,
                            request_id=request_id, base_version=expected_version,
                            deal_id=deal.pk, reason=reason, accepting=closed_ok))
