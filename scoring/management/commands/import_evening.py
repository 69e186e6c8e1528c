"""`manage.py import_evening FILE|-`: an evening from the interchange format, all or nothing.

Everything is checked first (the JSON's shape, every table through the engine, the club's
players and season); an error names the table and the deal, exits with status 1 and leaves
the database as it was. Prints the new evening's id; if the club has the evening already
(same date, name and content) nothing is added, its id is printed and standard error says so.
The import is written to the evening's audit log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.writes.imports import import_evening_report

from ._io import importer, read_json, run_import


class Command(BaseCommand):
    help = "Import an evening from JSON (a file, or - for standard input); prints its id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the evening's JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        report = run_import(importer(import_evening_report, "import_evening", options["file"]),
                            read_json(options["file"]))
        if report.skipped:
            evening = report.skipped[0]
            self.stderr.write(f"{evening.date:%Y-%m-%d} {evening.name} is already there (same "
                              "club, date, name and content): nothing was added.")
        else:
            evening = report.added[0]
        self.stdout.write(str(evening.pk))
