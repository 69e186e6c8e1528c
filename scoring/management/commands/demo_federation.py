"""`manage.py demo_federation --clubs 300 [--evenings 40 --tables 5]`: a federation's worth
of played league evenings, for benchmarks on PostgreSQL (bench/federation.py).

Clubs fed-0001 … each get a season of the year (--year, default this one) with weekly
evenings of --tables tables, every table a full series of --rounds rounds of generated,
engine-scored deals with their audit entries and table scores (scoring/demo/federation.py).
Resumable: clubs that exist are kept, so a stopped build goes on where it stopped, and a
larger --clubs adds clubs to a smaller build. Prints how long each part took.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from scoring.demo.federation import build_federation
from scoring.demo.user import PASSWORD, USERNAME
from scoring.models import Deal


class Command(BaseCommand):
    help = "Create many demo clubs with a played season each (a federation, for benchmarks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--clubs", type=int, default=300, help="clubs (default 300)")
        parser.add_argument("--evenings", type=int, default=40,
                            help="evenings per club (default 40)")
        parser.add_argument("--tables", type=int, default=5,
                            help="tables per evening (default 5)")
        parser.add_argument("--rounds", type=int, default=12,
                            help="rounds per series (default 12: 48 deals at a 4-table)")
        parser.add_argument("--year", type=int, default=None,
                            help="the season's year (default this year)")
        parser.add_argument("--pool", type=int, default=64,
                            help="generated tables per seat count and dealer (default 64)")
        parser.add_argument("--chunk", type=int, default=10,
                            help="clubs per transaction (default 10)")
        parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        checks = {"clubs": (1, 9999), "evenings": (1, 52), "tables": (1, 50),
                  "rounds": (1, 50), "pool": (1, 1000), "chunk": (1, 1000)}
        for name, (low, high) in checks.items():
            if not low <= options[name] <= high:
                raise CommandError(f"--{name} must be {low} to {high}.")
        year = options["year"] or timezone.localdate().year
        started = time.perf_counter()
        built = build_federation(
            clubs=options["clubs"], evenings=options["evenings"], tables=options["tables"],
            rounds=options["rounds"], year=year, seed=options["seed"], pool=options["pool"],
            chunk=options["chunk"],
            progress=self.stdout.write if options["verbosity"] > 1 else None)
        if connection.vendor == "postgresql":
            # Fresh statistics for the planner and a visibility map for index-only scans,
            # now rather than by autovacuum in the middle of a benchmark.
            # (Inside a transaction, as in a test, VACUUM cannot run: ANALYZE only.)
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE")
        seconds = time.perf_counter() - started
        total = Deal.objects.count()
        rate = built.deals / built.seconds["total"] if built.deals else 0
        self.stdout.write(
            f"Federation {year}: {built.clubs} clubs built, {built.skipped} kept; "
            f"{built.evenings} evenings, {built.tables} tables, {built.deals} deals written "
            f"in {seconds:.1f} s (pool {built.seconds['pool']:.1f} s, {rate:,.0f} deals/s); "
            f"{total} deals in the database.")
        self.stdout.write(
            f"Log in as '{USERNAME}' with password '{PASSWORD}' (admin of fed-0001); the "
            f"federation ranking is at /federation/ranking/?year={year}.")
