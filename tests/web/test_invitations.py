"""Members (issue 16): invitations by e-mail or one-time link (single use, 7 days, the role
chosen in advance), what a club admin does to members (withdraw invitations, remove
members, send a password-reset link, link a player), mails in the club's language, a mail
server that fails (a real SMTP server on the loopback address that refuses or hangs up),
and who may do any of it: every new URL for another club's admin, a scorer, a viewer,
anonymous and a device holding a table code."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import Club, Invitation, Membership, Player
from scoring.writes.services import Actor, deal_record

from .factories import make_club, make_table, make_user
from .smtp_server import smtp_server


def found_in(pattern: str, text: object, group: int = 0) -> str:
    """What ``pattern`` finds in a mail's text (which must hold it)."""
    match = re.search(pattern, str(text))
    assert match is not None, text
    return match.group(group)


pytestmark = pytest.mark.django_db

PASSWORD = "Pik-Dame-Hand-77"


def admin_client(club: Club, username: str | None = None) -> tuple[Client, Any]:
    client = Client()
    user = make_user(club, "admin", username)
    client.force_login(user)
    return client, user


def invite(client: Client, club: Club, role: str = "scorer", email: str = "",
           language: str = "en") -> Any:
    return client.post(reverse("scoring:invitation-create", args=[club.slug]),
                       {"role": role, "email": email}, HTTP_ACCEPT_LANGUAGE=language,
                       follow=True)


