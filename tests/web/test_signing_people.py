"""Signatures bound to the signer (issue 35), each attack of the issue as a test:

- a viewer's pages (table screen, the polled panel, the sheet, the evening) carry no phone
  link, no code and no form that signs;
- fresh cookie jars with the phone link sign nobody: a phone signs with the account linked
  to a seat's player (that player only) or with the one-time code the tablet shows one
  player (once; dead when the list changes);
- a PIN is checked only when the list can be signed: a right and a wrong PIN get the same
  answer while it cannot; wrong PINs count per person across tables (a fresh table is no
  fresh try) and per address;
- a signature names the account, the device (a digest, never the session key) and the
  address, in the row and in the audit log;
- the panel shows the points that count: Seeger-Fabian where they count, the game points
  beside.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import access
from scoring.models import AuditEntry, Club, FailureCount, Player, Signature, Table
from scoring.views.signing import sign_token
from scoring.writes.services import deal_edit, deal_record
from scoring.writes.signing import pin_set

from .factories import make_club, make_user, won
from .signing_fixtures import SCORER, seated, short_table

pytestmark = pytest.mark.django_db

@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    cache.clear()
    with translation.override("en"):
        yield


def jar() -> Client:
    """A fresh browser: no cookies, English pages."""
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def code_client(table: Table) -> Client:
    client = jar()
    assert client.post(reverse("scoring:code-entry"),
                       {"code": table.access_code}).status_code == 302
    return client


def phone_url(table: Table) -> str:
    return reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])


def code_of(table: Table, player: Player) -> str:
    """The one-time code the tablet shows ``player`` for the list as it stands."""
    from scoring.writes.signing import player_codes  # (new in issue 35)

    table.refresh_from_db()
    return player_codes(table, [p.pk for p in seated(table)])[player.pk]


def tablet_sign(client: Client, table: Table, player: Player, **extra: str) -> Any:
    return client.post(reverse("scoring:sign-tablet", args=[table.pk]),
                       {"player": str(player.pk), **extra}, follow=True)


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def pin_club() -> Club:
    club = make_club()
    club.sign_with_pin = True
    club.save()
    return club


def link(player: Player, username: str, pin: str | None = None) -> Any:
    user = make_user(player.club, "viewer", username=username)
    player.user = user
    player.save()
    if pin is not None:
        pin_set(user=user, pin=pin)
    return user


# ---------------------------------------------------------------- who sees a link

def test_a_viewers_pages_carry_nothing_that_signs() -> None:
    table = short_table(make_club())
    viewer = jar()
    viewer.force_login(make_user(table.evening.club, "viewer"))
    token = sign_token(table)
    pages = {
        "table": reverse("scoring:table", args=[table.pk]),
        "panel": reverse("scoring:sign-panel", args=[table.pk]),
        "sheet": reverse("scoring:sheet", args=[table.pk]),
        "evening": reverse("scoring:evening", args=[table.evening_id]),
    }
    for name, url in pages.items():
        response = viewer.get(url)
        assert response.status_code == 200, name
        text = response.content.decode()
        assert token not in text, name
        assert "/sign/" not in text, name
        assert f'action="{reverse("scoring:sign-tablet", args=[table.pk])}"' not in text, name
        assert 'name="player"' not in text and "Sign as" not in text, name
        assert "Code for the phone" not in text and "<svg" not in text, name
    # the viewer still reads who signed, and the panel says how players sign
    panel = viewer.get(pages["panel"]).content.decode()
    assert 'id="signing"' in panel and panel.count('class="signing-total') == 4
    # ... and the tablet (a table code) and a scorer do get the link and the codes
    for holder in (code_client(table), jar()):
        if "sessionid" not in holder.cookies:
            holder.force_login(make_user(table.evening.club, "scorer"))
        text = holder.get(pages["table"]).content.decode()
        assert token in text and "Code for the phone" in text
        assert code_of(table, seated(table)[0])[:3] in text


def test_the_viewers_panel_etag_differs_from_the_tablets() -> None:
    """A viewer's cached panel is never the tablet's (it lacks the codes), nor the reverse."""
    table = short_table(make_club())
    viewer = jar()
    viewer.force_login(make_user(table.evening.club, "viewer"))
    url = reverse("scoring:sign-panel", args=[table.pk])
    tablet_etag = code_client(table).get(url)["ETag"]
    answer = viewer.get(url, headers={"If-None-Match": tablet_etag})
    assert answer.status_code == 200 and "Code for the phone" not in answer.content.decode()


# ---------------------------------------------------------------- fresh cookie jars

def test_fresh_cookie_jars_with_the_phone_link_sign_nobody() -> None:
    table = short_table(make_club())
    for player in seated(table):
        fresh_jar = jar()
        assert fresh_jar.get(phone_url(table)).status_code == 200
        answer = fresh_jar.post(phone_url(table), {"player": str(player.pk)})
        assert answer.status_code == 422
        answer = fresh_jar.post(phone_url(table), {"how": "account", "player": str(player.pk)})
        assert answer.status_code == 422
        answer = fresh_jar.post(phone_url(table), {"code": "000000", "player": str(player.pk)})
        assert answer.status_code == 422
    assert not Signature.objects.exists()
    table.refresh_from_db()
    assert table.signed_at is None  # the scorers are not locked out


def test_a_players_code_signs_that_player_once_from_any_phone() -> None:
    table = short_table(make_club())
    anna, bernd = seated(table)[:2]
    code = code_of(table, anna)
    first = jar()
    answer = first.post(phone_url(table), {"code": f"{code[:3]} {code[3:]}",
                                           "player": str(bernd.pk)}, follow=True)
    assert "Anna Altenburg has signed the list." in messages_of(answer)
    signature = Signature.objects.get()
    assert signature.player == anna and signature.proof == "code"
    for again in (first, jar()):  # used: on this phone and on a fresh one
        answer = again.post(phone_url(table), {"code": code})
        assert answer.status_code == 422
        assert "This code does not sign" in answer.content.decode()
    assert Signature.objects.count() == 1


def test_a_code_dies_when_the_list_changes() -> None:
    table = short_table(make_club())
    anna, bernd = seated(table)[:2]
    old = code_of(table, bernd)
    jar().post(phone_url(table), {"code": code_of(table, anna)})
    assert Signature.objects.count() == 1
    # a correction (the scorer, before everybody signed): a new list, Anna's signature goes
    deal = table.deals.order_by("position").first()
    assert deal is not None
    table.refresh_from_db()
    deal_edit(deal=deal, record=won(1, 80), reason="typo", expected_version=table.version,
              actor=SCORER)
    assert not Signature.objects.exists()
    phone = jar()
    answer = phone.post(phone_url(table), {"code": old})
    assert answer.status_code == 422 and not Signature.objects.exists()
    new = code_of(table, bernd)
    assert new != old
    answer = phone.post(phone_url(table), {"code": new}, follow=True)
    assert "Bernd Altenburg has signed the list." in messages_of(answer)


def test_a_code_of_a_replaced_table_code_is_dead() -> None:
    table = short_table(make_club())
    anna = seated(table)[0]
    code = code_of(table, anna)
    table.access_code = "NEWCODE1"
    table.save()
    answer = jar().post(phone_url(table), {"code": code})
    assert answer.status_code == 422 and not Signature.objects.exists()


def test_wrong_codes_are_counted_and_then_wait() -> None:
    table = short_table(make_club())
    anna = seated(table)[0]
    right = code_of(table, anna)
    wrong = [f"{n:06d}" for n in range(40) if f"{n:06d}" not in
             {code_of(table, p) for p in seated(table)}]
    for guess in wrong[:access.CODE_FREE_PER_TABLE]:
        assert jar().post(phone_url(table), {"code": guess}).status_code == 422
    answer = jar().post(phone_url(table), {"code": right})  # a fresh jar, the right code
    assert "Too many wrong codes" in answer.content.decode()
    assert not Signature.objects.exists()


def test_signed_in_with_the_linked_account_signs_only_that_player() -> None:
    table = short_table(make_club())
    anna, bernd = seated(table)[:2]
    phone = jar()
    phone.force_login(link(anna, "anna"))
    page = phone.get(phone_url(table)).content.decode()
    assert "Sign as Anna Altenburg" in page and "Sign as Bernd" not in page
    answer = phone.post(phone_url(table), {"how": "account", "player": str(bernd.pk)},
                        follow=True)
    assert "Anna Altenburg has signed the list." in messages_of(answer)
    signature = Signature.objects.get()
    assert signature.player == anna and signature.proof == "account"
    assert signature.user is not None and signature.user.get_username() == "anna"
    answer = phone.post(phone_url(table), {"how": "account"})
    assert answer.status_code == 422 and Signature.objects.count() == 1
    # an account of the club linked to no player of this table signs nobody
    stranger = jar()
    stranger.force_login(make_user(table.evening.club, "viewer", username="erika"))
    answer = stranger.post(phone_url(table), {"how": "account", "player": str(bernd.pk)})
    assert answer.status_code == 422 and Signature.objects.count() == 1


def test_the_phone_page_after_everybody_signed_offers_nothing() -> None:
    table = short_table(make_club())
    tablet = code_client(table)
    for player in seated(table):
        tablet_sign(tablet, table, player)
    page = jar().get(phone_url(table)).content.decode()
    assert "Signed by every player" in page and 'name="code"' not in page


# ---------------------------------------------------------------- PINs

def test_the_pin_is_not_an_oracle_while_the_list_cannot_be_signed() -> None:
    club = pin_club()
    table = short_table(club, play=2)  # 2 of 4 games: not finished
    anna = seated(table)[0]
    link(anna, "anna", pin="4711")
    answers = []
    for pin in ("4711", "1234"):
        response = tablet_sign(code_client(table), table, anna, pin=pin)
        answers.append((response.status_code, messages_of(response)))
    assert answers[0] == answers[1]
    assert "has finished" in answers[0][1][0]
    assert not FailureCount.objects.exists()  # nothing was checked, nothing counted
    # signed already: the same answer for the right and a wrong PIN
    full = short_table(club)
    tablet = code_client(full)
    tablet_sign(tablet, full, anna, pin="4711")
    assert Signature.objects.filter(table=full).count() == 1
    again = [messages_of(tablet_sign(tablet, full, anna, pin=pin)) for pin in ("4711", "0000")]
    assert again[0] == again[1] and "has signed already" in again[0][0]


def test_a_pin_failure_reads_the_same_for_wrong_pin_no_pin_and_no_account() -> None:
    club = pin_club()
    table = short_table(club)
    anna, bernd, clara = seated(table)[:3]
    link(anna, "anna", pin="4711")
    link(bernd, "bernd")  # an account, no PIN
    tablet = code_client(table)
    answers = {messages_of(tablet_sign(tablet, table, who, pin="1234"))[0]
               for who in (anna, bernd, clara)}
    assert len(answers) == 1
    assert not Signature.objects.exists()


def test_a_fresh_table_gives_no_fresh_pin_tries() -> None:
    """Wrong PINs count per person, whatever table: before, per (table, player), so a
    scorer's new table was a fresh count."""
    club = pin_club()
    first = short_table(club)
    anna = seated(first)[0]
    link(anna, "anna", pin="4711")
    free = getattr(access, "PIN_FREE_PER_PERSON", 8)  # (8 per table and player before)
    for n in range(free):  # each from a fresh device
        answer = tablet_sign(code_client(first), first, anna, pin=f"{1000 + n}")
        assert "Wrong PIN" in messages_of(answer)[0]
    second = short_table(club)  # a fresh table, a fresh device: the right PIN waits
    answer = tablet_sign(code_client(second), second, anna, pin="4711")
    assert "Too many wrong PINs" in messages_of(answer)[0]
    assert not Signature.objects.exists()


