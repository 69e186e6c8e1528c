"""`manage.py demo_season --evenings N --tables M`: a demo club with a played season.

For demos and benchmarks (bench/standings.py): weekly league evenings of about M tables, the
first series drawn by lot, further series (--series) seeded by results, every deal generated
through the engine. Rebuilds the demo season club each time; the demo user ('demo', password
'skat-demo') is its admin.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.demo.season import build_season
from scoring.demo.user import PASSWORD, USERNAME
from scoring.models import Deal


class Command(BaseCommand):
    help = "Create a demo club with a played season (evenings, series, deals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--evenings", type=int, default=12, help="evenings (default 12)")
        parser.add_argument("--tables", type=int, default=3,
                            help="tables per series, about (default 3)")
        parser.add_argument("--series", type=int, default=1,
                            help="series per evening (default 1)")
        parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        evenings, tables, series = options["evenings"], options["tables"], options["series"]
        if not 1 <= evenings <= 200:
            raise CommandError("--evenings must be 1 to 200.")
        if not 1 <= tables <= 50:
            raise CommandError("--tables must be 1 to 50.")
        if not 1 <= series <= 4:
            raise CommandError("--series must be 1 to 4.")
        started = time.perf_counter()
        verbose = options["verbosity"] > 1
        season = build_season(evenings=evenings, tables=tables, series=series,
                              seed=options["seed"],
                              progress=self.stdout.write if verbose else None)
        deals = Deal.objects.filter(table__evening__season=season).count()
        self.stdout.write(
            f"Season {season.pk} ('{season.name}', club '{season.club.slug}'): {evenings} "
            f"evenings, {deals} deals, in {time.perf_counter() - started:.1f} s.")
        self.stdout.write(
            f"Log in as '{USERNAME}' with password '{PASSWORD}'; the season table is at "
            f"/seasons/{season.pk}/.")
