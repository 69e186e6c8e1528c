"""Team leagues (issue 25): the league secretary's pages and the public league page.

- A club's leagues (``scoring:leagues``): every member of the club sees them (and the leagues
  of other clubs its teams play in); the club's admins (the league secretaries) create one.
- The league (``scoring:league``): its settings, groups, teams with their players and the
  calendar. The league's readers (access.league_for) see it all; only the secretaries get
  the forms, and a reader's POST is a 403. Every change goes through writes/league.py, one
  form per change posted to the page itself (``action``), POST-redirect-GET; a refusal is
  the form's error, shown on the page again with nothing changed.
- A group (``scoring:league-group``): the league table, each match day with its day table,
  the players' ranking. Every number from reads/league.py (``group_numbers``,
  ``player_ranking``): the engine's ``league_standings``.
- The public page (``scoring:league-public``): the groups' tables and the match days'
  results for anyone, while the secretary has switched it on (404 otherwise). Its HTML is
  rendered once per version (the league's version and its tables' versions: every saved
  deal moves it; one query) and language, kept in the shared cache, with a weak ETag, so a
  reload with nothing new is a 304.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from scoring import access
from scoring.collation import by_name, name_key
from scoring.engine import LeagueDayResult, TableRow
from scoring.forms.league import (
    GroupForm,
    LeagueForm,
    LeagueSettingsForm,
    MatchDayForm,
    TeamForm,
    TeamPlayerForm,
    TeamPlayerSetForm,
)
from scoring.models import (
    Club,
    League,
    LeagueGroup,
    MatchDay,
    Membership,
    Team,
    TeamPlayer,
)
from scoring.notation import match_points
from scoring.reads import live
from scoring.reads.league import (
    GroupNumbers,
    club_leagues,
    club_member,
    club_members,
    group_numbers,
    group_of,
    league_days,
    league_group,
    league_team,
    league_team_player,
    league_team_players,
    league_teams,
    leagues_playing_in,
    player_ranking,
    public_league,
    team_clubs,
)
from scoring.writes import league as writes

PUBLIC_TEMPLATE = "scoring/league/public.html"
# what the public page's HTML is made of besides its numbers (a deploy that changes one
# makes new pages rather than serving the cached ones)
PUBLIC_PARTS = (PUBLIC_TEMPLATE, "scoring/league/group_table.html",
                "scoring/league/group_days.html")
PUBLIC_SECONDS = 60 * 60  # a rendered public page (keyed by its version) stays this long


# ---------------------------------------------------------------- numbers as shown


@dataclass(frozen=True)
class ShownRow:
    """A team's line of a table as the page writes it: "7:2" and the Spielpunkte."""

    place: int
    team: str
    plus_minus: str
    points: int


def shown_table(rows: tuple[TableRow, ...] | list[TableRow]) -> list[ShownRow]:
    return [ShownRow(r.place, r.team, match_points(r.plus, r.minus), r.points)
            for r in rows]


@dataclass
class ShownDay:
    day: MatchDay
    teams: list[str]
    table: list[ShownRow] | None  # None: not played yet


def shown_days(numbers: GroupNumbers) -> list[ShownDay]:
    days = []
    for day in numbers.days:
        result: LeagueDayResult | None = numbers.day_result(day)
        days.append(ShownDay(day, [t.name for t in by_name(day.teams.all())],
                             shown_table(result.table) if result else None))
    return days


def group_context(group: LeagueGroup) -> dict[str, Any]:
    """What a group's page and the public page show of a group: a constant number of
    queries, however many teams and days."""
    numbers = group_numbers(group)
    return {"group": group, "table": shown_table(numbers.result.table),
            "days": shown_days(numbers), "ranking": player_ranking(numbers)}


# ---------------------------------------------------------------- a club's leagues


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def leagues(request: HttpRequest, slug: str) -> HttpResponse:
    club, member = access.club_for(request, slug)
    is_admin = member.role == Membership.Role.ADMIN
    if request.method == "POST" and not is_admin:
        raise PermissionDenied
    form = LeagueForm(request.POST or None, club=club) if is_admin else None
    if form is not None and request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = writes.league_create(
                club=club, name=data["name"], season=data["season"], profile=data["profile"],
                series_per_day=data["series_per_day"], series_rounds=data["series_rounds"],
                binding_days=data["binding_days"], public=data["public"])
        except ValidationError as err:
            for message in err.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("The league is set up: add its groups and teams."))
            return redirect("scoring:league", pk=league.pk)
    playing_in = leagues_playing_in(club)
    return render(request, "scoring/league/leagues.html", {
        "club": club, "is_admin": is_admin, "form": form,
        "leagues": club_leagues(club), "playing_in": playing_in,
    })


# ---------------------------------------------------------------- the league


@dataclass
class TeamView:
    team: Team
    players: list[tuple[TeamPlayer, TeamPlayerSetForm | None]] = field(default_factory=list)
    form: TeamPlayerForm | None = None


