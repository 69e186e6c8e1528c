"""The score sheet of a table, the organiser's evening overview and the audit log.

Every page reads through the selectors with a constant number of queries: the table (or all
tables of the evening) with seats and deals in three queries, however many deals there are.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.access import deal_for, evening_for, table_for
from scoring.models import AuditEntry, Evening, Membership
from scoring.notation import record_summary
from scoring.reads import export, live
from scoring.reads.audit import (
    actor_and_offline,
    corrections_after_signing,
    deal_sheet_number,
    evening_seat_names,
    evening_sheet_numbers,
    table_seat_names,
)
from scoring.reads.change_words import (
    changed_fields,
    cleared_words,
    evening_entry_words,
    signature_words,
)
from scoring.reads.deal_labels import RECORD_NAMES
from scoring.reads.evening import held_waiting, paper_totals
from scoring.reads.sheet import (
    audit_for_deal,
    audit_for_evening,
    evening_tables,
    table_in_full,
    table_sheet,
)

LAYOUTS = ("standard", "historical")


def _lang() -> str:
    return "en" if (get_language() or "de").startswith("en") else "de"


def _layout(request: HttpRequest) -> str:
    layout = request.GET.get("layout", "standard")
    return layout if layout in LAYOUTS else "standard"


def _sheet_context(request: HttpRequest, pk: int) -> dict[str, Any]:
    """The sheet of a table the request may see (access checked by the caller)."""
    table = table_in_full(pk)
    sheet = table_sheet(table, _lang())
    sheet.corrections = corrections_after_signing(table)  # marked and said (issue 36)
    return {"sheet": sheet, "table": table, "evening": table.evening,
            "layout": _layout(request)}


@require_safe
def sheet(request: HttpRequest, pk: int) -> HttpResponse:
    table_for(request, pk)  # 404 for strangers, before anything is read
    return render(request, "scoring/sheet/sheet.html", _sheet_context(request, pk))


@require_safe
def sheet_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet as CSV for a spreadsheet: the same rows and the same access as the page."""
    table_for(request, pk)  # 404 for strangers, before anything is read
    table = table_in_full(pk)
    sheet = table_sheet(table, _lang(), explain=False)  # a spreadsheet has no tooltips
    response = HttpResponse(export.sheet_csv(sheet), content_type="text/csv; charset=utf-8")
    name = f"{table.evening.date:%Y-%m-%d}-{_('table')}-{table.number}"
    if table.series > 1:
        name += f"-{_('series')}-{table.series}"
    disposition = content_disposition_header(True, f"{name}.csv")
    if disposition is not None:  # None only for an inline file without a name
        response["Content-Disposition"] = disposition
    response["Cache-Control"] = "private, no-cache"
    return response


# ---------------------------------------------------------------- polled pages
#
# The sheet fragment (every 10 s on each open sheet) and the evening's live overview (every
# 5 s) are what thousands of viewers poll. Each is answered from the digest of what it shows
# (reads/live.py): 304 when the browser's copy (If-None-Match) is current, else the HTML kept
# in the shared cache under that digest, rendered only when no process has rendered it yet;
# the overview re-renders only the tables whose digest changed.

POLLED = "default"  # the shared cache
POLLED_SECONDS = 15 * 60  # long enough for every poll of a state; old states age out


def _not_modified(request: HttpRequest, etag: str) -> bool:
    asked = request.headers.get("If-None-Match", "")
    return etag in [tag.strip() for tag in asked.split(",")]


def _polled(request: HttpRequest, etag: str, html: str | None) -> HttpResponse:
    """The answer of a polled page: 304 (``html`` None) or the HTML, with its ETag; always
    revalidated (the browser then sends If-None-Match by itself), for this session only."""
    response = HttpResponse(status=304) if html is None else HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
