"""`manage.py import_evening FILE|-`: an evening from the interchange format, all or nothing.

Everything is checked first (the JSON's shape, every table through the engine, the club's
players and season); an error names the table and the deal, exits with status 1 and leaves
the database as it was. Prints the new evening's id."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.interchange import import_evening

from ._io import read_json, run_import


class Command(BaseCommand):
    help = "Import an evening from JSON (a file, or - for standard input); prints its id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the evening's JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        evening = run_import(import_evening, read_json(options["file"]))
        self.stdout.write(str(evening.pk))
