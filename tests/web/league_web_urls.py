"""The site's URLs for the league pages' tests (issue 25): the league's pages of the other
parts (the match day, the PDFs) are built in parallel; until they are merged, a stand-in
view answers each of their names that the site does not have yet, so that the pages that
link them render. Once merged, this adds nothing."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from scoring import urls as scoring_urls
from skatclub.urls import handler403, handler404, handler500
from skatclub.urls import urlpatterns as site

OTHERS = {
    "match-day": "leagues/days/<int:pk>/",
    "match-day-numbers": "leagues/days/<int:pk>/numbers/",
    "match-day-report-pdf": "leagues/days/<int:pk>/report.pdf",
    "league-table-pdf": "leagues/groups/<int:pk>/table.pdf",
    "league-players-pdf": "leagues/groups/<int:pk>/players.pdf",
}


def stand_in(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse("")


_known = {getattr(p, "name", None) for p in scoring_urls.urlpatterns}
_scoring = ([*scoring_urls.urlpatterns,
             *(path(route, stand_in, name=name) for name, route in OTHERS.items()
               if name not in _known)], "scoring")

urlpatterns = [*site[:-1], path("", include(_scoring))]
__all__ = ["handler403", "handler404", "handler500", "urlpatterns"]
