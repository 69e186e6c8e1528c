"""Online registrations hold nothing until confirmed (issue 35, item 4): an unconfirmed one
holds its place, its name and its team slot for SIGNUP_HOLD_MINUTES (30), not for the 48
hours its link works; the tournament's own allowance per address (and IPv6 /64) is tighter
than the site's; the desk lists the unconfirmed ones and drops them (club admins only); and a
registration always creates or uses a guest record, never a member's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Player, Signup, Tournament
from scoring.writes import signup as signups
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.SIGNUPS_PER_ADDRESS = 10
    settings.SIGNUPS_PER_EMAIL = 3
    settings.SIGNUPS_PER_ADDRESS_PER_TOURNAMENT = 3
    settings.SIGNUP_WINDOW = 3600
    settings.SIGNUP_CONFIRM_HOURS = 48
    settings.SIGNUP_HOLD_MINUTES = 30


@contextmanager
def later(minutes: int) -> Iterator[None]:
    """Django's clock ``minutes`` ahead (the limits' own clock, access.now, runs on: the
    window of the per-address allowance is an hour)."""
    moment = timezone.now() + timedelta(minutes=minutes)
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def opened(players: int = 13, *, limit: int | None = None) -> Tournament:
    t = make_tournament(make_club(), players=players)
    return signups.signup_settings(tournament=t, open=True, closes=None, limit=limit)


def register(t: Tournament, address: str = "10.0.0.1", name: str = "Paula Pik",
             email: str = "paula@example.org", **extra: str) -> Any:
    return Client().post(reverse("scoring:signup", args=[t.signup_key]),
                         {"name": name, "email": email, "home_club": "SC Herz Dame", **extra},
                         REMOTE_ADDR=address)


def link_in(message: Any) -> str:
    found = re.search(r"https?://\S+/signup/confirm/\S+/", str(message.body))
    assert found is not None, message.body
    return found.group(0).removeprefix(settings.SITE_URL)


def text(response: Any) -> str:
    return " ".join(response.content.decode().split())


FULL = "Ausgebucht"


# ---------------------------------------------------------------- a guest, never a member

def test_a_registration_under_a_members_name_gets_a_guest_record_of_its_own() -> None:
    t = opened(players=0)
    member = t.club.players.get(name="Anna Altenburg")
    owner = make_user(t.club, "viewer", "anna")
    Player.objects.filter(pk=member.pk).update(user=owner)
    assert register(t, name="Anna Altenburg", email="fake@example.org").status_code == 200
    confirmed = Client().post(link_in(mail.outbox[0]))
    assert confirmed.status_code == 200
    entrant = t.entrants.get()
    guest = entrant.player
    assert guest.pk != member.pk
    assert (guest.name, guest.guest, guest.user_id) == (
        "Anna Altenburg (SC Herz Dame)", True, None)
    member.refresh_from_db()
    assert (member.name, member.guest, member.user_id) == ("Anna Altenburg", False, owner.pk)
    assert not t.entrants.filter(player=member).exists()


def test_the_desk_by_name_gets_a_guest_and_finds_a_guest_again() -> None:
    club = make_club()
    t = make_tournament(club, players=0)
    member = club.players.get(name="Bernd Altenburg")
    entrant = tw.entrant_register(tournament=t, name="Bernd Altenburg")
    assert entrant.player.pk != member.pk
    assert (entrant.player.name, entrant.player.guest) == ("Bernd Altenburg (2)", True)
    # a look-alike of a member's name (a Cyrillic "А") is told apart as well
    alike = tw.entrant_register(tournament=t, name="Аnna Altenburg", home_club="Gotha")
    assert alike.player.name == "Аnna Altenburg (Gotha)" and alike.player.guest
    # a guest without an account is found again by name at the next tournament
    first = tw.entrant_register(tournament=t, name="Gast Gerd", home_club="Gotha")
    assert first.player.name == "Gast Gerd"
    second = make_tournament(club, players=0)
    again = tw.entrant_register(tournament=second, name="Gast Gerd", home_club="Gotha")
    assert again.player.pk == first.player.pk
    # but not once the guest record has an account: that one is a person's own
    Player.objects.filter(pk=first.player.pk).update(
        user=get_user_model().objects.create_user("gerd"))
    third = make_tournament(club, players=0)
    other = tw.entrant_register(tournament=third, name="Gast Gerd", home_club="Gotha")
    assert other.player.pk != first.player.pk and other.player.name == "Gast Gerd (Gotha)"
    # the desk registers a member by choosing him
    chosen = tw.entrant_register(tournament=third, member=member)
    assert chosen.player.pk == member.pk


# ---------------------------------------------------------------- held for 30 minutes

def test_an_unconfirmed_registration_holds_its_place_for_30_minutes_only() -> None:
    t = opened(limit=14)
    assert register(t).status_code == 200
    assert FULL in text(register(t, "10.0.0.2", name="Otto Ober", email="otto@example.org"))
    with later(29):
        assert FULL in text(Client().get(reverse("scoring:signup", args=[t.signup_key])))
    with later(31):
        assert FULL not in text(Client().get(reverse("scoring:signup", args=[t.signup_key])))
        # its link still confirms while a place is free
        assert Client().post(link_in(mail.outbox[0])).status_code == 200
    assert t.entrants.filter(online=True).count() == 1


def test_after_30_minutes_its_place_may_be_taken_and_its_link_finds_it_full() -> None:
    t = opened(limit=14)
    register(t)
    with later(31):
        answer = register(t, "10.0.0.2", name="Otto Ober", email="otto@example.org")
        assert answer.status_code == 200 and FULL not in text(answer)
        refused = Client().post(link_in(mail.outbox[0]))
        assert refused.status_code == 410 and "ausgebucht" in text(refused)
        assert Client().post(link_in(mail.outbox[1])).status_code == 200
    assert list(t.entrants.filter(online=True).values_list("player__name", flat=True)) == [
        "Otto Ober"]


def test_after_30_minutes_its_name_and_team_slot_are_free() -> None:
    t = opened()  # "Tandem 6" has 2 entrants; "Duo" none
    for n in range(2):
        register(t, f"10.0.1.{n}", name=f"Duo {n}", email=f"d{n}@example.org", tandem="Duo")
    assert "Duo hat bereits 2 Spieler." in text(
        register(t, "10.0.1.8", name="Dritter", email="d3@example.org", tandem="Duo"))
    assert "ist bereits angemeldet" in text(
        register(t, "10.0.1.9", name="duo 0", email="other@example.org"))
    with later(31):
        assert register(t, "10.0.2.1", name="Dritter", email="d3@example.org",
                        tandem="Duo").status_code == 200
        assert register(t, "10.0.2.2", name="Duo 0", email="other@example.org"
                        ).status_code == 200
    assert Signup.objects.filter(tournament=t).count() == 4


def test_21_unconfirmed_registrations_from_3_addresses_cannot_book_a_tournament_out() -> None:
    """The issue's attack: 21 registrations from 3 addresses made a tournament with 21 free
    places "ausgebucht" for 48 hours. Now each address registers 3 at this tournament (one
    IPv6 /64 counts as one address), and those hold their places for 30 minutes."""
    t = opened(limit=34)  # 13 entrants, 21 places free
    addresses = ["10.6.6.1", "10.6.6.2", "2001:db8:6:6::1"]
    answers = []
    for n in range(21):
        address = addresses[n % 3]
        if address.startswith("2001:") and n % 2:
            address = f"2001:db8:6:6:{n:x}::9"  # another address of the same /64
        answers.append(register(t, address, name=f"Bot {n:02d}",
                                email=f"bot{n}@example.org").status_code)
    assert answers.count(200) == 9 and answers.count(429) == 12, answers
    page = text(Client().get(reverse("scoring:signup", args=[t.signup_key])))
    assert FULL not in page
    assert Signup.objects.filter(tournament=t).count() == 9
    # the site's allowance is looser: another tournament still takes these addresses
    other = signups.signup_settings(tournament=make_tournament(t.club, players=0), open=True,
                                    closes=None, limit=None)
    assert register(other, addresses[0], name="Bot X", email="x@example.org"
                    ).status_code == 200
    with later(31):
        # nothing is held any more; a real player from elsewhere registers
        assert register(t, "10.0.0.7").status_code == 200
        admin = Client()
        admin.force_login(make_user(t.club, "admin"))
        desk = text(admin.get(reverse("scoring:tournament", args=[t.pk])))
        assert "14 von 34 Plätzen vergeben." in desk


# ---------------------------------------------------------------- the desk's list

def desk_of(client: Client, t: Tournament) -> Any:
    return client.get(reverse("scoring:tournament", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")


def drop_url(t: Tournament, signup: Signup) -> str:
    return reverse("scoring:tournament-signup-drop", args=[t.pk, signup.pk])


def test_the_desk_lists_the_unconfirmed_and_drops_one() -> None:
    t = opened(limit=20)
    register(t)
    with later(-40):  # made 40 minutes ago: no longer holding
        register(t, "10.0.0.2", name="Otto Ober", email="otto@example.org")
    admin = Client()
    admin.force_login(make_user(t.club, "admin"))
    page = desk_of(admin, t).content.decode()
    rows = re.findall(r'<tr id="signup-(\d+)">(.*?)</tr>', page, re.S)
    words = [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for _pk, row in rows]
    assert words[0].startswith("Otto Ober otto@example.org") and "no longer held" in words[0]
    assert words[1].startswith("Paula Pik paula@example.org") and "held until" in words[1]
    assert "2 registrations not yet confirmed." in " ".join(page.split())
    paula = Signup.objects.get(email="paula@example.org")
    answer = admin.post(drop_url(t, paula), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    assert "The registration of Paula Pik (paula@example.org) is dropped" in text(answer)
    assert list(Signup.objects.values_list("email", flat=True)) == ["otto@example.org"]
    # its link no longer works; the others are unchanged
    assert Client().post(link_in(mail.outbox[0])).status_code == 404
    assert t.entrants.count() == 13
    # a confirmed registration is the entrant's: not dropped here
    Client().post(link_in(mail.outbox[1]))
    otto = Signup.objects.get(email="otto@example.org")
    refused = admin.post(drop_url(t, otto), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "has confirmed already" in text(refused)
    assert Signup.objects.filter(pk=otto.pk).exists() and t.entrants.count() == 14


@pytest.mark.parametrize("who", ["scorer", "viewer", "other-admin", "anonymous"])
def test_only_the_clubs_admins_drop(who: str) -> None:
    t = opened()
    register(t)
    held = Signup.objects.get()
    client = Client()
    if who == "other-admin":
        client.force_login(make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"))
    elif who != "anonymous":
        client.force_login(make_user(t.club, who))
    answer = client.post(drop_url(t, held))
    expected = {"scorer": 403, "viewer": 403, "other-admin": 404, "anonymous": 302}[who]
    assert answer.status_code == expected
    assert client.get(drop_url(t, held)).status_code in (302, 405)
    assert Signup.objects.filter(pk=held.pk, confirmed__isnull=True).exists()


def test_another_tournaments_registration_is_not_dropped_through_this_one() -> None:
    t = opened()
    other = signups.signup_settings(tournament=make_tournament(t.club, players=0), open=True,
                                    closes=None, limit=None)
    register(other)
    held = Signup.objects.get()
    admin = Client()
    admin.force_login(make_user(t.club, "admin"))
    answer = admin.post(drop_url(t, held), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200 and "gone already" in text(answer)
    assert Signup.objects.filter(pk=held.pk).exists()
