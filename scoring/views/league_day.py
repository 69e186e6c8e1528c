"""A league's match day (issue 25): the desk, the live numbers and the captains' signatures.

- The page (``scoring:match-day``): for the league's readers, the host's admins and the
  league secretaries (access.match_day_for: 404 for anyone else, the sign-in page for
  anonymous visitors). The desk (each team's line-up for a series not yet seated, seating
  the next series, the seated series' tables with their codes) is for the secretaries, and
  for the host's admins until the results are binding; its POSTs answer 403 to any other
  reader and redirect back (POST-redirect-GET) with the services' refusals as messages.
- The numbers (``scoring:match-day-numbers``): every seated series' tables (players, teams,
  Spielpunkte so far, games played), the teams' series scores with places and
  Wertungspunkte, the day's table, all from reads.league; polled by htmx every few seconds
  with the ETag of what it shows (304 while nothing moved; the rendered numbers kept in the
  shared cache under the day's state, as the evening overview does).
- The signatures, once every series is played: the desk taps "signed by <captain>" on the
  tablet, a captain signed in with his own account signs for his team."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import access
from scoring.access import LeagueAccess
from scoring.collation import name_key
from scoring.forms.league_day import LineupForm, SeatForm
from scoring.models import MatchDay, Player, ReportSignature, Team
from scoring.reads import live
from scoring.reads.evening import seated_tables
from scoring.reads.league import (
    day_progress,
    day_tables,
    day_team,
    is_binding,
    latest_lineups,
    match_report,
    results_version,
    team_captains,
    team_players,
    team_rosters,
)
from scoring.views.club import codes_context, format_code
from scoring.writes import league as services

POLL_SECONDS = 5
NUMBERS = "scoring/league/day_numbers.html"
SIGNATURES = "scoring/league/day_signatures.html"
POLLED = "default"  # the shared cache
POLLED_SECONDS = 15 * 60


def _desk(day: MatchDay, who: LeagueAccess) -> bool:
    """The desk: the league secretaries; the host's admins until the results are binding."""
    return who.secretary or (who.hosts(day) and not is_binding(day, day.group.league))


def _lang() -> str:
    return (get_language() or "de")[:2]


# ---------------------------------------------------------------- the numbers and signatures


def _state(day: MatchDay) -> str:
    """What the numbers show depends on: the league's version (line-ups, seating,
    signatures), the day's tables (every saved deal), the date (binding), the language and
    the template. The same for every reader."""
    states = live.evening_states(day.evening)
    return live.digest(day.group.league.version, states.digest, timezone.localdate(),
                       _lang(), live.template_digest(NUMBERS))


def _etag(day: MatchDay, who: LeagueAccess, state: str) -> str:
    """The polled part's ETag: the numbers' state and what this user may sign."""
    mine = live.digest(state, _desk(day, who), sorted(who.captain_of),
                       live.template_digest(SIGNATURES))
    return f'"match-day-{day.pk}-{mine}"'


def _numbers(request: HttpRequest, day: MatchDay, state: str) -> tuple[str, bool]:
    """The numbers' HTML and whether every series is played: kept in the shared cache under
    the day's state (the same for every reader), else computed by reads.league."""
    cache = caches[POLLED]
    key = f"polled:match-day:{day.pk}:{state}"
    kept: tuple[str, bool] | None = cache.get(key)
    if kept is not None:
        return kept
    report = match_report(day)
    progress = day_progress(day)
    states = {(t.series, t.number): t for t in progress.tables}
    html = render_to_string(NUMBERS, {"day": day, "report": report, "series": [
        (s, [(t, states.get((s.number, t.number))) for t in s.tables])
        for s in report.series]}, request)
    kept = (html, progress.finished(day.group.league.series_per_day))
    cache.set(key, kept, POLLED_SECONDS)
    return kept


