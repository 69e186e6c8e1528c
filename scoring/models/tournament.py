"""Tournaments (issue 17): a tournament day, its entrants, online sign-ups and the draw of
each series."""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.collation import refuse_invisible
from scoring.models.club import Club, Player
from scoring.models.evening import (
    Evening,
)


def new_board_key() -> str:
    """The public board's address part: unguessable, so that a board is found only through
    its organiser (and shown only while the tournament opts in)."""
    return secrets.token_urlsafe(12)


class Tournament(models.Model):
    """A tournament day (Preisskat, league match day) of a club.

    The play itself is an evening (``evening``): it freezes the rule profile's rules (ISkO
    tournament by default: no Kontra, Bock or Ramsch), its ``series_rounds`` give the series
    length (12 rounds: 48 games at a 4-table, 36 at a 3-table), each series' tables are real
    tables with table codes, recorded on the table screen and scored by the engine. The
    lost-game fee tiers and the passed-deal fee are the evening's club extras (stake 0: no
    money passes between players; the fees go to the organiser)."""

    class Reseat(models.TextChoices):
        DRAW = "draw", _("drawn again, meeting as few earlier opponents as possible")
        STANDINGS = "standings", _("seated by the standings (best four at table 1)")

    class TieRule(models.TextChoices):
        WON = "won", _("more games won, then fewer games lost")
        SHARED = "shared", _("equal scores share the place")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments",
                             verbose_name=_("club"))
    evening = models.OneToOneField(Evening, on_delete=models.CASCADE,
                                   related_name="tournament", verbose_name=_("evening"))
    name = models.CharField(_("name"), max_length=100, validators=[refuse_invisible])
    date = models.DateField(_("date"))
    series_count = models.PositiveSmallIntegerField(
        _("number of series"), default=2, validators=[MinValueValidator(1),
                                                      MaxValueValidator(10)])
    entry_fee = models.DecimalField(_("entry fee"), max_digits=8, decimal_places=2,
                                    default=Decimal("0"))
    categories = models.JSONField(_("categories"), default=list, blank=True)
    team_fee = models.DecimalField(
        _("team fee"), max_digits=8, decimal_places=2, null=True, blank=True,
        help_text=_("Per team of 4; leave empty for no team ranking."))
    tandem_fee = models.DecimalField(
        _("tandem fee"), max_digits=8, decimal_places=2, null=True, blank=True,
        help_text=_("Per tandem of 2; leave empty for no tandem ranking."))
    reseat = models.CharField(_("later series"), max_length=10, choices=Reseat.choices,
                              default=Reseat.DRAW)
    tie_rule = models.CharField(_("equal scores"), max_length=10, choices=TieRule.choices,
                                default=TieRule.WON)
    # The prize table: one entry per place, "100.00" a fixed amount or "25%" a share of the
    # pot (the entry fees); ties split the prizes of the places they share, the rest of the
    # pot is carried (reads/tournament.py).
    prizes = models.JSONField(_("prizes"), default=list, blank=True)
    # The prize tables of the other lists (issue 24), each like ``prizes``: {"categories":
    # {"Damen": ["20.00", …]}, "team": ["50%", …], "tandem": […]}; a share is of that list's
    # own pot (the category's entry fees paid, the team or tandem fees).
    list_prizes = models.JSONField(_("prizes of the other lists"), default=dict, blank=True)
    # The draw keeps the members of one home club apart where that costs nothing else.
    clubs_apart = models.BooleanField(
        _("keep players of one club apart"), default=False,
        help_text=_("The draw seats players of one home club at different tables where it "
                    "can without repeating opponents or the 3-table."))
    public = models.BooleanField(
        _("public live board"), default=False,
        help_text=_("Anyone with the board's address may see the rankings, without signing "
                    "in."))
    board_key = models.CharField(_("board key"), max_length=24, unique=True,
                                 default=new_board_key)
    # Bumped by every change of registration, check-in or seating: the board's cache key is
    # made of it and the tables' versions.
    version = models.PositiveIntegerField(_("version"), default=0)
    # Online self-registration (issue 24): off unless the organiser opens it; closes at
    # ``signup_closes`` and in any case when series 1 is drawn; at most ``signup_limit``
    # entrants (online registrations beyond it are refused as fully booked). The public
    # page's address holds ``signup_key``: unguessable, shared by the organiser.
    signup_open = models.BooleanField(_("online registration"), default=False)
    signup_closes = models.DateTimeField(_("online registration closes"), null=True,
                                         blank=True)
    signup_limit = models.PositiveIntegerField(
        _("maximum number of entrants"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(10000)])
    signup_key = models.CharField(_("registration key"), max_length=24, unique=True,
                                  default=new_board_key)
    # The director's cockpit (issue 24): each series' time limit (its clock runs from the
    # series' explicit start, TournamentSeries.started), and one message to every table
    # screen of the tournament ("" none); a new message replaces the old.
    series_minutes = models.PositiveSmallIntegerField(
        _("time limit per series (minutes)"), default=120,
        validators=[MinValueValidator(10), MaxValueValidator(600)])
    notice = models.CharField(_("message to the tables"), max_length=200, blank=True)
    notice_at = models.DateTimeField(_("message sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.name} {self.date:%Y-%m-%d}"


def new_seat_key() -> str:
    return secrets.token_urlsafe(18)


class Entrant(models.Model):
    """A player registered for a tournament: a member of the club or a guest (a guest player
    of the organising club, so that the tables can seat him). ``number`` is the start number
    (the draw's 1..N)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entrants", verbose_name=_("tournament"))
    number = models.PositiveIntegerField(_("start number"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries",
                               verbose_name=_("player"))
    home_club = models.CharField(_("home club"), max_length=100, blank=True,
                                 validators=[refuse_invisible])
    category = models.CharField(_("category"), max_length=40, blank=True)
    team = models.CharField(_("team"), max_length=60, blank=True,
                            validators=[refuse_invisible])
    tandem = models.CharField(_("tandem"), max_length=60, blank=True,
                              validators=[refuse_invisible])
    paid = models.BooleanField(_("paid"), default=False)
    checked_in = models.BooleanField(_("checked in"), default=False)
    at_door = models.BooleanField(_("registered at the door"), default=False)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after series"), null=True, blank=True)
    registered = models.DateTimeField(_("registered"), auto_now_add=True)
    online = models.BooleanField(_("registered online"), default=False)
    # The entrant's own "Mein Platz" link (issue 35): his table and seat after each draw and
    # his running result, without an account. Sent with his registration mail, printed on
    # his receipt at the desk.
    seat_key = models.CharField(_("personal link"), max_length=32, unique=True,
                                default=new_seat_key)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="entrant_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"],
                                    name="entrant_once_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.player.name}"

    def plays_in(self, series: int) -> bool:
        return self.checked_in and (self.withdrawn_after is None
                                    or self.withdrawn_after >= series)


def new_signup_token() -> str:
    return secrets.token_urlsafe(32)


class Signup(models.Model):
    """A player's online registration for a tournament (issue 24): held unconfirmed until
    the link mailed to ``email`` is opened (before ``expires``), then an Entrant
    (``entrant``). One per e-mail address and tournament; expired unconfirmed ones are
    swept by every registration and confirmation (writes/signup.py)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="signups", verbose_name=_("tournament"))
    token = models.CharField(_("token"), max_length=64, unique=True,
                             default=new_signup_token)
    name = models.CharField(_("name"), max_length=100, validators=[refuse_invisible])
    email = models.EmailField(_("e-mail address"))
    home_club = models.CharField(_("home club"), max_length=100, blank=True,
                                 validators=[refuse_invisible])
    category = models.CharField(_("category"), max_length=40, blank=True)
    team = models.CharField(_("team"), max_length=60, blank=True,
                            validators=[refuse_invisible])
    tandem = models.CharField(_("tandem"), max_length=60, blank=True,
                              validators=[refuse_invisible])
    created = models.DateTimeField(_("registered"), auto_now_add=True)
    expires = models.DateTimeField(_("expires"), db_index=True)
    confirmed = models.DateTimeField(_("confirmed"), null=True, blank=True)
    entrant = models.OneToOneField(Entrant, on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="signup",
                                   verbose_name=_("entrant"))

    class Meta:
        verbose_name = _("online registration")
        verbose_name_plural = _("online registrations")
        ordering = ["tournament", "created"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "email"],
                                    name="signup_once_per_email"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class TournamentSeries(models.Model):
    """One series' draw: how it was seated and the recorded seed (the same seed, players and
    earlier series give the same draw). The seats are the evening's tables of this series."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="draws", verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("series"))
    method = models.CharField(_("seated"), max_length=10, choices=[
        ("lot", _("by lot")), *Tournament.Reseat.choices])
    seed = models.BigIntegerField(_("seed"))
    repeated_pairs = models.PositiveIntegerField(_("repeated opponents"), default=0)
    drawn = models.DateTimeField(_("drawn"), auto_now_add=True)
    # When the director started the series (its clock, issue 24): None until then.
    started = models.DateTimeField(_("started"), null=True, blank=True)

    class Meta:
        verbose_name = _("series draw")
        verbose_name_plural = _("series draws")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="series_drawn_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('Series')} {self.number}"
