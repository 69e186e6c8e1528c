"""A member's own data (issue 16, item 6): the download as JSON, deleting the account, and
the club's choice whether a departed member's name stays on past lists or becomes a
pseudonym. Either way the lists keep adding up: the season table is the same before and
after, but for the name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import AuditEntry, Club, Membership, Player
from scoring.reads.standings import season_standings
from scoring.writes.services import Actor, deal_record

from . import seasons
from .factories import make_club, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-only"


def played(club: Club) -> dict[str, Any]:
    season = seasons.make_season(club)
    evening = seasons.make_evening(season, 3)
    players = list(club.players.order_by("pk")[:4])
    table = seasons.seat_and_play(evening, players, {0: [(1, True)], 1: [(2, False)]})
    member = make_user(club, "scorer", "anna")
    member.email = "anna@example.org"
    member.save()
    Player.objects.filter(pk=players[0].pk).update(user=member)
    table.refresh_from_db()
    deal_record(table=table, record={"kind": "passed"}, expected_version=table.version,
                actor=Actor(member, "anna"))
    return {"season": season, "evening": evening, "player": players[0], "member": member,
            "table": table, "entry": AuditEntry.objects.get(user=member).pk}


def totals(season: Any) -> list[tuple[int, int, int, int]]:
    return [(row.player.pk, row.score, row.won, row.lost)
            for row in season_standings(season).rows]


def test_a_member_downloads_their_own_data_as_json() -> None:
    club = make_club()
    things = played(club)
    other = make_user(club, "viewer", "bernd")
    client = Client()
    client.force_login(things["member"])
    response = client.get(reverse("scoring:account-data"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["username"] == "anna"
    assert data["account"]["email"] == "anna@example.org"
    assert data["memberships"] == [{"club": club.name, "club_short_name": club.slug,
                                    "role": "scorer"}]
    assert data["players"] == [{"club_short_name": club.slug, "name": things["player"].name,
                                "guest": False, "member_number": ""}]
    assert [(s["table"], s["seat"]) for s in data["seats"]] == [(1, 0)]
    assert [a["action"] for a in data["audit"]] == ["create"]
    text = response.content.decode()
    assert "bernd" not in text and other.username not in text  # nobody else's


def test_the_account_page_shows_the_data_link_and_the_e_mail_can_change() -> None:
    club = make_club()
    user = make_user(club, "viewer")
    client = Client()
    client.force_login(user)
    page = client.get(reverse("scoring:account"), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    html = page.content.decode()
    assert reverse("scoring:account-data") in html and "Meine Daten herunterladen" in html
    client.post(reverse("scoring:account"), {"email": "neu@example.org"})
    user.refresh_from_db()
    assert user.email == "neu@example.org"
    assert client.post(reverse("scoring:account"), {"email": "kaputt"}).status_code == 200
    user.refresh_from_db()
    assert user.email == "neu@example.org"


@pytest.mark.parametrize("choice", ["keep", "pseudonym"])
def test_deleting_the_account_keeps_the_lists_adding_up(choice: str) -> None:
    club = make_club()
    things = played(club)
    admin = Client()
    admin.force_login(make_user(club, "admin"))
    admin.post(reverse("scoring:departed-names", args=[club.slug]), {"departed_names": choice})
    club.refresh_from_db()
    assert club.departed_names == choice
    before = totals(things["season"])
    name = things["player"].name
    client = Client()
    client.force_login(things["member"])
    wrong = client.post(reverse("scoring:account-delete"), {"password": "wrong"}, follow=True,
                        HTTP_ACCEPT_LANGUAGE="en")
    assert "That is not your password" in wrong.content.decode()
    assert get_user_model().objects.filter(username="anna").exists()
    response = client.post(reverse("scoring:account-delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="anna").exists()
    assert not Membership.objects.filter(user_id=things["member"].pk).exists()
    player = Player.objects.get(pk=things["player"].pk)
    assert player.user is None
    assert totals(things["season"]) == before
    entry = AuditEntry.objects.get(pk=things["entry"])
    assert entry.user is None
    if choice == "keep":
        assert player.name == name and entry.actor == "anna"
    else:
        assert player.name == "Ehemaliges Mitglied 1" and entry.actor == player.name
        sheet = admin.get(reverse("scoring:sheet", args=[things["table"].pk]))
        assert name not in sheet.content.decode()
        assert "Ehemaliges Mitglied 1" in sheet.content.decode()
    # signed out
    assert client.get(reverse("scoring:account")).status_code == 302


def test_a_second_pseudonym_gets_the_next_number_in_the_clubs_language() -> None:
    club = make_club()
    Club.objects.filter(pk=club.pk).update(departed_names="pseudonym", language="en")
    Player.objects.create(club=club, name="Former member 1")
    user = make_user(club, "viewer")
    player = club.players.get(name="Anna Altenburg")
    player.user = user
    player.save()
    client = Client()
    client.force_login(user)
    client.post(reverse("scoring:account-delete"), {"password": PASSWORD})
    player.refresh_from_db()
    assert player.name == "Former member 2"


def test_the_last_admin_cannot_delete_the_account() -> None:
    club = make_club()
    user = make_user(club, "admin")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("scoring:account-delete"), {"password": PASSWORD},
                           follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "You are the only club admin of" in response.content.decode()
    assert get_user_model().objects.filter(pk=user.pk).exists()


def test_only_a_club_admin_sets_what_becomes_of_names() -> None:
    club = make_club()
    url = reverse("scoring:departed-names", args=[club.slug])
    for role in ("scorer", "viewer"):
        client = Client()
        client.force_login(make_user(club, role))
        assert client.post(url, {"departed_names": "pseudonym"}).status_code == 403
    club.refresh_from_db()
    assert club.departed_names == "keep"
