"""The offline sync's request body (views/sync.py, sync-contract.md): its shape checked
field by field, as a form checks a post; the record itself is the engine's to check (in
writes.table_ops). Anything malformed is ``Malformed`` with the field and the message."""

from __future__ import annotations

import json
import math
import uuid
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest
from django.utils.translation import gettext as _

MAX_BODY = 64 * 1024  # a deal record is well under 1 KB
OPS = ("save", "edit", "delete", "restore")
DROP = "drop"  # "keep theirs": the scorer dropped one of the ops above after a conflict


class Malformed(Exception):
    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _uuid(value: Any, field: str) -> uuid.UUID:
    if isinstance(value, str) and len(value) <= 64:
        try:
            return uuid.UUID(value)
        except ValueError:
            pass
    raise Malformed(field, _("The request ID is not valid: the tablet must send it again."))


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


def parse_body(request: HttpRequest) -> dict[str, Any]:
    """The operation, checked for its shape (the engine checks the record itself). A body
    too large (beyond MAX_BODY, or beyond Django's DATA_UPLOAD_MAX_MEMORY_SIZE, which Django
    refuses to read) is refused, never answered "try again": sent again it stays too large."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise Malformed(None, _("The operation is too large.")) from None
    if len(raw) > MAX_BODY:
        raise Malformed(None, _("The operation is too large."))
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Malformed(None, _("The operation is not valid JSON.")) from None
    if not isinstance(data, dict) or not _clean(data):
        raise Malformed(None, _("The operation is not valid JSON."))
    op = data.get("op")
    if op not in (*OPS, DROP):
        raise Malformed("op", _("Unknown operation."))
    body: dict[str, Any] = {"op": op, "request_id": _uuid(data.get("request_id"), "request_id")}
    version = data.get("base_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**31:
        raise Malformed("base_version", _("The table version is missing or not valid."))
    body["base_version"] = version
    if op == DROP:
        return _drop_body(data, body)
    mode = data.get("mode")
    if mode not in (None, "append"):
        raise Malformed("mode", _("Unknown mode."))
    body["append"] = mode == "append"
    if op in ("save", "edit"):
        record = data.get("record")
        if not isinstance(record, dict):
            raise Malformed("record", _("The deal is missing."))
        body["record"] = record
    else:
        body["record"] = None
    body["deal"] = body["deal_request_id"] = None
    body["reason"] = ""
    if op != "save":
        deal = data.get("deal")
        if deal is not None:
            if not isinstance(deal, int) or isinstance(deal, bool) or not 0 < deal < 2**31:
                raise Malformed("deal", _("No such deal at this table."))
            body["deal"] = deal
        elif data.get("deal_request_id") is not None:
            body["deal_request_id"] = _uuid(data.get("deal_request_id"), "deal_request_id")
        else:
            raise Malformed("deal", _("No such deal at this table."))
        body["reason"] = _reason(data)
    return body


def _reason(data: dict[str, Any]) -> str:
    """The reason a change or a drop gives, as sent (at most 500 characters)."""
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise Malformed("reason", _("Say why the deal is changed."))
    if len(reason) > 500:
        raise Malformed("reason", _("The reason is too long (at most 500 characters)."))
    return reason


def _drop_body(data: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """A "drop": the queued operation the scorer dropped, as the tablet had queued it."""
    dropped = data.get("dropped")
    if not isinstance(dropped, dict) or dropped.get("op") not in OPS:
        raise Malformed("dropped", _("Say which operation was dropped."))
    record = dropped.get("record")
    if record is not None and not isinstance(record, dict):
        raise Malformed("record", _("The deal is missing."))
    deal = dropped.get("deal")
    if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool)
                             or not 0 < deal < 2**31):
        raise Malformed("deal", _("No such deal at this table."))
    reason = _reason(data)
    body["dropped"] = {"op": dropped["op"],
                       "request_id": _uuid(dropped.get("request_id"), "dropped"),
                       "record": record, "deal": deal}
    body["reason"] = reason.strip()
    return body
