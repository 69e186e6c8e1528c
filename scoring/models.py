"""Clubs, their players and rule profiles, evenings with tables, and the deals scored at them.

Scores are never stored: a deal keeps the record the scorer entered (deal-record.md), and
every sheet, total and settlement is derived from the records by the engine on each read,
so nothing can go stale. An evening keeps a frozen copy of its rules.
"""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine import SkatError
from scoring.engine.options import parse_options
from scoring.engine.settlement import parse_settlement_options, parse_stake


class RuleSystem(models.TextChoices):
    ISKO = "isko", _("International Skat Order")
    AMERICAN1898 = "american1898", _("American Skat (1898)")
    HOYLE = "hoyle", _("Hoyle's Skat")


class Scoring(models.TextChoices):
    CLASSIC = "classic", _("classic points")
    SEEGER_FABIAN = "seeger_fabian", _("Seeger-Fabian")
    BEER = "beer", _("Beer Skat")


class Club(models.Model):
    class DepartedNames(models.TextChoices):
        """What becomes of a member's name on past lists when they delete their account."""

        KEEP = "keep", _("stays on the lists")
        PSEUDONYM = "pseudonym", _("is replaced by a pseudonym")

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), unique=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="de")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    departed_names = models.CharField(
        _("name of a member who deletes their account"), max_length=10,
        choices=DepartedNames.choices, default=DepartedNames.KEEP)
    # How the players sign a finished list (issue 23): a tap on their name, or their PIN.
    sign_with_pin = models.BooleanField(
        _("players sign lists with their PIN"), default=False,
        help_text=_("Each player types the 4-digit PIN set on their account page instead of "
                    "tapping their name. Players without an account cannot sign then."))

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ADMIN = "admin", _("club admin")
        SCORER = "scorer", _("scorer")
        VIEWER = "viewer", _("viewer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships",
        verbose_name=_("user"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships",
                             verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="one_membership_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.club} ({self.get_role_display()})"

    @property
    def can_score(self) -> bool:
        return self.role in (self.Role.ADMIN, self.Role.SCORER)


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players",
                             verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100)
    guest = models.BooleanField(_("guest"), default=False)
    # The member account this player on the lists belongs to: its "my results" page.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="players", verbose_name=_("member account"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            models.UniqueConstraint(fields=["club", "user"], name="one_player_per_account",
                                    condition=models.Q(user__isnull=False)),
        ]

    def __str__(self) -> str:
        return self.name


class RulesMixin(models.Model):
    """The rules a profile proposes and an evening freezes: checked by the engine."""

    rules = models.CharField(
        _("rule system"), max_length=20, choices=RuleSystem.choices, default=RuleSystem.ISKO)
    options = models.JSONField(_("options"), default=dict, blank=True)
    scoring = models.CharField(
        _("scoring"), max_length=20, choices=Scoring.choices, default=Scoring.CLASSIC)
    stake = models.DecimalField(
        _("stake per point"), max_digits=10, decimal_places=4, default=Decimal("0"))
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    settlement = models.JSONField(_("club extras"), default=dict, blank=True)

    class Meta:
        abstract = True

    def clean(self) -> None:
        super().clean()
        try:
            parse_options(self.rules, self.options, 4)
            parse_settlement_options(self.settlement or None)
            parse_stake(str(self.stake))
        except SkatError as err:
            raise ValidationError({"options": err.message_in(get_language())}) from None
        if self.scoring == Scoring.BEER and self.rules != RuleSystem.AMERICAN1898:
            raise ValidationError({"scoring": _("Beer Skat is scored under the 1898 rules.")})
        if self.scoring == Scoring.SEEGER_FABIAN and self.rules != RuleSystem.ISKO:
            raise ValidationError(
                {"scoring": _("Seeger-Fabian is scored under the International Skat Order.")})

    def rules_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "options": self.options, "scoring": self.scoring,
                "stake": str(self.stake), "currency": self.currency,
                "settlement": self.settlement or None}


