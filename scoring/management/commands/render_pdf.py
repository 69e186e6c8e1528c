"""`manage.py render_pdf sheet|settlement|summary --evening ID [--table N] -o FILE` and
`manage.py render_pdf standings --season ID -o FILE`: print from scripts. The same documents
(and for the evening's, the same cache) as the site's PDF links.

    manage.py render_pdf sheet --evening 3 --table 2 -o tisch2.pdf
    manage.py render_pdf sheet --evening 3 --table 2 --layout historical -o tisch2-buch.pdf
    manage.py render_pdf settlement --evening 3 -o abrechnung.pdf
    manage.py render_pdf summary --evening 3 -o - | lp
    manage.py render_pdf standings --season 2 -o saisontabelle.pdf

``--table`` is the table's number at the evening (as printed on the sheet), not its id.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from scoring.models import Evening, Season, Table
from scoring.pdf.documents import (
    KINDS,
    LAYOUTS,
    Document,
    get_pdf,
    render,
    settlement_document,
    sheet_document,
    summary_document,
)
from scoring.pdf.standings import standings_document

STANDINGS = "standings"


class Command(BaseCommand):
    help = ("Render a table's score sheet, an evening's settlement or its summary, or a "
            "season's standings as a PDF.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=[*KINDS, STANDINGS], help="which document")
        parser.add_argument("--evening", type=int,
                            help="the evening's id (sheet, settlement, summary)")
        parser.add_argument("--season", type=int, help="the season's id (standings)")
        parser.add_argument("--table", type=int,
                            help="the table's number at the evening (sheet only)")
        parser.add_argument("--layout", choices=LAYOUTS, default="standard",
                            help="the sheet's layout (default: standard)")
        parser.add_argument("--lang", choices=[code for code, _name in settings.LANGUAGES],
                            help="language (default: the club's)")
        parser.add_argument("-o", "--output", required=True,
                            help="the PDF file to write, or - for standard output")
        parser.add_argument("--no-cache", action="store_true",
                            help="render afresh, neither reading nor filling the cache")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["kind"] == STANDINGS:
            self._standings(options)
            return
        if options["season"] is not None:
            raise CommandError("--season belongs to the standings.")
        if options["evening"] is None:
            raise CommandError("Say which evening: --evening ID.")
        evening = Evening.objects.select_related("club").filter(pk=options["evening"]).first()
        if evening is None:
            raise CommandError(f"There is no evening with id {options['evening']}.")
        kind, number = options["kind"], options["table"]
        if kind != "sheet" and number is not None:
            raise CommandError("--table belongs to the sheet; the settlement and the summary "
                               "cover every table of the evening.")
        if kind != "sheet" and options["layout"] != "standard":
            raise CommandError("--layout belongs to the sheet.")
        with translation.override(options["lang"] or evening.club.language or "de"):
            if kind == "sheet":
                document = sheet_document(self._table(evening, number), options["layout"])
            elif kind == "settlement":
                document = settlement_document(evening)
            else:
                document = summary_document(evening)
            pdf = self._pdf(document, options["no_cache"])
        self._write(options["output"], pdf, document.filename)

    def _standings(self, options: dict[str, Any]) -> None:
        if options["evening"] is not None or options["table"] is not None:
            raise CommandError("The standings cover a season: give --season, not --evening.")
        if options["season"] is None:
            raise CommandError("Say which season: --season ID.")
        season = Season.objects.select_related("club").filter(pk=options["season"]).first()
        if season is None:
            raise CommandError(f"There is no season with id {options['season']}.")
        document = standings_document(season, options["lang"] or season.club.language or "de")
        pdf = self._pdf(document, options["no_cache"])
        self._write(options["output"], pdf, f"season {season.name}")

    def _pdf(self, document: Document, no_cache: bool) -> bytes:
        if no_cache:
            return render(document).pdf
        # a script may wait for a render slot as long as a render may take
        return get_pdf(document, wait=settings.PDF_RENDER_TIMEOUT)[0]

    def _write(self, output: str, pdf: bytes, what: str) -> None:
        if output == "-":
            sys.stdout.buffer.write(pdf)
            sys.stdout.buffer.flush()
            return
        try:
            Path(output).write_bytes(pdf)
        except OSError as err:
            raise CommandError(f"Cannot write {output}: {err.strerror}.") from None
        self.stderr.write(f"{output}: {what} ({len(pdf):,} bytes)")

    def _table(self, evening: Evening, number: int | None) -> Table:
        tables = evening.tables.select_related("evening__club").order_by("number")
        numbers = [t.number for t in tables]
        if number is None:
            raise CommandError("Say which table: --table N (this evening has "
                               f"{', '.join(map(str, numbers)) or 'no tables'}).")
        table = next((t for t in tables if t.number == number), None)
        if table is None:
            raise CommandError(f"The evening has no table {number} (it has "
                               f"{', '.join(map(str, numbers)) or 'none'}).")
        return table
