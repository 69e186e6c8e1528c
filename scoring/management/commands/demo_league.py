"""`manage.py demo_league`: the demo club's team league, a match day played and one under way.

Run after `manage.py demo` (`make demo` runs both). Idempotent: an existing demo league is
left as it is (use --reset to build it again). Every seat, deal and signature goes through
the services a host's desk and a tablet use.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.demo.evening import SLUG
from scoring.demo.league import build_demo_league
from scoring.models import Club, League


class Command(BaseCommand):
    help = "Create the demo club's team league (run manage.py demo first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete and rebuild it")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=SLUG).first()
        if club is None:
            raise CommandError("No demo club: run manage.py demo first.")
        if options["reset"]:
            for league in League.objects.filter(club=club):
                for group in league.groups.all():
                    for day in group.days.all():
                        day.evening.delete()  # the day goes with its evening
                league.delete()
        if not League.objects.filter(club=club).exists():
            build_demo_league(club)
            self.stdout.write("Demo league created.")
        self.stdout.write(f"Demo league: {club.name}, menu Tournaments → Team leagues.")
