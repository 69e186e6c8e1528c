"""The offline table's server side (issue 13): what a tablet needs to score offline, and the
operations it queued while offline, sent one by one in order when it is back
(``tables/<pk>/state/`` and ``tables/<pk>/sync/``; the contract with the tablet is
sync-contract.md beside this file).

Every answer is JSON. Each operation is re-validated by the services exactly as a form post
would be, and stored once: a repeated request ID gets the first answer again. Changes since
the version the tablet saw are a conflict (both versions, for the scorer to choose), unless
this device made them itself with the operations it sent before (the session keeps the
version its last operation produced, so a queue of saves made at one version goes through
in order). An operation for a closed evening, or from a device whose table code expired or
was replaced while it was offline, is held for the club admin (views.held); every outcome
is in the audit log.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import uuid
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.engine import SkatError, same_deal
from scoring.models import AuditEntry, Deal, HeldOperation, Membership, Table
from scoring.notation import short_names
from scoring.reads.sheet import (
    SheetRow,
    deal_preview,
    deal_toggle_preview,
    table_sheet,
    tables_with_everything,
)
from scoring.views import table_live
from scoring.writes.services import (
    Actor,
    HeldFull,
    StaleTable,
    deal_delete,
    deal_edit,
    deal_record,
    deal_restore,
    held_deposit,
    sync_drop,
    sync_outcome,
)

log = logging.getLogger("scoring.sync")

MAX_BODY = 64 * 1024  # a deal record is well under 1 KB
OPS = ("save", "edit", "delete", "restore")
DROP = "drop"  # "keep theirs": the scorer dropped one of the ops above after a conflict
SESSION_VERSIONS = "sync_versions"  # {table pk: the version this device's last sync made}


def _lang() -> str:
    from scoring.views.entry import _lang as lang
    return lang()


class Refused(Exception):
    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _forbidden(status: int) -> JsonResponse:
    message = (_("This device may not record at this table.") if status == 403
               else _("There is no such table."))
    return JsonResponse({"status": "forbidden", "message": message}, status=status)


RETRY_AFTER_SECONDS = 15  # the tablet keeps the operation and sends it again


def unavailable() -> JsonResponse:
    """503 with Retry-After: the server could not carry the request out (its database is
    gone, an unexpected error); nothing was stored, the tablet keeps the operation and sends
    it again (the request_id makes that safe). Also skatclub's handler500 for these URLs."""
    response = JsonResponse({"status": "unavailable", "message": _(
        "The server cannot store this right now: the tablet keeps it and sends it again.")},
        status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def json_always(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The contract's "never HTML, never a 500": any failure the view cannot carry out is
    logged with its traceback and answered as JSON 503."""
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Exception:
            log.exception("%s %s could not be carried out", request.method, request.path)
            return unavailable()
    return wrapped


def _refused(field: str | None, message: str) -> JsonResponse:
    return JsonResponse({"status": "refused", "error": {"field": field, "message": message}},
                        status=422)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: a tablet's JSON request with a stale token (the page was
    loaded before the session changed) learns it as JSON, to fetch a fresh page and send
    again; everything else gets Django's page."""
    if request.content_type == "application/json" or request.path.endswith("/sync/"):
        return JsonResponse({"status": "csrf", "message": _(
            "This page is out of date: reload it, then the tablet sends again.")},
            status=403)
    from django.views.csrf import csrf_failure as default
    return default(request, reason)


# ---------------------------------------------------------------- who may send

def once_granted(request: HttpRequest, table: Table) -> bool:
    """The session once held this table's code: the grant is written by the server only
    after the code was entered (access.grant), whether or not it is still valid."""
    grants = request.session.get(access.SESSION_KEY, {})
    return isinstance(grants, dict) and str(table.pk) in grants


def _sender(request: HttpRequest, pk: int) -> tuple[Table, Actor, str | None] | JsonResponse:
    """The table, the actor and why what they send is held (None: it is applied), or the
    forbidden answer. Writers are members who may score and devices holding the table's
    code; a device whose code has run out (expired, replaced, evening closed) may still
    hand in what it scored for the admin to judge. Anyone else never had access."""
    table = access.with_membership(
        request, Table.objects.select_related("evening__club"), "evening__club",
    ).filter(pk=pk).first()
    if table is None:
        return _forbidden(404)
    member = access.member_of(request, table, table.evening.club)
    code_actor = Actor(None, _("table code, table %(number)d") % {"number": table.number},
                       offline=True)  # the audit log marks what came this way (issue 36)
    if member is not None and member.can_score:
        actor = Actor(request.user, request.user.get_username(),
                      admin=member.role == Membership.Role.ADMIN, offline=True)
        why = None
    elif access.has_grant(request, table):
        actor, why = code_actor, None
    elif once_granted(request, table):
        actor, why = code_actor, HeldOperation.Why.CODE
    else:
        return _forbidden(403 if member is not None else 404)
    if table.evening.closed:
        why = HeldOperation.Why.CLOSED
    elif why is None and table.signed_at is not None and not actor.admin:
        # Every player signed the list while this device was offline (or before it sent):
        # what it scored is kept for a club admin to accept with a reason, or discard.
        why = HeldOperation.Why.SIGNED
    return table, actor, why


# ---------------------------------------------------------------- the state

@require_safe
@json_always
def table_state(request: HttpRequest, pk: int) -> HttpResponse:
    """What a tablet needs to score offline: the table as deal-record.md "A table" (the
    input of SkatEngine.evaluateTable), its deals in order with their ids, the version."""
    found = access.with_membership(
        request, Table.objects.select_related("evening__club"), "evening__club",
    ).filter(pk=pk).first()
    if found is None:
        return _forbidden(404)
    member = access.member_of(request, found, found.evening.club)
    if member is None and not access.has_grant(request, found):
        return _forbidden(404)
    table = found
    evening = table.evening
    players = [seat.player.name for seat in table.seats.select_related("player").order_by(
        "position")]
    deals = list(table.deals.order_by("position").values(
        "id", "position", "record", "deleted", "request_id"))
    signed = table.signed_at is not None  # locked: only a club admin changes it (issue 23)
    writable = not evening.closed and (
        (member is not None and member.can_score) or access.has_grant(request, found)) and (
        not signed or (member is not None and member.role == Membership.Role.ADMIN))
    response = JsonResponse({
        "version": table.version,
        # Exactly the engine's table (it refuses any other key): add "deals" and score it.
        "table": {**evening.rules_dict(), "players": players,
                  "first_dealer": table.first_dealer},
        "series": table.series, "number": table.number,
        "series_length": evening.series_length(len(players)),
        "deals": [{"id": d["id"], "position": d["position"],
                   "request_id": str(d["request_id"]) if d["request_id"] else None,
                   "record": d["record"]} for d in deals if not d["deleted"]],
        "deleted": [{"id": d["id"], "position": d["position"], "record": d["record"]}
                    for d in deals if d["deleted"]],
        "lang": _lang(), "closed": evening.closed, "writable": writable, "signed": signed,
    })
    response["Cache-Control"] = "private, no-cache"
    return response


# ---------------------------------------------------------------- reading the body

def _uuid(value: Any, field: str) -> uuid.UUID:
    if isinstance(value, str) and len(value) <= 64:
        try:
            return uuid.UUID(value)
        except ValueError:
            pass
    raise Refused(field, _("The request ID is not valid: the tablet must send it again."))


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _clean(value: Any) -> bool:
    """What the database's JSON column can keep (no NUL, finite numbers, not too deep)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > 20:
            return False
        if isinstance(item, str) and "\x00" in item:
            return False
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
            stack.extend((k, depth + 1) for k in item)
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _body(request: HttpRequest) -> dict[str, Any]:
    """The operation, checked for its shape (the engine checks the record itself). A body
    too large (beyond MAX_BODY, or beyond Django's DATA_UPLOAD_MAX_MEMORY_SIZE, which Django
    refuses to read) is refused, never answered "try again": sent again it stays too large."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise Refused(None, _("The operation is too large.")) from None
    if len(raw) > MAX_BODY:
        raise Refused(None, _("The operation is too large."))
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Refused(None, _("The operation is not valid JSON.")) from None
    if not isinstance(data, dict) or not _clean(data):
        raise Refused(None, _("The operation is not valid JSON."))
    op = data.get("op")
    if op not in (*OPS, DROP):
        raise Refused("op", _("Unknown operation."))
    body: dict[str, Any] = {"op": op, "request_id": _uuid(data.get("request_id"), "request_id")}
    version = data.get("base_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**31:
        raise Refused("base_version", _("The table version is missing or not valid."))
    body["base_version"] = version
    if op == DROP:
        return _drop_body(data, body)
    mode = data.get("mode")
    if mode not in (None, "append"):
        raise Refused("mode", _("Unknown mode."))
    body["append"] = mode == "append"
    if op in ("save", "edit"):
        record = data.get("record")
        if not isinstance(record, dict):
            raise Refused("record", _("The deal is missing."))
        body["record"] = record
    else:
        body["record"] = None
    body["deal"] = body["deal_request_id"] = None
    body["reason"] = ""
    if op != "save":
        deal = data.get("deal")
        if deal is not None:
            if not isinstance(deal, int) or isinstance(deal, bool) or not 0 < deal < 2**31:
                raise Refused("deal", _("No such deal at this table."))
            body["deal"] = deal
        elif data.get("deal_request_id") is not None:
            body["deal_request_id"] = _uuid(data.get("deal_request_id"), "deal_request_id")
        else:
            raise Refused("deal", _("No such deal at this table."))
        reason = data.get("reason", "")
        if not isinstance(reason, str):
            raise Refused("reason", _("Say why the deal is changed."))
        if len(reason) > 500:
            raise Refused("reason", _("The reason is too long (at most 500 characters)."))
        body["reason"] = reason
    return body


def _drop_body(data: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """A "drop": the queued operation the scorer dropped, as the tablet had queued it."""
    dropped = data.get("dropped")
    if not isinstance(dropped, dict) or dropped.get("op") not in OPS:
        raise Refused("dropped", _("Say which operation was dropped."))
    record = dropped.get("record")
    if record is not None and not isinstance(record, dict):
        raise Refused("record", _("The deal is missing."))
    deal = dropped.get("deal")
    if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool)
                             or not 0 < deal < 2**31):
        raise Refused("deal", _("No such deal at this table."))
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise Refused("reason", _("Say why the deal is changed."))
    if len(reason) > 500:
        raise Refused("reason", _("The reason is too long (at most 500 characters)."))
    body["dropped"] = {"op": dropped["op"],
                       "request_id": _uuid(dropped.get("request_id"), "dropped"),
                       "record": record, "deal": deal}
    body["reason"] = reason.strip()
    return body


def _drop(table: Table, actor: Actor, body: dict[str, Any]) -> JsonResponse:
    """Keep theirs: the audit log hears what this device dropped; nothing is stored. An
    operation that was stored after all cannot be dropped (the tablet must reload)."""
    dropped = body["dropped"]
    repeat = AuditEntry.objects.filter(table=table, request_id=body["request_id"],
                                       action=AuditEntry.Action.DROP).exists()
    if not repeat and AuditEntry.objects.filter(
            table=table, request_id=dropped["request_id"], deal__isnull=False).exists():
        return _refused("dropped", _(
            "This was stored already: it can no longer be dropped. Reload the table."))
    what = {"save": _("Kept the other device's version; this device's deal was dropped."),
            "edit": _("Kept the other device's version; this device's correction was "
                      "dropped."),
            "delete": _("Kept the other device's version; this device's deletion was "
                        "dropped."),
            "restore": _("Kept the other device's version; this device's restoration was "
                         "dropped.")}
    reason = what[dropped["op"]]
    if body["reason"]:
        reason = f"{reason} {body['reason']}"
    entry = sync_drop(table=table, actor=actor, request_id=body["request_id"],
                      dropped=dropped, reason=reason)
    return JsonResponse({"status": "dropped", "dropped": str(dropped["request_id"]),
                         "version": entry.version})


# ---------------------------------------------------------------- answers

def _stored(table: Table, deal_id: int, version: int | None) -> JsonResponse:
    deal = Deal.objects.filter(pk=deal_id).values("position", "deleted").first()
    number = None
    if deal is not None and not deal["deleted"]:
        number = Deal.objects.filter(table=table, deleted=False,
                                     position__lte=deal["position"]).count()
    return JsonResponse({"status": "stored", "deal": deal_id, "number": number,
                         "position": deal["position"] if deal else None,
                         "version": version if version is not None else table.version})


def _held_full(limit: int) -> JsonResponse:
    """429: this device has HELD_PER_DEVICE operations waiting for the club admin in this
    evening; nothing is held or logged, and the tablet keeps the operation (sync contract)."""
    response = JsonResponse({"status": "held-full", "limit": limit, "message": _(
        "%(count)d operations of this device are waiting for the club admin already: this "
        "one stays on the device until the admin has decided those.") % {"count": limit}},
        status=429)
    response["Retry-After"] = "300"
    return response


def _held(held: HeldOperation) -> JsonResponse:
    if held.state == HeldOperation.State.DISCARDED:
        message = _("The club admin discarded this: %(reason)s") % {"reason": held.resolution}
    elif held.why == HeldOperation.Why.SIGNED:
        message = _("Every player had signed this list: this is kept for the club admin to "
                    "accept with a reason, or discard.")
    elif held.why == HeldOperation.Why.CLOSED:
        message = _("The evening was closed while this device was offline: this is kept for "
                    "the club admin to accept or discard.")
    else:
        message = _("The table code expired while this device was offline: this is kept for "
                    "the club admin to accept or discard.")
    return JsonResponse({"status": "held", "held": held.pk, "state": held.state,
                         "message": message}, status=202)


def _row(row: SheetRow | None, names: list[str]) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"number": row.number, "deal": row.deal_id or None, "game": str(row.game),
            "symbol": row.symbol, "details": [str(d) for d in row.details],
            "result": str(row.result), "value": row.value,
            "entries": [{"player": names[s], "entry": e} for s, e in enumerate(row.entries)
                        if e is not None]}


def _conflict(table: Table, since: int, body: dict[str, Any], deal: Deal | None,
              lang: str) -> dict[str, Any]:
    """Both versions (as table_live's conflict screen shows them), as JSON."""
    full = tables_with_everything(Table.objects.filter(pk=table.pk)).get()
    sheet = table_sheet(full, lang, explain=False)
    names = short_names(sheet)
    theirs, more = table_live._theirs(full, sheet, since)
    if deal is not None:
        theirs.sort(key=lambda change: change.deal_id != deal.pk)
    mine_row, error, totals = None, None, None
    current = next((d for d in full.deals.all() if deal and d.pk == deal.pk), None)
    op = body["op"]
    if op == "save" or (op == "edit" and current is not None and not current.deleted):
        preview = deal_preview(full, body["record"], lang, replace=current)
        if preview.error is not None:
            error = {"field": preview.error.field, "message": preview.error.message_in(lang)}
        else:
            mine_row = preview.row
            if op == "save" and preview.row is not None:
                totals = preview.row.totals
    elif op == "edit":
        error = {"field": "deal", "message": _(
            "The other device deleted this deal: restore it before correcting it.")}
    elif current is not None and current.deleted == (op == "delete"):
        error = {"field": "deal", "message": _("The other device already deleted this deal.")
                 if op == "delete" else _("The other device already restored this deal.")}
    elif current is not None:
        preview = deal_toggle_preview(full, current, lang)
        if preview.error is not None:
            error = {"field": None, "message": preview.error.message_in(lang)}
        else:
            # A deletion shows the deal as it counts now; a restoration as it would count.
            mine_row = preview.row if op == "restore" else next(
                (row for row in sheet.rows if row.deal_id == current.pk), None)
            totals = preview.totals
    if body["record"] is not None:  # one of theirs is exactly mine: most likely the same deal
        records = {d.pk: d.record for d in full.deals.all() if not d.deleted}
        for change in theirs:
            change.same = change.row is not None and same_deal(records.get(change.deal_id),
                                                               body["record"])
    mine = _row(mine_row, names)
    if mine is not None and op == "delete":
        mine["deleted"] = True
    return {
        "status": "conflict", "version": full.version, "op": op, "more": more,
        "same": any(c.same for c in theirs),
        "theirs": [{**(_row(c.row, names) or {"number": None, "deal": c.deal_id,
                                                "deleted": True}),
                    "position": c.number, "actions": c.actions, "by": c.actor,
                    "same": c.same,
                    "at": c.at.isoformat() if c.at else None} for c in theirs],
        "mine": {"row": mine, "error": error},
        "totals": [{"player": name, "theirs": sheet.totals[s],
                    "mine": totals[s] if totals else None}
                   for s, name in enumerate(names)],
    }


# ---------------------------------------------------------------- sending an operation

def _target(table: Table, body: dict[str, Any]) -> Deal | HeldOperation | None:
    """The deal a correction, deletion or restoration is about: by id, or by the request ID
    of its save (queued on the tablet too); a held save when that is still held."""
    if body["deal"] is not None:
        deal = Deal.objects.filter(pk=body["deal"], table=table).first()
        if deal is None:
            raise Refused("deal", _("No such deal at this table."))
        return deal
    if body["deal_request_id"] is None:
        return None
    deal = Deal.objects.filter(table=table, request_id=body["deal_request_id"]).first()
    if deal is not None:
        return deal
    held = HeldOperation.objects.filter(table=table, request_id=body["deal_request_id"],
                                        state=HeldOperation.State.WAITING).first()
    if held is not None:
        return held
    raise Refused("deal", _("The deal this changes was never stored."))


@require_POST
@json_always
def sync(request: HttpRequest, pk: int) -> HttpResponse:
    sender = _sender(request, pk)
    if isinstance(sender, JsonResponse):
        return sender
    table, actor, why = sender
    lang = _lang()
    try:
        body = _body(request)
    except Refused as err:
        return _refused(err.field, err.message)
    if body["op"] == DROP:  # changes nothing: logged even for a closed evening
        return _drop(table, actor, body)
    request_id = body["request_id"]
    # The same operation again (an answer lost on the way): the same answer, nothing twice.
    done = AuditEntry.objects.filter(table=table, request_id=request_id,
                                     deal__isnull=False).order_by("id").first()
    if done is not None and done.deal_id is not None:
        return _stored(table, done.deal_id, done.version)
    held = HeldOperation.objects.filter(table=table, request_id=request_id).first()
    if held is not None:
        return _held(held)
    try:
        target = _target(table, body)
    except Refused as err:
        sync_outcome(table=table, action=AuditEntry.Action.REFUSE, actor=actor,
                     request_id=request_id, record=body["record"], reason=err.message)
        return _refused(err.field, err.message)
    if why is None and isinstance(target, HeldOperation):
        why = target.why  # a change of a deal that is itself held waits with it
    if why is not None:
        try:
            held = held_deposit(
                table=table, op=body["op"], request_id=request_id, record=body["record"],
                deal=target if isinstance(target, Deal) else None,
                deal_request_id=body["deal_request_id"], reason=body["reason"],
                base_version=body["base_version"], why=why, actor=actor)
        except SkatError as err:  # a record too large to be held
            message = err.message_in(lang)
            sync_outcome(table=table, action=AuditEntry.Action.REFUSE, actor=actor,
                         request_id=request_id, record=None, reason=message)
            return _refused(err.field, message)
        except HeldFull as full:
            return _held_full(full.limit)
        return _held(held)
    return _apply(request, table, actor, body, target, lang)


def _write(table: Table, actor: Actor, body: dict[str, Any], deal: Deal | None,
           since: int) -> Deal:
    """The operation through the services, at version ``since``; in append mode at the
    table's current version, asked again a few times should other tablets keep saving in
    between (each try is re-validated by the engine)."""
    for attempt in range(3 if body["append"] else 1):
        if body["append"] and attempt:
            table.refresh_from_db(fields=["version"])
        expected = table.version if body["append"] else since
        try:
            if body["op"] == "save":
                return deal_record(table=table, record=body["record"], actor=actor,
                                   expected_version=expected,
                                   request_id=body["request_id"])
            assert deal is not None
            deal.table = table
            service: dict[str, Callable[..., Deal]] = {
                "edit": deal_edit, "delete": deal_delete, "restore": deal_restore}
            extra = {"record": body["record"]} if body["op"] == "edit" else {}
            return service[body["op"]](deal=deal, reason=body["reason"], actor=actor,
                                       expected_version=expected,
                                       request_id=body["request_id"], **extra)
        except StaleTable:
            if not body["append"] or attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _apply(request: HttpRequest, table: Table, actor: Actor, body: dict[str, Any],
           deal: Deal | HeldOperation | None, lang: str) -> JsonResponse:
    assert deal is None or isinstance(deal, Deal)
    request_id = body["request_id"]
    versions = request.session.get(SESSION_VERSIONS, {})
    versions = versions if isinstance(versions, dict) else {}
    mine = versions.get(str(table.pk))
    since = body["base_version"]
    if isinstance(mine, int) and since <= mine <= table.version:
        since = mine  # what this device itself sent since is no conflict
    if since > table.version:
        return _refused("base_version", _("The table version is missing or not valid."))
    try:
        stored = _write(table, actor, body, deal, since)
    except StaleTable:
        done = AuditEntry.objects.filter(table=table, request_id=request_id,
                                         deal__isnull=False).order_by("id").first()
        if done is not None and done.deal_id is not None:  # the same operation, sent twice
            return _stored(table, done.deal_id, done.version)
        table.refresh_from_db(fields=["version"])
        payload = _conflict(table, since, body, deal, lang)
        sync_outcome(table=table, action=AuditEntry.Action.CONFLICT, actor=actor,
                     request_id=request_id, record=body["record"],
                     reason=_("Another device changed the table since version %(version)d.")
                     % {"version": since})
        return JsonResponse(payload, status=409)
    except SkatError as err:
        message = err.message_in(lang)
        if err.deal is not None and err.field is None:
            message = _("Deal %(number)s: %(message)s") % {"number": err.deal,
                                                           "message": message}
        sync_outcome(table=table, action=AuditEntry.Action.REFUSE, actor=actor,
                     request_id=request_id, record=body["record"], reason=message)
        return _refused(err.field, message)
    version = table.version  # the services set it to the version they made
    versions = dict(versions)
    versions[str(table.pk)] = version
    request.session[SESSION_VERSIONS] = versions
    return _stored(table, stored.pk, version)



urlpatterns: list[URLPattern] = [
    path("tables/<int:pk>/state/", table_state, name="table-state"),
    path("tables/<int:pk>/sync/", sync, name="table-sync"),
]
