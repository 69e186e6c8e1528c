"""A club, its members (users with a role), its players, rule profiles and seasons."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.collation import refuse_invisible
from scoring.models.rules import RulesMixin


class Club(models.Model):
    class DepartedNames(models.TextChoices):
        """What becomes of a member's name on past lists when they delete their account."""

        KEEP = "keep", _("stays on the lists")
        PSEUDONYM = "pseudonym", _("is replaced by a pseudonym")

    name = models.CharField(_("name"), max_length=100, validators=[refuse_invisible])
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
    """A person on a club's lists. Linked to an account (``user``) only by an explicit act
    (issue 35): the player's claim link, an invitation, or a club admin's desk action, each
    in the club log; never by name. ``member_number`` is a federation's membership number,
    unique on the site. ``merged_into``: this record was merged into another of the same
    person (its seats, entries and team places moved there, PlayerMerge keeps which); it is
    no longer offered anywhere, and the merge can be undone."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players",
                             verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=100, validators=[refuse_invisible])
    guest = models.BooleanField(_("guest"), default=False)
    # The member account this player on the lists belongs to: its "my results" page.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="players", verbose_name=_("member account"))
    member_number = models.CharField(
        _("member number"), max_length=20, blank=True, default="",
        help_text=_("The federation's membership number, if the player has one: unique on "
                    "this site."))
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="merged_records", verbose_name=_("merged into"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            models.UniqueConstraint(fields=["club", "user"], name="one_player_per_account",
                                    condition=models.Q(user__isnull=False)),
            models.UniqueConstraint(fields=["member_number"], name="member_number_unique",
                                    condition=~models.Q(member_number="")),
        ]

    def __str__(self) -> str:
        return self.name


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


def new_claim_token() -> str:
    """A claim link's secret: 32 random characters, safe in a URL."""
    return secrets.token_urlsafe(24)


CLAIM_DAYS = 14


def claim_expiry() -> datetime:
    return timezone.now() + timedelta(days=CLAIM_DAYS)


class PlayerClaim(models.Model):
    """A club admin's claim link (and QR code) for one player on the club's lists: whoever
    opens it signed in and confirms becomes that player (his account is linked to the
    record). One-time, expires after 14 days, can be withdrawn; the club log keeps who made
    it and who used it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims",
                               verbose_name=_("player"))
    token = models.CharField(_("link"), max_length=64, unique=True, default=new_claim_token)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires = models.DateTimeField(_("expires"), default=claim_expiry)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("created by"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("used by"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("claim link")
        verbose_name_plural = _("claim links")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.player} ({self.pk})"

    def usable(self, now: datetime | None = None) -> bool:
        return (self.used_at is None and self.revoked_at is None
                and (now or timezone.now()) < self.expires)


class PlayerMerge(models.Model):
    """Two records of one person merged by a club admin ("Paula Wagner" and "Paula Wagner
    (Gotha)"): ``merged``'s seats, signatures, entries, team places and line-ups moved to
    ``kept``; ``moved`` lists them by kind ({"seat": [ids], …}) so that the merge can be
    undone exactly. The reason is required; undoing it is logged too."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="merges",
                             verbose_name=_("club"))
    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges_kept",
                             verbose_name=_("kept record"))
    merged = models.ForeignKey(Player, on_delete=models.CASCADE,
                               related_name="merges_merged", verbose_name=_("merged record"))
    moved = models.JSONField(_("moved"), default=dict)
    reason = models.TextField(_("reason"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("by"))
    at = models.DateTimeField(_("when"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", verbose_name=_("undone by"))
    undo_reason = models.TextField(_("reason for undoing"), blank=True)

    class Meta:
        verbose_name = _("merge of two records")
        verbose_name_plural = _("merges of two records")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.merged} → {self.kept}"


class AccountSettings(models.Model):
    """A person's own choices for his account: whether members of other clubs may see his
    results across clubs (his own clubs' members always may)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="account_settings", verbose_name=_("user account"))
    results_visible = models.BooleanField(
        _("other clubs' members may see my results"), default=False)

    class Meta:
        verbose_name = _("account settings")
        verbose_name_plural = _("account settings")

    def __str__(self) -> str:
        return str(self.user)
