"""Online self-registration for a tournament (issue 24, item 4): the organiser opens it on the
desk; a player registers on the public page, gets the link by mail, confirms, and is an
entrant with the next start number (not paid, not checked in, marked online). Refused with a
message and nothing changed: closed by time, after the draw of series 1, fully booked, the
same e-mail twice, an expired or used link; limited per address and per e-mail (429); a bot
that fills the hidden field registers nobody; who may change the settings."""

from __future__ import annotations

import re
import threading
from contextlib import suppress
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Entrant, Signup, Tournament
from scoring.writes import signup as signups
from scoring.writes import tournament as tw

from .factories import make_club, make_user
from .smtp_server import smtp_server
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db

MAX_QUERIES = 40  # the page's, a registration's, a confirmation's; the same at any field


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.SIGNUPS_PER_ADDRESS = 10
    settings.SIGNUPS_PER_EMAIL = 3
    settings.SIGNUPS_PER_ADDRESS_PER_TOURNAMENT = 10  # its own tests: test_signup_holds.py
    settings.SIGNUP_HOLD_MINUTES = 30
    settings.SIGNUP_WINDOW = 3600
    settings.SIGNUP_CONFIRM_HOURS = 48


def opened(players: int = 13, *, limit: int | None = None,
           closes: Any = None) -> Tournament:
    t = make_tournament(make_club(), players=players)
    return signups.signup_settings(tournament=t, open=True, closes=closes, limit=limit)


def page(t: Tournament) -> str:
    return reverse("scoring:signup", args=[t.signup_key])


def form(name: str = "Paula Pik", email: str = "paula@example.org", **extra: str,
         ) -> dict[str, str]:
    return {"name": name, "email": email, "home_club": "SC Herz Dame", **extra}


def register(client: Client, t: Tournament, address: str = "10.0.0.1", **data: str) -> Any:
    return client.post(page(t), form(**data), REMOTE_ADDR=address)


def link_in(message: Any) -> str:
    found = re.search(r"https?://\S+/signup/confirm/\S+/", str(message.body))
    assert found is not None, message.body
    return found.group(0).removeprefix(settings.SITE_URL)


def text(response: Any) -> str:
    return " ".join(response.content.decode().split())


def test_register_mail_confirm_entrant(client: Client) -> None:
    t = opened()
    assert t.entrants.count() == 13
    answer = client.get(page(t))
    assert answer.status_code == 200
    assert 'name="email"' in answer.content.decode() and 'name="team"' in answer.content.decode()
    answer = register(client, t, category="Damen", team="Team 9", tandem="Tandem 9")
    assert answer.status_code == 200
    assert "Wir haben einen Link an paula@example.org geschickt" in text(answer)
    # held, unconfirmed: no entrant, no player yet
    held = Signup.objects.get(tournament=t)
    assert (held.name, held.email, held.confirmed) == ("Paula Pik", "paula@example.org", None)
    assert t.entrants.count() == 13 and not t.club.players.filter(name="Paula Pik").exists()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["paula@example.org"]
    assert message.subject == "Anmeldung bestätigen: Preisskat"
    assert "Der Link gilt einmal" in message.body
    url = link_in(message)
    assert str(message.body).count(settings.SITE_URL + url) == 1  # SITE_URL, never the Host
    # the organiser sees it waiting
    admin = Client()
    admin.force_login(make_user(t.club, "admin"))
    desk = text(admin.get(reverse("scoring:tournament", args=[t.pk])))
    assert "1 Anmeldung noch nicht bestätigt." in desk
    assert "0 Teilnehmer online angemeldet." in desk
    # opening the link (a GET, a mail scanner too) changes nothing
    shown = client.get(url)
    assert shown.status_code == 200 and "Paula Pik" in text(shown)
    assert t.entrants.count() == 13
    done = client.post(url)
    assert done.status_code == 200
    assert "mit Startnummer 14 angemeldet" in text(done)
    entrant = Entrant.objects.get(tournament=t, number=14)
    assert entrant.player.name == "Paula Pik" and entrant.player.club == t.club
    assert entrant.player.guest
    assert (entrant.online, entrant.paid, entrant.checked_in, entrant.at_door) == (
        True, False, False, False)
    assert (entrant.home_club, entrant.category, entrant.team, entrant.tandem) == (
        "SC Herz Dame", "Damen", "Team 9", "Tandem 9")
    held.refresh_from_db()
    assert held.confirmed is not None and held.entrant == entrant
    desk = admin.get(reverse("scoring:tournament", args=[t.pk])).content.decode()
    row = re.search(rf'<tr id="entrant-{entrant.pk}".*?</tr>', desk, re.S)
    assert row is not None and 'class="online-mark"' in row.group(0)
    assert "1 Teilnehmer online angemeldet." in " ".join(desk.split())
    # the link works once
    again = client.post(url)
    assert again.status_code == 410
    assert "bereits bestätigt: Ihre Startnummer ist 14" in text(again)
    # opened again, the mailed link leads to the player's "Mein Platz" (issue 35)
    mine = client.get(url)
    assert mine.status_code == 302
    assert mine["Location"] == reverse("scoring:seat-key", args=[entrant.seat_key])
    assert "Paula Pik" in text(client.get(mine["Location"]))
    assert t.entrants.count() == 14


