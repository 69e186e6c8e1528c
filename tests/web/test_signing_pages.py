"""The players sign the list (issue 23), through the web: the tablet's panel, the lock on
the table screen's forms and on the offline sync, the admin's correction, the phone link
(read-only, signs one player, grants no recording), the PIN limit and the account's PIN."""

from __future__ import annotations

import html
import json
import re
import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import localtime

from scoring.models import AuditEntry, FailureCount, HeldOperation, Signature, Table
from scoring.views.signing import sign_token
from scoring.writes.signing import pin_set, player_codes

from . import pdfs
from .factories import make_club, make_user, won
from .pdfs import needs_poppler
from .signing_fixtures import seated, short_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_counts_left() -> None:
    cache.clear()


def code_client(table: Table) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(reverse("scoring:code-entry"), {"code": table.access_code})
    assert response.status_code == 302
    return client


def tablet_sign(client: Client, table: Table, player_id: int, **extra: str) -> Any:
    return client.post(reverse("scoring:sign-tablet", args=[table.pk]),
                       {"player": str(player_id), **extra}, follow=True)


def phone_url(table: Table) -> str:
    return reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])


def sign_everybody(client: Client, table: Table) -> None:
    for player in seated(table):
        tablet_sign(client, table, player.pk)
    table.refresh_from_db()
    assert table.signed_at is not None


def test_the_tablet_shows_totals_and_a_tap_signs(client: Client) -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    page = tablet.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert 'id="signing"' in page and "Sign as Anna Altenburg" in page
    assert page.count('class="signing-total') == 4
    assert "<svg" in page and sign_token(table) in page  # the phone's QR and link
    anna = seated(table)[0]
    answer = tablet_sign(tablet, table, anna.pk)
    text = answer.content.decode()
    assert "Anna Altenburg has signed the list." in text
    # The time as the English pages write it: "9:05 p.m.", but "9 p.m." on the hour and
    # "noon" at twelve (a pattern of digits failed at the full hour).
    with translation.override("en"):
        at = date_format(localtime(Signature.objects.get(table=table, player=anna).at),
                         "TIME_FORMAT")
    assert f"signed {at}" in text
    assert "Sign as Anna Altenburg" not in text and "Sign as Bernd Altenburg" in text
    sheet = tablet.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert f"Anna Altenburg: signed {at}" in sheet


