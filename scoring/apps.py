from __future__ import annotations

import secrets
from functools import partial
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import transaction
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _

# Signed-in accounts kept in the shared cache (scoring.access.SignedInBackend), dropped here
# whenever an account is saved or deleted (a new password, deactivated, removed), in every
# process that loads the app: the site, its workers and the management commands alike.
SIGNED_IN_CACHE = "default"


def signed_in_key(user_id: object) -> str:
    return f"auth:user:{user_id}"


def signed_in_version_key(user_id: object) -> str:
    """The account's version: a fresh random token at every change of the account. A kept
    account is used only under the version it was read under (SignedInBackend), so a request
    that read the account just before a change commits, and keeps it just after, keeps it
    under a version that no longer holds (issue 26)."""
    return f"auth:user-version:{user_id}"


def new_signed_in_version() -> str:
    return secrets.token_hex(8)


def _bump(user_id: object) -> None:
    caches[SIGNED_IN_CACHE].set(signed_in_version_key(user_id), new_signed_in_version(), None)
    caches[SIGNED_IN_CACHE].delete(signed_in_key(user_id))


def forget_signed_in(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Now, and once more when the change commits: a new version of the account, and its
    kept copy dropped. A copy kept meanwhile under the old version is never used again."""
    _bump(instance.pk)
    transaction.on_commit(partial(_bump, instance.pk))


def create_cache_tables(using: str = "default", **kwargs: Any) -> None:
    """Without CACHE_URL the shared cache is a set of tables in the database
    (settings.CACHES): every migrate makes those that are missing, so that the site, the
    tests and a switch from Redis back to the database find them. Quick when they exist."""
    call_command("createcachetable", database=using, verbosity=0)


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        post_migrate.connect(create_cache_tables, sender=self,
                             dispatch_uid="scoring.create_cache_tables")
        for signal in (post_save, post_delete):
            signal.connect(forget_signed_in, sender=settings.AUTH_USER_MODEL,
                           dispatch_uid=f"scoring.forget_signed_in.{signal is post_save}")
