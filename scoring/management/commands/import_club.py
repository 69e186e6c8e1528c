"""`manage.py import_club FILE|-`: a club from `export_club`'s JSON, all or nothing.

The club is found by its short name or created; players, rule profiles and seasons are found
by name or created (one that exists must match the file); the evenings are added."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.interchange import import_club

from ._io import read_json, run_import


class Command(BaseCommand):
    help = "Import a club (players, rule profiles, seasons, evenings) from JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the club's JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        club = run_import(import_club, read_json(options["file"]))
        evenings = club.evenings.count()
        self.stdout.write(f"{club.slug}: {evenings} evenings")
