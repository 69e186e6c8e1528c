"""scoring/access.py reads an object and the signed-in user's membership of its club in one
query and builds the Membership from that row: the built member must be the stored one
(same pk, role, can_score, user, club) for every role, strangers still get 404 and devices
with a table code still get their table; and the polled requests keep their query counts."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import Http404, HttpRequest
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from scoring import access
from scoring.models import Club, Membership, Season, Table

from .factories import make_club, make_table, make_user, won
from .seasons import make_season
from .test_sheet_pages import EN, play

pytestmark = pytest.mark.django_db

ROLES = [Membership.Role.ADMIN, Membership.Role.SCORER, Membership.Role.VIEWER]


def request_of(user: User | AnonymousUser) -> HttpRequest:
    request = RequestFactory().get("/")
    request.user = user
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    return request


def same_member(built: Model, user: User) -> None:
    stored = Membership.objects.get(user=user)
    assert isinstance(built, Membership)
    assert built == stored and built.pk == stored.pk
    assert (built.role, built.can_score) == (stored.role, stored.can_score)
    assert (built.user_id, built.club_id) == (stored.user_id, stored.club_id)
    assert built.user == user and built.club == stored.club
    assert not built._state.adding  # as if read: saving it would update, not insert


@pytest.mark.parametrize("role", ROLES)
def test_the_member_built_from_the_row_is_the_stored_one(
        role: str, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    club = make_club()
    table = make_table(club)
    season = make_season(club)
    user = make_user(club, role)
    request = request_of(user)
    with django_assert_num_queries(1):
        found_club, member = access.club_for(request, club.slug)
    assert found_club == club
    same_member(member, user)
    with django_assert_num_queries(1):
        evening, member = access.evening_for(request, table.evening_id)
    assert evening == table.evening and evening.club == club
    same_member(member, user)
    with django_assert_num_queries(1):
        found_season, member = access.season_for(request, season.pk)
    assert found_season == season
    same_member(member, user)
    with django_assert_num_queries(1):
        found_table, actor = access.table_for(request, table.pk)
    assert found_table == table and actor.user == user


def calls(request: HttpRequest, club: Club, table: Table, season: Season,
          ) -> dict[str, Callable[[], object]]:
    """Every access helper on this request, by what it asks for."""
    return {
        "club": partial(access.club_for, request, club.slug),
        "club write": partial(access.club_for, request, club.slug, write=True),
        "club admin": partial(access.club_for, request, club.slug, admin=True),
        "evening": partial(access.evening_for, request, table.evening_id),
        "evening write": partial(access.evening_for, request, table.evening_id, write=True),
        "evening admin": partial(access.evening_for, request, table.evening_id, admin=True),
        "season": partial(access.season_for, request, season.pk),
        "season admin": partial(access.season_for, request, season.pk, admin=True),
        "table": partial(access.table_for, request, table.pk),
        "table write": partial(access.table_for, request, table.pk, write=True),
    }


@pytest.mark.parametrize("role", ROLES)
def test_the_built_member_keeps_the_role_rules(role: str) -> None:
    club = make_club()
    table = make_table(club)
    season = make_season(club)
    request = request_of(make_user(club, role))
    admin_only = {"club admin", "evening admin", "season admin"}
    refused_by_role: dict[str, set[str]] = {
        Membership.Role.ADMIN: set(), Membership.Role.SCORER: admin_only,
        Membership.Role.VIEWER: admin_only | {"club write", "evening write", "table write"}}
    refused = refused_by_role[role]
    for name, call in calls(request, club, table, season).items():
        if name in refused:
            with pytest.raises(PermissionDenied):
                call()
        else:
            call()


@pytest.mark.parametrize("role", ROLES)
def test_another_clubs_member_and_anonymous_get_404(role: str) -> None:
    club = make_club()
    table = make_table(club)
    season = make_season(club)
    for request in (request_of(make_user(make_club("other", "Other club"), role)),
                    request_of(AnonymousUser())):
        for call in calls(request, club, table, season).values():
            with pytest.raises(Http404):
                call()


def test_a_table_code_still_opens_its_table_to_another_clubs_member() -> None:
    club = make_club()
    table = make_table(club)
    for user in (make_user(make_club("other", "Other club"), "viewer"), AnonymousUser()):
        request = request_of(user)
        access.grant(request, table)
        found, actor = access.table_for(request, table.pk, write=True)
        assert found == table and actor.user is None
        other = make_table(club)
        with pytest.raises(Http404):
            access.table_for(request, other.pk)
        Table.objects.filter(pk=other.pk).delete()


def tables_read(queries: list[dict[str, str]]) -> list[str]:
    """The table each query reads: the FROM outside any subquery, in order."""
    tables = []
    for query in queries:
        sql, depth, outer = query["sql"], 0, ""
        for char in sql:  # the query with its parenthesised parts left out
            depth += {"(": 1, ")": -1}.get(char, 0)
            outer += char if depth == 0 and char != ")" else ""
        found = re.search(r'\bFROM "?(\w+)"?', outer)
        tables.append(found.group(1) if found else sql)
    return tables


def test_a_members_polls_take_pinned_queries(
        client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    """The sheet fragment's 304 and the table's version poll of a signed-in viewer: the
    user, one query for the table with the viewer's role (and the fragment's seats for its
    digest). The session comes from the shared cache (cached_db; the database cache's own
    queries are not counted, tests/django_fixtures.py), not from django_session. One more would be
    a second round trip of the access check, or the session read from the database again."""
    club = make_club()
    table = make_table(club)
    play(table, [won(1)])
    client.force_login(make_user(club, "viewer"))
    fragment = reverse("scoring:sheet-fragment", args=[table.pk])
    etag = client.get(fragment, headers=EN)["ETag"]
    with django_assert_num_queries(3) as fragment_queries:
        assert client.get(fragment, headers={**EN, "if-none-match": etag}).status_code == 304
    assert tables_read(fragment_queries.captured_queries) == [
        "auth_user", "scoring_table", "scoring_seat"]
    version = reverse("scoring:table-version", args=[table.pk])
    etag = client.get(version)["ETag"]
    with django_assert_num_queries(2) as version_queries:
        assert client.get(version, headers={"if-none-match": etag}).status_code == 304
    assert tables_read(version_queries.captured_queries) == [
        "auth_user", "scoring_table"]
