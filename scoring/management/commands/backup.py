"""`manage.py backup FILE [--json]`: a consistent snapshot of the whole database (see
scoring/writes/backup.py for the method on each database)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.writes.backup import BackupError, backup


class Command(BaseCommand):
    help = ("Write a consistent snapshot of the whole database to FILE: a SQLite file "
            "(online backup API) on SQLite, JSON (dumpdata) on PostgreSQL or with --json.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="where to write the backup")
        parser.add_argument("--json", action="store_true",
                            help="write JSON (dumpdata) also on SQLite, e.g. to move the club "
                                 "to PostgreSQL")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            how = backup(Path(options["file"]), json=options["json"])
        except BackupError as err:
            raise CommandError(str(err)) from None
        label = "SQLite online backup" if how == "sqlite" else "JSON like dumpdata"
        self.stdout.write(f"Backed up to {options['file']} ({label}).")
