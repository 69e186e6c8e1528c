"""`manage.py prune_failure_counts`: removes the failure counts of the limits
(docs/operators/limits.md) whose window has run out. They count as nothing already, and every
new count removes a few of them; this removes all of them at once (for a cron job after a
flood)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring import access


class Command(BaseCommand):
    help = "Remove the expired failure counts of the sign-in, table-code and other limits."

    def handle(self, *args: Any, **options: Any) -> None:
        removed = access.prune()
        if options["verbosity"]:
            self.stdout.write(f"{removed} expired failure counts removed.")
