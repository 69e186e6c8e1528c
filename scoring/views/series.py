"""An evening's series: the ranking across every table and series (Tagesrangliste), and
seating a series: by lot for the first, by the results so far for each next one.

Everyone in the club may look at the ranking; scorers and admins seat a series (they create
tables). The seating itself is in services.series_draw and services.series_seed.
"""

from __future__ import annotations

import random

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from scoring import access
from scoring.forms.season import SeriesForm
from scoring.models import Membership
from scoring.reads.standings import Standing, evening_ranking, tie_rule
from scoring.views.tables import evening_table
from scoring.writes import services

# The lot: a fresh draw from the system's random source each time.
LOT = random.SystemRandom()


@require_safe
@login_required
def ranking(request: HttpRequest, pk: int) -> HttpResponse:
    evening, member = access.evening_for(request, pk)
    result = evening_ranking(evening)
    season = evening.season

    def player_url(row: Standing) -> str:
        assert season is not None  # a link only where the evening has a season
        return reverse("scoring:season-player", args=[season.pk, row.player.pk])

    table = evening_table(result, player_url if season is not None else None)
    RequestConfig(request, paginate=False).configure(table)
    last = result.series[-1] if result.series else None
    return render(request, "scoring/series/ranking.html", {
        "evening": evening, "club": evening.club, "ranking": result, "table": table,
        "season": season, "tie_rule": tie_rule(), "can_score": member.can_score,
        "is_admin": member.role == Membership.Role.ADMIN,
        "can_seed": member.can_score and not evening.closed and last is not None
        and (last.complete or last.open_list),
        "can_draw": member.can_score and not evening.closed and last is None,
    })


@login_required
def series_new(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: who plays; POST: seat them. The first series by lot, later ones by results."""
    evening, _member = access.evening_for(request, pk, write=True)
    club = evening.club
    current = evening_ranking(evening)
    first = not current.series
    if first:
        initial = [p.pk for p in club.players.filter(guest=False, merged_into__isnull=True)]
    else:
        initial = [p.pk for t in current.series[-1].tables for p in t.table.players]
    if request.method == "POST":
        form = SeriesForm(request.POST, club=club)
        if form.is_valid():
            players = list(form.cleaned_data["players"])
            try:
                if first:
                    tables = services.series_draw(evening=evening, players=players, rng=LOT)
                else:
                    # the order of the players is the ranking's; the lot only breaks ties
                    tables = services.series_seed(evening=evening, players=players, rng=LOT)
            except ValidationError as err:
                for message in err.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("Series %(series)d is seated at %(count)d tables.")
                                 % {"series": tables[0].series, "count": len(tables)})
                return redirect("scoring:evening-ranking", pk=evening.pk)
    else:
        form = SeriesForm(club=club, initial={"players": initial})
    return render(request, "scoring/series/new.html", {
        "evening": evening, "club": club, "form": form, "first": first,
        "number": 1 if first else current.series[-1].number + 1, "ranking": current,
    })


urlpatterns: list[URLPattern] = [
    path("evenings/<int:pk>/ranking/", ranking, name="evening-ranking"),
    path("evenings/<int:pk>/series/new/", series_new, name="series-new"),
]
