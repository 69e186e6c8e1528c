"""A team league's PDFs (issue 25): the match-day report (Spielbericht), a group's league
table and its players' ranking (scoring/pdf/league.py), each rendered once per version of
what it prints and served as the other PDFs are (views/printed.py: the cache, the ETag, the
"busy" page with Retry-After).

Access as for the league's pages: its readers (access.league_access); the report also for
the day's host. Anonymous users go to the login page; signed-in users who are not readers get
404. A public league's table and ranking are for anyone with the key of its public page, at
``/l/<key>/groups/<pk>/…`` (never by number alone; the report is not public: it carries the
captains' signatures)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.views.decorators.http import require_safe

from scoring.access import league_access, match_day_for
from scoring.models import LeagueGroup
from scoring.pdf.league import players_document, report_document, table_document
from scoring.reads.league import group_of, public_group
from scoring.views.printed import pdf_response


def _group(request: HttpRequest, pk: int) -> LeagueGroup | HttpResponse:
    """The group for its league's readers (a public league's for anyone else only with its
    key: ``_public_group``)."""
    group = group_of(pk)
    if group is None:
        raise Http404
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not league_access(request, group.league).reader:
        raise Http404
    return group


@require_safe
@login_required
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    day, _access = match_day_for(request, pk)
    return pdf_response(request, report_document(day))


@require_safe
def table_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    group = _group(request, pk)
    if isinstance(group, HttpResponse):
        return group
    return pdf_response(request, table_document(group))


@require_safe
def players_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    group = _group(request, pk)
    if isinstance(group, HttpResponse):
        return group
    return pdf_response(request, players_document(group))


def _public_group(key: str, pk: int) -> LeagueGroup:
    group = public_group(key, pk)
    if group is None:
        raise Http404
    return group


@require_safe
def public_table_pdf(request: HttpRequest, key: str, pk: int) -> HttpResponse:
    return pdf_response(request, table_document(_public_group(key, pk)))


@require_safe
def public_players_pdf(request: HttpRequest, key: str, pk: int) -> HttpResponse:
    return pdf_response(request, players_document(_public_group(key, pk)))


urlpatterns: list[URLPattern] = [
    path("leagues/days/<int:pk>/report.pdf", report_pdf, name="match-day-report-pdf"),
    path("leagues/groups/<int:pk>/table.pdf", table_pdf, name="league-table-pdf"),
    path("leagues/groups/<int:pk>/players.pdf", players_pdf, name="league-players-pdf"),
    path("l/<str:key>/groups/<int:pk>/table.pdf", public_table_pdf,
         name="league-public-table-pdf"),
    path("l/<str:key>/groups/<int:pk>/players.pdf", public_players_pdf,
         name="league-public-players-pdf"),
]
