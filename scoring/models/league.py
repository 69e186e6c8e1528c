"""Team leagues (issue 25): a league run by one club's secretary (Staffelleiter), its groups
(Staffeln), the teams with their players, the match days with their line-ups per series and
the seat draw of each series, and the captains' signatures under the match-day report.

A match day is played on an evening of the league's club (as a tournament is): each series'
tables are real tables with table codes, recorded on the table screen and scored by the
engine; a player of a team from another club is a guest player of the league's club (found
again by name), so that the tables can seat him. The numbers (team series scores,
Wertungspunkte, the day's and the league's table) are never stored: they are computed from
the tables' Seeger-Fabian points by the engine's ``league_standings`` (reads/league.py)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.collation import refuse_invisible
from scoring.models.club import Club, Player, RuleProfile
from scoring.models.evening import Evening
from scoring.models.tournament import new_board_key

POSITIONS = 4  # a team's regular players, positions 1–4; more are substitutes


class League(models.Model):
    """A team league of a season, run by ``club``'s admins (the league secretaries)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues",
                             verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100, validators=[refuse_invisible])
    season = models.CharField(_("season"), max_length=40, validators=[refuse_invisible])
    # The rules every match day's evening freezes (ISkO tournament rules: no Kontra, Bock or
    # Ramsch); a deleted profile leaves the played days as they are.
    profile = models.ForeignKey(RuleProfile, on_delete=models.SET_NULL, null=True,
                                related_name="+", verbose_name=_("rule profile"))
    series_per_day = models.PositiveSmallIntegerField(
        _("series per match day"), default=3, validators=[MinValueValidator(1),
                                                          MaxValueValidator(6)],
        help_text=_("3 in the lower leagues, 4 in the Bundesliga."))
    series_rounds = models.PositiveSmallIntegerField(
        _("rounds per series"), default=12, validators=[MinValueValidator(1),
                                                        MaxValueValidator(50)],
        help_text=_("12 rounds are 48 games at a 4-table and 36 at a 3-table."))
    binding_days = models.PositiveSmallIntegerField(
        _("days until results are binding"), default=14,
        validators=[MaxValueValidator(365)],
        help_text=_("After this many days only the league secretary can change a match "
                    "day's results."))
    public = models.BooleanField(
        _("public league page"), default=False,
        help_text=_("Anyone with the page's address may see the table, the match days and "
                    "the results, without signing in."))
    board_key = models.CharField(_("public page key"), max_length=24, unique=True,
                                 default=new_board_key)
    # Bumped by every change of teams, calendar, line-ups, seating or signatures.
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name", "season"],
                                    name="league_name_unique_in_club_season"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class LeagueGroup(models.Model):
    """A group (Staffel) of a league: its teams meet on its match days and make its table."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="groups",
                               verbose_name=_("league"))
    name = models.CharField(_("name"), max_length=60, validators=[refuse_invisible])

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="group_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.league} – {self.name}"


class Team(models.Model):
    """A team of a group: from a club of the site (``club``) or a guest club by name."""

    group = models.ForeignKey(LeagueGroup, on_delete=models.CASCADE, related_name="teams",
                              verbose_name=_("group"))
    name = models.CharField(_("name"), max_length=60, validators=[refuse_invisible])
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="league_teams", verbose_name=_("club on the site"))
    club_name = models.CharField(_("club"), max_length=100, blank=True,
                                 validators=[refuse_invisible])

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["group", "name"]
        constraints = [
            models.UniqueConstraint(fields=["group", "name"], name="team_name_unique_in_group"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamPlayer(models.Model):
    """A player of a team: at a fixed position 1–4, or a substitute (no position). The
    player is a player of the league's club; ``captain`` signs the match-day report."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players",
                             verbose_name=_("team"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="teams",
                               verbose_name=_("player"))
    position = models.PositiveSmallIntegerField(
        _("position"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(POSITIONS)])
    captain = models.BooleanField(_("captain"), default=False)

    class Meta:
        verbose_name = _("team player")
        verbose_name_plural = _("team players")
        ordering = ["team", models.F("position").asc(nulls_last=True), "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="team_player_once"),
            models.UniqueConstraint(fields=["team", "position"], name="team_position_once",
                                    condition=models.Q(position__isnull=False)),
            models.UniqueConstraint(fields=["team"], name="one_captain_per_team",
                                    condition=models.Q(captain=True)),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player}"