def test_wrong_pins_count_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(access, "PIN_FREE_PER_ADDRESS", 3)
    club = pin_club()
    table = short_table(club)
    anna, bernd = seated(table)[:2]
    link(anna, "anna", pin="4711")
    link(bernd, "bernd", pin="0815")
    for who, pin in ((anna, "1111"), (bernd, "2222"), (anna, "3333")):
        tablet_sign(code_client(table), table, who, pin=pin)
    answer = tablet_sign(code_client(table), table, bernd, pin="0815")
    assert "Too many wrong PINs" in messages_of(answer)[0]
    other = code_client(table)  # another address: Bernd's own count is not spent
    answer = other.post(reverse("scoring:sign-tablet", args=[table.pk]),
                        {"player": str(bernd.pk), "pin": "0815"}, follow=True,
                        REMOTE_ADDR="192.0.2.7")
    assert "Bernd Altenburg has signed the list." in messages_of(answer)


# ---------------------------------------------------------------- who vouched

def test_a_signature_names_account_device_and_address() -> None:
    table = short_table(make_club())
    anna, bernd, clara = seated(table)[:3]
    club = table.evening.club
    scorer = jar()
    scorer_user = make_user(club, "scorer", username="sabine")
    scorer.force_login(scorer_user)
    tablet_sign(scorer, table, anna)
    phone = jar()
    phone.force_login(link(bernd, "bernd"))
    phone.post(phone_url(table), {"how": "account"}, REMOTE_ADDR="2001:db8:1:2:3::9")
    stranger = jar()
    stranger.post(phone_url(table), {"code": code_of(table, clara)}, REMOTE_ADDR="192.0.2.5")
    rows = {s.player_id: s for s in Signature.objects.all()}
    assert rows[anna.pk].user == scorer_user and rows[anna.pk].proof == "tap"
    assert rows[bernd.pk].user is not None and rows[bernd.pk].proof == "account"
    assert rows[clara.pk].user is None and rows[clara.pk].proof == "code"
    assert rows[anna.pk].address == "127.0.0.1"
    assert rows[bernd.pk].address == "2001:db8:1:2::/64"
    assert rows[clara.pk].address == "192.0.2.5"
    keys = {key for key in (scorer.session.session_key, phone.session.session_key,
                            stranger.session.session_key) if key}
    assert len(keys) == 3
    devices = {s.device for s in rows.values()}
    assert len(devices) == 3 and all(re.fullmatch(r"[0-9a-f]{16}", d) for d in devices)
    assert not devices & keys
    admin = jar()
    admin.force_login(make_user(club, "admin"))
    audit = admin.get(reverse("scoring:evening-audit", args=[table.evening_id]))
    text = audit.content.decode()
    for signature in rows.values():
        assert f"device: {signature.device}" in text
        assert f"address: {signature.address}" in text
    assert "account: sabine" in text and "account: bernd" in text
    assert "proof: a one-time code from the tablet" in text
    assert "proof: the player&#x27;s own account" in text
    for key in keys:
        assert key not in text
    panel = scorer.get(reverse("scoring:sign-panel", args=[table.pk])).content.decode()
    assert "on a phone · own account" in panel and "on a phone · one-time code" in panel
    entries = AuditEntry.objects.filter(action="sign")
    assert {(e.after or {}).get("account") for e in entries} == {"sabine", "bernd", ""}


