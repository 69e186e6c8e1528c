"""What happened to an evening (the audit log) and the operations a tablet held while offline."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine import SkatError
from scoring.models.evening import (
    Deal,
    Evening,
    Table,
)


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