def test_off_by_default_and_unguessable(client: Client) -> None:
    t = make_tournament(make_club())
    assert not t.signup_open and len(t.signup_key) >= 16 and t.signup_key != t.board_key
    assert client.get(page(t)).status_code == 404
    assert register(client, t).status_code == 404
    assert client.get("/signup/not-a-key/").status_code == 404
    assert not Signup.objects.exists() and mail.outbox == []
    for ask in (client.get, client.post):
        unknown = ask("/signup/confirm/nonsense/")
        assert unknown.status_code == 404 and "Bestätigungslink ist ungültig" in text(unknown)


def assert_nothing_held(t: Tournament, entrants: int = 13) -> None:
    assert not Signup.objects.filter(tournament=t, confirmed__isnull=True).exists()
    assert t.entrants.count() == entrants


def test_closed_by_time(client: Client) -> None:
    t = opened(closes=timezone.now() - timedelta(minutes=1))
    shown = text(client.get(page(t)))
    assert "Die Online-Anmeldung ist seit" in shown and 'name="email"' not in shown
    answer = register(client, t)
    assert "Die Online-Anmeldung ist seit" in text(answer)
    assert_nothing_held(t)
    assert mail.outbox == []


def test_closed_after_the_draw_and_a_link_confirmed_after_it(client: Client) -> None:
    t = opened()
    register(client, t)
    url = link_in(mail.outbox[0])
    tw.series_draw(tournament=t, seed=1)
    assert "Serie 1 ist ausgelost" in text(client.get(page(t)))
    shown = client.get(url)  # the link says so before its button is pressed
    assert shown.status_code == 410 and "Serie 1 ist ausgelost" in text(shown)
    register(client, t, name="Otto Ober", email="otto@example.org")
    assert Signup.objects.filter(tournament=t).count() == 1 and len(mail.outbox) == 1
    refused = client.post(url)
    assert refused.status_code == 410
    assert "Die Online-Anmeldung ist geschlossen: Serie 1 ist ausgelost." in text(refused)
    assert t.entrants.count() == 13


def test_fully_booked(client: Client) -> None:
    t = opened(limit=14)
    register(client, t)
    # the unconfirmed registration holds the 14th place
    answer = register(client, t, name="Otto Ober", email="otto@example.org")
    assert "Ausgebucht: alle 14 Plätze sind vergeben" in text(answer)
    assert Signup.objects.filter(tournament=t).count() == 1 and len(mail.outbox) == 1
    assert "Ausgebucht: alle 14 Plätze sind vergeben" in text(client.get(page(t)))
    # the desk fills the place at the door meanwhile: the link is refused as fully booked
    tw.entrant_register(tournament=t, name="Dora Tür", at_door=True)
    refused = client.post(link_in(mail.outbox[0]))
    assert refused.status_code == 410 and "ausgebucht" in text(refused)
    assert t.entrants.count() == 14 and not t.entrants.filter(online=True).exists()


