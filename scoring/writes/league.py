"""Every change to a team league (issue 25): the league, its groups and teams, the players,
the match-day calendar, the line-ups of each series, seating a series onto real tables of
the match day's evening (scoring/draw/league.py) and the captains' signatures. A result is
corrected where it was recorded: a deal or a seat of a match day's table, through the deal
services, with a reason the audit log keeps; once the results are binding only the league
secretary can (services._check_binding).

One transaction each; a change the rules do not allow raises ValidationError with a message
for the secretary and changes nothing. Every change bumps the league's version (the public
page is cached under it and the tables' versions)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.collation import refuse_invisible
from scoring.draw import league as league_draw
from scoring.draw import preisskat as draw
from scoring.engine import ruleset
from scoring.models import (
    POSITIONS,
    AuditEntry,
    Club,
    League,
    LeagueGroup,
    Lineup,
    MatchDay,
    MatchSeries,
    Membership,
    Player,
    ReportSignature,
    RuleProfile,
    Scoring,
    Team,
    TeamPlayer,
)
from scoring.reads.league import (
    day_progress,
    latest_lineups,
    results_version,
    series_meetings,
)
from scoring.writes import services
from scoring.writes.tournament import MAX_SEED, new_seed


def _bump(league: League) -> None:
    League.objects.filter(pk=league.pk).update(version=F("version") + 1)
    league.refresh_from_db(fields=["version"])


def _name(text: str, missing: str) -> str:
    """The name with its spaces tidied; ``missing`` the message when there is none."""
    name = " ".join(text.split())
    if not name:
        raise ValidationError(missing)
    return name


# ---------------------------------------------------------------- the league and its teams

def league_create(*, club: Club, name: str, season: str, profile: RuleProfile,
                  series_per_day: int = 3, series_rounds: int = 12, binding_days: int = 14,
                  public: bool = False) -> League:
    if profile.club_id != club.pk:
        raise ValidationError(_("The rule profile belongs to another club."))
    if (profile.scoring != Scoring.SEEGER_FABIAN
            or Scoring.SEEGER_FABIAN not in ruleset(profile.rules).scorings):
        raise ValidationError(_(
            "A league is evaluated by Seeger-Fabian: choose a rule profile of the "
            "International Skat Order scored by Seeger-Fabian."))
    league = League(club=club, name=" ".join(name.split()), season=" ".join(season.split()),
                    profile=profile, series_per_day=series_per_day,
                    series_rounds=series_rounds, binding_days=binding_days, public=public)
    league.full_clean()
    league.save()
    return league


def league_settings(*, league: League, public: bool, binding_days: int,
                    series_per_day: int) -> League:
    """What the secretary may change during the season. Fewer series per day than a day
    has seated already is refused."""
    seated = MatchSeries.objects.filter(match_day__group__league=league).order_by(
        "-number").values_list("number", flat=True).first() or 0
    if series_per_day < seated:
        raise ValidationError(_(
            "A match day has seated %(count)d series already: the league cannot have fewer "
            "series per day.") % {"count": seated})
    league.public, league.binding_days = public, binding_days
    league.series_per_day = series_per_day
    league.full_clean()
    with transaction.atomic():
        league.save(update_fields=["public", "binding_days", "series_per_day"])
        _bump(league)
    return league


def group_create(*, league: League, name: str) -> LeagueGroup:
    group = LeagueGroup(league=league, name=_name(name, _("Give the group's name.")))
    group.full_clean()
    with transaction.atomic():
        group.save()
        _bump(league)
    return group


CLUB_WITHOUT_CONSENT = gettext_noop(
    "You can add a club of the site only if you are one of its admins; enter any other club "
    "as a guest club by name.")


def team_create(*, group: LeagueGroup, name: str, club: Club | None = None,
                club_name: str = "", by: Any = None) -> Team:
    """A team from a club of the site (``club``) or a guest club by name. ``by``: the user
    adding it, who must be an admin of ``club`` (a club comes into a league with its own
    consent; None: the code's own callers, the demo and tests)."""
    if club is not None and by is not None and not Membership.objects.filter(
            user=by, club=club, role=Membership.Role.ADMIN).exists():
        raise ValidationError(_(CLUB_WITHOUT_CONSENT))
    team = Team(group=group, name=_name(name, _("Give the team's name.")), club=club,
                club_name=" ".join(club_name.split()) or (club.name if club else ""))
    team.full_clean()
    with transaction.atomic():
        team.save()
        _bump(group.league)
    return team


def team_player_add(*, team: Team, name: str = "", member: Player | None = None,
                    position: int | None = None, captain: bool = False) -> TeamPlayer:
    """Add a player to a team: a player of the league's club (``member``) or by name, then a
    guest player of the league's club, found again by name (as a tournament's guests are).
    ``position`` 1–4, or None for a substitute. A player plays for one team of a league.
    Never linked by name (issue 35): a guest of a team from another club comes in as a guest
    record of the league's club (never a member's record of that name, never the account of
    a player of his name in his own club); the league's club links him to his account with
    its claim link or its desk, and only then does he sign as captain with his account."""
    league = team.group.league
    with transaction.atomic():
        if member is not None:
            if member.club_id != league.club_id:
                raise ValidationError(_("Every player must belong to the club."))
            if member.merged_into_id is not None:
                raise ValidationError(_("%(name)s was merged into another record.")
                                      % {"name": member.name})
            player = member
        else:
            name = _name(name, _("Give the player's name."))[:100]
            refuse_invisible(name)
            found = Player.objects.filter(club=league.club, name=name).first()
            if found is not None and found.merged_into_id is not None:
                found = Player.objects.get(pk=found.merged_into_id)
            if (found is not None and not found.guest and team.club_id != league.club_id):
                raise ValidationError(_(
                    "%(name)s is the name of a member of %(club)s: a guest of another club "
                    "is never taken for him. Give the guest a name that tells them apart, "
                    "such as “%(name)s (%(team)s)”.") % {
                        "name": name, "club": league.club.name,
                        "team": team.club_name or team.name})
            player = found if found is not None else Player.objects.create(
                club=league.club, name=name, guest=True)
        other = TeamPlayer.objects.filter(player=player, team__group__league=league).exclude(
            team=team).select_related("team").first()
        if other is not None:
            raise ValidationError(_("%(name)s plays for %(team)s already.")
                                  % {"name": player.name, "team": other.team.name})
        if team.players.filter(player=player).exists():
            raise ValidationError(_("%(name)s is on the team already.") % {"name": player.name})
        if position is not None and team.players.filter(position=position).exists():
            raise ValidationError(_("Position %(position)d is taken.") % {"position": position})
        if captain:
            team.players.filter(captain=True).update(captain=False)
        member_row = TeamPlayer(team=team, player=player, position=position, captain=captain)
        member_row.full_clean()
        member_row.save()
        _bump(league)
    return member_row


def team_player_set(*, member: TeamPlayer, position: int | None, captain: bool) -> TeamPlayer:
    """Move a player to another position (or to the substitutes) and make him captain."""
    team = member.team
    with transaction.atomic():
        if position is not None and team.players.filter(position=position).exclude(
                pk=member.pk).exists():
            raise ValidationError(_("Position %(position)d is taken.") % {"position": position})
        if captain:
            team.players.exclude(pk=member.pk).filter(captain=True).update(captain=False)
        member.position, member.captain = position, captain
        member.full_clean()
        member.save(update_fields=["position", "captain"])
        _bump(team.group.league)
    return member


# ---------------------------------------------------------------- the calendar

def match_day_create(*, group: LeagueGroup, date: datetime.date, host: Team | None = None,
                     venue: str = "", teams: list[Team] | None = None,
                     number: int | None = None) -> MatchDay:
    """A match day of the group and its evening (the league's rules frozen, no stake: no
    money passes between players). ``teams`` defaults to every team of the group; a team
    meets at one place per match day number (``number``: the next one by default; the same
    number again for another place of the same match day)."""
    league = group.league
    if league.profile is None:
        raise ValidationError(_("Choose the league's rule profile first."))
    members = list(group.teams.all()) if teams is None else list(teams)
    if any(t.group_id != group.pk for t in members):
        raise ValidationError(_("Every team must belong to the group."))
    if len(members) < 3:
        raise ValidationError(_("A match day needs at least 3 teams."))
    if host is not None and host.group_id != group.pk:
        raise ValidationError(_("The host must be a team of the group."))
    with transaction.atomic():
        if number is None:
            number = (group.days.order_by("-number").values_list("number", flat=True)
                      .first() or 0) + 1
        twice = Team.objects.filter(match_days__group=group, match_days__number=number,
                                    pk__in=[t.pk for t in members]).first()
        if twice is not None:
            raise ValidationError(_("%(team)s meets elsewhere on match day %(number)d already.")
                                  % {"team": twice.name, "number": number})
        name = _("%(group)s, match day %(number)d") % {"group": group.name, "number": number}
        evening = services.evening_create(
            club=league.club, date=date, profile=league.profile, name=name[:100],
            stake=0, series_rounds=league.series_rounds)
        day = MatchDay(group=group, number=number, date=date, host=host,
                       venue=" ".join(venue.split()), evening=evening)
        day.full_clean()
        day.save()
        day.teams.set(members)
        _bump(league)
    return day


# ---------------------------------------------------------------- line-ups and seating

def _seated(day: MatchDay) -> int:
    return day.draws.order_by("-number").values_list("number", flat=True).first() or 0


def lineup_set(*, day: MatchDay, series: int, team: Team,
               players: Sequence[Player | None]) -> list[Lineup]:
    """Check in a team's line-up for a series not yet seated: ``players[i]`` at position
    i + 1 (None: nobody there). A team plays with four, or three (one table becomes a
    3-table), or not at all in that series; each player must be on the team."""
    league = day.group.league
    if day.evening.closed:
        raise ValidationError(_("This match day is closed."))
    if not 1 <= series <= league.series_per_day:
        raise ValidationError(_("The match day has series 1 to %(count)d.")
                              % {"count": league.series_per_day})
    if not day.teams.filter(pk=team.pk).exists():
        raise ValidationError(_("%(team)s does not play on this match day.")
                              % {"team": team.name})
    if len(players) > POSITIONS:
        raise ValidationError(_("A team plays with at most %(count)d players.")
                              % {"count": POSITIONS})
    present = [p for p in players if p is not None]
    if len(present) in (1, 2):
        raise ValidationError(_(
            "A team plays a series with three or four players (or not at all): %(team)s has "
            "%(count)d.") % {"team": team.name, "count": len(present)})
    if len({p.pk for p in present}) != len(present):
        raise ValidationError(_("A player can play at one position only."))
    roster = set(team.players.values_list("player_id", flat=True))
    strangers = [p.name for p in present if p.pk not in roster]
    if strangers:
        raise ValidationError(_("%(names)s is not on the team %(team)s.")
                              % {"names": ", ".join(strangers), "team": team.name})
    with transaction.atomic():
        locked = MatchDay.objects.select_for_update().get(pk=day.pk)
        if series <= _seated(locked):
            raise ValidationError(_(
                "Series %(series)d is seated already: a substitute comes in for the next "
                "series.") % {"series": series})
        Lineup.objects.filter(match_day=day, series=series, team=team).delete()
        rows = Lineup.objects.bulk_create(
            Lineup(match_day=day, series=series, team=team, position=position, player=p)
            for position, p in enumerate(players, start=1) if p is not None)
        _bump(league)
    return rows


def _lineups_of(day: MatchDay, series: int) -> dict[int, dict[int, Player]]:
    """team id -> position -> player of a series (reads.league.latest_lineups). A team
    without a line-up of its own for this series keeps its latest one; that copy is checked
    in for this series, so the report lists it."""
    found = latest_lineups(day, series)
    Lineup.objects.bulk_create(
        Lineup(match_day=day, series=series, team_id=team, position=position, player=p)
        for team, (checked, places) in found.items() if checked != series
        for position, p in places.items())
    return {team: places for team, (_checked, places) in found.items()}


def _check_signed(day: MatchDay, series: int, reason: str,
                  actor: services.Actor | None) -> None:
    unsigned = list(day.evening.tables.filter(series=series, signed_at__isnull=True)
                    .order_by("number"))
    if not unsigned:
        return
    if not reason.strip():
        raise ValidationError(_(
            "Series %(series)d is not signed at every table yet: %(tables)s. Wait for the "
            "signatures, or seat all the same with a reason.") % {
                "series": series,
                "tables": ", ".join(_("table %(number)d") % {"number": t.number}
                                    for t in unsigned)})
    services.evening_audit(
        day.evening, AuditEntry.Action.DRAW_UNSIGNED, actor or services.Actor(None, "league"),
        reason, after={"series": series + 1, "unsigned_tables": [t.number for t in unsigned]})


def series_seat(*, day: MatchDay, seed: int | None = None, unsigned_reason: str = "",
                actor: services.Actor | None = None) -> MatchSeries:
    """Seat the day's next series onto real tables: one player of each team at each table;
    series 1 by positions, later series rotated against repeated opponents (seeded; the seed
    is recorded). The series before must be finished and its lists signed at every table
    (as a tournament's, issue 23), unless the host seats all the same with
    ``unsigned_reason``, which the evening's audit log keeps with the unsigned tables."""
    league = day.group.league
    if day.evening.closed:
        raise ValidationError(_("This match day is closed."))
    seed = new_seed() if seed is None else seed
    if not 0 <= seed < MAX_SEED:
        raise ValidationError(_("The seed must be a whole number from 0 to %(max)d.")
                              % {"max": MAX_SEED - 1})
    with transaction.atomic():
        locked = MatchDay.objects.select_for_update().get(pk=day.pk)
        number = _seated(locked) + 1
        if number > league.series_per_day:
            raise ValidationError(_("All %(count)d series are seated.")
                                  % {"count": league.series_per_day})
        if number > 1:
            waiting = day_progress(locked).unfinished(number - 1)
            if waiting is not None:
                raise ValidationError(_(
                    "Series %(series)d is not finished yet: table %(table)d has played "
                    "%(count)d of %(length)d games.") % {
                        "series": number - 1, "table": waiting.number,
                        "count": waiting.played, "length": waiting.length})
            _check_signed(locked, number - 1, unsigned_reason, actor)
        places = _lineups_of(locked, number)
        teams = sorted(locked.teams.all(), key=lambda t: (t.name.casefold(), t.pk))
        lineups = [[places.get(t.pk, {}).get(p) for p in range(1, POSITIONS + 1)]
                   for t in teams]
        if sum(p is not None for lineup in lineups for p in lineup) == 0:
            raise ValidationError(_("Check in the line-ups of series %(series)d first.")
                                  % {"series": number})
        earlier = series_meetings(locked, number)
        tables = league_draw.seat_series(
            lineups, number, earlier, draw.series_random(seed, number),
            ahead=league.series_per_day - number, names=[t.name for t in teams])
        for table_number, players in enumerate(tables, start=1):
            services.table_create(evening=locked.evening, players=list(players),
                                  number=table_number, series=number)
        drawn = MatchSeries.objects.create(
            match_day=locked, number=number, seed=seed,
            repeated_pairs=league_draw.repeated_pairs(tables, earlier))
        _bump(league)
    return drawn


# ---------------------------------------------------------------- the report's signatures

def report_sign(*, day: MatchDay, team: Team, user: Any = None,
                where: str = ReportSignature.Where.TABLET) -> ReportSignature:
    """The team's captain signs the match-day report, once every series is played; again
    when a deal was corrected after he signed (the signature was given to other numbers)."""
    if not day.teams.filter(pk=team.pk).exists():
        raise ValidationError(_("%(team)s does not play on this match day.")
                              % {"team": team.name})
    captain = team.players.filter(captain=True).select_related("player").first()
    if captain is None:
        raise ValidationError(_("%(team)s has no captain.") % {"team": team.name})
    if where == ReportSignature.Where.ACCOUNT and (
            user is None or captain.player.user_id != user.pk):
        raise ValidationError(_("Only the captain of %(team)s can sign for the team.")
                              % {"team": team.name})
    progress = day_progress(day)
    if not progress.finished(day.group.league.series_per_day):
        raise ValidationError(_("The report is signed when every series is played."))
    with transaction.atomic():
        now = results_version(day)
        signature = day.signatures.select_for_update().filter(team=team).first()
        if signature is not None and signature.results_version == now:
            raise ValidationError(_("%(team)s has signed already.") % {"team": team.name})
        # None, or a signature given before a deal was corrected: the captain signs anew
        signature = signature or ReportSignature(match_day=day, team=team)
        signature.name, signature.where = captain.player.name, where
        signature.user = user if user is not None and user.is_authenticated else None
        signature.results_version, signature.at = now, timezone.now()
        signature.save()
        _bump(day.group.league)
    return signature