# ---------------------------------------------------------------- the points that count

def _deals() -> list[dict[str, Any]]:
    """Four deals of a 4-table, first dealer seat 0 (the dealer sits out)."""
    return [
        won(1),  # Clubs with 1: (1 + 1) × 12 = 24 for seat 1
        {"kind": "game", "declarer": 2, "game": "spades", "matadors": 1, "bid": 18,
         "declarer_points": 50},  # Spades with 1 lost: −2 × (2 × 11) = −44 for seat 2
        {"kind": "game", "declarer": 3, "game": "hearts", "matadors": 1, "bid": 18,
         "declarer_points": 70},  # Hearts with 1: 2 × 10 = 20 for seat 3
        {"kind": "game", "declarer": 0, "game": "grand", "matadors": 1, "bid": 18,
         "declarer_points": 70},  # Grand with 1: 2 × 24 = 48 for seat 0
    ]


def _played(preset: str) -> Table:
    table = short_table(make_club(), play=0, preset=preset)
    for record in _deals():
        table.refresh_from_db()
        deal_record(table=table, record=record, expected_version=table.version, actor=SCORER)
    return table


def _totals(page: str) -> list[str]:
    return [t.replace("\u2212", "-") for t in
            re.findall(r'class="signing-total[^"]*"[^>]*>([^<]+)<', page)]


