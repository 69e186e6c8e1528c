"""The table screen stays current: a cheap version poll, and the conflict screen.

Every open table screen (static/js/table-live.js) asks ``tables/<pk>/version/`` every few
seconds what version the table is at. Only when that changed does it fetch the table screen
itself again and swap in the rows, the totals, the status header and, while the scorer has
not started a deal, the entry form: one source of truth for what the screen shows.

A poll rather than server-sent events: gunicorn runs sync workers (``WORKERS``, default 3),
and an event stream holds a worker for as long as a tablet is open, so a dozen tablets
would take every worker and the site would stop answering. A poll is a few milliseconds of
one worker, answered from one query (plus the session and the user, which every request
loads), and mostly with 304 Not Modified.

When a save or a correction meets a table another device changed (StaleTable, 409), the
screen shows both versions side by side (``conflict``): the other device's, the deals changed
since the form's version as sheet rows with their values, and this device's, scored by the
engine as it would be saved now, with the choice to append mine after theirs, keep the other
device's version, or edit mine.

A deletion or a restoration that meets a changed table (the "Undo" toast tapped after another
tablet saved, say) is answered the same way (``change_conflict``): the other device's changes
beside the deal this device wanted to delete or restore, and the totals either way. "Delete
(restore) it anyway" is offered only while that deal is as this device saw it: no change to
it since the version the request was sent at; it posts the current version, so anything
changed after the conflict was shown is refused again. A repeated tap finds its own change
carries the request ID of the first: the operation service answers it as it answered the
first (``replayed``), so it lands on the same confirmation.

The offline sync's conflict answer (``sync_conflict``) is built from the same changes
("theirs") as JSON.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, path, reverse
from django.utils import formats, timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import access
from scoring.engine import same_deal
from scoring.forms.entry import DealForm, EditForm, Rules
from scoring.models import AuditEntry, Deal, Evening, Table
from scoring.notation import short_names
from scoring.reads import cockpit
from scoring.reads.live import digest
from scoring.reads.score_sheet import ScoreSheet, SheetRow
from scoring.reads.sheet import deal_preview, deal_toggle_preview, table_sheet
from scoring.reads.table_state import (
    deal_changes_since,
    full_table,
    last_deal_changes,
    poll_row,
)
from scoring.writes.table_ops import DELETE, EDIT, RESTORE, SAVE, TableOp
from scoring.writes.table_ops import Conflict as Met

# At most this many changes are listed as "theirs" (a tablet that slept for an hour).
MAX_CHANGES = 20


# ---------------------------------------------------------------- the version poll

def _etag(pk: int, version: int, line: str = "") -> str:
    return f'"table-{pk}-v{version}{line}"'


def _tournament_line(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a tournament's table screen shows in its one line (issue 24, item 5): the
    series clock (its end in ms since the epoch, None while the director has not started
    the series) and the director's message with its time ("" none). None for a table of no
    tournament. ``now`` is the server's time, which the screen's countdown follows."""
    if row["evening__tournament__id"] is None:
        return None
    started, notice_at = row["started"], row["evening__tournament__notice_at"]
    ends = (started + timedelta(minutes=row["evening__tournament__series_minutes"])
            if started else None)
    notice = row["evening__tournament__notice"] if notice_at else ""
    return {
        "series": row["series"],
        "ends": int(ends.timestamp() * 1000) if ends else None,
        "notice": notice,
        "notice_at": formats.time_format(timezone.localtime(notice_at), "H:i")
        if notice else "",
        "notice_id": f"{notice_at.timestamp():.6f}" if notice else "",
        "now": int(cockpit.now().timestamp() * 1000),
    }


