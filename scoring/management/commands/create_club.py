"""manage.py create_club: a club and its first admin for scripts, as the set-up page makes
them (issue 16).

    manage.py create_club --name "Skatfreunde Altenburg" --slug altenburg --admin anna \
        --email anna@example.org [--language de] [--preset club_evening] [--stake 0.05] \
        [--currency EUR]

The admin's password comes from the environment variable SKATCLUB_ADMIN_PASSWORD, else it
is asked for on the terminal (never on the command line, where `ps` shows it). An existing
account named by --admin becomes the new club's admin with its password unchanged
(--existing-admin)."""

from __future__ import annotations

import getpass
import os
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.presets import PRESETS
from scoring.writes import onboarding
from scoring.writes.onboarding import NewClub

ENV_ADMIN_PASSWORD = "SKATCLUB_ADMIN_PASSWORD"


class Command(BaseCommand):
    help = "Creates a club with its first rule profile and its club admin."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="the club's name")
        parser.add_argument("--slug", required=True, help="the club's short name")
        parser.add_argument("--language", default="de",
                            choices=[code for code, _name in settings.LANGUAGES])
        parser.add_argument("--preset", default="club_evening", choices=list(PRESETS))
        parser.add_argument("--stake", default="0", help="stake per point (default 0)")
        parser.add_argument("--currency", default="EUR")
        parser.add_argument("--admin", required=True, help="the club admin's user name")
        parser.add_argument("--email", default="", help="the club admin's e-mail address")
        parser.add_argument("--existing-admin", action="store_true",
                            help="make an existing account the admin (no password asked)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            stake = Decimal(options["stake"])
        except InvalidOperation:
            raise CommandError(f"--stake: not a number: {options['stake']!r}") from None
        currency = str(options["currency"]).strip().upper()
        if len(currency) != 3 or not currency.isalpha():
            raise CommandError("--currency: three letters, such as EUR")
        password = None
        if not options["existing_admin"]:
            password = os.environ.get(ENV_ADMIN_PASSWORD) or self._ask()
            user = get_user_model()(username=options["admin"], email=options["email"])
            try:
                validate_password(password, user)
            except ValidationError as err:
                raise CommandError("The password: " + " ".join(err.messages)) from None
        new = NewClub(name=options["name"], slug=options["slug"], language=options["language"],
                      preset=options["preset"], stake=stake, currency=currency)
        try:
            club, user = onboarding.club_create(club=new, username=options["admin"],
                                                email=options["email"], password=password)
        except onboarding.Refused as err:
            raise CommandError(err.message) from None
        except ValidationError as err:
            raise CommandError(" ".join(err.messages)) from None
        self.stdout.write(f"Club {club.slug} created; {user.get_username()} is its club admin.")

    def _ask(self) -> str:
        try:
            first = getpass.getpass("Password of the club admin: ")
            second = getpass.getpass("The same again: ")
        except EOFError:
            raise CommandError(f"No password: set {ENV_ADMIN_PASSWORD} or run on a terminal.") \
                from None
        if first != second:
            raise CommandError("The two passwords differ.")
        return first
