"""`manage.py render_pdf DOCUMENT …`: write one of Skatclub's PDFs to a file.

Each document is a subcommand whose arguments and logic live beside its PDF code, so that a
document is added with one line in DOCUMENTS:

    render_pdf standings --season ID -o FILE [--lang de|en]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.standings_pdf import add_standings_arguments, standings_command

# name: (help, add the subcommand's arguments, run it with the parsed options)
DOCUMENTS: dict[str, tuple[str, Callable[[Any], None], Callable[[dict[str, Any], Any], None]]] = {
    "standings": ("the season table (A4 landscape)", add_standings_arguments, standings_command),
}


class Command(BaseCommand):
    help = "Write a PDF: " + ", ".join(DOCUMENTS) + "."

    def add_arguments(self, parser: CommandParser) -> None:
        documents = parser.add_subparsers(dest="document", required=True, metavar="DOCUMENT")
        for name, (help_text, add_arguments, _run) in DOCUMENTS.items():
            add_arguments(documents.add_parser(name, help=help_text))

    def handle(self, *args: Any, **options: Any) -> None:
        _help, _add, run = DOCUMENTS[options["document"]]
        run(options, self.stdout)