class RuleProfile(RulesMixin):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rule_profiles",
                             verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        verbose_name = _("rule profile")
        verbose_name_plural = _("rule profiles")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="profile_name_unique_in_club"),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A club's season: its evenings make up the season table (Saisontabelle).

    The evaluation decides which points rank the players (classic game points or
    Seeger-Fabian), ``best_of`` how many evenings count (all, or each player's best N:
    the rest are dropped results, Streichergebnisse), and ``min_evenings`` how many
    evenings a player needs to be ranked at all."""

    class Evaluation(models.TextChoices):
        CLASSIC = "classic", _("classic points")
        SEEGER_FABIAN = "seeger_fabian", _("Seeger-Fabian")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons",
                             verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    evaluation = models.CharField(
        _("evaluation"), max_length=20, choices=Evaluation.choices,
        default=Evaluation.SEEGER_FABIAN)
    best_of = models.PositiveSmallIntegerField(
        _("evenings that count"), null=True, blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Each player's best N evenings count; leave empty to count every evening."))
    min_evenings = models.PositiveSmallIntegerField(
        _("evenings to be ranked"), default=1,
        help_text=_("Players with fewer evenings are listed below the ranked players."))
    series_rounds = models.PositiveSmallIntegerField(
        _("rounds per series"), null=True, blank=True, default=12,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text=_("For the season's new evenings: 12 rounds are 48 games at a 4-table and "
                    "36 at a 3-table. Empty: open lists without a fixed length."))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")),
                name="season_ends_after_it_starts",
                violation_error_message=_("The season cannot end before it starts.")),
        ]

    def __str__(self) -> str:
        return self.name


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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="signatures",
                              verbose_name=_("table"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="signatures",
                               verbose_name=_("player"))
    at = models.DateTimeField(_("signed"), default=timezone.now)
    where = models.CharField(_("where"), max_length=10, choices=Where.choices,
                             default=Where.TABLET)
    with_pin = models.BooleanField(_("with PIN"), default=False)

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


class AuditEntry(models.Model):
    """Append-only: who changed which deal when, and what it was before and after; and who
    closed, reopened or imported an evening when (those have no table and no deal)."""

    class Action(models.TextChoices):
        CREATE = "create", _("recorded")
        EDIT = "edit", _("corrected")
        DELETE = "delete", _("deleted")
        RESTORE = "restore", _("restored")
        CLOSE = "close", pgettext_lazy("audit action on an evening", "closed")
        REOPEN = "reopen", _("reopened")
        IMPORT = "import", _("imported")
        # What became of an operation a tablet sent after being offline (issue 13); these
        # name the table but no deal and change no version.
        HELD = "held", _("held for the club admin")
        ACCEPT = "accept", _("accepted by the club admin")
        DISCARD = "discard", _("discarded by the club admin")
        REFUSE = "refuse", _("refused when sent")
        CONFLICT = "conflict", _("met a changed table")
        DROP = "drop", _("dropped: the other device's version kept")
        # The players' signatures (issue 23): a player signed the list; a club admin changed
        # a signed list (the signatures are cleared); a series drawn before every table of
        # the one before had signed.
        SIGN = "sign", _("signed")
        UNSIGN = "unsign", _("changed after signing")
        DRAW_UNSIGNED = "drawunsign", _("drawn before every table had signed")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="audit",
                                verbose_name=_("evening"))
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="audit",
                              null=True, blank=True, verbose_name=_("table"))
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="audit",
                             null=True, blank=True, verbose_name=_("deal"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        verbose_name=_("user account"))
    actor = models.CharField(_("by"), max_length=150)  # the user or "table code …"
    at = models.DateTimeField(_("when"), auto_now_add=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # The sending device's key of the operation (a save, a correction …) and the table's
    # version after it: a repeated sync request gets the same answer again.
    request_id = models.UUIDField(_("request ID"), null=True, blank=True, db_index=True)
    version = models.PositiveIntegerField(_("version"), null=True, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.get_action_display()}"


class HeldOperation(models.Model):
    """An operation a tablet scored offline that arrived when it could no longer be applied:
    the evening was closed, or the device's table code expired or was replaced meanwhile.
    Kept for a club admin to accept (through the services, at the table's current version)
    or discard with a reason; never dropped."""

    class Op(models.TextChoices):
        SAVE = "save", _("new deal")
        EDIT = "edit", _("correction")
        DELETE = "delete", _("deletion")
        RESTORE = "restore", _("restoration")

    class Why(models.TextChoices):
        CLOSED = "closed", _("the evening was closed")
        CODE = "code", _("the table code had expired or was replaced")
        SIGNED = "signed", _("the players had signed the list")

    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        ACCEPTED = "accepted", _("accepted")
        DISCARDED = "discarded", _("discarded")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="held",
                              verbose_name=_("table"))
    op = models.CharField(_("operation"), max_length=10, choices=Op.choices)
    request_id = models.UUIDField(_("request ID"))
    record = models.JSONField(_("record"), null=True, blank=True)
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="held", verbose_name=_("deal"))
    # A correction or deletion of a deal that was itself held: its save's request ID.
    deal_request_id = models.UUIDField(_("request ID of the deal"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    base_version = models.PositiveIntegerField(_("version"), default=0)
    why = models.CharField(_("held because"), max_length=10, choices=Why.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("user account"))
    actor = models.CharField(_("by"), max_length=150)
    at = models.DateTimeField(_("when"), auto_now_add=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices,
                             default=State.WAITING)
    resolved_by = models.CharField(_("decided by"), max_length=150, blank=True)
    resolved_at = models.DateTimeField(_("decided"), null=True, blank=True)
    resolution = models.TextField(_("decision"), blank=True)

    class Meta:
        verbose_name = _("held operation")
        verbose_name_plural = _("held operations")
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "request_id"], name="held_request_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.get_op_display()} ({self.get_state_display()})"

    def deal_record(self) -> dict[str, Any]:
        """The record of a held new deal or correction. The sync view holds only records
        that are JSON objects; anything else is refused as the engine refuses it."""
        if not isinstance(self.record, dict):
            raise SkatError(None, "A deal must be a JSON object.")
        return self.record

def new_invitation_token() -> str:
    """A one-time link's secret: 32 random characters, safe in a URL."""
    return secrets.token_urlsafe(24)


INVITATION_DAYS = 7


def invitation_expiry() -> datetime:
    return timezone.now() + timedelta(days=INVITATION_DAYS)


class Invitation(models.Model):
    """A club admin's invitation to join the club with a role chosen in advance: a one-time
    link (sent by e-mail or shown as a link and QR code) that expires after 7 days. The
    invited person picks their own user name and password."""

    class State(models.TextChoices):
        OPEN = "open", _("open")
        USED = "used", _("used")
        REVOKED = "revoked", _("revoked")
        EXPIRED = "expired", _("expired")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations",
                             verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=10, choices=Membership.Role.choices,
                            default=Membership.Role.SCORER)
    email = models.EmailField(_("e-mail address"), blank=True)
    token = models.CharField(_("link"), max_length=64, unique=True,
                             default=new_invitation_token)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires = models.DateTimeField(_("expires"), default=invitation_expiry)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("invited by"))
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    send_failed_at = models.DateTimeField(_("sending failed"), null=True, blank=True)
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("used by"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.club} – {self.get_role_display()} ({self.email or self.pk})"

    def state(self, now: datetime | None = None) -> str:
        if self.used_at is not None:
            return self.State.USED
        if self.revoked_at is not None:
            return self.State.REVOKED
        if (now or timezone.now()) >= self.expires:
            return self.State.EXPIRED
        return self.State.OPEN