@dataclass
class GroupView:
    group: LeagueGroup
    teams: list[TeamView] = field(default_factory=list)
    days: list[MatchDay] = field(default_factory=list)
    team_form: TeamForm | None = None
    day_form: MatchDayForm | None = None


Bound = dict[tuple[str, int], forms.Form]  # (action, target id) -> the posted, refused form


class _Choices:
    """The forms' choices, read once for the page."""

    def __init__(self, league: League, admin_of: frozenset[int]) -> None:
        self.league = league
        self.admin_of = admin_of
        self._clubs: dict[int, Club] | None = None
        self._members: list[tuple[str, str]] | None = None

    @property
    def club_by_pk(self) -> dict[int, Club]:
        """The clubs a team may come from: those the secretary is an admin of."""
        if self._clubs is None:
            self._clubs = {c.pk: c for c in team_clubs(self.admin_of)}
        return self._clubs

    @property
    def clubs(self) -> list[tuple[str, str]]:
        return [(str(pk), c.name) for pk, c in self.club_by_pk.items()]

    @property
    def members(self) -> list[tuple[str, str]]:
        if self._members is None:
            self._members = [(str(p.pk), p.name) for p in club_members(self.league.club_id)]
        return self._members


def _team_choices(teams: list[Team]) -> list[tuple[str, str]]:
    return [(str(t.pk), t.name) for t in teams]


def _league_page(request: HttpRequest, league: League, rights: access.LeagueAccess,
                 bound: Bound | None = None) -> HttpResponse:
    bound = bound or {}
    secretary = rights.secretary
    choices = _Choices(league, rights.host_clubs)
    groups = {g.pk: GroupView(g) for g in league.groups.all()}
    teams = league_teams(league)
    team_views: dict[int, TeamView] = {}
    for team in teams:
        team_views[team.pk] = TeamView(team)
        groups[team.group_id].teams.append(team_views[team.pk])
    for member in league_team_players(league):
        set_form = None
        if secretary:
            set_form = bound.get(("set", member.pk)) or TeamPlayerSetForm(
                initial={"position": member.position, "captain": member.captain},
                auto_id=f"id_p{member.pk}_%s")
        team_views[member.team_id].players.append((member, set_form))  # type: ignore[arg-type]
    for day in league_days(league):
        groups[day.group_id].days.append(day)
    if secretary:
        for view in groups.values():
            group_teams = [t.team for t in view.teams]
            view.team_form = bound.get(("team", view.group.pk)) or TeamForm(  # type: ignore[assignment]
                clubs=choices.clubs, auto_id=f"id_t{view.group.pk}_%s")
            view.day_form = bound.get(("day", view.group.pk)) or MatchDayForm(  # type: ignore[assignment]
                teams=_team_choices(group_teams), auto_id=f"id_d{view.group.pk}_%s")
            for team_view in view.teams:
                team_view.form = bound.get(("player", team_view.team.pk)) or TeamPlayerForm(  # type: ignore[assignment]
                    members=choices.members, auto_id=f"id_m{team_view.team.pk}_%s")
    context: dict[str, Any] = {
        "league": league, "club": league.club, "secretary": secretary,
        "groups": sorted(groups.values(), key=lambda g: name_key(g.group.name)),
        "public_url": request.build_absolute_uri(
            reverse("scoring:league-public", args=[league.board_key])),
    }
    if secretary:
        context["settings_form"] = bound.get(("settings", 0)) or LeagueSettingsForm(
            initial={"series_per_day": league.series_per_day,
                     "binding_days": league.binding_days, "public": league.public})
        context["group_form"] = bound.get(("group", 0)) or GroupForm()
    return render(request, "scoring/league/league.html", context)


