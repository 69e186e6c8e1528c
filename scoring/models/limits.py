"""The counts of the failure limits (scoring/access.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


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
