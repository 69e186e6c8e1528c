"""`manage.py export_club SLUG [-o FILE]`: a whole club (players, rule profiles, seasons,
evenings with their tables and deals) as JSON."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Club
from scoring.reads.export import club_export, dumps

from ._io import write_text


class Command(BaseCommand):
    help = "Print a club with its players, rule profiles, seasons and evenings as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's short name (slug)")
        parser.add_argument("-o", "--output", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"There is no club {options['club']!r}.")
        write_text(self.stdout, dumps(club_export(club)), options["output"])