@require_safe
def table_version(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's version, for whoever may see the table screen: a member of its club (any
    role) or a device holding its code; anyone else gets 404, as on the screen itself
    (access.table_for). One query: the table, its evening and the user's role in its club."""
    user = request.user
    # The tournament's clock and message come with the same query (issue 24, item 5).
    row = poll_row(pk, user.pk if user.is_authenticated else None)
    if row is None:
        raise Http404
    if row.get("role") is None:
        # The same check as every other view of the table: the code in the session is the
        # table's and the evening's codes are valid now.
        table = Table(pk=pk, access_code=row["access_code"], evening=Evening(
            date=row["evening__date"], closed=row["evening__closed"]))
        if not access.has_grant(request, table):
            raise Http404
    line = _tournament_line(row)
    # The line's clock end and message enter the ETag (not ``now``: a 304 keeps the
    # screen's count, which runs on by itself).
    etag = _etag(pk, row["version"], "" if line is None else "-" + digest(
        line["ends"], line["notice_id"], line["notice"]))
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        answer: dict[str, Any] = {"version": row["version"]}
        if line is not None:
            answer["tournament"] = line
        response = JsonResponse(answer)
    response["ETag"] = etag
    # Always asked again (never a stale answer from a cache), for this session only.
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["Cookie"])
    return response


# ---------------------------------------------------------------- conflicts

@dataclass
class Change:
    """A deal the other device changed since the form was shown, as it stands now."""

    deal_id: int
    number: int  # the deal's position at the table (its "entry" number)
    actions: list[str] = field(default_factory=list)  # "recorded", "corrected" … in order
    actor: str = ""
    at: Any = None  # when the last of them was made
    row: SheetRow | None = None  # None: deleted now
    entries: list[tuple[str, int]] = field(default_factory=list)  # (player, entry) of row
    same: bool = False  # exactly the record of "mine"


@dataclass
class Conflict:
    kind: str  # what this device wanted: "save" a new deal, "edit", "delete" or "restore"
    theirs: list[Change]
    mine: SheetRow | None  # mine scored by the engine as it would be saved now
    mine_entries: list[tuple[str, int]]
    mine_errors: list[str]
    theirs_totals: list[tuple[str, int]]
    mine_totals: list[tuple[str, int]]
    action: str  # where "save mine" posts
    fields: list[tuple[str, str]]  # mine, as posted (without the token and the version)
    version: int  # the table's version now
    same: bool  # one of theirs is exactly mine: most likely the same deal twice
    more: int  # changes left out of ``theirs``
    can_edit: bool  # mine can still be edited in the form (a corrected deal is not deleted)

    @property
    def edit(self) -> bool:
        """A correction of a deal (else a new deal, a deletion or a restoration)."""
        return self.kind == "edit"


def _since(request: HttpRequest) -> int | None:
    """The version the request's form was shown at."""
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdecimal() and len(raw) < 12 else None


def _request_id(request: HttpRequest) -> str:
    """The request ID "mine anyway" posts again: the refused post's (a conflict stored
    nothing under it), or a new one for a page served without."""
    raw = request.POST.get("request_id", "")
    return raw[:64] if raw else str(uuid.uuid4())


def _theirs(table: Table, sheet: ScoreSheet, since: int | None) -> tuple[list[Change], int]:
    """The deals changed since version ``since``: every change bumps the version by one and
    writes one audit entry in the same transaction, so they are the table's last
    ``version - since`` audit entries of its deals (what became of a tablet's queued
    operations is logged too, naming no deal and changing no version)."""
    count = table.version - since if since is not None else 0
    if count <= 0:
        return [], 0
    entries = last_deal_changes(table, min(count, MAX_CHANGES))
    rows = {row.deal_id: row for row in sheet.rows}
    names = short_names(sheet)  # as the last rows name them: narrow enough for a phone
    positions = {d.pk: d.position for d in table.deals.all()}
    changes: dict[int, Change] = {}
    for deal_id, action, actor, at in entries:
        change = changes.setdefault(deal_id, Change(deal_id, positions.get(deal_id, 0)))
        change.actions.append(str(AuditEntry.Action(action).label))
        change.actor = actor
        change.at = at
    for change in changes.values():
        change.row = rows.get(change.deal_id)
        if change.row is not None:
            change.entries = [(names[s], e) for s, e in enumerate(change.row.entries)
                              if e is not None]
    return list(changes.values()), max(0, count - MAX_CHANGES)


