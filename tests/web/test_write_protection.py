"""Every write of the site is protected: CSRF on every POST, and no write for a viewer.

Both tests walk the URL resolver at run time (like test_access_isolation.py), so a view
routed later is covered as soon as it exists.

- CSRF: every URL of the site (Django's login, logout, language switch and admin included),
  filled with real objects of the user's own club, answers a POST without a CSRF token with
  403, for a signed-in club admin and for anonymous visitors.
- Roles: a viewer posts to every scoring URL, with an empty form and with a form full of
  plausible values: the answer is 403, 404 or 405 (or the few read-only POSTs listed below),
  and the database is unchanged afterwards. A control shows that the same posts do write
  for a scorer, so the forms are not simply refused as malformed.
"""

from __future__ import annotations

import datetime
import itertools
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.exceptions import NoReverseMatch

from scoring.models import Deal, Season
from scoring.writes.services import Actor, deal_record
from scoring.writes.tournament import series_draw

from .factories import make_club, make_table, make_user
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db

# A table code is anyone's to enter, a viewer's too, and then its holder may record at that
# table (test_access_codes.py): the viewer walk leaves these out. So does one's own account
# (an e-mail address, deleting it: test_personal_data.py), which is no club's data.
VIEWER_MAY_POST = {"scoring:code-entry", "scoring:code", "scoring:account",
                   "scoring:account-delete",
                   "scoring:account-pin",  # their own signing PIN (issue 23)
                   # whether other clubs' members see their results (issue 35)
                   "scoring:me-results-visible"}


def all_patterns() -> Iterator[tuple[str, URLPattern]]:
    """(qualified name, pattern) for every named URL of the site."""
    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, URLPattern]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                inner = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, inner)
            elif p.name:
                yield f"{namespace}{p.name}", p

    yield from walk(get_resolver().url_patterns, "")


def parameters(pattern: URLPattern) -> list[str]:
    converters = getattr(pattern.pattern, "converters", None)
    if converters:
        return list(converters)
    return list(pattern.pattern.regex.groupindex)


@pytest.fixture
def objects() -> dict[str, Any]:
    club = make_club("own", "Own Club")
    table = make_table(club)
    deal = deal_record(
        table=table, expected_version=0, actor=Actor(None, "test"),
        record={"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
                "declarer_points": 70})
    evening = table.evening
    season = Season.objects.create(club=club, name="2026", start=evening.date,
                                   end=evening.date, evaluation="classic")
    evening.season = season
    evening.save(update_fields=["season"])
    player = club.players.first()
    assert player is not None, "a new club has players"
    tournament = make_tournament(club, players=4, public=True)
    series_draw(tournament=tournament, seed=1)
    entrant = tournament.entrants.first()
    assert entrant is not None
    return {"club": club, "table": table, "deal": deal, "evening": evening, "season": season,
            "player": player,
            "pks": sorted({evening.pk, table.pk, season.pk, tournament.pk}),
            "values": {"slug": club.slug, "code": table.access_code, "deal": deal.pk,
                       "player": player.pk, "app_label": "scoring", "object_id": str(deal.pk),
                       "content_type_id": 1, "url": "x/", "uidb64": "MQ",
                       "token": "set-password", "id": 1, "entrant": entrant.pk,
                       "series": 1, "number": 1, "key": tournament.board_key, "signup": 1}}


def urls_for(name: str, pattern: URLPattern, objects: dict[str, Any]) -> list[str]:
    choices: list[list[tuple[str, Any]]] = []
    for param in parameters(pattern):
        if param == "pk":
            choices.append([("pk", pk) for pk in objects["pks"]])
        elif param in objects["values"]:
            choices.append([(param, objects["values"][param])])
        else:  # pragma: no cover - a new kind of parameter: teach this test about it
            pytest.fail(f"{name}: don't know what to fill in for <{param}>")
    urls = []
    for combo in itertools.product(*choices):
        try:
            urls.append(reverse(name, kwargs=dict(combo)))
        except NoReverseMatch:
            # Only Django's admin has URLs that a combination does not fit (a model URL
            # for another app label); a URL of the site's own must reverse.
            if name.startswith("admin:"):
                continue
            raise
    return urls


def test_every_post_without_a_csrf_token_is_refused(objects: dict[str, Any]) -> None:
    admin = make_user(objects["club"], "admin")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(admin)
    problems, covered = [], set()
    for name, pattern in all_patterns():
        for url in urls_for(name, pattern, objects):
            covered.add(name)
            for who, client in (("admin", signed_in), ("anonymous",
                                                       Client(enforce_csrf_checks=True))):
                status = client.post(url, {"name": "x"}).status_code
                if status != 403:
                    problems.append(f"{who} POST {url} ({name}): {status}")
    assert not problems, "\n".join(problems)
    assert {"login", "logout", "set_language", "scoring:deal-save", "scoring:members",
            "scoring:code-entry", "admin:index"} <= covered
    assert {n for n, _ in all_patterns() if n.startswith("scoring:")} <= covered


def plausible_form(objects: dict[str, Any], version: int) -> dict[str, Any]:
    """Values for every form of the site at once: a deal, a reason, a name, a member …"""
    players = [p.pk for p in objects["club"].players.all()[:4]]
    return {
        "version": str(version), "request_id": str(uuid.uuid4()), "kind": "game",
        "declarer": "0", "game": "grand", "hand": "on", "matadors": "1", "bid": "18",
        "result": "won", "reason": "Tippfehler", "name": "Neu", "slug": "neu",
        "date": datetime.date.today().isoformat(), "start": "2026-01-01", "end": "2026-12-31",
        "evaluation": "classic", "min_evenings": "1", "profile": str(
            objects["club"].profiles.first().pk) if hasattr(objects["club"], "profiles")
        else "", "players": [str(p) for p in players],
        "seat_1": str(players[0]), "seat_2": str(players[1]), "seat_3": str(players[2]),
        "username": "neu", "role": "scorer", "password": "ein-langes-passwort-123",
        "code": objects["table"].access_code, "deal": str(objects["deal"].pk),
    }


def snapshot() -> dict[str, list[Any]]:
    models = [*apps.get_app_config("scoring").get_models(), get_user_model()]
    return {m.__name__: list(m._default_manager.order_by("pk").values()) for m in models}


def viewer_posts(client: Client, objects: dict[str, Any]) -> list[str]:
    problems = []
    for name, pattern in all_patterns():
        if not name.startswith("scoring:") or name in VIEWER_MAY_POST:
            continue
        for url in urls_for(name, pattern, objects):
            version = objects["table"].__class__.objects.get(pk=objects["table"].pk).version
            for data in ({}, plausible_form(objects, version)):
                status = client.post(url, data).status_code
                if status not in (403, 404, 405) and name not in VIEWER_MAY_POST:
                    problems.append(f"POST {url} ({name}): {status}")
    return problems


def test_a_viewer_can_write_nowhere(objects: dict[str, Any]) -> None:
    client = Client()
    client.force_login(make_user(objects["club"], "viewer"))
    before = snapshot()
    problems = viewer_posts(client, objects)
    assert not problems, "\n".join(problems)
    assert snapshot() == before


def test_control_the_same_posts_write_for_a_scorer(objects: dict[str, Any]) -> None:
    client = Client()
    client.force_login(make_user(objects["club"], "scorer"))
    deals = Deal.objects.count()
    table = objects["table"]
    response = client.post(reverse("scoring:deal-save", args=[table.pk]),
                           plausible_form(objects, table.version))
    assert response.status_code == 302
    assert Deal.objects.count() == deals + 1
