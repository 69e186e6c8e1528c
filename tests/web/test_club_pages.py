"""Home, club page, evenings with their tables, players and members."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from scoring.models import Club, Evening, Membership, Player, RuleProfile

from .factories import login, make_club, make_table, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db


def login_in_english(client: Client, club: Club, role: str = "scorer") -> User:
    user = login(client, club, role)
    # The messages below are asserted in English; the site's default language is German.
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return user


def players(club: Club) -> list[Player]:
    return list(club.players.order_by("pk"))


def evening_data(club: Club, *tables: dict[str, Any], **evening: Any) -> dict[str, Any]:
    profile = RuleProfile.objects.filter(club=club).order_by("pk").first()
    assert profile is not None, "a new club has its preset profiles"
    data: dict[str, Any] = {
        "date": "2026-03-06", "name": "Clubabend", "profile": profile.pk, "stake": "",
        "currency": "", "tables-TOTAL_FORMS": str(len(tables)), "tables-INITIAL_FORMS": "0",
        "tables-MIN_NUM_FORMS": "0", "tables-MAX_NUM_FORMS": "30",
    }
    data.update(evening)
    for n, table in enumerate(tables):
        data[f"tables-{n}-first_dealer"] = str(table.get("first_dealer", 0))
        for i, seat in enumerate(table.get("seats", [])):
            if isinstance(seat, Player):
                data[f"tables-{n}-seat_{i}"] = str(seat.pk)
            else:
                data[f"tables-{n}-guest_{i}"] = seat
    return data


def texts(response: TestResponse) -> str:
    """Everything the page says in errors and messages."""
    parts = [str(m) for m in get_messages(response.wsgi_request)]
    context = response.context
    if context is not None:
        for key in ("form", "tables", "add_form"):
            form = context.get(key)
            if form is None:
                continue
            if hasattr(form, "non_form_errors"):
                parts += list(form.non_form_errors())
                for f in form.forms:
                    parts += [str(e) for errors in f.errors.values() for e in errors]
            else:
                parts += [str(e) for errors in form.errors.values() for e in errors]
    return " | ".join(parts)


# ---------------------------------------------------------------- home and club page

def test_anonymous_home_offers_a_code_and_the_login(client: Client) -> None:
    make_club()  # (without any club, / leads to the first-run set-up)
    html = client.get(reverse("scoring:home")).content.decode()
    assert f'action="{reverse("scoring:code-entry")}"' in html
    assert f'href="{reverse("login")}"' in html


def test_home_goes_straight_to_the_only_club(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    response = client.get(reverse("scoring:home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:club", args=[club.slug])


def test_home_lists_several_clubs(client: Client) -> None:
    a, b = make_club("a", "Club A"), make_club("b", "Club B")
    user = login_in_english(client, a)
    Membership.objects.create(user=user, club=b, role="viewer")
    html = client.get(reverse("scoring:home")).content.decode()
    assert reverse("scoring:club", args=["a"]) in html
    assert reverse("scoring:club", args=["b"]) in html


def test_login_and_logout(client: Client) -> None:
    club = make_club()
    make_user(club, "scorer", username="anna")
    page = client.get(reverse("login"))
    assert page.status_code == 200 and 'name="username"' in page.content.decode()
    response = client.post(reverse("login"), {"username": "anna",
                                              "password": "pw-for-tests-only"})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:home")
    html = client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    assert f'action="{reverse("logout")}"' in html  # sign-out is a POST form
    assert club.name in html
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("scoring:club", args=[club.slug])).status_code == 302


def test_club_page_lists_evenings_newest_first_players_and_profiles(client: Client) -> None:
    club = make_club()
    old = make_table(club, date=datetime.date(2025, 1, 10)).evening
    new = make_table(club, date=datetime.date(2026, 2, 20)).evening
    login_in_english(client, club, "viewer")
    response = client.get(reverse("scoring:club", args=[club.slug]))
    assert response.status_code == 200
    assert list(response.context["evenings"]) == [new, old]
    html = response.content.decode()
    assert html.index(reverse("scoring:evening", args=[new.pk])) < html.index(
        reverse("scoring:evening", args=[old.pk]))
    assert "Anna Altenburg" in html
    assert "Club evening" in html or "Clubabend" in html
    # a viewer sees no buttons to write
    assert reverse("scoring:evening-create", args=[club.slug]) not in html
    assert reverse("scoring:player-create", args=[club.slug]) not in html


def test_club_page_has_the_buttons_for_scorers(client: Client) -> None:
    club = make_club()
    login_in_english(client, club, "scorer")
    html = client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    assert reverse("scoring:evening-create", args=[club.slug]) in html
    assert reverse("scoring:player-create", args=[club.slug]) in html
    assert reverse("scoring:members", args=[club.slug]) not in html


def test_nav_shows_the_users_clubs(client: Client) -> None:
    a, b = make_club("a", "Club A"), make_club("b", "Club B")
    user = login_in_english(client, a)
    Membership.objects.create(user=user, club=b, role="viewer")
    html = client.get(reverse("scoring:club", args=["a"])).content.decode()
    nav = html[html.index("<nav"):html.index("</nav>")]
    assert 'href="/clubs/a/" aria-current="page"' in nav
    assert 'href="/clubs/b/"' in nav
    assert '<label for="language-select">' in html


# ---------------------------------------------------------------- evenings

def test_create_an_evening_with_two_tables_and_a_guest(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    p = players(club)
    response = client.get(reverse("scoring:evening-create", args=[club.slug]) + "?tables=2")
    assert response.status_code == 200
    assert response.context["tables"].total_form_count() == 2
    data = evening_data(
        club,
        {"seats": p[:4], "first_dealer": 3},
        {"seats": [p[4], p[5], "Gustav Gast"], "first_dealer": 1},
        {"seats": []},  # an empty table is skipped
        stake="0.10", currency="chf")
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 302, texts(response)
    evening = Evening.objects.get(club=club)
    assert response["Location"] == reverse("scoring:evening", args=[evening.pk])
    assert (str(evening.stake), evening.currency) == ("0.1000", "CHF")
    assert evening.date == datetime.date(2026, 3, 6)
    t1, t2 = evening.tables.order_by("number")
    assert [s.player for s in t1.seats.order_by("position")] == p[:4]
    assert t1.first_dealer == 3
    guest = Player.objects.get(club=club, name="Gustav Gast")
    assert guest.guest
    assert [s.player for s in t2.seats.order_by("position")] == [p[4], p[5], guest]


def test_one_more_table_without_script_keeps_everything_typed(client: Client) -> None:
    """The "One more table" button without script posts the form: the page comes back with
    every value typed, no error yet, one more (empty) table, and nothing saved; the form
    sent from that page then creates both tables."""
    club = make_club()
    login_in_english(client, club)
    p = players(club)
    url = reverse("scoring:evening-create", args=[club.slug])
    profile = RuleProfile.objects.filter(club=club).order_by("pk").last()
    assert profile is not None, "a new club has its preset profiles"
    data = evening_data(club, {"seats": [p[0], p[1], "Gustav Gast", p[2]], "first_dealer": 2},
                        name="Herbstabend", stake="0.02", currency="chf",
                        profile=profile.pk, series_rounds="9")
    data["add_table"] = "1"
    response = client.post(url, data)
    assert response.status_code == 200
    assert not Evening.objects.exists() and not Player.objects.filter(name="Gustav Gast")
    tables = response.context["tables"]
    assert tables.total_form_count() == 2
    html = response.content.decode()
    assert 'class="errorlist"' not in html and 'role="alert"' not in html
    assert 'name="tables-TOTAL_FORMS" value="2"' in html
    assert 'value="Herbstabend"' in html and 'value="0.02"' in html and 'value="chf"' in html
    assert 'value="9"' in html and 'value="2026-03-06"' in html
    assert f'<option value="{profile.pk}" selected>' in html
    assert 'name="tables-0-guest_2" value="Gustav Gast"' in html
    for i, player in ((0, p[0]), (1, p[1]), (3, p[2])):
        select = html[html.index(f'name="tables-0-seat_{i}"'):]
        select = select[:select.index("</select>")]
        assert f'<option value="{player.pk}" selected>' in select
    dealer = html[html.index('name="tables-0-first_dealer"'):]
    assert '<option value="2" selected>' in dealer[:dealer.index("</select>")]
    assert 'name="tables-1-seat_0"' in html
    # The page's form, with the second table filled in, creates the evening.
    again = evening_data(club, {"seats": [p[0], p[1], "Gustav Gast", p[2]], "first_dealer": 2},
                         {"seats": [p[3], p[4], p[5]]}, name="Herbstabend", stake="0.02",
                         currency="chf", profile=profile.pk, series_rounds="9")
    response = client.post(url, again)
    assert response.status_code == 302, texts(response)
    evening = Evening.objects.get(club=club)
    assert (evening.name, evening.profile_name, evening.series_rounds) == (
        "Herbstabend", profile.name, 9)
    t1, t2 = evening.tables.order_by("number")
    assert [s.player.name for s in t1.seats.order_by("position")] == [
        p[0].name, p[1].name, "Gustav Gast", p[2].name]
    assert t1.first_dealer == 2
    assert [s.player for s in t2.seats.order_by("position")] == p[3:6]


def test_one_more_table_stops_at_the_most_tables(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    data = evening_data(club, *[{"seats": []}] * 30)
    data["add_table"] = "1"
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert response.context["tables"].total_form_count() == 30
    assert "data-add-table" in response.content.decode()
    garbage = {**data, "tables-TOTAL_FORMS": "x"}
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), garbage)
    assert response.status_code == 200
    assert not Evening.objects.exists()


def test_stake_and_currency_default_to_the_profile(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    data = evening_data(club, {"seats": players(club)[:3]})
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 302, texts(response)
    evening = Evening.objects.get(club=club)
    profile = RuleProfile.objects.get(pk=data["profile"])
    assert (evening.stake, evening.currency) == (profile.stake, profile.currency)
    assert evening.profile_name == profile.name


def test_another_clubs_profile_is_refused(client: Client) -> None:
    club = make_club("a")
    other = make_club("b")
    login_in_english(client, club)
    foreign = RuleProfile.objects.filter(club=other).first()
    assert foreign is not None, "the other club has its preset profiles"
    data = evening_data(club, {"seats": players(club)[:3]}, profile=foreign.pk)
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert response.context["form"].errors["profile"]
    assert not Evening.objects.exists()


def test_another_clubs_player_cannot_be_seated(client: Client) -> None:
    club = make_club("a")
    other = make_club("b")
    login_in_english(client, club)
    data = evening_data(club, {"seats": players(club)[:2] + players(other)[:1]})
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert not Evening.objects.exists()


@pytest.mark.parametrize(("table", "expected"), [
    ({"seats": "two"}, "3 to 6 players"),
    ({"seats": "same twice"}, "seated twice"),
    ({"seats": "guest twice"}, "seated twice"),
    ({"seats": "four", "first_dealer": 4}, "first dealer"),
    ({"seats": "both"}, "not both"),
])
def test_invalid_seats_give_messages(client: Client, table: dict[str, Any],
                                     expected: str) -> None:
    club = make_club()
    login_in_english(client, club)
    p = players(club)
    seats = {"two": p[:2], "same twice": [p[0], p[1], p[0]],
             "guest twice": [p[0], "Gast", "gast "], "four": p[:4]}.get(table["seats"])
    data = evening_data(club, {"seats": seats or [],
                               "first_dealer": table.get("first_dealer", 0)})
    if table["seats"] == "both":
        data = evening_data(club, {"seats": p[:3]})
        data["tables-0-guest_0"] = "Gast"
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert expected in texts(response)
    assert not Evening.objects.exists()
    assert not Player.objects.filter(name__iexact="gast").exists()


def test_a_player_cannot_sit_at_two_tables(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    p = players(club)
    data = evening_data(club, {"seats": p[:3]}, {"seats": [p[2], p[3], p[4]]})
    response = client.post(reverse("scoring:evening-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert "two tables" in texts(response)


def test_add_a_table_to_an_evening(client: Client) -> None:
    club = make_club()
    table = make_table(club)  # the first four players
    login_in_english(client, club)
    p = players(club)
    url = reverse("scoring:table-create", args=[table.evening.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"seat_0": p[4].pk, "seat_1": p[5].pk, "guest_2": "Gast",
                                 "first_dealer": 2})
    assert response.status_code == 302, texts(response)
    new = table.evening.tables.get(number=2)
    assert [s.player.name for s in new.seats.order_by("position")] == [
        p[4].name, p[5].name, "Gast"]
    assert new.first_dealer == 2


def test_a_table_refuses_players_already_seated_tonight(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    login_in_english(client, club)
    p = players(club)
    response = client.post(reverse("scoring:table-create", args=[table.evening.pk]),
                           {"seat_0": p[0].pk, "seat_1": p[4].pk, "seat_2": p[5].pk,
                            "first_dealer": 0})
    assert response.status_code == 200
    assert "already sits" in texts(response)


def test_a_closed_evening_takes_no_table(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    table.evening.closed = True
    table.evening.save()
    login_in_english(client, club)
    p = players(club)
    response = client.post(reverse("scoring:table-create", args=[table.evening.pk]),
                           {"seat_0": p[4].pk, "seat_1": p[5].pk, "guest_2": "Gast",
                            "first_dealer": 0})
    assert response.status_code == 200
    assert "closed" in texts(response)
    assert table.evening.tables.count() == 1


# ---------------------------------------------------------------- players

def test_add_a_player_and_a_guest(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    url = reverse("scoring:player-create", args=[club.slug])
    response = client.post(url, {"name": "  Heinz   Neu "})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:club", args=[club.slug])
    assert Player.objects.get(club=club, name="Heinz Neu").guest is False
    client.post(url, {"name": "Gerda Gast", "guest": "on"})
    assert Player.objects.get(club=club, name="Gerda Gast").guest is True


def test_a_duplicate_player_name_gives_a_message_not_a_500(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    url = reverse("scoring:player-create", args=[club.slug])
    response = client.post(url, {"name": "anna altenburg"}, follow=True)
    assert response.status_code == 200
    assert "already has a player named" in texts(response)
    assert club.players.filter(name__iexact="anna altenburg").count() == 1


def test_the_same_name_is_fine_in_another_club(client: Client) -> None:
    a = make_club("a")
    make_club("b")
    Player.objects.create(club=Club.objects.get(slug="b"), name="Zoe")
    login_in_english(client, a)
    client.post(reverse("scoring:player-create", args=["a"]), {"name": "Zoe"})
    assert Player.objects.filter(name="Zoe").count() == 2


def test_player_create_takes_only_post(client: Client) -> None:
    club = make_club()
    login_in_english(client, club)
    assert client.get(reverse("scoring:player-create", args=[club.slug])).status_code == 405


# ---------------------------------------------------------------- roles

def test_a_viewer_cannot_create_evenings_or_players(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    login_in_english(client, club, "viewer")
    url = reverse("scoring:evening-create", args=[club.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, evening_data(club, {"seats": players(club)[:3]})).status_code == 403
    assert client.post(reverse("scoring:player-create", args=[club.slug]),
                       {"name": "Neu"}).status_code == 403
    assert client.get(reverse("scoring:table-create", args=[table.evening.pk])).status_code == 403
    assert Evening.objects.count() == 1
    assert not Player.objects.filter(name="Neu").exists()


def test_a_scorer_cannot_manage_members(client: Client) -> None:
    club = make_club()
    login_in_english(client, club, "scorer")
    url = reverse("scoring:members", args=[club.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "add", "username": "x", "password": "Long-enough-9",
                             "role": "admin"}).status_code == 403
    assert not get_user_model().objects.filter(username="x").exists()


def test_an_admin_adds_a_member_who_can_sign_in(client: Client) -> None:
    club = make_club()
    login_in_english(client, club, "admin")
    url = reverse("scoring:members", args=[club.slug])
    assert client.get(url).status_code == 200
    response = client.post(url, {"action": "add", "username": "bernd",
                                 "password": "Karo-Bube-1998", "role": "scorer"})
    assert response.status_code == 302
    membership = Membership.objects.get(user__username="bernd", club=club)
    assert membership.role == "scorer"
    other = Client()
    assert other.login(username="bernd", password="Karo-Bube-1998")


def test_an_admin_gets_messages_for_a_bad_new_member(client: Client) -> None:
    club = make_club()
    login_in_english(client, club, "admin")
    url = reverse("scoring:members", args=[club.slug])
    response = client.post(url, {"action": "add", "username": "admin-altenburg",
                                 "password": "123", "role": "scorer"})
    assert response.status_code == 200
    errors = response.context["add_form"].errors
    assert "username" in errors and "password" in errors


def test_an_admin_changes_a_role_but_keeps_one_admin(client: Client) -> None:
    club = make_club()
    me = login_in_english(client, club, "admin")
    scorer = make_user(club, "scorer")
    url = reverse("scoring:members", args=[club.slug])
    m = Membership.objects.get(user=scorer)
    client.post(url, {"action": "role", "membership": m.pk, "role": "viewer"})
    m.refresh_from_db()
    assert m.role == "viewer"
    mine = Membership.objects.get(user=me)
    response = client.post(url, {"action": "role", "membership": mine.pk, "role": "viewer"})
    assert "at least one club admin" in texts(response)
    mine.refresh_from_db()
    assert mine.role == "admin"


def test_an_admin_cannot_touch_another_clubs_membership(client: Client) -> None:
    club = make_club("a")
    other = make_club("b")
    login_in_english(client, club, "admin")
    theirs = Membership.objects.get(user=make_user(other, "scorer"))
    response = client.post(reverse("scoring:members", args=["a"]),
                           {"action": "role", "membership": theirs.pk, "role": "admin"})
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.role == "scorer"


def test_the_new_evening_form_proposes_the_last_profile_and_today(client: Client) -> None:
    club = make_club()
    make_table(club, preset="hoyle", date=datetime.date(2026, 1, 5))
    login_in_english(client, club)
    form = client.get(reverse("scoring:evening-create", args=[club.slug])).context["form"]
    assert form.initial["profile"] == RuleProfile.objects.get(club=club, name="Hoyle").pk
    assert 'type="date"' in str(form["date"])
    assert f'value="{form.initial["date"]:%Y-%m-%d}"' in str(form["date"])
