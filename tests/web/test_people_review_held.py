"""Issue 35's new features tried as an attacker would, where they held (the review after the
merge): each test pins down a refusal so that it stays one.

- claim links: used twice, after the record was merged or linked at the desk meanwhile;
- merges: A into B and then B into C refused, two merges into one record undone in either
  order restore exactly, a league captain's place and a PIN signature move and come back;
- the phone's code and account paths on a closed evening sign nobody; the codes used before
  an admin's correction of a signed list sign nobody after it;
- "Mein Platz" after the entrant was withdrawn or the tournament deleted;
- the signup desk's drop by another tournament's admin and another club's;
- sign-in: a user name that NFKC-folds to another account's name signs in to neither with
  the other's password;
- the new screens in German show no English;
- garbage on every new form is never a 500; the person page is one 404 for whoever may not
  see it, whatever the record.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import (
    Entrant,
    Player,
    PlayerClaim,
    Seat,
    Signature,
    Signup,
    TableScore,
    TeamPlayer,
)
from scoring.views.signing import sign_token
from scoring.writes import people
from scoring.writes import signup as signups
from scoring.writes.signing import player_codes

from ..test_i18n import check_german, german_page, german_profiles, visible_text
from .factories import make_club, make_user
from .signing_fixtures import seated, short_table
from .tournaments import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh() -> None:
    cache.clear()


def jar(language: str = "en") -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=language)


def _rows() -> dict[str, list[tuple[int, int]]]:
    return {model.__name__: sorted(model._default_manager.values_list("pk", "player_id"))
            for model in (Seat, Signature, TableScore, Entrant, TeamPlayer)}


# ---------------------------------------------------------------- claim links

def test_a_claim_link_works_once_and_not_after_a_merge_or_a_desk_link() -> None:
    club = make_club()
    admin = make_user(club, "admin", username="chef")
    anna, bernd, clara = (club.players.get(name=f"{n} Altenburg")
                          for n in ("Anna", "Bernd", "Clara"))
    users = get_user_model().objects
    first, second = (users.create_user(username=n, password="pw-for-tests-only")
                     for n in ("anna-a", "anna-b"))
    claim = people.claim_create(player=anna, by=admin)
    people.claim_use(token=claim.token, user=first)
    with pytest.raises(people.Refused):
        people.claim_use(token=claim.token, user=second)
    # through the page, too: the second person gets a refusal and nothing changes
    phone = jar()
    phone.force_login(second)
    answer = phone.post(reverse("scoring:claim", args=[claim.token]), {"action": "claim"})
    assert answer.status_code == 410
    anna.refresh_from_db()
    assert anna.user == first

    merged = people.claim_create(player=bernd, by=admin)
    people.merge(kept=clara, merged=bernd, reason="one person", by=admin)
    answer = phone.post(reverse("scoring:claim", args=[merged.token]), {"action": "claim"})
    assert answer.status_code == 410
    bernd.refresh_from_db()
    assert bernd.user is None and not Player.objects.filter(user=second).exists()

    dieter = club.players.get(name="Dieter Altenburg")
    linked = people.claim_create(player=dieter, by=admin)
    member = make_user(club, "viewer", username="dieter")
    people.link(player=dieter, user=member, by=admin)
    with pytest.raises(people.Refused):
        people.claim_use(token=linked.token, user=second)
    dieter.refresh_from_db()
    assert dieter.user == member
    assert PlayerClaim.objects.filter(used_by=second).count() == 0


def test_the_claim_page_redirects_only_to_itself() -> None:
    club = make_club()
    claim = people.claim_create(player=club.players.get(name="Anna Altenburg"), by=None)
    url = reverse("scoring:claim", args=[claim.token])
    answer = jar().post(url + "?next=https://evil.example/", {"action": "claim",
                                                              "next": "//evil.example/"})
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login") + "?next=%2Fclaim%2F")
    assert "evil" not in answer["Location"]


# ---------------------------------------------------------------- merges

def test_merges_in_a_chain_are_refused_and_two_undone_in_either_order_restore_exactly(
        ) -> None:
    club = make_club()
    admin = make_user(club, "admin", username="chef")
    a, b, c, d = (Player.objects.create(club=club, name=n) for n in ("A x", "B x", "C x",
                                                                      "D x"))
    others = list(club.players.filter(name__endswith="Altenburg").order_by("pk"))
    tables = [short_table_for(club, [p, *others[:3]]) for p in (a, b, c, d)]
    assert all(t is not None for t in tables)
    before = _rows()
    first = people.merge(kept=b, merged=a, reason="same", by=admin)
    with pytest.raises(people.Refused):  # B into C while A is merged into B
        people.merge(kept=c, merged=b, reason="same", by=admin)
    with pytest.raises(people.Refused):  # A (merged) into anything
        people.merge(kept=c, merged=a, reason="same", by=admin)
    second = people.merge(kept=b, merged=d, reason="same", by=admin)
    people.unmerge(record=first, reason="wrong", by=admin)  # the older one first
    with pytest.raises(people.Refused):
        people.unmerge(record=first, reason="again", by=admin)
    people.unmerge(record=second, reason="wrong", by=admin)
    assert _rows() == before
    assert not Player.objects.filter(merged_into__isnull=False).exists()


def short_table_for(club: Any, players: list[Player]) -> Any:
    from scoring.models import RuleProfile
    from scoring.presets import PRESETS
    from scoring.writes.services import deal_record, evening_create, table_create

    from .factories import won
    from .signing_fixtures import SCORER

    profile = RuleProfile.objects.get(club=club, name=PRESETS["club_evening"]["name"])
    evening = evening_create(club=club, date=timezone.localdate(), profile=profile,
                             series_rounds=1)
    table = table_create(evening=evening, players=players)
    for n in range(4):
        deal_record(table=table, record=won((n + 1) % 4), expected_version=table.version,
                    actor=SCORER)
    return table


def test_a_captain_with_a_pin_signature_merged_and_back() -> None:
    from scoring.writes.services import Actor
    from scoring.writes.signing import Signer, pin_set, sign

    from .leagues import make_league

    club = make_club()
    club.sign_with_pin = True
    club.save()
    admin = make_user(club, "admin", username="chef")
    league = make_league(club)
    place = TeamPlayer.objects.filter(team__group__league=league, captain=True).order_by(
        "pk").select_related("player").first()
    assert place is not None
    captain = place.player
    user = get_user_model().objects.create_user(username="kapitaen", password="pw-x-tests")
    captain.user = user
    captain.save()
    pin_set(user=user, pin="4711")
    others = list(club.players.filter(name__endswith="Altenburg").order_by("pk"))
    table = short_table_for(club, [captain, *others[:3]])
    signature = sign(table=table, player_id=captain.pk, actor=Actor(None, "tablet"),
                     pin="4711", signer=Signer(Signature.Proof.TAP))
    assert signature.proof == Signature.Proof.PIN
    kept = Player.objects.create(club=club, name="Kapitaen (neu)")
    before = _rows()
    record = people.merge(kept=kept, merged=captain, reason="one person", by=admin)
    place.refresh_from_db()
    signature.refresh_from_db()
    kept.refresh_from_db()
    assert place.player == kept and place.captain
    assert signature.player == kept and signature.proof == Signature.Proof.PIN
    assert kept.user == user
    people.unmerge(record=record, reason="two after all", by=admin)
    assert _rows() == before
    captain.refresh_from_db()
    kept.refresh_from_db()
    assert captain.user == user and kept.user is None


# ---------------------------------------------------------------- signing on a closed evening

def test_code_and_account_sign_nobody_on_a_closed_evening() -> None:
    table = short_table(make_club())
    anna = seated(table)[0]
    user = make_user(table.evening.club, "viewer", username="anna")
    anna.user = user
    anna.save()
    table.refresh_from_db()
    code = player_codes(table, [p.pk for p in seated(table)])[anna.pk]
    url = reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])
    evening = table.evening
    evening.closed = True
    evening.save()
    phone = jar()
    assert phone.post(url, {"code": code}).status_code in (404, 422)
    phone.force_login(user)
    assert phone.post(url, {"how": "account"}).status_code in (404, 422)
    assert not Signature.objects.exists()


# ---------------------------------------------------------------- Mein Platz and the desk

def test_the_seat_page_after_a_withdrawal_and_after_the_tournament_is_gone() -> None:
    from scoring.writes.tournament import entrant_withdraw, series_draw

    tournament = make_tournament(make_club(), players=13)
    series_draw(tournament=tournament, seed=1)
    entrant = tournament.entrants.order_by("number").first()
    assert entrant is not None
    url = reverse("scoring:seat-key", args=[entrant.seat_key])
    assert "Series 1: Table" in jar().get(url).content.decode()
    entrant_withdraw(entrant=entrant)
    page = jar().get(url)
    assert page.status_code == 200  # his seat of series 1 stays his (it was drawn)
    key = entrant.seat_key
    evening = tournament.evening
    tournament.delete()
    evening.delete()
    for path in (reverse("scoring:seat-key", args=[key]),
                 reverse("scoring:seat-key-live", args=[key])):
        assert jar().get(path).status_code == 404


def test_the_signup_drop_by_another_tournaments_or_clubs_admin_changes_nothing() -> None:
    club = make_club()
    ours = signups.signup_settings(tournament=make_tournament(club, players=0), open=True,
                                   closes=None, limit=None)
    theirs = signups.signup_settings(tournament=make_tournament(club, players=0), open=True,
                                     closes=None, limit=None)
    held = signups.signup_create(tournament=theirs, name="Paula Pik",
                                 email="paula@example.org")
    admin = jar()
    admin.force_login(make_user(club, "admin", username="chef"))
    drop = reverse("scoring:tournament-signup-drop", args=[ours.pk, held.pk])
    answer = admin.post(drop, follow=True)
    assert answer.status_code == 200 and Signup.objects.filter(pk=held.pk).exists()
    stranger = jar()
    stranger.force_login(make_user(make_club("gotha", "Gotha"), "admin", username="gotha"))
    theirs_url = reverse("scoring:tournament-signup-drop", args=[theirs.pk, held.pk])
    assert stranger.post(theirs_url).status_code == 404
    scorer = jar()
    scorer.force_login(make_user(club, "scorer"))
    assert scorer.post(theirs_url).status_code == 403
    assert jar().post(theirs_url).status_code == 302  # to the sign-in page
    assert Signup.objects.filter(pk=held.pk).exists()


# ---------------------------------------------------------------- sign-in by folded names

def test_a_name_folding_to_another_accounts_signs_in_to_neither_with_its_password() -> None:
    users = get_user_model().objects
    users.create_user(username="a_admin", password="the-admins-secret-1")
    # an old account from before the names were folded, with its own password
    twin = users.model(username="ａ_ａｄｍｉｎ")  # create_user would fold the name
    twin.set_password("the-twins-secret-2")
    twin.save()
    login = reverse("login")
    for typed, password, who in (("ａ_ａｄｍｉｎ", "the-admins-secret-1", None),
                                 ("A_ADMIN", "the-twins-secret-2", None),
                                 # its own password: the folded name is a_admin's
                                 ("Ａ_ＡＤＭＩＮ", "the-admins-secret-1", "a_admin"),
                                 ("Ａ_ＡＤＭＩＮ", "the-twins-secret-2", None),
                                 ("ａ_ａｄｍｉｎ", "the-twins-secret-2", "ａ_ａｄｍｉｎ"),
                                 ("A_Admin", "the-admins-secret-1", "a_admin")):
        cache.clear()
        client = jar()
        client.post(login, {"username": typed, "password": password})
        user = client.session.get("_auth_user_id")
        name = users.get(pk=user).username if user else None
        assert name == who, (typed, password)


# ---------------------------------------------------------------- the new screens in German

def test_the_new_screens_speak_german() -> None:
    from scoring.writes.tournament import series_draw

    club = make_club()
    table = short_table(club)
    anna = seated(table)[0]
    admin = make_user(club, "admin", username="chef")
    member = make_user(club, "viewer", username="anna")
    people.link(player=anna, user=member, by=admin)
    claim = people.claim_create(player=club.players.get(name="Fritz Altenburg"), by=admin)
    tournament = signups.signup_settings(tournament=make_tournament(club, players=13),
                                         open=True, closes=None, limit=None)
    signups.signup_create(tournament=tournament, name="Paula Pik", email="paula@example.org")
    series_draw(tournament=tournament, seed=1)
    entrant = tournament.entrants.order_by("number").first()
    assert entrant is not None
    german_profiles(club)

    stranger = jar("de")
    check_german(stranger, reverse("scoring:claim", args=[claim.token]),
                 must_show=["Fritz Altenburg"])
    german_page(stranger.get(reverse("scoring:claim", args=["nichtda"]), headers={
        "accept-language": "de"}), must_show=[], status=404)
    check_german(stranger, reverse("scoring:seat-key", args=[entrant.seat_key]),
                 must_show=["Serie 1", "Tisch"])
    table.refresh_from_db()
    code = player_codes(table, [p.pk for p in seated(table)])[seated(table)[1].pk]
    phone_url = reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])
    check_german(stranger, f"{phone_url}?code={code}", must_show=["Code"])
    german_page(stranger.post(phone_url, {"code": "000000"}, headers={
        "accept-language": "de"}), must_show=["Code"], status=422)

    person = jar("de")
    person.force_login(member)
    check_german(person, reverse("scoring:me-results"), must_show=["Anna Altenburg"])
    check_german(person, reverse("scoring:my-seat"), must_show=["Mein Platz"])
    check_german(person, phone_url, must_show=["Anna Altenburg"])

    desk = jar("de")
    desk.force_login(admin)
    check_german(desk, reverse("scoring:members", args=[club.slug]),
                 must_show=["Fritz Altenburg"])
    check_german(desk, reverse("scoring:person-results", args=[anna.pk]),
                 must_show=["Anna Altenburg"])
    check_german(desk, reverse("scoring:tournament", args=[tournament.pk]),
                 must_show=["Paula Pik"])


# ---------------------------------------------------------------- garbage in, never a 500

GARBAGE = ["", "x" * 100_000, "\x00", "٠١٢٣٤٥", "１２３４５６", "123 456\u200b", "\u202e654321",
           "-1", "9" * 40, "<script>alert(1)</script>", "😀" * 50, "%(name)s", "{{ 7*7 }}"]


def test_garbage_on_every_new_form_is_never_a_500() -> None:
    club = make_club()
    club.sign_with_pin = True
    club.save()
    table = short_table(club)
    admin = make_user(club, "admin", username="chef")
    anna = seated(table)[0]
    claim = people.claim_create(player=club.players.get(name="Fritz Altenburg"), by=admin)
    tournament = signups.signup_settings(tournament=make_tournament(club, players=0),
                                         open=True, closes=None, limit=None)
    phone = reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])
    desk = jar()
    desk.force_login(admin)
    stranger = jar()
    for value in GARBAGE:
        answers = [
            stranger.post(phone, {"code": value, "pin": value}),
            stranger.post(phone, {"how": "account", "code": value}),
            stranger.get(phone, {"code": value}),
            desk.post(reverse("scoring:sign-tablet", args=[table.pk]),
                      {"player": value, "pin": value}),
            stranger.post(reverse("scoring:claim", args=[claim.token]), {
                "action": "signup", "username": value, "email": value,
                "password1": value, "password2": value}),
            stranger.post(reverse("scoring:claim", args=[claim.token]), {"action": value}),
            desk.post(reverse("scoring:player-member-number", args=[club.slug, anna.pk]),
                      {"member_number": value}),
            desk.post(reverse("scoring:player-merge", args=[club.slug]),
                      {"kept": value, "merged": str(anna.pk), "reason": value}),
            desk.get(reverse("scoring:members", args=[club.slug]), {"q": value}),
            desk.post(reverse("scoring:me-results-visible"), {"results_visible": value}),
            stranger.post(reverse("scoring:signup", args=[tournament.signup_key]), {
                "name": value, "email": f"{len(value)}@example.org", "home_club": value}),
        ]
        for answer in answers:
            assert answer.status_code < 500, (value[:20], answer.request["PATH_INFO"])
    assert not Signature.objects.exists()
    anna.refresh_from_db()
    assert anna.member_number in ("", "123456", "-1", "%(name)s", "{{ 7*7 }}")


def test_the_person_page_is_one_404_for_whatever_may_not_be_seen() -> None:
    club = make_club()
    gotha = make_club("gotha", "Skatfreunde Gotha")
    anna = club.players.get(name="Anna Altenburg")
    people.link(player=anna, user=make_user(club, "viewer", username="anna"),
                by=make_user(club, "admin", username="chef"))
    short_table(club)
    unlinked = club.players.get(name="Bernd Altenburg")
    outsider = jar()
    outsider.force_login(make_user(gotha, "admin", username="gotha"))
    answers = {}
    for name, pk in (("linked", anna.pk), ("unlinked", unlinked.pk), ("none", 999_999)):
        for who, client in (("anonymous", jar()), ("outsider", outsider)):
            response = client.get(reverse("scoring:person-results", args=[pk]))
            # what the page says (its nonce and request id differ on every answer)
            body = visible_text(response.content.decode()).replace(str(pk), "PK")
            answers[(name, who)] = (response.status_code, body)
    assert {status for status, _body in answers.values()} == {404}
    for who in ("anonymous", "outsider"):  # the same page, whatever the record is
        assert len({body for (_name, by), (_s, body) in answers.items() if by == who}) == 1


def test_a_code_used_before_an_admins_correction_of_the_signed_list_is_dead() -> None:
    from scoring.writes.services import Actor, deal_edit

    from .factories import won

    table = short_table(make_club())
    url = reverse("scoring:sign-phone", args=[table.pk, sign_token(table)])
    players = seated(table)
    table.refresh_from_db()
    codes = player_codes(table, [p.pk for p in players])
    for player in players:  # every player signs with his code: the list is locked
        assert jar().post(url, {"code": codes[player.pk]}).status_code == 302
    table.refresh_from_db()
    assert table.signed_at is not None
    deal = table.deals.order_by("position").first()
    assert deal is not None
    admin = make_user(table.evening.club, "admin", username="chef")
    deal_edit(deal=deal, record=won(1, 80), reason="the points were wrong",
              expected_version=table.version, actor=Actor(admin, "chef", admin=True))
    assert not Signature.objects.exists()
    for player in players:  # the old codes sign nobody again
        answer = jar().post(url, {"code": codes[player.pk]})
        assert answer.status_code == 422
    assert not Signature.objects.exists()