class ImportedTotal(models.Model):
    """A player's result at an evening played on paper, brought in from a list (issue 16): the
    evening's classic game points, games won and lost as declarer, and, where the list has
    them, Seeger-Fabian points and money. An evening with such totals has no tables; the
    season table adds them up with the evenings played here, marked as from paper."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE,
                                related_name="imported_totals", verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="imported_totals",
                               verbose_name=_("player"))
    points = models.IntegerField(_("game points"))
    won = models.PositiveSmallIntegerField(_("games won"))
    lost = models.PositiveSmallIntegerField(_("games lost"))
    seeger_fabian = models.IntegerField(_("Seeger-Fabian points"), null=True, blank=True)
    money = models.DecimalField(_("money"), max_digits=10, decimal_places=2, null=True,
                                blank=True)
    source = models.CharField(_("file"), max_length=255, blank=True)
    line = models.PositiveIntegerField(_("line"), default=0)

    class Meta:
        verbose_name = _("imported total")
        verbose_name_plural = _("imported totals")
        ordering = ["evening", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "player"],
                                    name="imported_total_once_per_evening"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.evening}: {self.points}"


class PendingImport(models.Model):
    """An uploaded file between its preview and the admin's confirmation: kept here (with
    its SHA-256) so that the confirmation needs no second upload and imports exactly the
    file that was previewed. Removed when confirmed; older than an hour, it has expired."""

    class Kind(models.TextChoices):
        EVENING = "evening", _("evening file")
        CLUB = "club", _("club file")
        TOTALS = "totals", _("season totals (CSV)")
        SHEET = "sheet", _("score sheet (CSV)")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="pending_imports",
                             verbose_name=_("club"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             verbose_name=_("user account"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    name = models.CharField(_("file"), max_length=255, blank=True)
    digest = models.CharField(_("SHA-256"), max_length=64)
    content = models.BinaryField(_("content"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    # the preview as the upload's check found it (uploads.Preview.as_json): its page shows
    # this and reads the file no more
    checked = models.JSONField(_("checked"), default=dict, blank=True)
    created = models.DateTimeField(_("uploaded"), auto_now_add=True)

    class Meta:
        verbose_name = _("pending import")
        verbose_name_plural = _("pending imports")

    def __str__(self) -> str:
        return f"{self.club} {self.kind} {self.name}"


class ClubLogEntry(models.Model):
    """What happened to a club that no evening's audit log can keep: an evening deleted
    (its audit log goes with it). The entry keeps the evening as exported, so that it can
    be read, and imported again, after it is gone."""

    class Action(models.TextChoices):
        DELETE_EVENING = "delete", _("evening deleted")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="log",
                             verbose_name=_("club"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        verbose_name=_("user account"))
    actor = models.CharField(_("by"), max_length=150)
    at = models.DateTimeField(_("when"), auto_now_add=True)
    summary = models.TextField(_("what"), blank=True)
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)

    class Meta:
        verbose_name = _("club log entry")
        verbose_name_plural = _("club log")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.get_action_display()}"


# ---------------------------------------------------------------- tournaments (issue 17)

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
    name = models.CharField(_("name"), max_length=100)
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


class Entrant(models.Model):
    """A player registered for a tournament: a member of the club or a guest (a guest player
    of the organising club, so that the tables can seat him). ``number`` is the start number
    (the draw's 1..N)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entrants", verbose_name=_("tournament"))
    number = models.PositiveIntegerField(_("start number"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries",
                               verbose_name=_("player"))
    home_club = models.CharField(_("home club"), max_length=100, blank=True)
    category = models.CharField(_("category"), max_length=40, blank=True)
    team = models.CharField(_("team"), max_length=60, blank=True)
    tandem = models.CharField(_("tandem"), max_length=60, blank=True)
    paid = models.BooleanField(_("paid"), default=False)
    checked_in = models.BooleanField(_("checked in"), default=False)
    at_door = models.BooleanField(_("registered at the door"), default=False)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after series"), null=True, blank=True)
    registered = models.DateTimeField(_("registered"), auto_now_add=True)
    online = models.BooleanField(_("registered online"), default=False)

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
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("e-mail address"))
    home_club = models.CharField(_("home club"), max_length=100, blank=True)
    category = models.CharField(_("category"), max_length=40, blank=True)
    team = models.CharField(_("team"), max_length=60, blank=True)
    tandem = models.CharField(_("tandem"), max_length=60, blank=True)
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


class TableScore(models.Model):
    """One player's result at one table: Seeger-Fabian points, classic game points, games won
    and lost as declarer. Derived by the engine from the table's live deals and kept by the
    deal services in the same transaction as every change (writes/scores.py), so that the
    federation-wide ranking (reads/federation.py) is one indexed query over these rows instead
    of scoring every club's deals. Only for tables that have Seeger-Fabian points (the
    International Skat Order at a table of 3 or 4); never edited by hand."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores",
                              verbose_name=_("table"))
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="scores",
                                verbose_name=_("evening"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="scores",
                               verbose_name=_("player"))
    seeger_fabian = models.IntegerField(_("Seeger-Fabian"))
    points = models.IntegerField(_("points"))
    won = models.PositiveIntegerField(_("won"))
    lost = models.PositiveIntegerField(_("lost"))

    class Meta:
        verbose_name = _("table score")
        verbose_name_plural = _("table scores")
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="score_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.player}: {self.seeger_fabian}"


class FailureCount(models.Model):
    """One count of the failure limits (scoring/access.py): wrong passwords, table codes and
    PINs, registrations and password-reset mails, under a key that says whose they are (a
    digest: never the name or address itself). In the database and not in the cache, so that
    no other traffic evicts it (the database cache culls, Redis evicts under maxmemory) and a
    cache restart or flush hands out no fresh tries. Times are seconds since the epoch (the
    limits' own clock, scoring.access.now): ``until`` ends the wait (0: none), ``expires``
    forgets the count; an expired row counts as nothing and is pruned."""

    key = models.CharField(_("key"), max_length=100, unique=True)
    count = models.PositiveIntegerField(_("count"), default=0)
    until = models.FloatField(_("wait until"), default=0)
    expires = models.FloatField(_("expires"), db_index=True)

    class Meta:
        verbose_name = _("failure count")
        verbose_name_plural = _("failure counts")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