def sheet_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    table, _actor = table_for(request, pk)  # 404 for strangers, before anything is read
    lang, layout = _lang(), _layout(request)
    name = "scoring/sheet/_sheet.html"
    state = live.digest(live.table_state(table), lang, layout, live.template_digest(name))
    etag = f'"sheet-{table.pk}-{state}"'
    if _not_modified(request, etag):
        return _polled(request, etag, None)
    cache = caches[POLLED]
    key = f"polled:sheet:{table.pk}:{state}"
    html: str | None = cache.get(key)
    if html is None:
        html = render_to_string(name, _sheet_context(request, pk), request)
        cache.set(key, html, POLLED_SECONDS)
    return _polled(request, etag, html)


# ---------------------------------------------------------------- the evening overview
#
# At a Preisskat the overview shows hundreds of tables (about 3.5 kB of HTML each) and some
# table changes every second, so a poll rarely finds the whole overview unchanged; sending it
# whole every 5 s to each of hundreds of viewers would be megabytes a second. A poll names the
# overview it shows (If-None-Match, set by static/js/live.js from the ETag of the answer it
# last applied) and gets only the tables changed since, as out-of-band swaps; the whole
# overview only when it shows no overview this site remembers, or when tables came, went or
# moved.

LAST_ROWS = 5  # rows of each table on the evening overview (polled every few seconds)
TABLE_ARTICLE = "scoring/sheet/_evening_table.html"


class Overview(NamedTuple):
    """What every table's article depends on besides its own state."""
    multi: bool  # more than one series: each table is named with its series
    context: str  # the digest of that, the language, the rows shown and the template


def _overview(states: list[live.TableState]) -> Overview:
    """The overview of all these tables (a poll's changed tables are named as among all)."""
    multi = any(series > 1 for _pk, series, _digest in states)
    return Overview(multi, live.digest(_lang(), multi, LAST_ROWS,
                                       live.template_digest(TABLE_ARTICLE)))


def _overview_etag(evening_pk: int, context: str, states: live.EveningStates) -> str:
    """The overview's ETag names what it shows: the context and the tables' states."""
    return f'"evening-{evening_pk}-{context}-{states.digest}"'


def _changed_since(request: HttpRequest, evening_pk: int, context: str,
                   states: list[live.TableState]) -> list[live.TableState] | None:
    """The tables whose state changed since the overview the poller shows (its
    If-None-Match); None when the whole overview must be sent: an overview not known (none
    named, or too long ago), another language, or tables added, removed or reordered since."""
    prefix = f'"evening-{evening_pk}-{context}-'
    shown = next((tag.strip()[len(prefix):-1]
                  for tag in request.headers.get("If-None-Match", "").split(",")
                  if tag.strip().startswith(prefix) and tag.strip().endswith('"')), None)
    before = None if shown is None else live.shown_states(evening_pk, shown)
    if before is None or [pk for pk, _, _ in before] != [pk for pk, _, _ in states]:
        return None
    return [state for state, old in zip(states, before, strict=True) if old != state]


def _evening_articles(request: HttpRequest, evening: Evening, states: list[live.TableState],
                      overview: Overview) -> list[tuple[int, str]]:
    """The articles of the tables in ``states`` (pk and HTML, in that order): from the shared
    cache, and the engine and the template only for tables changed since any process last
    rendered them (two queries for those, however many)."""
    multi, context = overview
    keys = {pk: f"polled:evening-table:{pk}:{digest}:{context}"
            for pk, _series, digest in states}
    cache = caches[POLLED]
    found: dict[str, str] = cache.get_many(list(keys.values())) if keys else {}
    missing = [pk for pk, key in keys.items() if key not in found]
    if missing:
        basis = live.evening_basis(evening)
        fresh = {}
        for table in evening_tables(evening).filter(pk__in=missing):
            table.evening = evening  # the same evening, already read: no query
            html = render_to_string(TABLE_ARTICLE, {
                "sheet": table_sheet(table, _lang(), explain=False, last_rows=LAST_ROWS),
                "multi_series": multi, "last_rows": LAST_ROWS}, request)
            # under the state it was read in (a save since the states were read gets a key
            # of its own, never this one)
            fresh[f"polled:evening-table:{table.pk}:{live.fetched_state(table, basis)}:"
                  f"{context}"] = html
            found[keys[table.pk]] = html
        cache.set_many(fresh, POLLED_SECONDS)
    return [(pk, mark_safe(found[keys[pk]])) for pk, _, _ in states if keys[pk] in found]  # noqa: S308 (our own template's output)


