"""The offline table's server side (issue 13): what a tablet needs to score offline, and the
operations it queued while offline, sent one by one in order when it is back
(``tables/<pk>/state/`` and ``tables/<pk>/sync/``; the contract with the tablet is
sync-contract.md beside this file).

Every answer is JSON. This view only translates: the body becomes one ``TableOp`` (its shape
checked in forms/sync.py, the record by the engine); ``writes.table_ops.table_op_apply``
decides it as it decides the table screen's form posts (stored once, a repeat answered
again, held for the club admin when the evening was closed, the code ran out or the list
was signed, a conflict with both versions, refused; every outcome in the audit log); and
``_answer`` turns the outcome into the contract's answer. The session keeps the version this
device's last operation produced, so a queue of saves made at one version goes in order.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.forms.sync import Malformed, parse_body
from scoring.models import HeldOperation, Membership, Table
from scoring.reads.table_state import offline_state, tables
from scoring.views import table_live
from scoring.writes import table_ops as ops
from scoring.writes.table_ops import Actor, Outcome, TableOp

log = logging.getLogger("scoring.sync")

SESSION_VERSIONS = "sync_versions"  # {table pk: the version this device's last sync made}


def _lang() -> str:
    from scoring.views.entry import _lang as lang
    return lang()


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


def _sender(request: HttpRequest, pk: int) -> tuple[Table, Actor, bool] | JsonResponse:
    """The table, the actor and whether the device's code ran out (what it sends is held),
    or the forbidden answer. Writers are members who may score and devices holding the
    table's code; a device whose code has run out (expired, replaced, evening closed) may
    still hand in what it scored for the admin to judge. Anyone else never had access.
    Whether the evening is closed or the list signed is the service's to decide, inside
    the transaction that would apply the operation."""
    table = access.with_membership(request, tables(), "evening__club").filter(pk=pk).first()
    if table is None:
        return _forbidden(404)
    member = access.member_of(request, table, table.evening.club)
    code_actor = Actor(None, _("table code, table %(number)d") % {"number": table.number})
    if member is not None and member.can_score:
        return table, Actor(request.user, request.user.get_username(),
                            admin=member.role == Membership.Role.ADMIN), False
    if access.has_grant(request, table):
        return table, code_actor, False
    if once_granted(request, table):
        return table, code_actor, True
    return _forbidden(403 if member is not None else 404)


# ---------------------------------------------------------------- the state

@require_safe
@json_always
def table_state(request: HttpRequest, pk: int) -> HttpResponse:
    """What a tablet needs to score offline: the table as deal-record.md "A table" (the
    input of SkatEngine.evaluateTable), its deals in order with their ids, the version."""
    table = access.with_membership(request, tables(), "evening__club").filter(pk=pk).first()
    if table is None:
        return _forbidden(404)
    member = access.member_of(request, table, table.evening.club)
    if member is None and not access.has_grant(request, table):
        return _forbidden(404)
    evening = table.evening
    players, deals = offline_state(table)
    signed = table.signed_at is not None  # locked: only a club admin changes it (issue 23)
    writable = not evening.closed and (
        (member is not None and member.can_score) or access.has_grant(request, table)) and (
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


# ---------------------------------------------------------------- the operation

def _op_from_json(request: HttpRequest, table: Table, actor: Actor, lapsed: bool,
                  lang: str) -> TableOp:
    """The body as one operation (raises Malformed); this device's own last version from
    the session."""
    body = parse_body(request)
    versions = request.session.get(SESSION_VERSIONS, {})
    mine = versions.get(str(table.pk)) if isinstance(versions, dict) else None
    dropped = body.get("dropped")
    return TableOp(
        table=table, actor=actor, kind=body["op"], request_id=body["request_id"],
        base_version=body["base_version"], record=body.get("record"),
        deal_id=body.get("deal"), deal_request_id=body.get("deal_request_id"),
        reason=body.get("reason", ""), append=body.get("append", False),
        own_version=mine if isinstance(mine, int) else None, may_hold=True,
        code_lapsed=lapsed, via=ops.SYNC, lang=lang,
        dropped=ops.DroppedOp(dropped["op"], dropped["request_id"], dropped["record"],
                          dropped["deal"]) if dropped else None)


def _held_message(held: ops.Held) -> str:
    if held.state == HeldOperation.State.DISCARDED:
        return _("The club admin discarded this: %(reason)s") % {"reason": held.resolution}
    if held.why == HeldOperation.Why.SIGNED:
        return _("Every player had signed this list: this is kept for the club admin to "
                 "accept with a reason, or discard.")
    if held.why == HeldOperation.Why.CLOSED:
        return _("The evening was closed while this device was offline: this is kept for "
                 "the club admin to accept or discard.")
    return _("The table code expired while this device was offline: this is kept for the "
             "club admin to accept or discard.")


def _answer(outcome: Outcome, op: TableOp) -> JsonResponse:
    """The outcome as the sync contract's answer (sync-contract.md)."""
    if isinstance(outcome, ops.Stored):
        return JsonResponse({"status": "stored", "deal": outcome.deal_id,
                             "number": outcome.number, "position": outcome.position,
                             "version": outcome.version})
    if isinstance(outcome, ops.Held):
        return JsonResponse({"status": "held", "held": outcome.held_id,
                             "state": outcome.state, "message": _held_message(outcome)},
                            status=202)
    if isinstance(outcome, ops.HeldFull):
        # Nothing is held or logged; the tablet keeps the operation (sync contract).
        response = JsonResponse({"status": "held-full", "limit": outcome.limit, "message": _(
            "%(count)d operations of this device are waiting for the club admin already: "
            "this one stays on the device until the admin has decided those.")
            % {"count": outcome.limit}}, status=429)
        response["Retry-After"] = "300"
        return response
    if isinstance(outcome, ops.Refused):
        return _refused(outcome.field, outcome.message)
    if isinstance(outcome, ops.Conflict):
        return JsonResponse(table_live.sync_conflict(op, outcome), status=409)
    assert isinstance(outcome, ops.Dropped)
    return JsonResponse({"status": "dropped", "dropped": str(outcome.dropped),
                         "version": outcome.version})


@require_POST
@json_always
def sync(request: HttpRequest, pk: int) -> HttpResponse:
    sender = _sender(request, pk)
    if isinstance(sender, JsonResponse):
        return sender
    table, actor, lapsed = sender
    try:
        op = _op_from_json(request, table, actor, lapsed, _lang())
    except Malformed as err:
        return _refused(err.field, err.message)
    outcome = ops.table_op_apply(op=op)
    if isinstance(outcome, ops.Stored) and not outcome.replayed:
        versions = request.session.get(SESSION_VERSIONS, {})
        versions = dict(versions) if isinstance(versions, dict) else {}
        versions[str(table.pk)] = outcome.version
        request.session[SESSION_VERSIONS] = versions
    return _answer(outcome, op)


urlpatterns: list[URLPattern] = [
    path("tables/<int:pk>/state/", table_state, name="table-state"),
    path("tables/<int:pk>/sync/", sync, name="table-sync"),
]
