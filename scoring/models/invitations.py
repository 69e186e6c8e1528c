"""Invitations: a one-time link to join a club."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.club import Club, Membership


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