def sign_up(token: str, username: str = "neu", email: str = "neu@example.org",
            client: Client | None = None) -> Any:
    return (client or Client()).post(
        reverse("scoring:invitation", args=[token]),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en")


def test_an_invitation_by_link_makes_an_account_with_the_chosen_role() -> None:
    club = make_club()
    client, admin = admin_client(club)
    page = invite(client, club, role="viewer")
    invitation = Invitation.objects.get()
    assert (invitation.club, invitation.role, invitation.invited_by) == (club, "viewer", admin)
    assert invitation.expires - timezone.now() > timedelta(days=6, hours=23)
    link = reverse("scoring:invitation", args=[invitation.token])
    html = page.content.decode()
    assert link in html and "<svg" in html  # the link, and its QR code
    assert mail.outbox == []
    signup = Client()
    assert signup.get(link).status_code == 200
    response = sign_up(invitation.token, client=signup)
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:club", args=[club.slug])
    user = get_user_model().objects.get(username="neu")
    assert user.check_password(PASSWORD) and user.email == "neu@example.org"
    assert Membership.objects.get(user=user).role == "viewer"
    assert signup.get(response["Location"]).status_code == 200  # signed in
    invitation.refresh_from_db()
    assert invitation.used_by == user and invitation.used_at is not None
    # gone from the open invitations
    assert link not in client.get(reverse("scoring:members", args=[club.slug])).content.decode()


def test_an_invitation_works_once() -> None:
    club = make_club()
    client, _admin = admin_client(club)
    invite(client, club)
    token = Invitation.objects.get().token
    assert sign_up(token).status_code == 302
    for response in (Client().get(reverse("scoring:invitation", args=[token]),
                                  HTTP_ACCEPT_LANGUAGE="en"),
                     sign_up(token, username="zweiter")):
        assert response.status_code == 410
        assert "This invitation has been used already" in response.content.decode()
    assert not get_user_model().objects.filter(username="zweiter").exists()
    assert club.memberships.count() == 2


def test_an_expired_or_withdrawn_or_unknown_invitation_is_refused() -> None:
    club = make_club()
    client, _admin = admin_client(club)
    invite(client, club)
    invite(client, club)
    old, withdrawn = Invitation.objects.order_by("pk")
    Invitation.objects.filter(pk=old.pk).update(expires=timezone.now() - timedelta(seconds=1))
    response = client.post(reverse("scoring:invitation-revoke", args=[club.slug, withdrawn.pk]),
                           follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "its link no longer works" in response.content.decode()
    cases = [(old.token, 410, "has expired"), (withdrawn.token, 410, "was withdrawn"),
             ("not-a-token", 404, "not valid")]
    for token, status, words in cases:
        for response in (Client().get(reverse("scoring:invitation", args=[token]),
                                      HTTP_ACCEPT_LANGUAGE="en"), sign_up(token)):
            assert response.status_code == status, token
            assert words in response.content.decode(), token
    german = Client().get(reverse("scoring:invitation", args=[old.token]),
                          HTTP_ACCEPT_LANGUAGE="de")
    assert "Diese Einladung ist abgelaufen" in german.content.decode()
    assert not get_user_model().objects.filter(username="neu").exists()


def test_the_sign_up_form_checks_and_writes_nothing_on_a_mistake() -> None:
    club = make_club()
    client, _admin = admin_client(club)
    invite(client, club)
    token = Invitation.objects.get().token
    taken = sign_up(token, username="admin-altenburg")
    assert taken.status_code == 200 and "This user name is taken" in taken.content.decode()
    weak = Client().post(reverse("scoring:invitation", args=[token]),
                         {"username": "x", "password1": "1234", "password2": "1234"},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert weak.status_code == 200 and 'class="errorlist"' in weak.content.decode()
    assert Invitation.objects.get().used_at is None
    assert sign_up(token).status_code == 302  # still open


def test_a_signed_in_member_of_another_club_joins_with_the_same_account() -> None:
    club, other = make_club(), make_club("b", "Club B")
    client, _admin = admin_client(club)
    invite(client, club, role="scorer")
    token = Invitation.objects.get().token
    someone = make_user(other, "viewer", "someone")
    theirs = Client()
    theirs.force_login(someone)
    response = theirs.post(reverse("scoring:invitation", args=[token]), {"action": "join"})
    assert response.status_code == 302
    assert set(someone.memberships.values_list("club__slug", "role")) == {
        ("b", "viewer"), ("altenburg", "scorer")}
    assert theirs.post(reverse("scoring:invitation", args=[token]),
                       {"action": "join"}).status_code == 410


@pytest.mark.parametrize("language, subject, words", [
    ("de", "Einladung zu Skatfreunde Altenburg", "Listenführer"),
    ("en", "Invitation to Skatfreunde Altenburg", "as: scorer"),
])
def test_an_invitation_mail_is_in_the_clubs_language(language: str, subject: str,
                                                      words: str) -> None:
    club = make_club()
    Club.objects.filter(pk=club.pk).update(language=language)
    client, _admin = admin_client(club)
    # the admin reads the site in the other language: the mail is the club's
    page = invite(client, club, email="gast@example.org",
                  language="en" if language == "de" else "de")
    assert page.status_code == 200
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["gast@example.org"] and message.subject == subject
    assert words in message.body
    invitation = Invitation.objects.get()
    assert invitation.sent_at is not None
    url = found_in(r"https?://\S+", message.body, 0)
    assert url.endswith(reverse("scoring:invitation", args=[invitation.token]))


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def mail_log() -> Iterator[list[logging.LogRecord]]:
    """What the logger skatclub.mail was told (a handler of its own, whatever the settings
    do with the logger)."""
    handler = Records()
    logger = logging.getLogger("skatclub.mail")
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.DEBUG)
    yield handler.records
    logger.setLevel(old)
    logger.removeHandler(handler)


@pytest.mark.parametrize("mode", ["refuse", "close"])
def test_a_failing_mail_server_gives_a_message_and_the_invitation_can_be_sent_again(
        settings: Any, mode: str, mail_log: list[logging.LogRecord]) -> None:
    club = make_club()
    client, _admin = admin_client(club)
    with smtp_server(mode) as server:
        for key, value in server.settings().items():
            setattr(settings, key, value)
        page = invite(client, club, email="gast@example.org")
        assert page.status_code == 200
        html = page.content.decode()
        assert "could not be sent: the mail server did not take it" in html
        assert "not sent: the mail server did not take it" in html  # marked in the list
        invitation = Invitation.objects.get()
        assert invitation.sent_at is None and invitation.send_failed_at is not None
        assert server.connections == 1 and server.messages == 0
        assert [r.levelname for r in mail_log] == ["WARNING"]
        assert "gast@example.org" in mail_log[0].getMessage()
        # again, still failing: the same message, still no 500
        again = client.post(reverse("scoring:invitation-send", args=[club.slug, invitation.pk]),
                            follow=True, HTTP_ACCEPT_LANGUAGE="en")
        assert again.status_code == 200 and "could not be sent" in again.content.decode()
        # the server is back: sending again works, and the link still works
        server.mode = "accept"
        again = client.post(reverse("scoring:invitation-send", args=[club.slug, invitation.pk]),
                            follow=True, HTTP_ACCEPT_LANGUAGE="en")
        assert "The invitation was sent to gast@example.org" in again.content.decode()
        assert server.messages == 1
    invitation = Invitation.objects.get(pk=invitation.pk)
    assert invitation.sent_at is not None
    assert sign_up(invitation.token).status_code == 302


def test_a_failing_mail_server_and_the_password_link(settings: Any) -> None:
    club = make_club()
    client, _admin = admin_client(club)
    member = make_user(club, "scorer")
    member.email = "scorer@example.org"
    member.save()
    membership = Membership.objects.get(user=member)
    url = reverse("scoring:member-password-reset", args=[club.slug, membership.pk])
    with smtp_server("refuse") as server:
        for key, value in server.settings().items():
            setattr(settings, key, value)
        response = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "could not be sent: the mail server did not take it" in response.content.decode()


@pytest.mark.parametrize("language, subject", [("de", "Ein neues Passwort für Skatclub"),
                                               ("en", "A new password for Skatclub")])
def test_the_admin_sends_a_password_link_in_the_clubs_language(language: str,
                                                               subject: str) -> None:
    club = make_club()
    Club.objects.filter(pk=club.pk).update(language=language)
    client, _admin = admin_client(club)
    member = make_user(club, "scorer")
    membership = Membership.objects.get(user=member)
    url = reverse("scoring:member-password-reset", args=[club.slug, membership.pk])
    no_mail = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "has no e-mail address" in no_mail.content.decode() and mail.outbox == []
    member.email = "scorer@example.org"
    member.save()
    client.post(url, HTTP_ACCEPT_LANGUAGE="de" if language == "en" else "en")
    assert len(mail.outbox) == 1 and mail.outbox[0].subject == subject
    link = found_in(re.escape(settings.SITE_URL) + r"(\S+)", mail.outbox[0].body, 1)
    reader = Client()
    form = reader.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = reader.post(form.redirect_chain[-1][0],
                       {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302
    member.refresh_from_db()
    assert member.check_password(PASSWORD)
    assert "no longer valid" in Client().get(link, follow=True,
                                             HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_forgot_password_mail_goes_out_in_the_members_club_language() -> None:
    club = make_club()
    Club.objects.filter(pk=club.pk).update(language="en")
    member = make_user(club, "scorer")
    member.email = "scorer@example.org"
    member.save()
    response = Client().post(reverse("password_reset"), {"email": "scorer@example.org"},
                             HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302
    assert [m.subject for m in mail.outbox] == ["A new password for Skatclub"]
    # an unknown address: the same answer, no mail
    assert Client().post(reverse("password_reset"), {"email": "x@example.org"})\
        .status_code == 302
    assert len(mail.outbox) == 1


def test_the_admin_removes_members_but_never_the_last_admin() -> None:
    club = make_club()
    client, admin = admin_client(club)
    scorer = make_user(club, "scorer")
    player = club.players.order_by("pk")[0]
    player.user = scorer
    player.save()
    me = Membership.objects.get(user=admin)
    response = client.post(reverse("scoring:member-remove", args=[club.slug, me.pk]),
                           follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "at least one club admin" in response.content.decode()
    assert Membership.objects.filter(pk=me.pk).exists()
    theirs = Membership.objects.get(user=scorer)
    client.post(reverse("scoring:member-remove", args=[club.slug, theirs.pk]))
    assert not Membership.objects.filter(pk=theirs.pk).exists()
    assert get_user_model().objects.filter(pk=scorer.pk).exists()  # the account stays
    player = Player.objects.get(pk=player.pk)
    assert player.user is None and player.name.startswith("Anna")  # the lists unchanged


def test_linking_a_player_gives_the_member_their_results() -> None:
    club = make_club()
    client, _admin = admin_client(club)
    member = make_user(club, "viewer")
    table = make_table(club)
    deal_record(table=table, expected_version=0, actor=Actor(None, "t"),
                record={"kind": "game", "declarer": 1, "game": "clubs", "matadors": 1,
                        "bid": 18, "declarer_points": 70})
    player = table.seats.get(position=1).player
    membership = Membership.objects.get(user=member)
    url = reverse("scoring:member-player", args=[club.slug, membership.pk])
    client.post(url, {"player": player.pk})
    player.refresh_from_db()
    assert player.user == member
    mine = Client()
    mine.force_login(member)
    page = mine.get(reverse("scoring:my-results", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"On the lists you are {player.name}" in html
    assert reverse("scoring:sheet", args=[table.pk]) in html
    row = re.search(r'<tbody>\s*<tr>(.*?)</tr>', html.split("my-tables", 1)[1], re.S)
    assert row is not None
    cells = re.findall(r'<td[^>]*>(.*?)</td>', row.group(1), re.S)
    # +24 game points, Seeger-Fabian 24 + 50 = 74, one game won
    assert [c.strip() for c in cells[-4:]] == ["24", "74", "1", "0"]
    # the same number of queries with more evenings
    with CaptureQueriesContext(connection) as one:
        mine.get(reverse("scoring:my-results", args=[club.slug]))
    for day in (1, 2, 3):
        more = make_table(club, date=timezone.localdate() - timedelta(days=day))
        deal_record(table=more, expected_version=0, actor=Actor(None, "t"),
                    record={"kind": "passed"})
    mine.get(reverse("scoring:my-results", args=[club.slug]))  # the new tables' results cached
    with CaptureQueriesContext(connection) as four:
        page = mine.get(reverse("scoring:my-results", args=[club.slug]))
    assert page.content.decode().count(reverse("scoring:sheet", args=[more.pk])) == 1
    assert len(four.captured_queries) == len(one.captured_queries)
    # another player for the same member moves the link; "none" removes it
    other = club.players.exclude(pk=player.pk)[0]
    client.post(url, {"player": other.pk})
    assert list(Player.objects.filter(user=member)) == [other]
    client.post(url, {"player": ""})
    assert not Player.objects.filter(user=member).exists()
    # another club's player cannot be linked
    foreign = make_club("b", "Club B").players.all()[0]
    client.post(url, {"player": foreign.pk})
    foreign.refresh_from_db()
    assert foreign.user is None


def test_role_changes_keep_working() -> None:
    club = make_club()
    client, _admin = admin_client(club)
    scorer = make_user(club, "scorer")
    membership = Membership.objects.get(user=scorer)
    client.post(reverse("scoring:members", args=[club.slug]),
                {"action": "role", "membership": membership.pk, "role": "viewer"})
    membership.refresh_from_db()
    assert membership.role == "viewer"


# ---------------------------------------------------------------- permissions

def new_urls(club: Club, membership: Membership, invitation: Invitation) -> list[str]:
    """Every new URL of a club (all POST-only: the forms are on the members page)."""
    slug = club.slug
    return [reverse("scoring:invitation-create", args=[slug]),
            reverse("scoring:invitation-send", args=[slug, invitation.pk]),
            reverse("scoring:invitation-revoke", args=[slug, invitation.pk]),
            reverse("scoring:member-password-reset", args=[slug, membership.pk]),
            reverse("scoring:member-player", args=[slug, membership.pk]),
            reverse("scoring:departed-names", args=[slug]),
            reverse("scoring:member-remove", args=[slug, membership.pk])]


@pytest.fixture
def club_objects() -> dict[str, Any]:
    club = make_club()
    admin = make_user(club, "admin")
    victim = make_user(club, "scorer", "victim")
    victim.email = "victim@example.org"
    victim.save()
    invitation = Invitation.objects.create(club=club, role="admin", email="x@example.org",
                                           invited_by=admin)
    return {"club": club, "membership": Membership.objects.get(user=victim),
            "invitation": invitation, "table": make_table(club)}


def unchanged(objects: dict[str, Any]) -> None:
    club = objects["club"]
    invitation = Invitation.objects.get(pk=objects["invitation"].pk)
    assert invitation.revoked_at is None and invitation.sent_at is None
    assert Invitation.objects.count() == 1
    assert Membership.objects.filter(pk=objects["membership"].pk, role="scorer").exists()
    assert not Player.objects.filter(club=club, user__isnull=False).exists()
    club.refresh_from_db()
    assert club.departed_names == "keep"
    assert mail.outbox == []


def post_all(client: Client, objects: dict[str, Any]) -> list[tuple[str, int, int]]:
    player = objects["club"].players.all()[0].pk
    data = {"role": "admin", "email": "evil@example.org", "player": player,
            "departed_names": "pseudonym"}
    return [(url, client.get(url).status_code, client.post(url, data).status_code)
            for url in new_urls(objects["club"], objects["membership"], objects["invitation"])]


@pytest.mark.parametrize("role", ["scorer", "viewer"])
def test_scorers_and_viewers_get_403(club_objects: dict[str, Any], role: str) -> None:
    client = Client()
    client.force_login(make_user(club_objects["club"], role, f"other-{role}"))
    for url, get, post in post_all(client, club_objects):
        assert (get, post) == (405, 403), url
    unchanged(club_objects)


def test_another_clubs_admin_gets_404(club_objects: dict[str, Any]) -> None:
    client = Client()
    client.force_login(make_user(make_club("b", "Club B"), "admin"))
    for url, get, post in post_all(client, club_objects):
        assert (get, post) == (405, 404), url
    unchanged(club_objects)


def test_anonymous_and_a_table_code_are_sent_to_sign_in(club_objects: dict[str, Any]) -> None:
    anonymous = Client()
    device = Client()
    code = club_objects["table"].access_code
    assert device.get(reverse("scoring:code", args=[code])).status_code == 302
    for client in (anonymous, device):
        for url in new_urls(club_objects["club"], club_objects["membership"],
                            club_objects["invitation"]):
            assert client.get(url).status_code == 405
            response = client.post(url, {"role": "admin"})
            assert response.status_code == 302 and response["Location"].startswith(
                reverse("login")), url
        for url in (reverse("scoring:my-results", args=["altenburg"]),
                    reverse("scoring:account"), reverse("scoring:account-data")):
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(
                reverse("login")), url
        response = client.post(reverse("scoring:account-delete"), {"password": "x"})
        assert response.status_code == 302 and response["Location"].startswith(
            reverse("login"))
    unchanged(club_objects)


def test_my_results_is_for_members_of_the_club_only(club_objects: dict[str, Any]) -> None:
    url = reverse("scoring:my-results", args=[club_objects["club"].slug])
    outsider = Client()
    outsider.force_login(make_user(make_club("b", "Club B"), "admin"))
    assert outsider.get(url).status_code == 404
    for role in ("viewer", "scorer", "admin"):
        member = Client()
        member.force_login(make_user(club_objects["club"], role, f"m-{role}"))
        assert member.get(url).status_code == 200


def test_the_members_own_admin_may_do_it_all(club_objects: dict[str, Any]) -> None:
    """Control: the same requests are real, and the club's admin gets through."""
    client = Client()
    client.force_login(get_user_model().objects.get(username="admin-altenburg"))
    for url, _get, post in post_all(client, club_objects):
        assert post == 302, url
    assert Invitation.objects.count() == 2
    assert Invitation.objects.get(pk=club_objects["invitation"].pk).revoked_at is not None
    assert [m.to for m in mail.outbox] == [
        ["evil@example.org"], ["x@example.org"], ["victim@example.org"]]
    assert not Membership.objects.filter(pk=club_objects["membership"].pk).exists()


def test_the_members_page_asks_the_same_number_of_queries_for_more_members(
        django_assert_max_num_queries: Any) -> None:
    club = make_club()
    client, _admin = admin_client(club)
    url = reverse("scoring:members", args=[club.slug])
    invite(client, club)
    client.get(url)
    with django_assert_max_num_queries(12) as few:
        assert client.get(url).status_code == 200
    for n in range(6):
        make_user(club, "viewer", f"viewer-{n}")
        Invitation.objects.create(club=club, role="viewer", email=f"v{n}@example.org")
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url).status_code == 200
