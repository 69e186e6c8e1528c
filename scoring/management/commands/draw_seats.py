"""`manage.py draw_seats --players N --series S --seed X [--by-standings FILE]`: the seat draw
of a tournament (scoring/draw/preisskat.py) for players numbered 1..N, printed as JSON:

    {"series": [[[1, 7, 12, 3], [2, 5, 9], ...], ...]}

one list of tables per series, each table its players in seat order. The first series is
drawn by lot; each later one is drawn again so that players meet as few earlier opponents as
possible, or with ``--by-standings FILE`` seeded by the standings (places 1-4 at table 1 …)
in the same search, which moves players off their place's table only where the 3-table share,
team mates (``--apart``) or several repeated opponents need it.

The FILE (``-`` for standard input) has one line per finished series: the ranking after
series 1, after series 2 …, each the player numbers best first, separated by spaces or
commas; empty lines and lines starting with # are skipped. S series need S - 1 lines, each
listing every player 1..N exactly once. Example for 8 players and 2 series:

    # after series 1
    5 2 8 1 7 3 6 4

With ``--apart FILE`` each line names the players of one team or tandem (numbers separated by
spaces or commas, # lines skipped): the draw keeps them at other tables, in the same search
that avoids repeated opponents and shares the 3-tables evenly over the series.

The same seed gives the same draw. A problem is reported on standard error with exit status 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.draw.preisskat import DrawError, parse_standings, tournament


class Command(BaseCommand):
    help = "Draw the seats of a tournament's series for players numbered 1..N; prints JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="how many players (N)")
        parser.add_argument("--series", type=int, required=True, help="how many series (S)")
        parser.add_argument("--seed", type=int, required=True,
                            help="the recorded seed: the same seed gives the same draw")
        parser.add_argument("--apart", metavar="FILE", default=None,
                            help="teams and tandems kept at other tables: one group of "
                            "player numbers per line")
        parser.add_argument("--by-standings", metavar="FILE", default=None,
                            help="seat series 2.. by these rankings (one line per series, "
                            "best first; - for standard input)")

    def _read(self, source: str) -> str:
        try:
            return (sys.stdin.read() if source == "-"
                    else Path(source).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            raise CommandError(f"Cannot read {source}: {err}") from None

    def handle(self, *args: Any, **options: Any) -> None:
        apart: list[list[int]] = []
        if options["apart"] is not None:
            try:
                apart = parse_standings(self._read(options["apart"]))
            except DrawError:
                raise CommandError("--apart: each line must list player numbers.") from None
            if any(not 1 <= p <= options["players"] for group in apart for p in group):
                raise CommandError(f"--apart: player numbers run from 1 to "
                                   f"{options['players']}.")
        standings = None
        source = options["by_standings"]
        if source is not None:
            try:
                text = (sys.stdin.read() if source == "-"
                        else Path(source).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as err:
                raise CommandError(f"Cannot read {source}: {err}") from None
        try:
            if source is not None:
                standings = parse_standings(text)
            if options["series"] < 1:
                raise DrawError("series", "--series must be at least 1.")
            result = tournament(options["players"], options["series"], options["seed"],
                                standings, apart=apart)
        except DrawError as err:
            raise CommandError(err.message) from None
        self.stdout.write(json.dumps({"series": result}, separators=(", ", ": ")))