def _post_target(request: HttpRequest, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise Http404 from None


def _change(request: HttpRequest, league: League, rights: access.LeagueAccess,
            ) -> tuple[str, int, forms.Form, Callable[[], str] | None]:
    """The posted change: (action, target, its form, the change to make once the form is
    valid, returning the message of success)."""
    action = request.POST.get("action", "")
    choices = _Choices(league, rights.host_clubs)
    if action == "settings":
        settings_form = LeagueSettingsForm(request.POST)

        def settings() -> str:
            data = settings_form.cleaned_data
            writes.league_settings(league=league, public=data["public"],
                                   binding_days=data["binding_days"],
                                   series_per_day=data["series_per_day"])
            return _("The league's settings are saved.")
        return action, 0, settings_form, settings
    if action == "group":
        group_form = GroupForm(request.POST)

        def group() -> str:
            made = writes.group_create(league=league, name=group_form.cleaned_data["name"])
            return _("The group %(name)s is added.") % {"name": made.name}
        return action, 0, group_form, group
    if action in ("team", "day"):
        target = league_group(league, _post_target(request, "group"))
        if target is None:
            raise Http404
        target.league = league
        if action == "team":
            team_form = TeamForm(request.POST, clubs=choices.clubs,
                                 auto_id=f"id_t{target.pk}_%s")

            def team() -> str:
                data = team_form.cleaned_data
                made = writes.team_create(
                    group=target, name=data["name"], club_name=data["club_name"],
                    club=choices.club_by_pk[data["club"]] if data["club"] else None,
                    by=request.user)
                return _("The team %(name)s is added.") % {"name": made.name}
            return action, target.pk, team_form, team
        group_teams = by_name(target.teams.all())
        day_form = MatchDayForm(request.POST, teams=_team_choices(group_teams),
                                auto_id=f"id_d{target.pk}_%s")

        def day() -> str:
            data = day_form.cleaned_data
            by_pk = {t.pk: t for t in group_teams}
            made = writes.match_day_create(
                group=target, date=data["date"], venue=data["venue"],
                host=by_pk.get(data["host"]) if data["host"] else None,
                teams=[by_pk[pk] for pk in data["teams"]], number=data["number"])
            return _("Match day %(number)d is added.") % {"number": made.number}
        return action, target.pk, day_form, day
    if action == "player":
        on = league_team(league, _post_target(request, "team"))
        if on is None:
            raise Http404
        on.group.league = league
        player_form = TeamPlayerForm(request.POST, members=choices.members,
                                     auto_id=f"id_m{on.pk}_%s")

        def player() -> str:
            data = player_form.cleaned_data
            member = club_member(league.club_id, data["member"]) if data["member"] else None
            made = writes.team_player_add(
                team=on, name=data["name"], member=member, position=data["position"],
                captain=data["captain"])
            return _("%(name)s plays for %(team)s.") % {"name": made.player.name,
                                                         "team": on.name}
        return action, on.pk, player_form, player
    if action == "set":
        member = league_team_player(league, _post_target(request, "member"))
        if member is None:
            raise Http404
        member.team.group.league = league
        set_form = TeamPlayerSetForm(request.POST, auto_id=f"id_p{member.pk}_%s")

        def player_set() -> str:
            data = set_form.cleaned_data
            writes.team_player_set(member=member, position=data["position"],
                                   captain=data["captain"])
            return _("%(name)s is changed.") % {"name": member.player.name}
        return action, member.pk, set_form, player_set
    raise Http404


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def league_page(request: HttpRequest, pk: int) -> HttpResponse:
    league, rights = access.league_for(request, pk)
    if request.method != "POST":
        return _league_page(request, league, rights)
    if not rights.secretary:
        raise PermissionDenied
    action, target, form, change = _change(request, league, rights)
    if form.is_valid() and change is not None:
        try:
            done = change()
        except ValidationError as err:
            for message in err.messages:
                form.add_error(None, message)
        else:
            messages.success(request, done)
            anchor = {"settings": "settings", "group": "add-group", "team": f"group-{target}",
                      "day": f"group-{target}", "player": f"team-{target}",
                      "set": f"set-{target}"}[action]
            return redirect(reverse("scoring:league", args=[league.pk]) + f"#{anchor}")
    return _league_page(request, league, rights, {(action, target): form})


# ---------------------------------------------------------------- a group


@require_safe
@login_required
def group_page(request: HttpRequest, pk: int) -> HttpResponse:
    group = group_of(pk)
    if group is None:
        raise Http404
    league, _rights = access.league_for(request, group.league_id)
    group.league = league
    return render(request, "scoring/league/group.html", {
        "league": league, "club": league.club, **group_context(group)})


# ---------------------------------------------------------------- the public page


def _public_league(key: str) -> tuple[League, str]:
    """The opted-in league of this key and its version (reads/league.py's
    ``public_league``); any other key: no page."""
    found = public_league(key)
    if found is None:
        raise Http404
    return found


def _has(request: HttpRequest, etag: str) -> bool:
    given = request.headers.get("If-None-Match", "")
    return any(t.strip().removeprefix("W/") == etag.removeprefix("W/")
               for t in given.split(","))


@require_safe
def public_page(request: HttpRequest, key: str) -> HttpResponse:
    league, version = _public_league(key)
    # the club's language (Club.language, as its mails), not the visitor's: the public page
    # is the club's notice board
    language = (league.club.language or "de")[:2]
    state = live.digest(version, language, *map(live.template_digest, PUBLIC_PARTS))
    etag = f'W/"league-{state}"'
    if _has(request, etag):
        response = HttpResponse(status=304)
    else:
        cache_key = f"league-public:{league.pk}:{state}"
        body: str | None = cache.get(cache_key)
        if body is None:
            with translation.override(language):
                groups = [group_context(g) for g in by_name(league.groups.all())]
                body = render_to_string(PUBLIC_TEMPLATE, {"league": league, "groups": groups})
            cache.set(cache_key, body, PUBLIC_SECONDS)
        response = HttpResponse(body)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Content-Language"] = language
    return response


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/leagues/", leagues, name="leagues"),
    path("leagues/<int:pk>/", league_page, name="league"),
    path("leagues/groups/<int:pk>/", group_page, name="league-group"),
    path("l/<str:key>/", public_page, name="league-public"),
]
