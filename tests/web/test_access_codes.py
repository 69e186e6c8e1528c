"""Table codes: a code opens its own table, only on its evening, and cannot be guessed."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from scoring import access
from scoring.models import Table
from scoring.writes.services import table_create

from .factories import make_club, make_table, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def granted(client: Client, table: Table) -> bool:
    request = RequestFactory().get("/")
    request.session = client.session
    request.user = AnonymousUser()
    return access.has_grant(request, table)


def guess(client: Client, code: str) -> TestResponse:
    """A code typed into the entry form: the one way a wrong code is counted."""
    return client.post(reverse("scoring:code-entry"), {"code": code})


def table_screen(table: Table) -> str:
    return reverse("scoring:table", args=[table.pk])


def spaced(code: str) -> str:
    return f" {code[:4].lower()}-{code[4:]} "


def test_a_code_opens_its_table_and_only_that(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    other = table_create(evening=table.evening, players=list(club.players.all()[4:6])
                         + [club.players.first()])
    response = client.get(reverse("scoring:code", args=[table.access_code]))
    assert response.status_code == 302
    if table_screen(table):
        assert response["Location"] == table_screen(table)
    assert granted(client, table)
    assert not granted(client, other)


def test_the_entry_form_ignores_case_spaces_and_dashes(client: Client) -> None:
    table = make_table(make_club())
    response = client.post(reverse("scoring:code-entry"), {"code": spaced(table.access_code)})
    assert response.status_code == 302
    assert granted(client, table)
    # and the QR address works with the printed form of the code too
    client2 = Client()
    code = f"{table.access_code[:4]}-{table.access_code[4:]}".lower()
    assert client2.get(reverse("scoring:code", args=[code])).status_code == 302
    assert granted(client2, table)


def test_the_granted_device_opens_the_table_screen_but_not_another(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    other = make_table(club)
    client.get(reverse("scoring:code", args=[table.access_code]))
    assert client.get(table_screen(table)).status_code == 200
    assert client.get(table_screen(other)).status_code == 404


@pytest.mark.parametrize("days", [1, 7, -2, -30])
def test_a_code_works_only_around_its_evening(client: Client, days: int) -> None:
    table = make_table(make_club(), date=timezone.localdate() + datetime.timedelta(days=days))
    response = client.get(reverse("scoring:code", args=[table.access_code]))
    assert response.status_code == 404
    assert response.context["unknown"]
    assert not granted(client, table)


def test_a_code_works_until_six_the_next_morning() -> None:
    table = make_table(make_club(), date=datetime.date(2026, 3, 6))
    evening = table.evening
    tz = timezone.get_current_timezone()
    assert not evening.codes_valid(datetime.datetime(2026, 3, 5, 23, 59, tzinfo=tz))
    assert evening.codes_valid(datetime.datetime(2026, 3, 6, 19, 0, tzinfo=tz))
    assert evening.codes_valid(datetime.datetime(2026, 3, 7, 5, 59, tzinfo=tz))
    assert not evening.codes_valid(datetime.datetime(2026, 3, 7, 6, 0, tzinfo=tz))


def test_a_closed_evening_refuses_its_codes_and_ends_grants(client: Client) -> None:
    table = make_table(make_club())
    client.get(reverse("scoring:code", args=[table.access_code]))
    assert granted(client, table)
    table.evening.closed = True
    table.evening.save()
    table.refresh_from_db()
    assert not granted(client, table)
    assert client.get(reverse("scoring:code", args=[table.access_code])).status_code == 404


def test_a_code_of_club_b_never_opens_club_as_tables(client: Client) -> None:
    table_a = make_table(make_club("a"))
    table_b = make_table(make_club("b"))
    client.get(reverse("scoring:code", args=[table_b.access_code]))
    assert granted(client, table_b)
    assert not granted(client, table_a)
    assert client.get(table_screen(table_a)).status_code == 404


def test_a_signed_in_member_of_another_club_may_use_a_code(client: Client) -> None:
    """The code is the credential: a guest scorer from another club can keep the list."""
    table = make_table(make_club("b"))
    client.force_login(make_user(make_club("a"), "viewer"))
    assert client.get(reverse("scoring:code", args=[table.access_code])).status_code == 302
    assert granted(client, table)


class Clock:
    def __init__(self) -> None:
        self.time = 1_000_000.0

    def __call__(self) -> float:
        return self.time


@pytest.fixture
def clock(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Clock:
    settings.TABLE_CODE_FREE_FAILURES = 5
    settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS = 200
    settings.TABLE_CODE_DELAY = 1
    settings.TABLE_CODE_MAX_DELAY = 600
    settings.TABLE_CODE_FAILURE_WINDOW = 3600
    fake = Clock()
    monkeypatch.setattr(access, "now", fake)
    return fake


def test_wrong_codes_slow_this_device_down(client: Client, clock: Clock) -> None:
    table = make_table(make_club())
    for i in range(5):
        response = guess(client, f"WRONG{i:03d}")
        assert response.status_code == 404
    blocked = guess(client, "WRONG999")
    assert blocked.status_code == 429
    assert blocked["Retry-After"] == "1"
    # even the right code waits, or guessing would go on; the form is shown again
    assert client.get(reverse("scoring:code", args=[table.access_code])).status_code == 429
    again = client.post(reverse("scoring:code-entry"), {"code": table.access_code},
                        HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 429
    html = again.content.decode()
    assert "Too many wrong codes from this device. Please try again in 1 second." in html
    assert 'name="code"' in html
    assert not granted(client, table)
    # a slowdown, not a lock-out: after the wait the right code opens the table
    clock.time += 1
    assert client.get(reverse("scoring:code", args=[table.access_code])).status_code == 302
    assert granted(client, table)


def test_the_wait_grows_with_each_further_wrong_code(client: Client, clock: Clock) -> None:
    make_table(make_club())
    waits = []
    for i in range(9):
        assert guess(client, f"WRONG{i:03d}").status_code == 404
        device = client.session.session_key or ""
        wait = access.waiting(access.limit_key("code", "127.0.0.1", device))
        waits.append(wait)
        clock.time += wait
    assert waits == [0, 0, 0, 0, 1, 2, 4, 8, 16]


def test_an_attacking_device_does_not_refuse_another_device_at_its_address(
        clock: Clock) -> None:
    """Found by the attack run: ~130 wrong codes from one device locked valid codes out for
    every device at that address (behind a proxy: the whole club)."""
    table = make_table(make_club())
    attacker = Client(REMOTE_ADDR="10.0.0.1")
    answers = {guess(attacker, f"WRONG{i:03d}").status_code
               for i in range(130)}
    assert answers == {404, 429}
    tablet = Client(REMOTE_ADDR="10.0.0.1")  # the same address, another device
    assert tablet.get(reverse("scoring:code", args=[table.access_code])).status_code == 302
    assert granted(tablet, table)
    other = Client(REMOTE_ADDR="10.0.0.1")
    assert other.post(reverse("scoring:code-entry"),
                      {"code": table.access_code}).status_code == 302
    # the attacker still waits
    assert attacker.get(reverse("scoring:code", args=[table.access_code])).status_code == 429


def test_dropping_the_session_cookie_does_not_escape_the_address_count(
        settings: Settings, clock: Clock) -> None:
    settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS = 15
    for i in range(15):
        fresh = Client()  # a new session every time
        assert guess(fresh, f"WRONG{i:03d}").status_code == 404
    blocked = guess(Client(), "WRONG999")
    assert blocked.status_code == 429 and blocked["Retry-After"] == "1"
    # another address is not affected
    assert guess(Client(REMOTE_ADDR="10.0.0.9"), "WRONG998").status_code == 404


def test_new_addresses_of_one_ipv6_64_do_not_escape_the_address_count(
        settings: Settings, clock: Clock) -> None:
    settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS = 15
    for i in range(15):
        fresh = Client(REMOTE_ADDR=f"2001:db8:a:b::{i + 1:x}")  # new address, new session
        assert guess(fresh, f"WRONG{i:03d}").status_code == 404
    blocked = guess(Client(REMOTE_ADDR="2001:db8:a:b:1:2:3:4"), "WRONG999")
    assert blocked.status_code == 429
    assert guess(Client(REMOTE_ADDR="2001:db8:a:c::1"), "WRONG998").status_code == 404


def test_a_right_code_clears_the_devices_count(client: Client, clock: Clock) -> None:
    table = make_table(make_club())
    for i in range(4):
        guess(client, f"WRONG{i:03d}")
    assert client.get(reverse("scoring:code", args=[table.access_code])).status_code == 302
    for i in range(4):
        assert guess(client, f"AGAIN{i:03d}").status_code == 404


def test_the_entry_page_and_an_empty_code(client: Client) -> None:
    page = client.get(reverse("scoring:code-entry"))
    assert page.status_code == 200
    assert 'name="code"' in page.content.decode()
    response = client.post(reverse("scoring:code-entry"), {"code": " - "})
    assert response.status_code == 200
    assert response.context["form"].errors["code"]


def test_the_codes_page_shows_codes_qr_and_validity(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    client.force_login(make_user(club, "scorer"))
    response = client.get(reverse("scoring:codes", args=[table.evening.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    code = table.access_code
    assert f"{code[:4]}-{code[4:]}" in html
    assert "<svg" in html and 'role="img"' in html
    assert f"http://testserver/t/{code}/" in html
    card = response.context["cards"][0]
    assert card["url"] == f"http://testserver{reverse('scoring:code', args=[code])}"
    assert response.context["valid_until"] == table.evening.codes_valid_until()
    assert response.context["valid_now"]


def test_the_qr_code_holds_the_code_url() -> None:
    import segno

    from scoring.qr import qr_svg

    svg = qr_svg("http://testserver/t/ABCDEFGH/", title="Table 1 <b>")
    assert svg.startswith('<svg role="img"')
    assert "<title>Table 1 &lt;b&gt;</title>" in svg
    assert segno.make("http://testserver/t/ABCDEFGH/", error="m").svg_inline(
        scale=4, border=4, title="x", svgclass="qr", lineclass=None, omitsize=True,
        dark="#000", light="#fff").split("<path", 1)[1] == svg.split("<path", 1)[1]


def test_codes_are_for_scorers_and_admins(client: Client) -> None:
    club = make_club()
    table = make_table(club)
    url = reverse("scoring:codes", args=[table.evening.pk])
    client.force_login(make_user(club, "viewer"))
    assert client.get(url).status_code == 403
    client.force_login(make_user(club, "admin"))
    assert client.get(url).status_code == 200
    client.logout()
    assert client.get(url).status_code == 302


def test_waiting_answers_make_no_sessions(settings: Settings, clock: Clock) -> None:
    """A guesser without cookies is answered 429 without a new session row for each guess."""
    from django.contrib.sessions.models import Session

    settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS = 3
    for i in range(3):
        guess(Client(), f"WRONG{i:03d}")
    sessions = Session.objects.count()
    for i in range(10):
        assert guess(Client(), f"MORE{i:04d}").status_code == 429
    assert Session.objects.count() == sessions


def test_another_sites_images_of_the_address_count_nothing(settings: Settings,
                                                           clock: Clock) -> None:
    """Issue 36: any web page's images (``<img src=".../t/WRONG/">``) could burn the club
    address's allowance. Asked for by another site's page the address neither opens nor
    counts: the entry form with the code filled in, the same answer for the right code."""
    settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS = 3
    table = make_table(make_club())
    elsewhere = [{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"},
                 {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "document"},
                 {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": "image"}]
    for i in range(20):
        page = Client().get(reverse("scoring:code", args=[f"WRONG{i:03d}"]),
                            headers={"Accept-Language": "en", **elsewhere[i % 3]})
        assert page.status_code == 200
        assert f'value="WRONG{i:03d}"' in page.content.decode()
    assert access.waiting(access.limit_key("code-address", "127.0.0.1")) == 0
    # the right code from elsewhere: the same form, nothing opened (no oracle)
    stranger = Client()
    right = stranger.get(reverse("scoring:code", args=[table.access_code]),
                         headers=elsewhere[1])
    assert right.status_code == 200 and not granted(stranger, table)
    assert f'value="{table.access_code}"' in right.content.decode()
    tablet = Client()
    assert guess(tablet, table.access_code).status_code == 302
    assert granted(tablet, table)


def test_a_scanned_code_opens_and_a_scripts_guesses_count(settings: Settings,
                                                          clock: Clock) -> None:
    """A QR code scanned (a navigation no site started) opens the table at once; a client
    without Fetch metadata (a script) is counted as the form is: guessing stays limited."""
    settings.TABLE_CODE_FREE_FAILURES_PER_ADDRESS = 3
    table = make_table(make_club())
    phone = Client()
    opened = phone.get(reverse("scoring:code", args=[table.access_code]),
                       headers={"Sec-Fetch-Site": "none", "Sec-Fetch-Dest": "document"})
    assert opened.status_code == 302 and granted(phone, table)
    for i in range(5):
        Client().get(reverse("scoring:code", args=[f"WRONG{i:03d}"]))
    assert access.waiting(access.limit_key("code-address", "127.0.0.1")) > 0
    late = Client()
    assert late.get(reverse("scoring:code", args=[table.access_code])).status_code == 429
    assert not granted(late, table)