def _whole_overview(request: HttpRequest, evening: Evening, states: list[live.TableState],
                    overview: Overview, etag: str) -> str:
    """Every table of the overview (for a poll): one read of the shared cache when any process
    rendered this state before."""
    cache = caches[POLLED]
    key = f"polled:evening:{etag}"
    html: str | None = cache.get(key)
    if html is None:
        html = render_to_string("scoring/sheet/_evening_tables.html", {
            "articles": _evening_articles(request, evening, states, overview),
            "swap_oob": True}, request)
        cache.set(key, html, POLLED_SECONDS)
    return html


@require_safe
def evening(request: HttpRequest, pk: int) -> HttpResponse:
    evening_obj, member = evening_for(request, pk)
    states = live.evening_states(evening_obj)
    tables = states.tables
    overview = _overview(tables)
    context: dict[str, Any] = {
        "evening": evening_obj, "member": member,
        "articles": _evening_articles(request, evening_obj, tables, overview),
        "overview_etag": _overview_etag(evening_obj.pk, overview.context, states),
        "is_admin": member.role == Membership.Role.ADMIN}
    if context["is_admin"]:  # what tablets sent after closing or with a stale code
        context["held_waiting"] = held_waiting(evening_obj)
    context["paper_totals"] = paper_totals(evening_obj)
    return render(request, "scoring/sheet/evening.html", context)


