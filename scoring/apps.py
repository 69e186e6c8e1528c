from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


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