def test_the_same_email_or_name_twice(client: Client) -> None:
    t = opened()
    register(client, t)
    again = register(client, t, name="Paul Pik", email="Paula@Example.org ")
    assert "Diese E-Mail-Adresse ist für dieses Turnier bereits angemeldet" in text(again)
    same_name = register(client, t, name="paula  pik", email="other@example.org")
    assert "Ein Spieler namens paula pik ist bereits angemeldet" in text(same_name)
    # an entrant's name too (a member registered at the desk)
    member = t.entrants.select_related("player").first()
    assert member is not None
    taken = register(client, t, name=member.player.name, email="m@example.org")
    assert "ist bereits angemeldet" in text(taken)
    assert Signup.objects.filter(tournament=t).count() == 1 and len(mail.outbox) == 1
    # confirmed, the address is still taken
    client.post(link_in(mail.outbox[0]))
    later = register(client, t, name="Paul Pik", email="paula@example.org")
    assert "bereits angemeldet" in text(later)
    assert t.entrants.count() == 14


def test_an_expired_link_is_refused_and_swept(client: Client) -> None:
    t = opened()
    register(client, t)
    url = link_in(mail.outbox[0])
    Signup.objects.filter(tournament=t).update(expires=timezone.now() - timedelta(seconds=1))
    shown = client.get(url)
    assert shown.status_code == 410 and "abgelaufen" in text(shown)
    refused = client.post(url)
    assert refused.status_code == 410
    assert "Dieser Bestätigungslink ist abgelaufen (ein Link gilt 48 Stunden)" in text(refused)
    assert t.entrants.count() == 13
    # the next registration sweeps it: the address may register again
    register(client, t, name="Otto Ober", email="otto@example.org")
    assert list(Signup.objects.values_list("email", flat=True)) == ["otto@example.org"]
    assert register(client, t).status_code == 200
    assert Signup.objects.filter(tournament=t).count() == 2
    # and the command sweeps what nobody confirmed in time
    Signup.objects.update(expires=timezone.now() - timedelta(seconds=1))
    call_command("sweep_signups", verbosity=0)
    assert not Signup.objects.exists()


def test_a_confirmed_address_is_kept_until_the_day_is_over(client: Client) -> None:
    t = opened()
    register(client, t)
    client.post(link_in(mail.outbox[0]))
    call_command("sweep_signups", verbosity=0)
    assert Signup.objects.filter(email="paula@example.org").exists()  # still refuses twice
    Tournament.objects.filter(pk=t.pk).update(
        date=timezone.localdate() - timedelta(days=1))
    call_command("sweep_signups", verbosity=0)
    assert not Signup.objects.exists()
    entrant = t.entrants.get(number=14)
    assert entrant.online and entrant.player.name == "Paula Pik"
    admin = Client()
    admin.force_login(make_user(t.club, "admin"))
    desk = text(admin.get(reverse("scoring:tournament", args=[t.pk])))
    assert "1 Teilnehmer online angemeldet." in desk


def test_a_team_counts_its_unconfirmed_players(client: Client) -> None:
    t = opened()  # "Team 1" has 4 entrants, "Tandem 6" 2; "Team 9" none
    full = register(client, t, team="Team 1")
    assert "Team 1 hat bereits 4 Spieler." in text(full)
    for n in range(2):
        register(client, t, name=f"Tandem {n}", email=f"t{n}@example.org", tandem="Duo")
    third = register(client, t, name="Dritter", email="t3@example.org", tandem="Duo")
    assert "Duo hat bereits 2 Spieler." in text(third)
    wrong = register(client, t, name="Kat", email="k@example.org", category="Jugend")
    assert "Jugend" in text(wrong) and Signup.objects.count() == 2


