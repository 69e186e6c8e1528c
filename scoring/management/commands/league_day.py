"""`manage.py league_day FILE|-`: a league's match days scored into the tables, as JSON.

The contract is ../shared/spec/league-day.md: the standings go to standard output as JSON with
exit status 0; a file that cannot be read, is not JSON or is refused (a player on no team …)
gives a message naming the place on standard error, exit status 2 and nothing on standard
output. The numbers are the engine's ``league_standings``, the function the pages call.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.engine import SkatError, league_standings, parse_league
from scoring.management.commands.score import InputError, parse_json, read_bytes

EXIT_REFUSED = 2


def standings(source: str, lang: str = "en") -> dict[str, Any]:
    """The command's output for the file ``source``; an ``InputError`` whose text names the
    place when the file is refused."""
    obj = parse_json(read_bytes(source))
    try:
        return league_standings(*parse_league(obj)).to_json()
    except SkatError as exc:
        message = exc.message_in(lang)
        raise InputError(f"{exc.field}: {message}" if exc.field else message) from exc


class Command(BaseCommand):
    help = "Score a team league's match days given as JSON (a file, or - for standard input)."

    # Pure computation: no system checks, no database (as the score command).
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to the league's JSON, or - for standard input")
        parser.add_argument("--lang", choices=["en", "de"], default="en",
                            help="language of an error's message (default en)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            payload = standings(options["file"], options["lang"])
        except InputError as exc:
            self.stderr.write(str(exc))
            sys.exit(EXIT_REFUSED)
        text = json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False)
        reconfigure = getattr(self.stdout, "reconfigure", None)
        if callable(reconfigure):  # JSON is UTF-8 whatever the terminal's locale
            reconfigure(encoding="utf-8")
        self.stdout.write(text)
