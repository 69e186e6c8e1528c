"""`manage.py export_evening ID [-o FILE]`: an evening in the interchange format (JSON)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Evening
from scoring.reads.export import dumps, evening_export

from ._io import write_text


class Command(BaseCommand):
    help = "Print an evening as JSON in the interchange format (deal-record.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("evening", type=int, help="the evening's id")
        parser.add_argument("-o", "--output", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        evening = Evening.objects.select_related("club", "season").filter(
            pk=options["evening"]).first()
        if evening is None:
            raise CommandError(f"There is no evening {options['evening']}.")
        write_text(self.stdout, dumps(evening_export(evening)), options["output"])