def test_limited_per_address(client: Client, settings: Any) -> None:
    settings.SIGNUPS_PER_ADDRESS = 2
    t = opened()
    for n in range(2):
        assert register(client, t, name=f"P{n}", email=f"p{n}@example.org").status_code == 200
    blocked = register(client, t, name="P3", email="p3@example.org")
    assert blocked.status_code == 429 and blocked["Retry-After"] == "3600"
    assert "Zu viele Anmeldungen" in text(blocked)
    assert Signup.objects.count() == 2 and len(mail.outbox) == 2
    # another address is not held up; an IPv6 client counts as its /64
    assert register(client, t, "10.0.0.2", name="P4", email="p4@example.org").status_code == 200
    for n in range(2):
        register(client, t, f"2001:db8:1:2::{n + 1}", name=f"Q{n}", email=f"q{n}@example.org")
    assert register(client, t, "2001:db8:1:2:ffff::9", name="Q3",
                    email="q3@example.org").status_code == 429
    assert Signup.objects.count() == 5


def test_limited_per_email(client: Client, settings: Any) -> None:
    settings.SIGNUPS_PER_EMAIL = 2
    club = make_club()
    ts = [signups.signup_settings(tournament=make_tournament(club, players=0), open=True,
                                  closes=None, limit=None) for _n in range(3)]
    for n, t in enumerate(ts[:2]):
        assert register(client, t, f"10.0.1.{n}").status_code == 200
    blocked = register(client, ts[2], "10.0.1.9")
    assert blocked.status_code == 429
    assert Signup.objects.count() == 2 and len(mail.outbox) == 2


def test_a_bot_filling_the_hidden_field_registers_nobody(client: Client) -> None:
    t = opened()
    html = client.get(page(t)).content.decode()
    assert 'class="signup-trap" aria-hidden="true"' in html and 'tabindex="-1"' in html
    answer = register(client, t, website="http://spam.example")
    assert answer.status_code == 200 and "Wir haben einen Link" in text(answer)
    assert not Signup.objects.exists() and mail.outbox == []


@pytest.mark.parametrize("mode", ["refuse", "close"])
def test_a_mail_server_that_fails_holds_nothing(client: Client, settings: Any,
                                                mode: str) -> None:
    t = opened()
    with smtp_server(mode) as server:
        for key, value in server.settings().items():
            setattr(settings, key, value)
        answer = register(client, t)
        assert server.connections == 1 and server.messages == 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert answer.status_code == 200
    assert "Die Bestätigungs-E-Mail konnte nicht gesendet werden" in text(answer)
    assert not Signup.objects.exists()
    assert register(client, t).status_code == 200  # and may try again
    assert Signup.objects.count() == 1 and len(mail.outbox) == 1


def test_bad_input_gets_a_message(client: Client) -> None:
    t = opened()
    answer = client.post(page(t), {"name": "  ", "email": "kein-at", "category": "x" * 99},
                         REMOTE_ADDR="10.0.0.1")
    assert answer.status_code == 200
    assert not Signup.objects.exists() and mail.outbox == []
    long = client.post(page(t), form(name="N" * 500, home_club="C" * 500),
                       REMOTE_ADDR="10.0.0.1")
    assert long.status_code == 200 and not Signup.objects.exists()
    assert client.put(page(t)).status_code == 405


def settings_url(t: Tournament) -> str:
    return reverse("scoring:tournament-signup", args=[t.pk])


def test_the_organisers_settings(client: Client) -> None:
    t = make_tournament(make_club())
    client.force_login(make_user(t.club, "admin"))
    desk = reverse("scoring:tournament", args=[t.pk])
    assert "Online-Anmeldung" in text(client.get(desk))
    answer = client.post(settings_url(t), {"signup_open": "on",
                                           "signup_closes": "2031-05-01T18:30",
                                           "signup_limit": "120"})
    assert answer.status_code == 302 and answer["Location"] == desk + "#signup-heading"
    t.refresh_from_db()
    assert t.signup_open and t.signup_limit == 120
    assert timezone.localtime(t.signup_closes).strftime("%Y-%m-%d %H:%M") == "2031-05-01 18:30"
    shown = text(client.get(desk))
    assert "/signup/" + t.signup_key + "/" in shown and "13 von 120 Plätzen vergeben." in shown
    assert 'value="2031-05-01T18:30"' in shown
    # bad input: a message, nothing changed
    for bad in ({"signup_open": "on", "signup_limit": "0"},
                {"signup_open": "on", "signup_limit": "abc"},
                {"signup_open": "on", "signup_closes": "morgen"}):
        answer = client.post(settings_url(t), bad, follow=True)
        assert answer.status_code == 200 and 'class="messages' in answer.content.decode()
        t.refresh_from_db()
        assert t.signup_open and t.signup_limit == 120 and t.signup_closes is not None
    client.post(settings_url(t), {})
    off = Tournament.objects.get(pk=t.pk)
    assert not off.signup_open and off.signup_limit is None
    assert client.get(page(t)).status_code == 404


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_members_may_not_change_the_settings(client: Client, role: str) -> None:
    t = make_tournament(make_club())
    client.force_login(make_user(t.club, role))
    assert client.post(settings_url(t), {"signup_open": "on"}).status_code == 403
    t.refresh_from_db()
    assert not t.signup_open


