"""`manage.py restore FILE [--force]`: put a backup made by `backup` back. Refuses to
overwrite a database that holds clubs or users unless --force."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.writes.backup import BackupError, restore


class Command(BaseCommand):
    help = "Restore the database from a backup made by `manage.py backup`."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file")
        parser.add_argument("--force", action="store_true",
                            help="replace a database that is not empty")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            restore(Path(options["file"]), force=options["force"])
        except BackupError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"Restored from {options['file']}.")
