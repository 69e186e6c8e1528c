"""Small builders for web tests: a club with players, profiles and an evening."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import BrowserContext
from pytest_django.live_server_helper import LiveServer

from scoring.models import Club, Membership, Player, RuleProfile, Table
from scoring.presets import PRESETS
from scoring.writes.services import evening_create, table_create

if TYPE_CHECKING:
    from typing import TypeAlias

    from django.test.client import _MonkeyPatchedWSGIResponse

    # What django.test.Client's get and post return: a response with .json(), .context and
    # .wsgi_request (django-stubs names the class privately).
    TestResponse: TypeAlias = _MonkeyPatchedWSGIResponse

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Erika", "Fritz"]


def make_club(slug: str = "altenburg", name: str = "Skatfreunde Altenburg") -> Club:
    club = Club.objects.create(slug=slug, name=name)
    for preset in PRESETS.values():
        RuleProfile.objects.create(club=club, name=preset["name"], rules=preset["rules"],
                                   options=preset["options"], scoring=preset["scoring"],
                                   stake="0.05")
    for name in NAMES:
        Player.objects.create(club=club, name=f"{name} {slug.title()}")
    return club


def make_user(club: Club, role: str = "scorer", username: str | None = None) -> User:
    user = get_user_model().objects.create_user(
        username=username or f"{role}-{club.slug}", password="pw-for-tests-only")
    Membership.objects.create(user=user, club=club, role=role)
    return user


def won(declarer: int, points: int = 70, **more: Any) -> dict[str, Any]:
    """A game record: ``declarer`` plays Clubs with 1, bid 18, and takes ``points``."""
    return {"kind": "game", "declarer": declarer, "game": "clubs", "matadors": 1, "bid": 18,
            "declarer_points": points, **more}


def login(client: Client, club: Club, role: str = "viewer") -> User:
    """Signs a new member of ``club`` with ``role`` in on ``client``."""
    user = make_user(club, role=role)
    client.force_login(user)
    return user


def make_table(club: Club, players: int = 4, preset: str = "club_evening",
               date: datetime.date | None = None) -> Table:
    profile = RuleProfile.objects.get(club=club, name=PRESETS[preset]["name"])
    evening = evening_create(club=club, date=date or timezone.localdate(), profile=profile)
    return table_create(evening=evening, players=list(club.players.all()[:players]))


def browser_login(context: BrowserContext, live_server: LiveServer, user: User) -> None:
    """Signs ``user`` in for a Playwright browser context: a session made by Django's test
    client, handed over as the session cookie (no password typed, no sign-in limit hit)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])


def deal_form(table: Table, **extra: str | None) -> dict[str, str]:
    """The table screen's fields for a won Clubs game with 1 by seat 1 (bid 18), at the
    table's current version with a fresh request id; ``extra`` overrides fields, None drops
    one."""
    import uuid

    data: dict[str, str | None] = {
        "version": str(table.version), "request_id": str(uuid.uuid4()), "kind": "game",
        "declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "result": "won"}
    data.update(extra)
    return {k: v for k, v in data.items() if v is not None}
