"""Club isolation over every object URL of the site: another club's objects do not exist.

The test walks the URL resolver at run time, so views added later are covered as soon as
they are routed. For each pattern that takes an object id or slug it fills in club B's
objects and requests the page as club A's scorer: every answer must be 404 (405 is accepted
for a method the view does not take at all, since it is given before any object is looked
up, but each URL must answer 404 to at least one of GET and POST).

Integer parameters are filled with every candidate id of club B (evening, table, deal,
player), because a parameter's name does not always say what it points to; none of these
ids belongs to any object club A could see, so every combination must be 404.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter, PathConverter, SlugConverter, StringConverter

from scoring.models import Deal, Entrant, Evening, Player, RuleProfile, Season, Table, Tournament
from scoring.writes.services import Actor, deal_record
from scoring.writes.tournament import series_draw

from .factories import make_club, make_table, make_user
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db

# The table code itself is the credential (anyone holding it may open that table), so the
# code URL is tested on its own in test_access_codes.py; so are an invitation's and a club
# registration's tokens (test_invitations.py, test_onboarding.py), and a tournament's public
# board key: anyone holding it may see the board while the tournament opts in
# (tests/web/test_tournament_pages.py).
CREDENTIAL_PARAMETERS = {"code", "token", "key"}


def scoring_patterns() -> Iterator[URLPattern]:
    _prefix, resolver = get_resolver().namespace_dict["scoring"]

    def walk(patterns: list[Any]) -> Iterator[URLPattern]:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns)
            else:
                yield p

    yield from walk(resolver.url_patterns)


def object_patterns() -> list[URLPattern]:
    return [p for p in scoring_patterns()
            if p.name and getattr(p.pattern, "converters", None)
            and not CREDENTIAL_PARAMETERS & set(p.pattern.converters)]


@pytest.fixture
def club_b_objects() -> dict[str, Any]:
    # Club B first: its ids are the small ones, and club A (made afterwards, without
    # evenings) has no evening, table or deal at all.
    club_b = make_club("b", "Club B")
    table = make_table(club_b)
    deal = deal_record(
        table=table, expected_version=0, actor=Actor(None, "test"),
        record={"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1, "bid": 18,
                "declarer_points": 70})
    evening = table.evening
    season = Season.objects.create(club=club_b, name="B 2026", start=evening.date,
                                   end=evening.date, evaluation="classic")
    evening.season = season
    evening.save(update_fields=["season"])
    # and a tournament with its first series drawn (the entrant's id is walked too)
    tournament = make_tournament(club_b, players=4)
    series_draw(tournament=tournament, seed=1)
    club_a = make_club("a", "Club A")
    # A rule profile's id too: on PostgreSQL ids are not reset between tests, so no other id
    # happens to name club B's profile the way it does on a fresh SQLite database.
    b_player, b_profile = club_b.players.first(), club_b.rule_profiles.first()
    assert b_player is not None and b_profile is not None, "club B has players and profiles"
    entrant = tournament.entrants.first()
    assert entrant is not None
    ints = sorted({evening.pk, table.pk, deal.pk, b_player.pk, season.pk, b_profile.pk,
                   tournament.pk, entrant.pk})
    # Club A's own players and profiles are not needed; one whose id is among the walked ids
    # (ids run on across tests on PostgreSQL) would be found as club A's, so it goes.
    Player.objects.filter(club=club_a, pk__in=ints).delete()
    RuleProfile.objects.filter(club=club_a, pk__in=ints).delete()
    # Sanity: none of the ids names an object of club A.
    for model, field in ((Player, "club"), (RuleProfile, "club"), (Evening, "club"),
                         (Table, "evening__club"), (Deal, "table__evening__club"),
                         (Season, "club"), (Tournament, "club"),
                         (Entrant, "tournament__club")):
        assert not model.objects.filter(pk__in=ints, **{field: club_a}).exists()
    return {"club_a": club_a, "club_b": club_b, "ints": ints}


def urls_for(pattern: URLPattern, objects: dict[str, Any]) -> list[str]:
    converters = pattern.pattern.converters
    choices: list[list[tuple[str, Any]]] = []
    for name, converter in converters.items():
        if isinstance(converter, IntConverter):
            choices.append([(name, value) for value in objects["ints"]])
        elif isinstance(converter, SlugConverter | StringConverter | PathConverter) and (
                name == "slug" or name.startswith("club")):
            choices.append([(name, objects["club_b"].slug)])
        else:  # pragma: no cover - a new kind of parameter: teach this test about it
            pytest.fail(f"{pattern.name}: don't know what to fill in for <{name}>")
    return [reverse(f"scoring:{pattern.name}", kwargs=dict(combo))
            for combo in itertools.product(*choices)]


def test_the_walk_finds_the_club_urls() -> None:
    names = {p.name for p in object_patterns()}
    assert {"club", "evening-create", "player-create", "members", "table-create",
            "codes", "profile-create", "profile-edit"} <= names


def test_another_clubs_objects_are_404_for_a_scorer(club_b_objects: dict[str, Any]) -> None:
    client = Client()
    client.force_login(make_user(club_b_objects["club_a"], "scorer"))
    problems = []
    for pattern in object_patterns():
        for url in urls_for(pattern, club_b_objects):
            get = client.get(url).status_code
            post = client.post(url, {}).status_code
            if {get, post} - {404, 405} or 404 not in (get, post):
                problems.append(f"{pattern.name} {url}: GET {get}, POST {post}")
    assert not problems, "\n".join(problems)


def test_an_admin_of_another_club_gets_404_too(club_b_objects: dict[str, Any]) -> None:
    client = Client()
    client.force_login(make_user(club_b_objects["club_a"], "admin"))
    for pattern in object_patterns():
        for url in urls_for(pattern, club_b_objects):
            assert client.get(url).status_code in (404, 405), url
            assert client.post(url, {}).status_code in (404, 405), url


def test_anonymous_gets_404_or_the_login_page(club_b_objects: dict[str, Any]) -> None:
    client = Client()
    login = reverse("login")
    problems = []
    for pattern in object_patterns():
        for url in urls_for(pattern, club_b_objects):
            for method in (client.get, client.post):
                response = method(url)
                status = response.status_code
                if status in (404, 405):
                    continue
                if status == 302 and response["Location"].startswith(login):
                    continue
                problems.append(f"{method.__name__.upper()} {url}: {status}")
    assert not problems, "\n".join(problems)


def test_control_the_same_urls_open_for_club_bs_own_admin(
        club_b_objects: dict[str, Any]) -> None:
    """The filled-in URLs are real: for club B's admin each GET page finds its objects (so
    a 404 above means isolation, not a malformed URL)."""
    client = Client(raise_request_exception=False)  # other features' bugs are not ours here
    client.force_login(make_user(club_b_objects["club_b"], "admin"))
    found = set()
    for pattern in object_patterns():
        for url in urls_for(pattern, club_b_objects):
            if client.get(url).status_code not in (404, 405):
                found.add(pattern.name)
    assert {"club", "evening-create", "members", "table-create", "codes"} <= found
    names = {p.name for p in object_patterns()}
    assert {"evening", "table", "sheet", "deal-history"} & names <= found
    assert {"season", "season-edit", "season-pdf", "season-player", "season-create",
            "evening-ranking", "series-new", "profile-create", "profile-edit"} <= found