def conflict(request: HttpRequest, table: Table, sheet: ScoreSheet, rules: Rules, lang: str,
             deal: Deal | None = None) -> Conflict:
    """Both versions after a refused save (``deal`` None) or correction (of ``deal``).

    ``table`` is fetched with tables_with_everything and ``sheet`` is its current sheet.
    Mine is read from the request the way the save would read it and scored by the engine
    against the table as it is now: what "save mine" would write, or why it cannot."""
    theirs, more = _theirs(table, sheet, _since(request))
    row_of = {row.deal_id: row for row in sheet.rows}
    form: DealForm
    if deal is None:
        form = DealForm(request.POST, rules=rules, active=range(rules.players))
        action = reverse("scoring:deal-save", args=[table.pk])
    else:
        current = row_of.get(deal.pk)
        form = EditForm(request.POST, rules=rules,
                        active=list(current.active) if current else list(sheet.next_active))
        action = reverse("scoring:deal-edit", args=[table.pk, deal.pk])
    mine = None
    errors: list[str] = []
    record: dict[str, Any] | None = None
    if form.is_valid() and form.record is not None:
        record = form.record.to_json()  # the edge: a preview and same_deal read JSON
        if deal is not None and deal.pk not in row_of:
            errors.append(_("The other device deleted this deal: restore it before "
                            "correcting it."))
        else:
            preview = deal_preview(table, record, lang, replace=deal)
            if preview.error is not None:
                errors.append(preview.error.message_in(lang))
            else:
                mine = preview.row
    else:
        errors = form.all_messages()
    if record is not None:
        records = {d.pk: d.record for d in table.deals.all() if not d.deleted}
        # The same deal, wherever it stands: both records as the engine reads them.
        for change in theirs:
            change.same = change.row is not None and same_deal(records.get(change.deal_id),
                                                               record)
    if deal is not None:  # the deal itself first: their version of it beside mine
        theirs.sort(key=lambda change: change.deal_id != deal.pk)
    players = short_names(sheet)
    fields = [(name, value) for name in request.POST
              for value in request.POST.getlist(name)
              if name not in ("csrfmiddlewaretoken", "version", "request_id")]
    fields.append(("request_id", _request_id(request)))
    return Conflict(
        kind="save" if deal is None else "edit", theirs=theirs, mine=mine,
        mine_entries=[(players[s], e) for s, e in enumerate(mine.entries) if e is not None]
        if mine else [],
        mine_errors=errors,
        # Totals after each choice; a correction's row shows only the running totals at that
        # deal, so the totals are compared for an appended deal only.
        theirs_totals=list(zip(players, sheet.totals, strict=True)) if deal is None else [],
        mine_totals=list(zip(players, mine.totals, strict=True)) if mine and deal is None
        else [],
        action=action, fields=fields, version=table.version,
        same=any(change.same for change in theirs), more=more,
        can_edit=deal is None or deal.pk in row_of)


def _deal_changes(table: Table, deal: Deal, since: int | None,
                  ) -> list[tuple[str, str, str]] | None:
    """(action, actor, reason) of every change to ``deal`` since version ``since``, oldest
    first; None when ``since`` is no version the table has had."""
    if since is None or since > table.version:
        return None
    count = table.version - since
    if count == 0:
        return []
    # The table's last ``count`` audit entries are the changes since then (see _theirs).
    return deal_changes_since(table, deal, count)


