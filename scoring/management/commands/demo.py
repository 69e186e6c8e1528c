"""`manage.py demo`: a demo club with a played evening at a 3-table and a 4-table.

Idempotent: an existing demo club is left as it is (use --reset to build it again). Every
deal goes through the same service a tablet uses, so the demo's audit log is real too.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.demo.evening import SLUG, build_demo
from scoring.demo.user import PASSWORD, USERNAME
from scoring.models import Club


class Command(BaseCommand):
    help = "Create the demo club with a played evening (3-table and 4-table)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete and rebuild the demo")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reset"]:
            Club.objects.filter(slug=SLUG).delete()
        if not Club.objects.filter(slug=SLUG).exists():
            build_demo()
            self.stdout.write("Demo club created.")
        self.stdout.write(
            f"Demo: open http://127.0.0.1:8000/ and log in as '{USERNAME}' with password "
            f"'{PASSWORD}' (club admin of 'Skatfreunde Altenburg (Demo)').")
