"""`manage.py import_club FILE|-`: a club from `export_club`'s JSON, all or nothing.

The club is found by its short name or created; players, rule profiles and seasons are found
by name or created (one that exists must match the file); the evenings are added, but those
the club has already (same date, name and content: importing a file twice adds nothing the
second time). Says how many were added and how many were already there; each is written to
its evening's audit log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.writes.imports import import_club_report

from ._io import importer, read_json, run_import


class Command(BaseCommand):
    help = "Import a club (players, rule profiles, seasons, evenings) from JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the club's JSON file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        report = run_import(importer(import_club_report, "import_club", options["file"]),
                            read_json(options["file"]))
        added, there = len(report.added), len(report.skipped)
        self.stdout.write(
            f"{report.club.slug}: {added} evening{'' if added == 1 else 's'} added, {there} "
            f"already there (same date, name and content); {report.club.evenings.count()} "
            "in the club")
