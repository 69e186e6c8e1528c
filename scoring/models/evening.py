"""An evening with its tables, seats and deals (the raw records), and the signatures under a
table's list."""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.club import Club, Player, Season
from scoring.models.rules import RulesMixin, Scoring


class Evening(RulesMixin):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings",
                             verbose_name=_("club"))
    date = models.DateField(_("date"))
    name = models.CharField(_("name"), max_length=100, default="Clubabend")
    profile_name = models.CharField(_("rule profile"), max_length=100, blank=True)
    closed = models.BooleanField(_("closed"), default=False)
    # Bumped by every change to the evening's money settings (stake, currency, club extras):
    # the settlement form carries the version it was shown, so a save against another
    # version is refused as stale, and printed PDFs are keyed by it with the tables' versions.
    version = models.PositiveIntegerField(_("version"), default=0)
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="evenings",
        verbose_name=_("season"))
    # A series is 12 rounds in a tournament: 48 games at a 4-table, 36 at a 3-table (a round
    # is one deal by every person at the table). None: an open list without a fixed length.
    series_rounds = models.PositiveSmallIntegerField(
        _("rounds per series"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(50)])

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-date", "-id"]
        indexes = [
            # The federation ranking reads a year's evenings of every club (reads/federation).
            models.Index(fields=["date"], name="evening_date"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.date:%Y-%m-%d}"

    def clean(self) -> None:
        super().clean()
        # Beer Skat counts up and the lowest count wins (DECISIONS §3), a season ranks the
        # highest score first: the two cannot be added up. Here, so that every form refuses
        # it (the admin's too), not only the services.
        if self.scoring == Scoring.BEER and self.season_id is not None:
            raise ValidationError(
                {"season": _("A Beer Skat evening cannot count toward a season.")})

    def series_length(self, players: int) -> int | None:
        """Games in a series at a table of ``players``: 48 at a 4-table and 36 at a 3-table
        for 12 rounds; None for an open list."""
        return self.series_rounds * players if self.series_rounds else None

    def codes_valid_until(self) -> datetime:
        """Table codes work on the evening's date and through the following night (until
        6 in the morning), and never after the evening is closed."""
        end = datetime.combine(self.date + timedelta(days=1), time(6, 0))
        return timezone.make_aware(end) if settings.USE_TZ else end

    def codes_valid(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        start = datetime.combine(self.date, time(0, 0))
        if settings.USE_TZ:
            start = timezone.make_aware(start)
        return not self.closed and start <= now < self.codes_valid_until()


def new_access_code() -> str:
    """Eight characters without look-alikes (no 0/O, 1/I/L), easy to type on a phone."""
    alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class Table(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables",
                                verbose_name=_("evening"))
    # Each series of an evening has its own tables and seating, numbered from 1.
    series = models.PositiveSmallIntegerField(_("series"), default=1)
    number = models.PositiveSmallIntegerField(_("table"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    access_code = models.CharField(
        _("access code"), max_length=12, unique=True, default=new_access_code)
    # Bumped by every change to the table's deals: a form carries the version it was shown,
    # and a save against another version is refused as stale (two tablets, one table).
    version = models.PositiveIntegerField(_("version"), default=0)
    # The players' signatures (issue 23): bumped by every signature and by clearing them, so
    # that the polled pages and the printed documents (keyed by the table's fields) change;
    # ``signed_at`` is when the last seated player signed: the list is locked from then on.
    # ``changed_after_signing``: a club admin changed the locked list (with a reason), the
    # signatures were cleared, and the list says so until everybody has signed again.
    signing = models.PositiveIntegerField(_("signing version"), default=0)
    signed_at = models.DateTimeField(_("signed by everybody"), null=True, blank=True)
    changed_after_signing = models.BooleanField(_("changed after signing"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["evening", "series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "series", "number"],
                                    name="table_number_unique_in_series"),
        ]

    def __str__(self) -> str:
        if self.series > 1:
            return f"{self.evening} – {_('Series')} {self.series}, {_('Table')} {self.number}"
        return f"{self.evening} – {_('Table')} {self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats",
                              verbose_name=_("table"))
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats",
                               verbose_name=_("player"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="player_once_per_table"),
            models.CheckConstraint(condition=models.Q(position__lt=6), name="at_most_six_seats"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.position}: {self.player}"


class Deal(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals",
                              verbose_name=_("table"))
    # The order at the table; deleted deals keep theirs.
    position = models.PositiveIntegerField(_("number"))
    record = models.JSONField(_("record"))  # a deal record of deal-record.md
    deleted = models.BooleanField(_("deleted"), default=False)
    # The submitting device's key for this save: a retried POST finds its deal again.
    request_id = models.UUIDField(_("request ID"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="deal_position_unique"),
            models.UniqueConstraint(fields=["table", "request_id"], name="deal_request_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {_('deal')} {self.position}"


class Signature(models.Model):
    """A player's signature under a table's list: on the tablet (a tap on the name or the
    PIN) or on the player's own phone through the table's signing link."""

    class Where(models.TextChoices):
        TABLET = "tablet", _("on the tablet")
        PHONE = "phone", _("on a phone")

    class Proof(models.TextChoices):
        TAP = "tap", _("a tap on the tablet")
        PIN = "pin", _("the player's PIN")
        ACCOUNT = "account", _("the player's own account")
        CODE = "code", _("a one-time code from the tablet")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="signatures",
                              verbose_name=_("table"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="signatures",
                               verbose_name=_("player"))
    at = models.DateTimeField(_("signed"), default=timezone.now)
    where = models.CharField(_("where"), max_length=10, choices=Where.choices,
                             default=Where.TABLET)
    with_pin = models.BooleanField(_("with PIN"), default=False)
    # Who vouched for the signature (issue 35): how the signer proved to be the player (a
    # tap on the tablet, his PIN, his own signed-in account, the one-time code the tablet
    # showed him), the account that signed (his, or the scorer's holding the tablet), the
    # device (its session, as a digest) and the address it came from.
    proof = models.CharField(_("proof"), max_length=10, choices=Proof.choices,
                             default=Proof.TAP)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("user account"))
    device = models.CharField(_("device"), max_length=64, blank=True)
    address = models.CharField(_("address"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")
        ordering = ["table", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="sign_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.player}: {self.at:%Y-%m-%d %H:%M}"


class SigningPin(models.Model):
    """A member's 4-digit PIN for signing lists, hashed like a password."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="signing_pin", verbose_name=_("user account"))
    pin = models.CharField(_("PIN"), max_length=128)
    changed = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("signing PIN")
        verbose_name_plural = _("signing PINs")

    def __str__(self) -> str:
        return str(self.user)
