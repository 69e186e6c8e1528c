"""Wrong passwords slow down further attempts per (address, account) and per address, at
every form that checks a password: the site's sign-in, the admin's and the password change
(scoring/views/login.py, scoring/access.py). The clock is scoring.access.now, set by hand."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from scoring import access
from scoring.models import FailureCount

from .factories import make_club, make_user

if TYPE_CHECKING:
    from .factories import TestResponse

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-only"


class Clock:
    def __init__(self) -> None:
        self.time = 1_000_000.0

    def __call__(self) -> float:
        return self.time


@pytest.fixture(autouse=True)
def clock(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    cache.clear()
    settings.LOGIN_FREE_FAILURES = 3
    settings.LOGIN_FREE_FAILURES_PER_ADDRESS = 6
    settings.LOGIN_DELAY = 10
    settings.LOGIN_MAX_DELAY = 600
    settings.LOGIN_FAILURE_WINDOW = 3600
    fake = Clock()
    monkeypatch.setattr(access, "now", fake)
    yield fake
    cache.clear()


def sign_in(client: Client, username: str, password: str, address: str = "10.0.0.1",
            url: str = "/accounts/login/", **extra: Any) -> TestResponse:
    return client.post(url, {"username": username, "password": password},
                       REMOTE_ADDR=address, **extra)


def test_past_the_free_failures_even_the_right_password_waits(clock: Clock) -> None:
    user = make_user(make_club())
    client = Client()
    for _ in range(3):
        assert sign_in(client, user.username, "wrong").status_code == 200
    response = sign_in(client, user.username, PASSWORD)
    assert response.status_code == 429
    assert response["Retry-After"] == "10"
    assert "_auth_user_id" not in client.session
    html = response.content.decode()
    assert 'name="password"' in html and user.username in html  # the form again
    # a slowdown, not a lock-out: after the wait the right password works
    clock.time += 10
    assert sign_in(client, user.username, PASSWORD).status_code == 302


def test_the_wait_grows_with_every_further_failure_up_to_the_cap(clock: Clock) -> None:
    make_club()
    waits = []
    for _ in range(10):
        response = sign_in(Client(), "someone", "wrong")
        assert response.status_code == 200
        wait = access.waiting(access.limit_key("login", "10.0.0.1", "someone"))
        waits.append(wait)
        clock.time += wait
    assert waits == [0, 0, 10, 20, 40, 80, 160, 320, 600, 600]
    clock.time -= 1
    blocked = sign_in(Client(), "someone", "wrong")
    assert blocked.status_code == 429 and blocked["Retry-After"] == "1"


def test_an_attacker_at_one_address_does_not_refuse_the_owner_at_another() -> None:
    user = make_user(make_club())
    attacker = Client()
    answers = {sign_in(attacker, user.username, f"guess-{n}", "10.6.6.6").status_code
               for n in range(20)}
    assert answers == {200, 429}
    owner = Client()
    assert sign_in(owner, user.username, PASSWORD, "10.0.0.2").status_code == 302
    assert owner.session["_auth_user_id"] == str(user.pk)
    # and the attacker still waits
    assert sign_in(Client(), user.username, PASSWORD, "10.6.6.6").status_code == 429


def test_the_user_name_counts_however_it_is_typed() -> None:
    user = make_user(make_club())
    for spelling in (user.username, user.username.upper(), f" {user.username} "):
        sign_in(Client(), spelling, "wrong")
    assert sign_in(Client(), user.username, PASSWORD).status_code == 429


def test_the_message_is_german_by_default_and_english_on_request() -> None:
    user = make_user(make_club())
    for _ in range(3):
        sign_in(Client(), user.username, "wrong")
    german = sign_in(Client(), user.username, "x", HTTP_ACCEPT_LANGUAGE="de")
    assert ("Zu viele fehlgeschlagene Anmeldeversuche. Bitte warten Sie 10 Sekunden"
            in german.content.decode())
    english = sign_in(Client(), user.username, "x", HTTP_ACCEPT_LANGUAGE="en")
    assert ("Too many failed sign-in attempts. Please wait 10 seconds"
            in english.content.decode())


def test_long_waits_are_told_in_minutes(settings: Settings) -> None:
    settings.LOGIN_DELAY = 300
    user = make_user(make_club())
    for _ in range(3):
        sign_in(Client(), user.username, "wrong")
    english = sign_in(Client(), user.username, "x", HTTP_ACCEPT_LANGUAGE="en")
    assert english["Retry-After"] == "300"
    assert "Please wait 5 minutes" in english.content.decode()


def test_one_address_guessing_many_accounts_is_slowed_down() -> None:
    make_club()
    for n in range(6):
        assert sign_in(Client(), f"someone-{n}", "guess").status_code == 200
    assert sign_in(Client(), "someone-else", "guess").status_code == 429
    assert sign_in(Client(), "someone-else", "guess", "10.0.0.9").status_code == 200


def test_the_per_address_allowance_can_be_switched_off(settings: Settings) -> None:
    settings.LOGIN_FREE_FAILURES_PER_ADDRESS = 0
    make_club()
    for n in range(12):
        assert sign_in(Client(), f"someone-{n}", "guess").status_code == 200


def test_a_right_password_clears_the_accounts_count_at_that_address() -> None:
    user = make_user(make_club())
    for _ in range(2):
        sign_in(Client(), user.username, "wrong")
    assert sign_in(Client(), user.username, PASSWORD).status_code == 302
    for _ in range(2):
        assert sign_in(Client(), user.username, "wrong").status_code == 200
    assert sign_in(Client(), user.username, PASSWORD).status_code == 302


# ---------------------------------------------------------------- the admin's sign-in

def staff() -> User:
    return User.objects.create_user("operator", password=PASSWORD, is_staff=True,
                                    is_superuser=True)


def test_the_admin_sign_in_is_limited(clock: Clock) -> None:
    """Found by the attack run: 60 wrong passwords at /admin/login/, then the right one
    worked at once."""
    user = staff()
    client = Client()
    answers = [sign_in(client, user.username, f"guess-{n}", url="/admin/login/").status_code
               for n in range(60)]
    assert answers[:3] == [200, 200, 200] and set(answers[3:]) == {429}
    response = sign_in(client, user.username, PASSWORD, url="/admin/login/")
    assert response.status_code == 429
    assert int(response["Retry-After"]) == 10
    html = response.content.decode()
    assert 'id="login-form"' in html  # the admin's own form, shown again
    assert "Too many failed sign-in attempts" in html or "Zu viele" in html
    assert "_auth_user_id" not in client.session
    clock.time += 10
    done = sign_in(client, user.username, PASSWORD, url="/admin/login/?next=/admin/")
    assert done.status_code == 302 and done["Location"] == "/admin/"


def test_the_admin_and_the_site_share_one_count() -> None:
    user = staff()
    for _ in range(3):
        assert sign_in(Client(), user.username, "wrong").status_code == 200
    assert sign_in(Client(), user.username, PASSWORD, url="/admin/login/").status_code == 429


def test_the_admin_sign_in_still_refuses_non_staff() -> None:
    user = make_user(make_club())
    response = sign_in(Client(), user.username, PASSWORD, url="/admin/login/")
    assert response.status_code == 200
    assert "_auth_user_id" not in response.wsgi_request.session


def test_the_admin_sign_in_page_and_a_signed_in_operator() -> None:
    client = Client()
    page = client.get("/admin/login/")
    assert page.status_code == 200 and 'id="login-form"' in page.content.decode()
    client.force_login(staff())
    assert client.get("/admin/login/")["Location"] == "/admin/"


# ---------------------------------------------------------------- the password change

def test_the_password_change_limits_wrong_old_passwords(clock: Clock) -> None:
    user = make_user(make_club())
    client = Client()
    client.force_login(user)
    change = {"new_password1": "a-new-pw-for-tests", "new_password2": "a-new-pw-for-tests"}
    for _ in range(3):
        response = client.post("/accounts/password_change/",
                               {"old_password": "wrong", **change}, REMOTE_ADDR="10.0.0.1")
        assert response.status_code == 200
    blocked = client.post("/accounts/password_change/", {"old_password": PASSWORD, **change},
                          REMOTE_ADDR="10.0.0.1")
    assert blocked.status_code == 429 and blocked["Retry-After"] == "10"
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    clock.time += 10
    assert client.post("/accounts/password_change/", {"old_password": PASSWORD, **change},
                       REMOTE_ADDR="10.0.0.1").status_code == 302


# ---------------------------------------------------------------- the count itself

@pytest.mark.skipif(connection.vendor != "postgresql", reason=(
    "threads need connections of their own to one database server; SQLite's in-memory test "
    "database refuses a table to every other connection while one writes it"))
@pytest.mark.django_db(transaction=True)
def test_the_count_is_exact_under_threads() -> None:
    """20 threads at once on a key nobody counted yet: one creates the row, the others
    find it taken and add to it; none reads a number another read too."""
    key = access.limit_key("test", "threads")
    counts: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(20)

    def fail() -> None:
        try:
            start.wait()
            for _ in range(10):
                count = access.count_failure(key, 60)
                with lock:
                    counts.append(count)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=fail) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(counts) == list(range(1, 201))


def test_an_expired_count_starts_again_and_is_pruned(clock: Clock) -> None:
    limit = access.Limit(free=2, delay=5, max_delay=60, window=600)
    key = access.limit_key("test", "expiry")
    assert [access.note_failure(key, limit) for _ in range(4)] == [0, 5, 10, 20]
    assert access.waiting(key) == 20
    clock.time += 600  # the window after the last failure: forgotten
    assert access.waiting(key) == 0
    assert access.count_failure(key, 600) == 1
    # a first failure removes a few expired counts of others; the command removes all
    old = [access.limit_key("test", f"old-{n}") for n in range(access.PRUNE_BATCH + 5)]
    for other in old:
        access.count_failure(other, 10)
    clock.time += 11
    access.count_failure(access.limit_key("test", "new"), 600)
    assert FailureCount.objects.filter(key__in=old).count() == 5
    call_command("prune_failure_counts", verbosity=0)
    assert not FailureCount.objects.filter(key__in=old).exists()
    assert FailureCount.objects.filter(key=key).exists()


def test_waiting_is_one_query_for_all_keys(
        django_assert_num_queries: Any) -> None:
    keys = [access.limit_key("test", f"q-{n}") for n in range(3)]
    access.note_failure(keys[1], access.Limit(free=1, delay=7, max_delay=60, window=600))
    with django_assert_num_queries(1):
        assert access.waiting(*keys) == 7


def test_a_wait_stays_below_the_window() -> None:
    """Or the count would be forgotten by the time the wait is over, and guessing would be
    free again."""
    limit = access.Limit(free=1, delay=1, max_delay=10_000, window=100)
    assert [limit.wait(n) for n in (0, 1, 2, 7, 8, 50)] == [0, 1, 2, 64, 99, 99]
    assert access.Limit(free=1, delay=0, max_delay=60, window=100).wait(9) == 0


def failure_count_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "scoring_failurecount" in q["sql"]]


def test_a_right_password_without_a_count_costs_one_read_and_no_write() -> None:
    """A request that is not a failure reads its counts once (one query for all its keys)
    and writes nothing; a right password after failures clears the count."""
    user = make_user(make_club())
    with CaptureQueriesContext(connection) as queries:
        assert sign_in(Client(), user.username, PASSWORD).status_code == 302
    (read,) = failure_count_queries(queries)
    assert read.startswith("SELECT")
    sign_in(Client(), user.username, "wrong")
    with CaptureQueriesContext(connection) as queries:
        assert sign_in(Client(), user.username, PASSWORD).status_code == 302
    assert [sql.split()[0] for sql in failure_count_queries(queries)] == ["SELECT", "DELETE"]
    assert not FailureCount.objects.filter(key__startswith="limit:login:").exists()
    assert FailureCount.objects.filter(key__startswith="limit:login-address:").exists()