def _polled(request: HttpRequest, day: MatchDay, who: LeagueAccess,
            state: str) -> dict[str, object]:
    """The polled part's context: the numbers' HTML and the signatures (rendered per
    request: their forms hold this session's CSRF token)."""
    html, finished = _numbers(request, day, state)
    teams = sorted(day.teams.all(), key=lambda t: (name_key(t.name), t.pk))
    found = team_captains(teams)
    captains = {team_id: name for team_id, (name, _linked) in found.items()}
    # teams whose captain's record is linked to an account
    linked = {team_id for team_id, (_name, is_linked) in found.items() if is_linked}
    signatures = {s.team_id: s for s in day.signatures.all()}
    now = results_version(day) if signatures else 0
    return {
        "day": day, "numbers_html": html, "finished": finished, "desk": _desk(day, who),
        "poll_seconds": POLL_SECONDS,
        "teams": [{"team": t, "captain": captains.get(t.pk), "signature": signatures.get(t.pk),
                   # signed before a deal was corrected: to be signed again
                   "stale": t.pk in signatures and signatures[t.pk].results_version != now,
                   "mine": who.signs_for(t.pk), "linked": t.pk in linked} for t in teams]}


@require_safe
@login_required
def match_day_numbers(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled part of the page: 304 while nothing it shows moved."""
    day, who = access.match_day_for(request, pk)
    state = _state(day)
    etag = _etag(day, who, state)
    asked = [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in asked:
        response = HttpResponse(status=304)
    else:
        response = render(request, "scoring/league/day_live.html",
                          _polled(request, day, who, state))
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["Cookie"])
    return response


# ---------------------------------------------------------------- the page


def _lineups(day: MatchDay, series: int, teams: list[Team]) -> dict[int, list[Player | None]]:
    """team id -> the players at positions 1–4 for ``series`` (reads.league.latest_lineups)."""
    found = latest_lineups(day, series)
    return {t.pk: [found.get(t.pk, (0, {}))[1].get(n) for n in range(1, 5)] for t in teams}


def _desk_context(day: MatchDay, series: int | None) -> dict[str, object]:
    league = day.group.league
    draws = {d.number: d for d in day.draws.all()}
    seated = max(draws, default=0)
    teams = sorted(day.teams.all(), key=lambda t: (name_key(t.name), t.pk))
    open_series = list(range(seated + 1, league.series_per_day + 1))
    chosen = series if series in open_series else (open_series[0] if open_series else None)
    roster = team_rosters(teams)
    forms = []
    if chosen is not None:
        current = _lineups(day, chosen, teams)
        for team in teams:
            initial = {f"position_{n}": str(p.pk) for n, p in enumerate(current[team.pk], 1)
                       if p is not None}
            forms.append((team, LineupForm(initial=initial, players=roster[team.pk],
                                           prefix=f"team{team.pk}")))
    tables: dict[int, list[dict[str, object]]] = defaultdict(list)
    for table in day_tables(day):
        tables[table.series].append({
            "table": table, "code": format_code(table.access_code),
            "players": [s.player.name for s in table.seats.all()]})
    return {"open_series": open_series, "lineup_series": chosen, "lineup_forms": forms,
            "lineup_open": series is not None,
            "next_series": seated + 1 if seated < league.series_per_day else None,
            "seat_form": SeatForm(),
            "seated_tables": [(n, draws.get(n), tables[n]) for n in sorted(tables)]}


def _series_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("series", "")
    return int(raw) if raw.isdigit() and len(raw) < 3 else None


@require_safe
@login_required
def match_day_page(request: HttpRequest, pk: int) -> HttpResponse:
    day, who = access.match_day_for(request, pk)
    league = day.group.league
    desk = _desk(day, who)
    state = _state(day)
    context = {
        **_polled(request, day, who, state), "league": league, "group": day.group,
        "club": league.club, "desk": desk, "secretary": who.secretary,
        "binding": is_binding(day, league), "binding_from": day.binding_from(league),
        "poll_seconds": POLL_SECONDS,
    }
    if desk:
        context.update(_desk_context(day, _series_param(request)))
    return render(request, "scoring/league/day.html", context)


@require_safe
@login_required
def match_day_codes(request: HttpRequest, pk: int) -> HttpResponse:
    """The table cards of the day's seated tables (the club's code cards), for the desk."""
    day, _who = access.match_day_for(request, pk, desk=True)
    return render(request, "scoring/club/codes.html", codes_context(
        request, day.evening, seated_tables(day.evening),
        reverse("scoring:match-day", args=[day.pk])))


# ---------------------------------------------------------------- the desk's changes


def _back(day: MatchDay, series: int | None = None) -> HttpResponse:
    url = reverse("scoring:match-day", args=[day.pk])
    return redirect(f"{url}?series={series}#desk" if series else f"{url}#desk")


def _refused(request: HttpRequest, err: ValidationError) -> None:
    for message in err.messages:
        messages.error(request, message)


def _team(day: MatchDay, raw: str) -> Team:
    team = day_team(day, int(raw)) if raw.isdigit() and len(raw) < 12 else None
    if team is None:
        raise Http404
    return team


@require_POST
@login_required
def lineup_save(request: HttpRequest, pk: int) -> HttpResponse:
    day, _who = access.match_day_for(request, pk, desk=True)
    team = _team(day, request.POST.get("team", ""))
    raw = request.POST.get("series", "")
    series = int(raw) if raw.isdigit() and len(raw) < 3 else 0
    players = team_players(team)
    form = LineupForm(request.POST, players=players, prefix=f"team{team.pk}")
    try:
        if not form.is_valid():
            raise ValidationError([str(m) for errors in form.errors.values() for m in errors])
        services.lineup_set(day=day, series=series, team=team, players=form.lineup())
    except ValidationError as err:
        _refused(request, err)
    else:
        messages.success(request, _("The line-up of %(team)s for series %(series)d is "
                                    "checked in.") % {"team": team.name, "series": series})
    return _back(day, series)


@require_POST
@login_required
def series_seat(request: HttpRequest, pk: int) -> HttpResponse:
    day, _who = access.match_day_for(request, pk, desk=True)
    form = SeatForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError([str(m) for errors in form.errors.values() for m in errors])
        drawn = services.series_seat(day=day, seed=form.cleaned_data["seed"])
    except ValidationError as err:
        _refused(request, err)
    else:
        messages.success(request, _(
            "Series %(series)d is seated (seed %(seed)d): %(count)d repeated opponents.")
            % {"series": drawn.number, "seed": drawn.seed, "count": drawn.repeated_pairs})
    return _back(day)


@require_POST
@login_required
def report_sign(request: HttpRequest, pk: int) -> HttpResponse:
    """A captain's signature: on the tablet (the desk taps it for the captain), or with the
    captain's own account (for his team only)."""
    day, who = access.match_day_for(request, pk)
    team = _team(day, request.POST.get("team", ""))
    where = request.POST.get("where", "")
    if where == ReportSignature.Where.ACCOUNT:
        if not who.signs_for(team.pk):
            raise PermissionDenied
    elif where == ReportSignature.Where.TABLET:
        if not _desk(day, who):
            raise PermissionDenied
    else:
        raise Http404
    try:
        signature = services.report_sign(day=day, team=team, where=where,
                                         user=request.user)
    except ValidationError as err:
        _refused(request, err)
    else:
        messages.success(request, _("%(team)s: signed by %(name)s.")
                         % {"team": team.name, "name": signature.name})
    return redirect(reverse("scoring:match-day", args=[day.pk]) + "#signatures")


urlpatterns: list[URLPattern] = [
    path("leagues/days/<int:pk>/", match_day_page, name="match-day"),
    path("leagues/days/<int:pk>/numbers/", match_day_numbers, name="match-day-numbers"),
    path("leagues/days/<int:pk>/codes/", match_day_codes, name="match-day-codes"),
    path("leagues/days/<int:pk>/lineup/", lineup_save, name="match-day-lineup"),
    path("leagues/days/<int:pk>/seat/", series_seat, name="match-day-seat"),
    path("leagues/days/<int:pk>/sign/", report_sign, name="match-day-sign"),
]