@require_safe
def evening_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The overview's poll: 304 when unchanged; else the tables changed since the overview
    the poller shows, or the whole overview. The tables' states come from the shared cache
    (reads/live.py), however many tables."""
    evening_obj, _member = evening_for(request, pk)
    states = live.evening_states(evening_obj)
    tables = states.tables
    overview = _overview(tables)
    etag = _overview_etag(evening_obj.pk, overview.context, states)
    if _not_modified(request, etag):
        return _polled(request, etag, None)
    changed = _changed_since(request, evening_obj.pk, overview.context, tables)
    if changed is None:
        html = _whole_overview(request, evening_obj, tables, overview, etag)
    else:
        html = render_to_string("scoring/sheet/_evening_changes.html", {
            "articles": _evening_articles(request, evening_obj, changed, overview)}, request)
    return _polled(request, etag, html)


# ---------------------------------------------------------------- the audit log

# The audit log stores who wrote a deal as text, in the language of the device that wrote it
# ("Tischcode, Tisch 2"); a table code's words are put into the reader's language here.
_TABLE_CODE = re.compile(r"^(?:table code, table|Tischcode, Tisch) (\d+)$")


def actor_label(entry: AuditEntry) -> str:
    actor, _offline = actor_and_offline(entry.actor)
    if entry.user_id is None:
        match = _TABLE_CODE.match(actor)
        if match:
            return _("table code, table %(number)d") % {"number": int(match[1])}
    return actor


def _audit_rows(entries: list[AuditEntry], seats_by_table: dict[int, list[str]],
                lang: str, numbers: dict[int, int | None] | None = None,
                ) -> list[dict[str, Any]]:
    """The rows of the audit table; ``numbers`` names each deal by its number on the sheet
    (reads.sheet.sheet_numbers)."""
    rows = []
    numbers = numbers or {}
    for entry in entries:
        evening = entry.evening
        players = (seats_by_table.get(entry.table_id, []) if entry.table_id is not None
                   else [])
        if entry.action == AuditEntry.Action.SIGN:
            # who signed, how proved, by which account, device and address (issue 35)
            rows.append({"entry": entry, "actor": actor_label(entry), "before": "",
                         "after": signature_words(entry.after), "changes": []})
            continue
        if entry.action == AuditEntry.Action.UNSIGN:
            rows.append({"entry": entry, "actor": actor_label(entry),
                         "before": cleared_words(entry.before), "after": "", "changes": []})
            continue
        if entry.table_id is None:  # the evening itself: closed, imported, drawn unsigned
            rows.append({"entry": entry, "actor": actor_label(entry), "before": "",
                         "after": evening_entry_words(entry.action, entry.after),
                         "changes": []})
            continue
        if entry.deal_id is None and (entry.after is not None
                                      or entry.action == AuditEntry.Action.DROP):
            # What a tablet sent that was refused, held or dropped: not always a deal record
            # the sheet's words can describe, so shown as sent when they cannot (a dropped
            # deletion has no record: its reason says what it was).
            after = ("" if entry.after is None
                     else _sent_words(entry.after, evening, players, lang))
            rows.append({"entry": entry, "actor": actor_label(entry), "before": "",
                         "after": after, "changes": []})
            continue
        rows.append({
            "entry": entry,
            "actor": actor_label(entry),
            "offline": actor_and_offline(entry.actor)[1],
            "number": numbers.get(entry.deal_id) if entry.deal_id is not None else None,
            "before": record_summary(entry.before, evening.rules, evening.options, players, lang),
            "after": record_summary(entry.after, evening.rules, evening.options, players, lang),
            "changes": changed_fields(entry.before, entry.after, evening.rules,
                                      evening.options, players, lang),
        })
    return rows


def _sent_words(record: Any, evening: Any, players: list[str], lang: str) -> str:
    """What a tablet sent, in the sheet's words where it is a deal record of a kind the sheet
    knows, else as sent (never "None": issue 36)."""
    if record is None:
        return ""
    if not isinstance(record, dict) or (record.get("kind") != "game"
                                        and str(record.get("kind")) not in RECORD_NAMES):
        return json.dumps(record, ensure_ascii=False, sort_keys=True)[:300]
    try:
        return record_summary(record, evening.rules, evening.options, players, lang)
    except Exception:  # noqa: BLE001 - a record the engine refused may be any JSON object
        return json.dumps(record, ensure_ascii=False, sort_keys=True)[:300]


@require_safe
def evening_audit(request: HttpRequest, pk: int) -> HttpResponse:
    evening_obj, _member = evening_for(request, pk)
    seats_by_table = evening_seat_names(evening_obj)
    entries = list(audit_for_evening(evening_obj))
    for entry in entries:
        entry.evening = evening_obj  # already loaded: no query per row
    numbers = evening_sheet_numbers(evening_obj)
    return render(request, "scoring/sheet/audit.html", {
        "evening": evening_obj,
        "rows": _audit_rows(entries, seats_by_table, _lang(), numbers),
    })


@require_safe
def deal_history(request: HttpRequest, pk: int, deal: int) -> HttpResponse:
    table, _actor = table_for(request, pk)
    deal_obj = deal_for(request, table, deal)
    players = table_seat_names(table)
    entries = list(audit_for_deal(deal_obj))
    for entry in entries:
        entry.evening = table.evening
        entry.table = table
    number = deal_sheet_number(deal_obj)
    return render(request, "scoring/sheet/history.html", {
        "table": table, "evening": table.evening, "deal": deal_obj, "number": number,
        "rows": _audit_rows(entries, {table.pk: players}, _lang()),
    })


urlpatterns: list[URLPattern] = [
    path("tables/<int:pk>/sheet/", sheet, name="sheet"),
    path("tables/<int:pk>/sheet.csv", sheet_csv, name="sheet-csv"),
    path("tables/<int:pk>/sheet/fragment/", sheet_fragment, name="sheet-fragment"),
    path("tables/<int:pk>/deals/<int:deal>/history/", deal_history, name="deal-history"),
    path("evenings/<int:pk>/", evening, name="evening"),
    path("evenings/<int:pk>/live/", evening_live, name="evening-live"),
    path("evenings/<int:pk>/audit/", evening_audit, name="evening-audit"),
]
