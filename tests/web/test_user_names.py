"""User names are one name however they are typed (issue 35, item 3): compared NFKC and
case-folded at registration, the first run, a club made with a new admin, invitations, the
members page, sign-in and its limits; a look-alike of an account's name (a Cyrillic "а" for
an "a", "0" for "O") and a name with invisible characters are refused. Old accounts whose
names already collide still sign in with their exact names."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.collation import (
    invisible_characters,
    refuse_invisible,
    username_key,
    username_skeleton,
)
from scoring.models import Invitation, Membership
from scoring.writes import onboarding
from scoring.writes.onboarding import NewClub

from .factories import make_club, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "Kreuz-Bube-1923"
FULLWIDTH_ADMIN = "ａ_ａｄｍｉｎ"
CYRILLIC_ADMIN = "а_admin"  # the first letter is U+0430


def new_club(slug: str = "gera") -> NewClub:
    from decimal import Decimal
    return NewClub(name="Skatfreunde Gera", slug=slug, language="de",
                   preset="club_evening", stake=Decimal("0"), currency="EUR")


def account(username: str, password: str = PASSWORD) -> Any:
    return get_user_model().objects.create_user(username=username, password=password)


@pytest.fixture(autouse=True)
def _open(settings: Any) -> None:
    settings.CLUB_REGISTRATION = True
    settings.REGISTRATION_MAX_PER_ADDRESS = 100
    cache.clear()


def register(username: str, slug: str = "gera") -> Any:
    return Client().post(reverse("scoring:register"), {
        "club_name": "Skatfreunde Gera", "slug": slug, "language": "de",
        "preset": "club_evening", "stake": "0", "currency": "EUR", "username": username,
        "email": "x@example.org", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en")


def field_errors(response: Any, field: str = "username") -> list[str]:
    form = response.context["form"]
    return [str(e) for e in form.errors.get(field, [])]


# ---------------------------------------------------------------- the keys

def test_the_key_folds_width_and_case_and_the_skeleton_look_alikes() -> None:
    assert username_key(FULLWIDTH_ADMIN) == username_key("A_Admin") == "a_admin"
    assert username_key("ＡＮＮＡ") == "anna"
    assert username_key(CYRILLIC_ADMIN) != "a_admin"  # another name ...
    assert username_skeleton(CYRILLIC_ADMIN) == username_skeleton("a_admin")  # ... alike
    for one, other in (("Paul0", "paulo"), ("ml1", "MII"), ("ΝΑΝΑ", "nana"), ("Вernd", "bernd"),
                       ("sеpp", "sepp"), ("rnia", "mia"), ("vvalter", "Walter")):
        assert username_skeleton(one) == username_skeleton(other), (one, other)
    for one, other in (("anna", "anne"), ("bernd", "berta"), ("mueller", "müller")):
        assert username_skeleton(one) != username_skeleton(other), (one, other)


def _is_invisible(ch: str) -> bool:
    return (unicodedata.category(ch) in {"Cf", "Cc", "Co", "Cs", "Cn"}
            or ch in "\u115f\u1160\u3164\uffa0\u2800")


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec=None), max_size=20))
def test_refuse_invisible_accepts_exactly_the_names_without_invisible_characters(
        text: str) -> None:
    from django.core.exceptions import ValidationError
    invisible = any(_is_invisible(ch) for ch in text)
    try:
        refuse_invisible(text)
    except ValidationError:
        refused = True
    else:
        refused = False
    assert refused == invisible
    assert bool(invisible_characters(text)) == invisible


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_the_skeleton_is_idempotent_and_the_same_for_nfkc_equivalent_names(text: str) -> None:
    skeleton = username_skeleton(text)
    assert username_skeleton(skeleton) == skeleton
    for form in ("NFKC", "NFKD", "NFC", "NFD"):
        assert username_skeleton(unicodedata.normalize(form, text)) == skeleton


# ---------------------------------------------------------------- new accounts

def test_a_fullwidth_name_beside_an_account_is_refused_at_registration() -> None:
    account("a_admin")
    answer = register(FULLWIDTH_ADMIN)
    assert answer.status_code == 200
    assert field_errors(answer) == ["This user name is taken. Choose another one."]
    assert get_user_model().objects.count() == 1
    with pytest.raises(onboarding.Refused, match="is taken"):
        onboarding.register(club=new_club(), username=FULLWIDTH_ADMIN,
                            email="x@example.org", password=PASSWORD)
    assert get_user_model().objects.count() == 1


def test_a_look_alike_is_refused_at_registration() -> None:
    account("a_admin")
    answer = register(CYRILLIC_ADMIN)
    assert field_errors(answer) == [
        "This user name looks like the name of another account. Choose another one."]
    with pytest.raises(onboarding.Refused, match="looks like"):
        onboarding.register(club=new_club(), username=CYRILLIC_ADMIN,
                            email="x@example.org", password=PASSWORD)
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("name", ["a\u200badmin", "\u202enimda", "anna\u2066"])
def test_a_user_name_with_invisible_characters_is_refused(name: str) -> None:
    answer = register(name)
    assert "invisible or control characters" in " ".join(field_errors(answer))
    with pytest.raises(onboarding.Refused, match="invisible"):
        onboarding.register(club=new_club(), username=name, email="x@example.org",
                            password=PASSWORD)
    assert not get_user_model().objects.exists()


def test_a_new_name_is_stored_nfkc() -> None:
    onboarding.register(club=new_club(), username="ｐａｕｌａ", email="p@example.org",
                        password=PASSWORD)
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["paula"]


def test_the_first_run_and_create_club_compare_keys() -> None:
    account("a_admin")
    for username in (FULLWIDTH_ADMIN, CYRILLIC_ADMIN, "A_ADMIN"):
        with pytest.raises(onboarding.Refused):
            onboarding.first_run(club=new_club(), username=username, email="",
                                 password=PASSWORD)
        with pytest.raises(onboarding.Refused):
            onboarding.club_create(club=new_club(), username=username, password=PASSWORD)
    # without a password create_club takes the existing account, however it is typed
    club, user = onboarding.club_create(club=new_club(), username=FULLWIDTH_ADMIN)
    assert user.username == "a_admin"
    assert Membership.objects.get(club=club).user == user
    assert get_user_model().objects.count() == 1


def test_an_invitation_refuses_a_width_variant_and_a_look_alike() -> None:
    club = make_club()
    account("anna")
    for username, words in (("ＡＮＮＡ", "is taken"), ("аnnа", "looks like")):
        invitation = Invitation.objects.create(club=club, role="viewer", email="")
        answer = Client().post(reverse("scoring:invitation", args=[invitation.token]), {
            "username": username, "email": "", "password1": PASSWORD,
            "password2": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200 and words in " ".join(field_errors(answer))
        with pytest.raises(onboarding.Refused, match=words):
            onboarding.invitation_accept(token=invitation.token, username=username,
                                         email="", password=PASSWORD)
    assert get_user_model().objects.count() == 1
    assert not Invitation.objects.filter(used_at__isnull=False).exists()


def test_the_members_page_refuses_a_width_variant_and_a_look_alike() -> None:
    club = make_club()
    admin = Client()
    admin.force_login(make_user(club, "admin"))
    account("bernd")
    for username in ("ＢＥＲＮＤ", "Вernd", "bern\u200bd"):
        answer = admin.post(reverse("scoring:members", args=[club.slug]), {
            "username": username, "password": PASSWORD, "role": "scorer"},
            HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200
        assert answer.context["add_form"].errors["username"], username
    assert get_user_model().objects.count() == 2


def test_an_expired_registration_of_a_look_alike_frees_the_name() -> None:
    from datetime import timedelta

    from django.utils import timezone
    onboarding.register(club=new_club(), username="а_admin", email="a@example.org",
                        password=PASSWORD)
    get_user_model().objects.update(date_joined=timezone.now() - timedelta(days=3))
    onboarding.register(club=new_club("gera2"), username="a_admin", email="a@example.org",
                        password=PASSWORD)
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["a_admin"]


# ---------------------------------------------------------------- sign-in

def sign_in(client: Client, username: str, password: str = PASSWORD) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR="10.0.0.1")


@pytest.mark.parametrize("typed", ["Anna", "anna", "ANNA", "ＡＮＮＡ", " anna "])
def test_sign_in_with_a_case_or_width_variant(typed: str) -> None:
    user = account("Anna")
    client = Client()
    answer = sign_in(client, typed)
    assert answer.status_code == 302, typed
    assert client.session["_auth_user_id"] == str(user.pk)


def test_sign_in_of_a_non_ascii_name_in_another_case() -> None:
    user = account("Änne")
    client = Client()
    assert sign_in(client, "ÄNNE").status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_a_look_alike_or_a_wrong_password_does_not_sign_in() -> None:
    account("anna")
    for typed, password in (("аnnа", PASSWORD), ("anna", "wrong"), ("nobody", PASSWORD)):
        client = Client()
        assert sign_in(client, typed, password).status_code == 200
        assert "_auth_user_id" not in client.session


def test_old_accounts_whose_names_collide_each_sign_in_with_their_own_name() -> None:
    upper, lower = account("Otto", "pw-upper-1923"), account("otto", "pw-lower-1923")
    for typed, password, user in (("Otto", "pw-upper-1923", upper),
                                  ("otto", "pw-lower-1923", lower)):
        client = Client()
        assert sign_in(client, typed, password).status_code == 302
        assert client.session["_auth_user_id"] == str(user.pk)
    # and two whose names differ in width (the sign-in form makes "ａ_ａｄｍｉｎ" "a_admin")
    get_user_model().objects.bulk_create([get_user_model()(username=FULLWIDTH_ADMIN)])
    wide = get_user_model().objects.get(username=FULLWIDTH_ADMIN)
    wide.set_password("pw-wide-1923")
    wide.save()
    narrow = account("a_admin", "pw-narrow-1923")
    for typed, password, user in ((FULLWIDTH_ADMIN, "pw-wide-1923", wide),
                                  ("a_admin", "pw-narrow-1923", narrow)):
        client = Client()
        assert sign_in(client, typed, password).status_code == 302, typed
        assert client.session["_auth_user_id"] == str(user.pk)
    # a third spelling is neither: it is not guessed which one was meant
    client = Client()
    assert sign_in(client, "OTTO", "pw-upper-1923").status_code == 200
    assert "_auth_user_id" not in client.session


def test_the_limit_counts_every_spelling_as_one_name(settings: Any) -> None:
    settings.LOGIN_FREE_FAILURES = 3
    settings.LOGIN_FREE_FAILURES_PER_ADDRESS = 100
    settings.LOGIN_DELAY = 10
    account("Anna")
    for spelling in ("anna", "ＡＮＮＡ", "Anna"):
        sign_in(Client(), spelling, "wrong")
    assert sign_in(Client(), "aNNa").status_code == 429