def test_other_clubs_and_anonymous_visitors_may_not_change_the_settings(
        client: Client) -> None:
    t = make_tournament(make_club())
    client.force_login(make_user(make_club("zwickau", "Skatclub Zwickau"), "admin"))
    assert client.post(settings_url(t), {"signup_open": "on"}).status_code == 404
    anonymous = Client()
    answer = anonymous.post(settings_url(t), {"signup_open": "on"})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    assert anonymous.get(settings_url(t)).status_code in (302, 405)
    t.refresh_from_db()
    assert not t.signup_open


def costs(client: Client, t: Tournament, n: int) -> list[int]:
    """The queries of the public page, a registration and its confirmation."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    found = []
    for step in ("page", "register", "confirm"):
        with CaptureQueriesContext(connection) as queries:
            if step == "page":
                answer = client.get(page(t))
            elif step == "register":
                answer = register(client, t, f"10.9.{n}.1", email=f"p{n}@example.org")
            else:
                answer = client.post(link_in(mail.outbox[-1]))
        assert answer.status_code == 200, step
        found.append(len(queries))
    return found


def test_the_pages_queries_do_not_grow_with_the_field(client: Client) -> None:
    """The page, a registration and a confirmation cost as many queries at 200 entrants as
    at 13."""
    counts = []
    for players in (13, 200):
        t = make_tournament(make_club(f"c{players}"))
        for n in range(players - 13):
            tw.entrant_register(tournament=t, name=f"Gast {n:04d}", home_club="SC Gast")
        signups.signup_settings(tournament=t, open=True, closes=None, limit=500)
        counts.append(costs(client, t, players))
        assert t.entrants.filter(online=True).count() == 1
    assert counts[0] == counts[1] and max(counts[0]) <= MAX_QUERIES, counts


@pytest.mark.django_db(transaction=True)
def test_two_registrations_for_the_last_place_at_once() -> None:
    """A real race, on PostgreSQL (SQLite serialises write transactions from their start):
    two threads register for the last place; each waits at a gate just before it saves
    (until the other arrives there too, or 1.5 s). Without the tournament's row lock both
    would have counted a free place before either saved; with it the second counts after
    the first has committed and is refused as fully booked."""
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises write transactions from their start (IMMEDIATE)")
    t = opened(limit=14)
    start, gate = threading.Barrier(2), threading.Barrier(2, timeout=1.5)
    answers: list[str] = []
    save = Signup.save

    def gated_save(self: Signup, *args: Any, **kwargs: Any) -> None:
        with suppress(threading.BrokenBarrierError):
            gate.wait()
        save(self, *args, **kwargs)

    def one(n: int) -> None:
        try:
            start.wait(timeout=10)
            signups.signup_create(tournament=t, name=f"Spieler {n}", email=f"s{n}@example.org")
            answers.append("held")
        except ValidationError as err:
            answers.append(" ".join(err.messages))
        finally:
            connections.close_all()

    with mock.patch.object(Signup, "save", gated_save):
        threads = [threading.Thread(target=one, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert len(answers) == 2 and "held" in answers, answers
    assert sorted(answers)[0].startswith("Dieses Turnier ist ausgebucht"), answers
    assert Signup.objects.filter(tournament=t).count() == 1
