"""Seasons: the season table (Saisontabelle) with its PDF, a player's season with charts, and
the season's settings.

Everyone in the club may look; only the club's admins create and change seasons. Another
club's season or player does not exist here (404). Every number is derived from the raw deals
(standings.py) with a constant number of queries per page.
"""

from __future__ import annotations

import copy
import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from scoring import access
from scoring.forms.season import SeasonForm
from scoring.models import Evening, Membership, Season
from scoring.notation import decimal1
from scoring.pdf.standings import standings_document
from scoring.reads import charts, live
from scoring.reads.sheet import game_label, table_sheet, tables_of_player
from scoring.reads.standings import (
    TENTH,
    PlayerSeason,
    Standing,
    counting_rule,
    player_season,
    season_standings,
    tie_rule,
)
from scoring.views.printed import pdf_response
from scoring.views.sheet import POLLED, POLLED_SECONDS
from scoring.views.tables import SeasonTable, season_table
from scoring.writes import services

if TYPE_CHECKING:
    from django.http.request import _ImmutableQueryDict


def _lang() -> str:
    return "en" if (get_language() or "de").startswith("en") else "de"


def _player_url(season: Season) -> Any:
    """Each row's link to its player's season page: reversed once for the table, not once
    per row (a Preisskat's season table has a thousand rows, rendered after every change)."""
    head, _, tail = reverse("scoring:season-player", args=[season.pk, 0]).rpartition("/0/")

    def url(row: Standing) -> str:
        return f"{head}/{row.player.pk}/{tail}"
    return url


# ---------------------------------------------------------------- the season table

# How long viewers may see the last season table while one worker computes the new one (a
# worker that died while computing holds the others no longer than this).
SEASON_STALE_SECONDS = 10


def season_query(request: HttpRequest) -> _ImmutableQueryDict:
    """The season table's own parameters of the query string, normalised: the column it is
    sorted by (django-tables2's "sort": one column of the table, "-" before it for
    descending). Anything else is ignored, so that it cannot make a cached body of its own:
    a flood of ``?x=<uuid>`` would fill the shared cache and push other entries out."""
    sort = next((name for name in (part.strip() for part in request.GET.get("sort", "")
                                   .split(",")) if name.lstrip("-") in SeasonTable.base_columns),
                None)
    return QueryDict(urlencode({"sort": sort}) if sort else None)


@require_safe
@login_required
def season_view(request: HttpRequest, pk: int) -> HttpResponse:
    season, member = access.season_for(request, pk)
    is_admin = member.role == Membership.Role.ADMIN
    # The page's body is kept in the shared cache under the digest of everything it is
    # computed from (five cheap queries), for every viewer: it is scored and rendered once
    # per change of the season, not once per request (a Preisskat's 1,000 rows cost ~80 ms).
    name = "scoring/season/_season_body.html"
    # The body is computed from the recognised parameters only (the sort links in it too).
    clean = copy.copy(request)
    clean.GET = season_query(request)
    variant = live.digest(_lang(), clean.GET.urlencode(), is_admin,
                          live.template_digest(name))
    key = f"polled:season:{season.pk}:{variant}:{live.season_state(season)}"
    cache = caches[POLLED]
    body: str | None = cache.get(key)
    if body is None:
        # After a save every viewer's next request misses at once; one worker computes the
        # new table while the others show the last one (SEASON_STALE_SECONDS at most),
        # rather than all of them scoring the same season side by side.
        latest, computing = (f"polled:season-latest:{season.pk}:{variant}",
                             f"polled:season-computing:{season.pk}:{variant}")
        stale: str | None = cache.get(latest)
        mine = stale is None or cache.add(computing, 1, SEASON_STALE_SECONDS)
        if not mine:
            body = stale
        else:  # nothing to show meanwhile (the first request), or this worker computes
            try:
                standings = season_standings(season)
                table = season_table(standings, _player_url(season))
                RequestConfig(clean, paginate=False).configure(table)
                body = render_to_string(name, {
                    "season": season, "club": season.club, "standings": standings,
                    "table": table, "counting_rule": counting_rule(season),
                    "tie_rule": tie_rule(), "is_admin": is_admin}, clean)
                cache.set_many({key: body, latest: body}, POLLED_SECONDS)
            finally:
                if stale is not None:
                    cache.delete(computing)
    return render(request, "scoring/season/season.html", {
        "season": season, "club": season.club,
        "body": mark_safe(body),  # noqa: S308 (our own template's output)
    })


@require_safe
@login_required
def season_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    season, _member = access.season_for(request, pk)
    # rendered once per version of what it prints, for every viewer (views/printed.py)
    return pdf_response(request, standings_document(season, _lang()))


# ---------------------------------------------------------------- settings

@login_required
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    club, _member = access.club_for(request, slug, admin=True)
    return _season_form(request, club, Season(club=club))


@login_required
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    season, _member = access.season_for(request, pk, admin=True)
    return _season_form(request, season.club, season)


def _season_form(request: HttpRequest, club: Any, season: Season) -> HttpResponse:
    new = season.pk is None
    if request.method == "POST":
        form = SeasonForm(request.POST, instance=season, club=club)
        if form.is_valid():
            season = form.save()
            message = _("The season was saved.")
            if form.cleaned_data["assign"]:
                count = services.season_assign_evenings(season=season)
                message += " " + ngettext("%(count)d evening was added to it.",
                                          "%(count)d evenings were added to it.",
                                          count) % {"count": count}
            messages.success(request, message)
            return redirect("scoring:season", pk=season.pk)
    else:
        form = SeasonForm(instance=season, club=club)
    return render(request, "scoring/season/season_form.html", {
        "club": club, "season": season, "form": form, "new": new})


