"""What came in from outside: totals from paper, uploads awaiting confirmation, the club log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.club import Club, Player
from scoring.models.evening import (
    Evening,
)


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
        # Who a player on the lists is (issue 35): linked to an account at the desk or
        # unlinked, claimed through a claim link, two records merged or the merge undone,
        # a member number set.
        LINK = "link", _("player linked to an account")
        UNLINK = "unlink", _("player unlinked from an account")
        CLAIM = "claim", _("player claimed with a claim link")
        MERGE = "merge", _("two records of a player merged")
        UNMERGE = "unmerge", _("merge undone")
        MEMBER_NUMBER = "number", _("member number changed")

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
