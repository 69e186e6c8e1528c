"""Held operations: what tablets scored offline and sent after the evening was closed or their
table code had run out (views.sync). The club admin sees each with its deal as the sheet
would show it and accepts it (applied through the services at the table's current version;
into a closed evening only with a reason) or discards it with a reason. Both are in the
audit log; nothing is ever dropped silently."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST, require_safe

from scoring.access import evening_for
from scoring.engine import SkatError
from scoring.models import HeldOperation
from scoring.reads.sheet import held_for_evening
from scoring.views.entry import _lang
from scoring.writes.services import Actor, StaleTable, held_accept, held_discard


def _page(request: HttpRequest, pk: int, *, error: str = "", error_for: int | None = None,
          status: int = 200) -> HttpResponse:
    evening, _member = evening_for(request, pk, admin=True)
    waiting, decided = held_for_evening(evening, _lang())
    return render(request, "scoring/sync/held.html", {
        "evening": evening, "waiting": waiting, "decided": decided, "error": error,
        "error_for": error_for}, status=status)


@require_safe
def held_list(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, pk)


def _decide(request: HttpRequest, pk: int, accept: bool) -> HttpResponse:
    evening, _member = evening_for(request, pk, admin=True)
    raw = request.POST.get("held", "")
    if not (raw.isdecimal() and len(raw) < 12):
        raise Http404
    held = HeldOperation.objects.select_related("table", "deal").filter(
        pk=int(raw), table__evening=evening).first()
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
    return redirect(reverse("scoring:held", args=[evening.pk]))


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
]
