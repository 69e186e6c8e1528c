"""`manage.py export_sheet_csv --evening ID --table N [--series S] [-o FILE]`: a table's
score sheet as CSV, the same rows as the sheet page and the PDF (scoring.reads.sheet)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring.models import Table
from scoring.reads.export import sheet_csv
from scoring.reads.sheet import table_sheet, tables_with_everything

from ._io import write_text


class Command(BaseCommand):
    help = "Write a table's score sheet as CSV (UTF-8 with BOM)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--evening", type=int, required=True, help="the evening's id")
        parser.add_argument("--table", type=int, required=True,
                            help="the table's number at the evening")
        parser.add_argument("--series", type=int, default=1, help="the series (default 1)")
        parser.add_argument("--lang", choices=["de", "en"],
                            help="language of the headings (default: the club's)")
        parser.add_argument("-o", "--output", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        table = tables_with_everything(Table.objects.filter(
            evening_id=options["evening"], number=options["table"],
            series=options["series"])).first()
        if table is None:
            raise CommandError(f"Evening {options['evening']} has no table {options['table']} "
                               f"in series {options['series']}.")
        lang = options["lang"] or table.evening.club.language
        with translation.override(lang):
            text = sheet_csv(table_sheet(table, lang, explain=False))
        write_text(self.stdout, text, options["output"])