def test_the_signed_time_in_german() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    tablet.post(reverse("scoring:sign-tablet", args=[table.pk]),
                {"player": str(seated(table)[0].pk)}, HTTP_ACCEPT_LANGUAGE="de")
    page = tablet.get(reverse("scoring:table", args=[table.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert re.search(r"unterschrieben \d\d:\d\d", page)


def test_no_panel_while_the_series_is_played() -> None:
    table = short_table(make_club(), play=2)
    page = code_client(table).get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert 'id="signing"' not in page
    answer = tablet_sign(code_client(table), table, seated(table)[0].pk)
    assert "has finished" in answer.content.decode()
    assert not Signature.objects.exists()


def test_the_finished_table_screen_says_the_signed_list_is_locked() -> None:
    """Before the signatures the finished table's notice offers corrections from the list;
    once everybody has signed it says the list is locked instead."""
    table = short_table(make_club())
    tablet = code_client(table)
    page = tablet.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "Earlier deals can still be corrected" in page
    sign_everybody(tablet, table)
    page = tablet.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "Earlier deals can still be corrected" not in page
    assert "it is locked. Only a club admin" in page


def test_a_signed_list_refuses_the_scorers_save_edit_and_delete_with_a_message() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    sign_everybody(tablet, table)
    deal = table.deals.order_by("position").first()
    assert deal is not None
    scorer = Client(HTTP_ACCEPT_LANGUAGE="en")
    scorer.force_login(make_user(table.evening.club, "scorer"))
    for client in (tablet, scorer):
        answer = client.post(reverse("scoring:deal-save", args=[table.pk]), {
            "version": str(table.version), "request_id": str(uuid.uuid4()),
            "kind": "penalty", "penalty_seat": "0", "penalty_points": "50",
            "penalty_reason": "x"})
        assert answer.status_code == 422
        assert "it is locked" in answer.content.decode()
        answer = client.post(reverse("scoring:deal-edit", args=[table.pk, deal.pk]), {
            "version": str(table.version), "kind": "game", "declarer": "1", "game": "clubs",
            "matadors": "1", "bid": "18", "declarer_points": "80", "reason": "Tippfehler"})
        assert answer.status_code == 422 and "it is locked" in answer.content.decode()
        answer = client.post(reverse("scoring:deal-delete", args=[table.pk, deal.pk]), {
            "version": str(table.version), "reason": "Tippfehler"})
        assert answer.status_code == 422 and "it is locked" in answer.content.decode()
    table.refresh_from_db()
    assert table.signed_at is not None and table.version == 4
    assert table.deals.filter(deleted=False).count() == 4


def test_the_admin_corrects_a_signed_list_with_a_reason_and_it_asks_for_signatures() -> None:
    table = short_table(make_club())
    sign_everybody(code_client(table), table)
    deal = table.deals.order_by("position").first()
    assert deal is not None
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(make_user(table.evening.club, "admin"))
    page = admin.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "As club admin you may still correct" in page
    fields = {"version": str(table.version), "kind": "game", "declarer": "1",
              "game": "clubs", "matadors": "1", "bid": "18", "declarer_points": "80"}
    answer = admin.post(reverse("scoring:deal-edit", args=[table.pk, deal.pk]),
                        {**fields, "reason": ""})
    assert answer.status_code == 422
    answer = admin.post(reverse("scoring:deal-edit", args=[table.pk, deal.pk]),
                        {**fields, "reason": "Augen falsch gezählt"})
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.signed_at is None and table.changed_after_signing
    entry = AuditEntry.objects.get(table=table, action="unsign")
    assert entry.reason == "Augen falsch gezählt"
    page = admin.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "changed after signing" in page and "Sign as Anna Altenburg" in page
    sheet = admin.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert "changed after signing" in sheet
    audit = admin.get(reverse("scoring:evening-audit", args=[table.evening_id]))
    assert "Augen falsch gezählt" in audit.content.decode()
    assert "changed after signing" in audit.content.decode()
    assert "signatures cleared: Anna Altenburg, Bernd Altenburg" in audit.content.decode()


# ---------------------------------------------------------------- the offline sync

def test_an_offline_op_for_a_signed_list_is_held_for_the_admin() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    sign_everybody(tablet, table)
    deal = table.deals.order_by("position").first()
    assert deal is not None
    body = {"op": "edit", "request_id": str(uuid.uuid4()), "base_version": table.version,
            "deal": deal.pk, "record": won(1, 80), "reason": "Tippfehler"}
    answer = tablet.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(body),
                         content_type="application/json")
    assert answer.status_code == 202
    assert answer.json()["status"] == "held" and "signed" in answer.json()["message"]
    again = tablet.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(body),
                        content_type="application/json")
    assert again.json()["held"] == answer.json()["held"]  # once, however often sent
    held = HeldOperation.objects.get()
    assert held.why == "signed"
    table.refresh_from_db()
    assert table.signed_at is not None and table.version == 4
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(make_user(table.evening.club, "admin"))
    url = reverse("scoring:held-accept", args=[table.evening_id])
    assert admin.post(url, {"held": held.pk, "reason": ""}).status_code == 422
    assert admin.post(url, {"held": held.pk, "reason": "checked with the players"}
                      ).status_code == 302
    after = Table.objects.get(pk=table.pk)
    assert after.signed_at is None and after.changed_after_signing and after.version == 5
    assert AuditEntry.objects.get(table=table, action="unsign").reason == (
        "checked with the players")


def test_the_offline_state_says_a_signed_list_is_not_writable() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    sign_everybody(tablet, table)
    state = tablet.get(reverse("scoring:table-state", args=[table.pk])).json()
    assert state["signed"] is True and state["writable"] is False


# ---------------------------------------------------------------- the phone

def code_of(table: Table, player: Any) -> str:
    """The one-time code the tablet shows ``player`` for the list as it stands."""
    table.refresh_from_db()
    return player_codes(table, [p.pk for p in seated(table)])[player.pk]


def test_the_phone_link_shows_the_list_and_signs_with_a_players_code_only() -> None:
    """Issue 35 changed the premise: the phone link alone signs nobody (before, its holder
    picked a name and a session cookie stopped a second one); a player's one-time code from
    the tablet signs that player, once."""
    table = short_table(make_club())
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = phone.get(phone_url(table))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'class="score-sheet' in text and "Sign as" not in text
    assert 'name="player"' not in text and 'name="code"' in text
    clara, dieter = seated(table)[2], seated(table)[3]
    answer = phone.post(phone_url(table), {"player": str(dieter.pk)})
    assert answer.status_code == 422 and not Signature.objects.exists()
    answer = phone.post(phone_url(table), {"code": code_of(table, clara)}, follow=True)
    assert "Clara Altenburg has signed the list." in answer.content.decode()
    signature = Signature.objects.get()
    assert signature.where == "phone" and signature.proof == "code"
    assert signature.player == clara
    # the tablet shows the phone's signature
    page = code_client(table).get(reverse("scoring:sign-panel", args=[table.pk]))
    assert "on a phone" in page.content.decode()
    assert 'hx-trigger="every 5s"' in page.content.decode()  # and it polls on
    shown = re.search(r'data-live-etag="([^"]+)"', page.content.decode())
    assert shown is not None and html.unescape(shown.group(1)) == page["ETag"]
    tablet = code_client(table)
    unchanged = tablet.get(reverse("scoring:sign-panel", args=[table.pk]),
                           headers={"If-None-Match": page["ETag"]})
    assert unchanged.status_code == 304  # the same panel is not sent (nor swapped) again


def test_the_phone_link_grants_no_recording() -> None:
    table = short_table(make_club(), play=2)
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert phone.get(phone_url(table)).status_code == 200
    assert phone.get(reverse("scoring:table", args=[table.pk])).status_code == 404
    answer = phone.post(reverse("scoring:deal-save", args=[table.pk]), {
        "version": str(table.version), "request_id": str(uuid.uuid4()), "kind": "game",
        "declarer": "3", "game": "clubs", "matadors": "1", "bid": "18", "result": "won"})
    assert answer.status_code == 404
    body = {"op": "save", "request_id": str(uuid.uuid4()), "base_version": table.version,
            "record": won(3)}
    answer = phone.post(reverse("scoring:table-sync", args=[table.pk]), json.dumps(body),
                        content_type="application/json")
    assert answer.status_code == 404
    assert table.deals.count() == 2


def test_a_wrong_or_old_phone_link_is_not_found() -> None:
    table = short_table(make_club())
    client = Client()
    assert client.get(reverse("scoring:sign-phone", args=[table.pk, "0" * 24])
                      ).status_code == 404
    old = phone_url(table)
    table.access_code = "ABCDEFGH"  # the code replaced: the old link stops
    table.save()
    assert client.get(old).status_code == 404
    table.evening.closed = True
    table.evening.save()
    assert client.get(phone_url(table)).status_code == 404


# ---------------------------------------------------------------- PIN mode

def _pin_table() -> Table:
    club = make_club()
    club.sign_with_pin = True
    club.save()
    table = short_table(club)
    anna = seated(table)[0]
    user = make_user(club, "viewer", username="anna")
    anna.user = user
    anna.save()
    pin_set(user=user, pin="4711")
    return table


def test_pin_mode_on_the_tablet_and_the_player_without_account() -> None:
    """The tablet still says which player has no account (it is the table's own tablet);
    the answer to a PIN is one (issue 35: before, "no member account" and "Wrong PIN." told
    them apart)."""
    table = _pin_table()
    tablet = code_client(table)
    page = tablet.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert 'name="pin"' in page and "No member account, so no PIN" in page
    anna = seated(table)[0]
    wrong = tablet_sign(tablet, table, anna.pk, pin="1234").content.decode()
    assert "Wrong PIN, or this player has no PIN" in wrong and not Signature.objects.exists()
    no_account = tablet_sign(tablet, table, seated(table)[1].pk, pin="1234").content.decode()
    assert "Wrong PIN, or this player has no PIN" in no_account
    answer = tablet_sign(tablet, table, anna.pk, pin="4711")
    assert "Anna Altenburg has signed the list." in answer.content.decode()
    assert Signature.objects.get().proof == "pin"


def test_wrong_pins_are_limited_like_table_codes() -> None:
    """Three tablets (sessions) of one address: each has its own free tries, the person's
    count across them runs out (issue 35: phones no longer pick a name, so the tablets)."""
    table = _pin_table()
    anna = seated(table)[0]
    tablets = [code_client(table) for _ in range(3)]
    for n in range(5):  # the free attempts of one device
        answer = tablet_sign(tablets[0], table, anna.pk, pin=f"000{n}")
        assert "Wrong PIN" in answer.content.decode()
    answer = tablet_sign(tablets[0], table, anna.pk, pin="4711")
    assert "Too many wrong PINs" in answer.content.decode()  # even the right one waits
    assert not Signature.objects.exists()
    # another device still has its own tries, but the person's count across devices runs out
    tablet_sign(tablets[1], table, anna.pk, pin="1000")
    tablet_sign(tablets[1], table, anna.pk, pin="1001")
    answer = tablet_sign(tablets[2], table, anna.pk, pin="1002")
    assert "Too many wrong PINs" in answer.content.decode()
    FailureCount.objects.all().delete()  # the wait is over
    answer = tablet_sign(tablets[2], table, anna.pk, pin="4711")
    assert "Anna Altenburg has signed the list." in answer.content.decode()


def test_the_account_page_sets_and_removes_the_pin() -> None:
    club = make_club()
    user = make_user(club)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    page = client.get(reverse("scoring:account")).content.decode()
    assert "PIN for signing lists" in page and "not set a PIN yet" in page
    url = reverse("scoring:account-pin")
    assert client.post(url, {"pin": "12a4", "pin_again": "12a4"}).status_code == 422
    assert client.post(url, {"pin": "1234", "pin_again": "1235"}).status_code == 422
    assert client.post(url, {"pin": "1234", "pin_again": "1234"}).status_code == 302
    user.refresh_from_db()
    assert user.signing_pin.pin != "1234"
    assert "You have set a PIN." in client.get(reverse("scoring:account")).content.decode()
    client.post(url, {"action": "remove"})
    assert not type(user.signing_pin).objects.filter(user=user).exists()


def test_the_club_admin_switches_pin_mode() -> None:
    club = make_club()
    admin = Client()
    admin.force_login(make_user(club, "admin"))
    assert admin.post(reverse("scoring:sign-mode", args=[club.slug]),
                      {"sign_with_pin": "on"}).status_code == 302
    club.refresh_from_db()
    assert club.sign_with_pin
    scorer = Client()
    scorer.force_login(make_user(club, "scorer"))
    assert scorer.post(reverse("scoring:sign-mode", args=[club.slug]), {}).status_code == 403


# ---------------------------------------------------------------- the printed sheet

@needs_poppler
def test_the_printed_sheet_shows_the_signatures_and_blank_lines() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    admin = Client(HTTP_ACCEPT_LANGUAGE="de")
    admin.force_login(make_user(table.evening.club, "admin"))
    url = reverse("scoring:sheet-pdf", args=[table.pk])
    before = pdfs.text(admin.get(url).content)
    assert "unterschrieben" not in before
    for player in seated(table)[:3]:
        tablet_sign(tablet, table, player.pk)
    printed = pdfs.text(admin.get(url).content)  # a new key: not the cached unsigned one
    assert printed.count("unterschrieben") == 3
    assert re.search(r"unterschrieben \d\d:\d\d", printed)
    assert "Dieter Altenburg" in printed