def test_the_panel_shows_seeger_fabian_points_where_they_count() -> None:
    table = _played("isko_tournament")
    # by hand: game points 48 / 24 / −44 / 20; each won game +50, a lost one −50, and 30
    # for each lost game of another player at a table of four (seat 2 lost one)
    game = [48, 24, -44, 20]
    won_, lost = [1, 1, 0, 1], [0, 0, 1, 0]
    sf = [game[p] + 50 * won_[p] - 50 * lost[p] + 30 * (sum(lost) - lost[p]) for p in range(4)]
    assert sf == [128, 104, -94, 100]
    for client in (code_client(table), jar()):
        url = (reverse("scoring:table", args=[table.pk]) if "sessionid" in client.cookies
               else phone_url(table))
        page = client.get(url).content.decode()
        assert _totals(page) == [str(n) for n in sf]
        shown = [g.replace("\u2212", "-") for g in
                 re.findall(r'class="signing-game-points">([^<]+) game points<', page)]
        assert shown == [str(n) for n in game]
        assert "Seeger-Fabian points" in page


def test_the_panel_shows_game_points_where_seeger_fabian_does_not_count() -> None:
    table = _played("club_evening")
    page = code_client(table).get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert _totals(page) == ["48", "24", "-44", "20"]
    assert "signing-game-points" not in page


def test_seeger_fabian_counts_at_a_tournament_whatever_its_profile() -> None:
    """A Preisskat ranks by the tables' Seeger-Fabian points (reads/tournament.py) even on a
    classic profile: its players sign those."""
    from scoring.models import Tournament
    from scoring.reads.signing import counts_seeger_fabian

    table = _played("club_evening")
    assert not counts_seeger_fabian(table.evening)
    Tournament.objects.create(club=table.evening.club, evening=table.evening,
                              name="Preisskat", date=table.evening.date)
    assert counts_seeger_fabian(table.evening)
    page = code_client(table).get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert _totals(page) == ["128", "104", "-94", "100"]
