"""`manage.py sweep_signups`: deletes the online tournament registrations never confirmed
whose link has expired (docs/reference/tournaments.md). Every registration and confirmation sweeps
them already (scoring/writes/signup.py); this is for a cron job on a quiet site, so that no
unconfirmed e-mail address is kept longer than its link works."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring.writes import signup


class Command(BaseCommand):
    help = "Delete the unconfirmed online tournament registrations whose link has expired."

    def handle(self, *args: Any, **options: Any) -> None:
        removed = signup.sweep()
        if options["verbosity"]:
            self.stdout.write(f"{removed} expired online registrations deleted.")
