"""Held operations: what tablets scored offline and sent after the evening was closed or their
table code had run out (views.sync). The club admin sees each with its deal as the sheet
would show it and accepts it (applied through the services at the table's current version;
into a closed evening only with a reason) or discards it with a reason. Both are in the
audit log; nothing is ever dropped silently.

The list is paged (reads.sheet.HELD_PAGE a page, in constant queries): a device once sent
1,000. The admin may discard in bulk, with one reason and a confirmation: every operation of
one device, or all those shown on the page. Each gets its own audit entry as one by one."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST, require_safe

from scoring.access import evening_for
from scoring.engine import SkatError
from scoring.reads.sheet import held_page
from scoring.reads.table_state import held_of_evening, waiting_held
from scoring.views.entry import _lang
from scoring.writes.services import (
    Actor,
    StaleTable,
    held_accept,
    held_discard,
    held_discard_many,
    held_of_device,
)


def _page_number(request: HttpRequest) -> int:
    raw = request.GET.get("page", "") or request.POST.get("page", "")
    return int(raw) if raw.isdecimal() and len(raw) < 7 else 1


def _page(request: HttpRequest, pk: int, *, error: str = "", error_for: int | None = None,
          bulk_error: str = "", status: int = 200) -> HttpResponse:
    evening, _member = evening_for(request, pk, admin=True)
    page = held_page(evening, _lang(), _page_number(request))
    return render(request, "scoring/sync/held.html", {
        "evening": evening, "held_page": page, "waiting": page.views,
        "decided": page.decided, "error": error, "error_for": error_for,
        "bulk_error": bulk_error,
        "shown_ids": ",".join(str(view.held.pk) for view in page.views)}, status=status)


@require_safe
def held_list(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, pk)


def _decide(request: HttpRequest, pk: int, accept: bool) -> HttpResponse:
    evening, _member = evening_for(request, pk, admin=True)
    raw = request.POST.get("held", "")
    if not (raw.isdecimal() and len(raw) < 12):
        raise Http404
    held = held_of_evening(evening, int(raw))
    if held is None:
        raise Http404
    actor = Actor(request.user, request.user.get_username(), admin=True)
    note = request.POST.get("reason", "")[:500]
    try:
        if accept:
            held_accept(held=held, actor=actor, note=note)
        else:
            held_discard(held=held, actor=actor, reason=note)
    except (SkatError, StaleTable) as err:
        message = (err.message_in(_lang()) if isinstance(err, SkatError) else
                   _stale_message())
        return _page(request, pk, error=message, error_for=held.pk, status=422)
    return redirect(_back(evening.pk, request))


def _back(pk: int, request: HttpRequest) -> str:
    page = _page_number(request)
    return reverse("scoring:held", args=[pk]) + (f"?page={page}" if page > 1 else "")


@require_POST
def held_discard_bulk_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Discard every waiting operation of one device ("device"), or those shown on the page
    ("shown": their ids), with one reason, once the admin confirmed it ("confirm")."""
    from django.contrib import messages
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    evening, _member = evening_for(request, pk, admin=True)
    waiting = waiting_held(evening)
    scope = request.POST.get("scope", "")
    if scope == "device":
        chosen = held_of_device(waiting, request.POST.get("device", "")[:160])
    elif scope == "shown":
        raw = request.POST.get("shown", "")[:25 * 13]
        ids = [int(part) for part in raw.split(",") if part.isdecimal() and len(part) < 12]
        chosen = waiting.filter(pk__in=ids[:25])
    else:
        raise Http404
    if request.POST.get("confirm") != "yes":
        return _page(request, pk, status=422, bulk_error=_(
            "Tick the box to confirm that these operations are to be discarded."))
    actor = Actor(request.user, request.user.get_username(), admin=True)
    try:
        count = held_discard_many(held=chosen, actor=actor,
                                  reason=request.POST.get("reason", "")[:500])
    except SkatError as err:
        return _page(request, pk, status=422, bulk_error=err.message_in(_lang()))
    messages.success(request, ngettext("%(count)d operation was discarded.",
                                       "%(count)d operations were discarded.", count)
                     % {"count": count})
    return redirect(_back(evening.pk, request))


def _stale_message() -> str:
    from django.utils.translation import gettext as _
    return _("Another device changed the table just now: look at it again and decide.")


@require_POST
def held_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _decide(request, pk, accept=True)


@require_POST
def held_discard_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _decide(request, pk, accept=False)


urlpatterns: list[URLPattern] = [
    path("evenings/<int:pk>/held/", held_list, name="held"),
    path("evenings/<int:pk>/held/accept/", held_accept_view, name="held-accept"),
    path("evenings/<int:pk>/held/discard/", held_discard_view, name="held-discard"),
    path("evenings/<int:pk>/held/discard-all/", held_discard_bulk_view,
         name="held-discard-bulk"),
]