# ---------------------------------------------------------------- a player's season

def _game_name(lang: str) -> Any:
    def name(evening: Evening, kind: str, key: str) -> str:
        label, symbol, _red = game_label(evening.rules, evening.options,
                                         {"kind": kind, "game": key}, lang)
        return f"{symbol} {label}".strip()
    return name


def _short_date(day: datetime.date, lang: str) -> str:
    return date_format(day, "d.m." if lang == "de" else "n/j")


def _game_rows(data: PlayerSeason, lang: str) -> list[dict[str, Any]]:
    """The player's games as declarer by game, most played first."""
    if not data.lines:
        return []
    name = _game_name(lang)
    evening = data.lines[0].evening
    return [{
        "name": name(evening, "game", key), "played": game.played, "won": game.won,
        "lost": game.played - game.won,
        "rate": (Decimal(100 * game.won) / game.played).quantize(TENTH),
        "average": (Decimal(game.value) / game.played).quantize(TENTH),
    } for key, game in data.games]


def _season_charts(data: PlayerSeason, games: list[dict[str, Any]],
                   lang: str) -> dict[str, Any]:
    lines = data.lines
    labels = [_short_date(line.evening.date, lang) for line in lines]
    name = data.player.name
    out: dict[str, Any] = {}
    standing = data.standing
    if lines and standing is not None:
        out["trend"] = charts.bar_chart(
            title=_("%(name)s: result per evening") % {"name": name},
            description=_("One bar per evening of the season, %(first)s to %(last)s; hatched "
                          "bars are dropped results. Average: %(average)s.") % {
                "first": labels[0], "last": labels[-1], "average": decimal1(standing.average)},
            labels=labels, values=[line.score for line in lines],
            muted=[not line.counted for line in lines],
            reference=float(standing.average) if standing.average is not None else None,
            reference_label=_("average"))
    places = [place for _evening, place in data.places]
    if any(place is not None for place in places):
        out["places"] = charts.line_chart(
            title=_("%(name)s: place in the season table") % {"name": name},
            description=_("The place after each evening of the season, from the first to the "
                          "last; place 1 is at the top."),
            x_labels=[_short_date(evening.date, lang) for evening, _place in data.places],
            lines=[charts.Line(name, places, highlight=True)], invert=True, legend=False)
    if games:
        out["games"] = charts.stacked_bars(
            title=_("%(name)s: games as declarer") % {"name": name},
            description=_("Won and lost games for each game played as declarer."),
            rows=[(game["name"], [charts.Segment(game["won"], charts.POSITIVE, _("won")),
                                  charts.Segment(game["lost"], charts.NEGATIVE, _("lost"))])
                  for game in games])
    return out


def _evening_charts(evening: Evening, data: PlayerSeason, lang: str) -> list[dict[str, Any]]:
    """The running game points of every player at the player's tables that evening."""
    tables = tables_of_player(evening, data.player)
    out = []
    for table in tables:
        sheet = table_sheet(table, lang, explain=False)
        if not sheet.rows:
            continue
        mine = next(i for i, seat in enumerate(table.seats.all())
                    if seat.player_id == data.player.pk)
        lines = [charts.Line(name, [0, *[row.totals[i] for row in sheet.rows]],
                             highlight=i == mine) for i, name in enumerate(sheet.players)]
        heading = (_("Series %(series)d, table %(table)d") % {
            "series": table.series, "table": table.number})
        out.append({"table": table, "heading": heading, "chart": charts.line_chart(
            title=_("Game points over the evening: %(where)s") % {"where": heading},
            description=_("Each player's running total after every deal; %(name)s is the "
                          "thick line.") % {"name": data.player.name},
            x_labels=[str(n) for n in range(len(sheet.rows) + 1)], lines=lines,
            label_every=3 * len(sheet.players))})  # every third round: 12, 24 … at a 4-table
    return out


@require_safe
@login_required
def player_view(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    season, _member = access.season_for(request, pk)
    the_player = access.player_for(season.club, player)
    lang = _lang()
    data = player_season(season, the_player, _game_name(lang))
    chosen = None
    raw = request.GET.get("evening", "")
    if raw.isdecimal():
        chosen = next((line for line in data.lines if line.evening.pk == int(raw)), None)
    if chosen is None and data.lines:
        chosen = data.lines[-1]
    games = _game_rows(data, lang)
    return render(request, "scoring/season/player.html", {
        "season": season, "club": season.club, "player": the_player, "data": data,
        "charts": _season_charts(data, games, lang), "chosen": chosen,
        "evening_charts": _evening_charts(chosen.evening, data, lang) if chosen else [],
        "series_numbers": sorted({n for line in data.lines for n in line.series}),
        "game_rows": games,
        "counting_rule": counting_rule(season),
    })


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/seasons/new/", season_create, name="season-create"),
    path("seasons/<int:pk>/", season_view, name="season"),
    path("seasons/<int:pk>/edit/", season_edit, name="season-edit"),
    path("seasons/<int:pk>/standings.pdf", season_pdf, name="season-pdf"),
    path("seasons/<int:pk>/players/<int:player>/", player_view, name="season-player"),
]
