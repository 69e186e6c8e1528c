"""The director's cockpit (issue 24, item 5): a page for the organiser beside the desk.

- Every table of the series being played (or of ``?series=n``): games played of 36/48,
  minutes since the last deal, playing / finished / signed, the players' start numbers;
  folded counts on top that filter the list (slow, not finished, finished and unsigned,
  signed) and orders (table, longest without a deal, fewest games). The list part polls
  itself every 15 seconds (htmx, static/js/live.js pauses it while the page is hidden).
- The series clock: "start series" starts the running series' time limit (the tournament's
  minutes per series), counting down here and on every table screen.
- The message to every table screen of the tournament (views/table_live.py carries it with
  the table's version poll), sent and cleared here.

Club admins only (the organiser), as the desk: other members 403, other clubs and anonymous
visitors 404 (or the sign-in page). A table code sees the message on its table screen, never
this page.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.access import tournament_for
from scoring.forms.cockpit import MinutesForm, NoticeForm
from scoring.models import Tournament
from scoring.reads import cockpit as reads
from scoring.writes import cockpit as services

POLL_SECONDS = 15


def _choice(request: HttpRequest, name: str, allowed: tuple[str, ...]) -> str:
    value = request.GET.get(name, "")
    return value if value in allowed else allowed[0]


def _series(request: HttpRequest) -> int | None:
    raw = request.GET.get("series", "")
    return int(raw) if raw.isdigit() and len(raw) < 3 else None


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, object]:
    board = reads.cockpit(tournament, _series(request))
    keep = _choice(request, "show", reads.FILTERS)
    sort = _choice(request, "sort", reads.SORTS)
    query = {"series": board.series or "", "show": keep, "sort": sort}
    return {
        "tournament": tournament, "club": tournament.club, "cockpit": board,
        "tables": board.shown(keep, sort), "counts": board.counts, "show": keep,
        "sort": sort, "query": urlencode(query), "slow_minutes": reads.SLOW_MINUTES,
        "poll_seconds": POLL_SECONDS,
        "filters": [(key, board.counts[key]) for key in reads.FILTERS],
    }


@require_safe
@login_required
def cockpit_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    return render(request, "scoring/tournament/cockpit.html", {
        **_context(request, tournament),
        "minutes_form": MinutesForm(initial={"minutes": tournament.series_minutes}),
        "notice_form": NoticeForm(initial={"text": tournament.notice}),
    })


@require_safe
@login_required
def cockpit_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled part: the clock, the counts and the tables."""
    tournament, _member = tournament_for(request, pk, admin=True)
    response = render(request, "scoring/tournament/_cockpit.html",
                      _context(request, tournament))
    response["Cache-Control"] = "private, no-cache"
    return response


def _back(tournament: Tournament, request: HttpRequest) -> HttpResponse:
    url = reverse("scoring:tournament-cockpit", args=[tournament.pk])
    series = request.POST.get("series", "")
    return redirect(f"{url}?series={series}" if series.isdigit() and len(series) < 3 else url)


def _refused(request: HttpRequest, err: ValidationError) -> None:
    for message in err.messages:
        messages.error(request, message)


@require_POST
@login_required
def cockpit_start(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    raw = request.POST.get("series", "")
    try:
        if not raw.isdigit() or len(raw) > 2:
            raise ValidationError(_("Which series?"))
        draw = services.series_start(tournament=tournament, series=int(raw))
    except ValidationError as err:
        _refused(request, err)
    else:
        messages.success(request, _("Series %(number)d is started: its clock runs.")
                         % {"number": draw.number})
    return _back(tournament, request)


@require_POST
@login_required
def cockpit_clock(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    form = MinutesForm(request.POST)
    if form.is_valid():
        services.series_minutes_set(tournament=tournament,
                                    minutes=form.cleaned_data["minutes"])
        messages.success(request, _("The time limit is saved."))
    else:
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, str(message))
    return _back(tournament, request)


@require_POST
@login_required
def cockpit_notice(request: HttpRequest, pk: int) -> HttpResponse:
    tournament, _member = tournament_for(request, pk, admin=True)
    if request.POST.get("action") == "clear":
        services.notice_clear(tournament=tournament)
        messages.success(request, _("The message is cleared from the tables."))
        return _back(tournament, request)
    form = NoticeForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError([str(m) for errors in form.errors.values() for m in errors])
        services.notice_send(tournament=tournament, text=form.cleaned_data["text"])
    except ValidationError as err:
        _refused(request, err)
    else:
        messages.success(request, _("The message is sent to every table."))
    return _back(tournament, request)


urlpatterns: list[URLPattern] = [
    path("tournaments/<int:pk>/cockpit/", cockpit_page, name="tournament-cockpit"),
    path("tournaments/<int:pk>/cockpit/live/", cockpit_live, name="tournament-cockpit-live"),
    path("tournaments/<int:pk>/cockpit/start/", cockpit_start,
         name="tournament-cockpit-start"),
    path("tournaments/<int:pk>/cockpit/clock/", cockpit_clock,
         name="tournament-cockpit-clock"),
    path("tournaments/<int:pk>/cockpit/message/", cockpit_notice,
         name="tournament-cockpit-message"),
]