class MatchDay(models.Model):
    """A match day of a group: its teams meet at the host's; the play is ``evening``. Where a
    group's teams meet in several places on one match day (twelve teams, three venues of
    four), each place is a MatchDay of its own with the same number and its ``teams``."""

    group = models.ForeignKey(LeagueGroup, on_delete=models.CASCADE, related_name="days",
                              verbose_name=_("group"))
    number = models.PositiveSmallIntegerField(_("match day"))
    date = models.DateField(_("date"))
    host = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="hosted_days", verbose_name=_("host"))
    venue = models.CharField(_("venue"), max_length=100, blank=True)
    evening = models.OneToOneField(Evening, on_delete=models.CASCADE,
                                   related_name="match_day", verbose_name=_("evening"))
    teams = models.ManyToManyField(Team, related_name="match_days", verbose_name=_("teams"))

    class Meta:
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        ordering = ["group", "number", "id"]

    def __str__(self) -> str:
        return f"{self.group} – {self.number}. {_('match day')}"

    def binding_from(self, league: League) -> datetime.date:
        """The first day on which the results are binding."""
        return self.date + datetime.timedelta(days=league.binding_days)


class Lineup(models.Model):
    """Who plays for a team in one series of a match day, at which position. Series 1's
    line-up is checked in at the desk; a later series starts as a copy of the one before
    (a substitute may come in between series)."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="lineups",
                                  verbose_name=_("match day"))
    series = models.PositiveSmallIntegerField(_("series"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="lineups",
                             verbose_name=_("team"))
    position = models.PositiveSmallIntegerField(
        _("position"), validators=[MinValueValidator(1), MaxValueValidator(POSITIONS)])
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="lineups",
                               verbose_name=_("player"))

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        ordering = ["match_day", "series", "team__name", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "series", "team", "position"],
                                    name="lineup_position_once"),
            models.UniqueConstraint(fields=["match_day", "series", "player"],
                                    name="lineup_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match_day} {self.series}: {self.team} {self.position} {self.player}"


class MatchSeries(models.Model):
    """A series' seating: the recorded seed (the same seed and line-ups give the same
    seating) and how many pairs of players meet again. The seats are the evening's tables of
    this series."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="draws",
                                  verbose_name=_("match day"))
    number = models.PositiveSmallIntegerField(_("series"))
    seed = models.BigIntegerField(_("seed"))
    repeated_pairs = models.PositiveIntegerField(_("repeated opponents"), default=0)
    seated = models.DateTimeField(_("seated"), auto_now_add=True)

    class Meta:
        verbose_name = _("series seating")
        verbose_name_plural = _("series seatings")
        ordering = ["match_day", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "number"], name="match_series_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match_day} – {_('Series')} {self.number}"


class ReportSignature(models.Model):
    """A captain's signature under the match-day report: on the host's tablet (a tap on the
    captain's name) or through the captain's own account."""

    class Where(models.TextChoices):
        TABLET = "tablet", _("on the tablet")
        ACCOUNT = "account", _("with the captain's account")

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE,
                                  related_name="signatures", verbose_name=_("match day"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="signatures",
                             verbose_name=_("team"))
    name = models.CharField(_("captain"), max_length=100)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+", verbose_name=_("user account"))
    where = models.CharField(_("where"), max_length=10, choices=Where.choices,
                             default=Where.TABLET)
    at = models.DateTimeField(_("signed"), auto_now_add=True)
    # The day's tables' versions summed when the captain signed: a deal changed since (a
    # correction) makes the report say that the signature was given to other numbers.
    results_version = models.PositiveIntegerField(_("results version"), default=0)

    class Meta:
        verbose_name = _("report signature")
        verbose_name_plural = _("report signatures")
        ordering = ["match_day", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "team"], name="report_signed_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match_day} – {self.team}: {self.name}"
