"""A person, linked only by consent (issue 35): the claim link's whole life (made by a club
admin of the player's club, shown as link and QR code, withdrawn, used once, expired), the
desk's link and unlink in the club log, member numbers (unique on the site, found by the
desk's search), and who may do any of it: the admin, a viewer, a stranger, another club's
admin (nothing changes on a refusal)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Club, ClubLogEntry, Membership, Player, PlayerClaim
from scoring.writes import people

from .factories import make_club, make_table, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def admin(client: Client, club: Club) -> object:
    user = make_user(club, "admin", username="chef")
    client.force_login(user)
    return user


def _anna(club: Club) -> Player:
    return Player.objects.get(club=club, name="Anna Altenburg")


def _log(club: Club) -> list[tuple[str, str]]:
    return [(e.action, e.actor) for e in ClubLogEntry.objects.filter(club=club).order_by("pk")]


# ---------------------------------------------------------------- the members page

def test_the_members_page_lists_the_players_with_their_claim_links_and_numbers(
        client: Client, club: Club, admin: object) -> None:
    anna = _anna(club)
    claim = people.claim_create(player=anna, by=admin)
    people.member_number(player=anna, number="TH-0042", by=admin)
    page = client.get(reverse("scoring:members", args=[club.slug]))
    html = page.content.decode()
    assert page.status_code == 200
    assert f'id="player-{anna.pk}"' in html and "No. TH-0042" in html
    assert reverse("scoring:claim", args=[claim.token]) in html
    assert "<svg" in html  # the QR code
    assert 'id="merge"' in html


def test_the_desk_search_finds_by_name_and_member_number(
        client: Client, club: Club, admin: object) -> None:
    people.member_number(player=_anna(club), number="4711", by=admin)
    url = reverse("scoring:members", args=[club.slug])
    found = client.get(url, {"q": "4711"}).context["desk_players"]
    assert [row["player"].name for row in found] == ["Anna Altenburg"]
    found = client.get(url, {"q": "bern"}).context["desk_players"]
    assert [row["player"].name for row in found] == ["Bernd Altenburg"]


# ---------------------------------------------------------------- who may

@pytest.mark.parametrize("who", ["viewer", "scorer", "stranger", "other_admin", "anonymous"])
def test_only_the_players_own_club_admins_use_the_desk(client: Client, club: Club,
                                                       who: str) -> None:
    anna = _anna(club)
    chef = make_user(club, "admin", username="chef")
    claim = people.claim_create(player=anna, by=chef)
    merge = people.merge(kept=Player.objects.get(club=club, name="Clara Altenburg"),
                         merged=Player.objects.get(club=club, name="Dieter Altenburg"),
                         reason="one person", by=chef)
    ClubLogEntry.objects.all().delete()
    member = make_user(club, "viewer", username="member")
    if who in ("viewer", "scorer"):
        client.force_login(make_user(club, who, username=f"a-{who}"))
    elif who == "other_admin":
        client.force_login(make_user(make_club("gotha", "SC Gotha"), "admin"))
    elif who == "stranger":
        client.force_login(get_user_model().objects.create_user("stranger", password="x"))
    before = (list(Player.objects.values_list("pk", "user_id", "member_number",
                                              "merged_into_id").order_by("pk")),
              list(PlayerClaim.objects.values_list("pk", "revoked_at")))
    posts = [
        (reverse("scoring:claim-create", args=[club.slug, anna.pk]), {}),
        (reverse("scoring:claim-revoke", args=[club.slug, claim.pk]), {}),
        (reverse("scoring:player-unlink", args=[club.slug, anna.pk]), {}),
        (reverse("scoring:player-member-number", args=[club.slug, anna.pk]),
         {"member_number": "99"}),
        (reverse("scoring:player-merge", args=[club.slug]),
         {"kept": anna.pk, "merged": _anna(club).pk + 1, "reason": "same"}),
        (reverse("scoring:member-player", args=[
            club.slug, Membership.objects.get(user=member).pk]), {"player": anna.pk}),
        (reverse("scoring:player-unmerge", args=[club.slug, merge.pk]), {"reason": "no"}),
    ]
    expected = {"viewer": 403, "scorer": 403, "stranger": 404, "other_admin": 404,
                "anonymous": 302}[who]
    for url, data in posts:
        assert client.post(url, data).status_code == expected, url
    assert client.get(reverse("scoring:members", args=[club.slug])).status_code == expected
    after = (list(Player.objects.values_list("pk", "user_id", "member_number",
                                             "merged_into_id").order_by("pk")),
             list(PlayerClaim.objects.values_list("pk", "revoked_at")))
    assert after == before
    assert PlayerClaim.objects.count() == 1
    assert not ClubLogEntry.objects.exists()
    merge.refresh_from_db()
    assert merge.undone_at is None


# ---------------------------------------------------------------- the claim link

def test_the_claim_lifecycle(client: Client, club: Club, admin: object) -> None:
    anna = _anna(club)
    make_table(club)  # Anna sat at one list
    response = client.post(reverse("scoring:claim-create", args=[club.slug, anna.pk]))
    assert response.status_code == 302
    claim = PlayerClaim.objects.get(player=anna)
    assert claim.created_by == admin and claim.usable()
    assert claim.expires - timezone.now() > timedelta(days=13)
    url = reverse("scoring:claim", args=[claim.token])

    stranger = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = stranger.get(url)
    assert page.status_code == 200
    assert f"{reverse('login')}?next=" in page.content.decode()
    assert stranger.post(url, {"action": "claim"}).status_code == 302  # to sign in
    assert Player.objects.get(pk=anna.pk).user_id is None

    anna_account = get_user_model().objects.create_user("anna", password="pw-anna-123")
    stranger.force_login(anna_account)
    page = stranger.get(url)
    html = page.content.decode()
    assert "Anna Altenburg" in html and club.name in html and "1 list so far" in html
    assert Player.objects.get(pk=anna.pk).user_id is None  # a GET changes nothing
    response = stranger.post(url, {"action": "claim"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "scoring:me-results")
    assert Player.objects.get(pk=anna.pk).user_id == anna_account.pk
    assert not Membership.objects.filter(user=anna_account).exists()  # no member by a claim
    claim.refresh_from_db()
    assert claim.used_by == anna_account and claim.used_at is not None
    entry = ClubLogEntry.objects.get(club=club, action=ClubLogEntry.Action.CLAIM)
    assert entry.user == anna_account and "chef" in entry.summary

    again = stranger.post(url, {"action": "claim"})
    assert again.status_code == 410 and "used already" in again.content.decode()


def test_a_claim_link_withdrawn_or_expired_links_nobody(client: Client, club: Club,
                                                        admin: object) -> None:
    anna, bernd = _anna(club), Player.objects.get(club=club, name="Bernd Altenburg")
    withdrawn = people.claim_create(player=anna, by=admin)
    client.post(reverse("scoring:claim-revoke", args=[club.slug, withdrawn.pk]))
    expired = people.claim_create(player=bernd, by=admin)
    PlayerClaim.objects.filter(pk=expired.pk).update(expires=timezone.now())
    taker = Client(HTTP_ACCEPT_LANGUAGE="en")
    taker.force_login(get_user_model().objects.create_user("taker", password="x"))
    for claim, words in ((withdrawn, "withdrawn"), (expired, "expired")):
        response = taker.post(reverse("scoring:claim", args=[claim.token]),
                              {"action": "claim"})
        assert response.status_code == 410 and words in response.content.decode()
    assert taker.get(reverse("scoring:claim", args=["no-such-token"])).status_code == 404
    assert not Player.objects.filter(user__username="taker").exists()


def test_a_claim_is_refused_for_a_second_player_of_the_club_or_a_linked_record(
        club: Club, admin: object) -> None:
    anna, bernd = _anna(club), Player.objects.get(club=club, name="Bernd Altenburg")
    someone = get_user_model().objects.create_user("someone", password="x")
    people.claim_use(token=people.claim_create(player=anna, by=admin).token, user=someone)
    second = people.claim_create(player=bernd, by=admin)
    with pytest.raises(people.Refused, match="linked to another player of"):
        people.claim_use(token=second.token, user=someone)
    assert Player.objects.get(pk=bernd.pk).user_id is None
    assert PlayerClaim.objects.get(pk=second.pk).usable()  # still open for Bernd
    other = get_user_model().objects.create_user("other", password="x")
    taken = people.claim_create(player=anna, by=admin)
    with pytest.raises(people.Refused, match="linked to another account"):
        people.claim_use(token=taken.token, user=other)
    assert Player.objects.get(pk=anna.pk).user_id == someone.pk


def test_a_stranger_makes_an_account_on_the_claim_page(club: Club, admin: object) -> None:
    claim = people.claim_create(player=_anna(club), by=admin)
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = browser.post(reverse("scoring:claim", args=[claim.token]), {
        "action": "signup", "username": "anna-neu", "email": "",
        "password1": "ein-gutes-passwort-17", "password2": "ein-gutes-passwort-17"})
    assert response.status_code == 302
    linked = Player.objects.get(pk=claim.player_id).user
    assert linked is not None and linked.username == "anna-neu"
    assert browser.get(reverse("scoring:me-results")).status_code == 200


# ---------------------------------------------------------------- the desk links

def test_the_desk_links_and_unlinks_in_the_club_log(client: Client, club: Club,
                                                    admin: object) -> None:
    anna = _anna(club)
    member = make_user(club, "viewer", username="anna")
    membership = Membership.objects.get(user=member)
    client.post(reverse("scoring:member-player", args=[club.slug, membership.pk]),
                {"player": anna.pk})
    assert Player.objects.get(pk=anna.pk).user == member
    client.post(reverse("scoring:player-unlink", args=[club.slug, anna.pk]))
    assert Player.objects.get(pk=anna.pk).user is None
    assert _log(club) == [("link", "chef"), ("unlink", "chef")]


def test_the_desk_links_only_a_member_of_the_club(club: Club, admin: object) -> None:
    outsider = make_user(make_club("gotha", "SC Gotha"), "viewer", username="out")
    with pytest.raises(people.Refused, match="Only a member"):
        people.link(player=_anna(club), user=outsider, by=admin)
    assert not ClubLogEntry.objects.exists()


# ---------------------------------------------------------------- member numbers

def test_a_member_number_is_unique_on_the_site_and_logged(client: Client, club: Club,
                                                          admin: object) -> None:
    gotha = make_club("gotha", "SC Gotha")
    people.member_number(player=gotha.players.order_by("pk")[0], number="TH-1", by=None)
    url = reverse("scoring:player-member-number", args=[club.slug, _anna(club).pk])
    page = client.post(url, {"member_number": "TH-1"}, follow=True).content.decode()
    assert "already given to another player on this site" in page
    assert "SC Gotha" not in page and "Anna Gotha" not in page
    assert _anna(club).member_number == ""
    client.post(url, {"member_number": " TH-2 "})
    assert _anna(club).member_number == "TH-2"
    client.post(url, {"member_number": "x" * 21})
    assert _anna(club).member_number == "TH-2"
    client.post(url, {"member_number": ""})
    assert _anna(club).member_number == ""
    assert [a for a, _by in _log(club)] == ["number", "number"]


def test_a_taken_user_name_on_the_claim_page_is_said_on_the_form(club: Club,
                                                                admin: object) -> None:
    get_user_model().objects.create_user("anna", password="x")
    claim = people.claim_create(player=_anna(club), by=admin)
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        reverse("scoring:claim", args=[claim.token]), {
            "action": "signup", "username": "anna", "email": "",
            "password1": "ein-gutes-passwort-17", "password2": "ein-gutes-passwort-17"})
    assert response.status_code == 200
    assert "is taken" in response.content.decode()
    assert _anna(club).user_id is None and PlayerClaim.objects.get(pk=claim.pk).usable()


def test_a_club_of_many_guests_lists_the_first_players_and_finds_the_others(
        client: Client, club: Club, admin: object) -> None:
    from scoring.views.people import DESK_ROWS

    Player.objects.bulk_create(Player(club=club, name=f"Gast {n:04d}", guest=True)
                               for n in range(DESK_ROWS + 5))
    url = reverse("scoring:members", args=[club.slug])
    page = client.get(url)
    assert len(page.context["desk_players"]) == DESK_ROWS and page.context["players_cut"]
    found = client.get(url, {"q": f"Gast {DESK_ROWS + 4:04d}"}).context["desk_players"]
    assert [row["player"].name for row in found] == [f"Gast {DESK_ROWS + 4:04d}"]


def test_removing_a_member_unlinks_his_player_in_the_club_log(club: Club, admin: object) -> None:
    from scoring.writes import onboarding

    member = make_user(club, "viewer", username="anna")
    people.link(player=_anna(club), user=member, by=admin)
    onboarding.membership_remove(Membership.objects.get(user=member), by=admin)
    assert _anna(club).user_id is None
    assert _log(club) == [("link", "chef"), ("unlink", "chef")]