def change_conflict(request: HttpRequest, table: Table, sheet: ScoreSheet, deal: Deal,
                    action: str, reason: str, lang: str) -> Conflict:
    """Both versions after a refused deletion or restoration (``action``) of ``deal``.

    ``table`` is fetched with tables_with_everything and ``sheet`` is its current sheet. The
    other device's changes since the request's version, the deal itself first; beside them
    the deal this device wanted to delete (as it counts now) or restore (as it would count),
    and the totals after it. Doing it anyway is offered only when nothing changed the deal
    since that version and the engine accepts the table without (with) it."""
    since = _since(request)
    theirs, more = _theirs(table, sheet, since)
    theirs.sort(key=lambda change: change.deal_id != deal.pk)
    current = next(d for d in table.deals.all() if d.pk == deal.pk)
    delete = action == "delete"
    changes = _deal_changes(table, deal, since)
    players = short_names(sheet)
    errors: list[str] = []
    mine = None
    totals: list[int] = []
    if current.deleted == delete:
        errors.append(_("The other device already deleted this deal.") if delete
                      else _("The other device already restored this deal."))
    elif changes is None or changes:
        errors.append(_("The other device changed this deal since you saw it: look at it "
                        "again before deleting it.") if delete else
                      _("The other device changed this deal since you saw it: look at it "
                        "again before restoring it."))
    else:
        preview = deal_toggle_preview(table, current, lang)
        if preview.error is not None:  # which deal it is about: the scorer looks for it
            message = preview.error.message_in(lang)
            errors.append(message if preview.error.deal is None else _(
                "Deal %(number)s: %(message)s") % {"number": preview.error.deal,
                                                     "message": message})
        else:
            mine = next((row for row in sheet.rows if row.deal_id == deal.pk), None) \
                if delete else preview.row
            totals = preview.totals
    return Conflict(
        kind=action, theirs=theirs, mine=mine,
        mine_entries=[(players[s], e) for s, e in enumerate(mine.entries) if e is not None]
        if mine else [],
        mine_errors=errors,
        theirs_totals=list(zip(players, sheet.totals, strict=True)),
        mine_totals=list(zip(players, totals, strict=True)) if totals else [],
        action=reverse(f"scoring:deal-{action}", args=[table.pk, deal.pk]),
        fields=[("reason", reason), ("request_id", _request_id(request))],
        version=table.version, same=False, more=more,
        can_edit=False)


# ---------------------------------------------------------------- the offline sync's conflict

def _row(row: SheetRow | None, names: list[str]) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"number": row.number, "deal": row.deal_id or None, "game": str(row.game),
            "symbol": row.symbol, "details": [str(d) for d in row.details],
            "result": str(row.result), "value": row.value,
            "entries": [{"player": names[s], "entry": e} for s, e in enumerate(row.entries)
                        if e is not None]}


def sync_conflict(op: TableOp, met: Met) -> dict[str, Any]:
    """Both versions of a queued operation that met a changed table (as the conflict
    screen shows them), as the sync contract's JSON."""
    full = full_table(op.table.pk)
    lang = op.lang
    sheet = table_sheet(full, lang, explain=False)
    names = short_names(sheet)
    theirs, more = _theirs(full, sheet, met.since)
    if met.deal_id is not None:
        theirs.sort(key=lambda change: change.deal_id != met.deal_id)
    mine_row, error, totals = None, None, None
    current = next((d for d in full.deals.all() if d.pk == met.deal_id), None)
    kind = op.kind
    if op.record is not None and (kind == SAVE or (
            kind == EDIT and current is not None and not current.deleted)):
        preview = deal_preview(full, op.record, lang, replace=current)
        if preview.error is not None:
            error = {"field": preview.error.field, "message": preview.error.message_in(lang)}
        else:
            mine_row = preview.row
            if kind == SAVE and preview.row is not None:
                totals = preview.row.totals
    elif kind == EDIT:
        error = {"field": "deal", "message": _(
            "The other device deleted this deal: restore it before correcting it.")}
    elif current is not None and current.deleted == (kind == DELETE):
        error = {"field": "deal", "message": _("The other device already deleted this deal.")
                 if kind == DELETE else _("The other device already restored this deal.")}
    elif current is not None:
        preview = deal_toggle_preview(full, current, lang)
        if preview.error is not None:
            error = {"field": None, "message": preview.error.message_in(lang)}
        else:
            # A deletion shows the deal as it counts now; a restoration as it would count.
            mine_row = preview.row if kind == RESTORE else next(
                (row for row in sheet.rows if row.deal_id == current.pk), None)
            totals = preview.totals
    if op.record is not None:  # one of theirs is exactly mine: most likely the same deal
        records = {d.pk: d.record for d in full.deals.all() if not d.deleted}
        for change in theirs:
            change.same = change.row is not None and same_deal(records.get(change.deal_id),
                                                               op.record)
    mine = _row(mine_row, names)
    if mine is not None and kind == DELETE:
        mine["deleted"] = True
    return {
        "status": "conflict", "version": full.version, "op": kind, "more": more,
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


urlpatterns: list[URLPattern] = [
    path("tables/<int:pk>/version/", table_version, name="table-version"),
]
