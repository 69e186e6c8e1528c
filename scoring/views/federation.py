"""The federation ranking: every club's players of a year by Seeger-Fabian points
(reads/federation.py), one indexed query however many clubs there are.

Members of any club of the site and the site's staff may look (access.federation_reader);
anonymous visitors are sent to sign in, an account of no club is refused.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.views.decorators.http import require_safe

from scoring import access
from scoring.forms.federation import RankingForm
from scoring.reads.federation import federation_ranking

PER_PAGE = 100


@require_safe
def ranking_view(request: HttpRequest) -> HttpResponse:
    if not access.federation_reader(request):
        return redirect_to_login(request.get_full_path())
    form = RankingForm(request.GET or None)
    year, least = form.choice()
    ranking = federation_ranking(year, least)
    page = Paginator(ranking.ranked, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "scoring/federation/ranking.html", {
        "form": form, "ranking": ranking, "page": page, "query": query.urlencode(),
    })


urlpatterns: list[URLPattern] = [
    path("federation/ranking/", ranking_view, name="federation-ranking"),
]
