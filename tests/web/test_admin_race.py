"""Issue 26, item 2: two club admins demoting or removing each other (or leaving) at the same
instant must not leave the club without an admin. Real races: two threads, a connection each,
through the members pages' views.

``gated`` makes the race certain instead of likely: every write of a membership (its save or
delete) first waits for the other thread to reach its own write. Without a lock both threads
have checked "another admin is left" by then, both write, and the club has no admin. With the
lock the second thread cannot get past its check while the first holds the lock, so the gate
opens by its timeout, the first commits, and the second is refused. The gate's timeout only
runs out in the fixed code; it bounds how long that takes."""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Club, Membership
from scoring.writes import onboarding

from .factories import make_club, make_user
from .servers import ROOT, environment

GATE_TIMEOUT = 1.5


@contextmanager
def gated() -> Iterator[None]:
    gate = threading.Barrier(2, timeout=GATE_TIMEOUT)
    save, delete = Membership.save, Membership.delete

    def wait() -> None:
        with suppress(threading.BrokenBarrierError):
            gate.wait()

    def gated_save(self: Membership, *args: Any, **kwargs: Any) -> None:
        wait()
        save(self, *args, **kwargs)

    def gated_delete(self: Membership, *args: Any, **kwargs: Any) -> Any:
        wait()
        return delete(self, *args, **kwargs)

    with mock.patch.object(Membership, "save", gated_save), \
            mock.patch.object(Membership, "delete", gated_delete):
        yield


def demote(club: Club, target: Membership) -> Callable[[Client], Any]:
    return lambda client: client.post(
        reverse("scoring:members", args=[club.slug]),
        {"action": "role", "membership": target.pk, "role": "scorer"},
        HTTP_ACCEPT_LANGUAGE="en")


def remove(club: Club, target: Membership) -> Callable[[Client], Any]:
    return lambda client: client.post(
        reverse("scoring:member-remove", args=[club.slug, target.pk]),
        HTTP_ACCEPT_LANGUAGE="en")


def race(*steps: tuple[Any, Callable[[Client], Any]]) -> list[str]:
    """Each (user, action) in a thread of its own, started together; the messages shown."""
    start = threading.Barrier(len(steps))
    said: list[str] = []
    errors: list[BaseException] = []
    clients = []
    for user, _action in steps:
        client = Client()
        client.force_login(user)
        clients.append(client)

    def run(client: Client, action: Callable[[Client], Any]) -> None:
        try:
            start.wait()
            response = action(client)
            if response.status_code in (403, 404):
                # came after the other: no longer an admin (403), or the member removed (404)
                said.append(f"{response.status_code}: came after the other")
            else:
                assert response.status_code in (200, 302), response.status_code
                said.extend(str(m) for m in response.wsgi_request._messages)
        except BaseException as err:  # noqa: BLE001 — reported by the test thread
            errors.append(err)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(client, action))
               for client, (_user, action) in zip(clients, steps, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return said


def two_admins() -> tuple[Club, Any, Any, Membership, Membership]:
    club = make_club()
    a = make_user(club, "admin", "admin-a")
    b = make_user(club, "admin", "admin-b")
    return (club, a, b, Membership.objects.get(user=a), Membership.objects.get(user=b))


def admins(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Membership.Role.ADMIN).count()


SCENARIOS = {
    "demote-vs-demote": lambda club, ma, mb: (demote(club, mb), demote(club, ma)),
    "remove-vs-remove": lambda club, ma, mb: (remove(club, mb), remove(club, ma)),
    "demote-vs-remove": lambda club, ma, mb: (demote(club, mb), remove(club, ma)),
    "leave-vs-leave": lambda club, ma, mb: (remove(club, ma), remove(club, mb)),
    "leave-vs-demote-self": lambda club, ma, mb: (remove(club, ma), demote(club, mb)),
}


def check(admins_left: int, said: list[str]) -> None:
    refused = [m for m in said if "at least one club admin" in m
               or "nothing was changed" in m or "came after" in m]
    assert admins_left == 1, said
    assert len(said) == 2 and len(refused) == 1, said


def run_scenario(name: str, gate: bool) -> tuple[int, list[str]]:
    """One race on fresh data: the admins left and the messages shown; the data removed."""
    club, a, b, ma, mb = two_admins()
    first, second = SCENARIOS[name](club, ma, mb)
    if gate:
        with gated():
            said = race((a, first), (b, second))
    else:
        said = race((a, first), (b, second))
    left = admins(club)
    get_user_model().objects.filter(pk__in=[a.pk, b.pk]).delete()
    club.delete()
    return left, said


PLAIN_REPEATS = 12


def all_races() -> dict[str, list[tuple[int, list[str]]]]:
    results = {name: [run_scenario(name, gate=True)] for name in SCENARIOS}
    results["plain"] = [run_scenario("demote-vs-demote" if n % 2 else "remove-vs-remove",
                                     gate=False) for n in range(PLAIN_REPEATS)]
    return results


def main() -> None:
    """On SQLite the races run in a process of their own on a database file (the tests'
    shared in-memory database answers "table is locked" at once instead of waiting for the
    lock as a real site's file does), started by ``sqlite_races`` with SQLITE_PATH set;
    prints the results as JSON."""
    from django.core.management import call_command
    from django.test.utils import setup_test_environment
    setup_test_environment()
    call_command("migrate", verbosity=0)
    print(json.dumps(all_races()))


RUN = ("import django; django.setup(); "
       "from tests.web.test_admin_race import main; main()")


def _race_process(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Runs ``main`` in a process of its own on a database file: its JSON line."""
    path = tmp_path_factory.mktemp("race") / "race.sqlite3"
    env = environment(SQLITE_PATH=str(path), DJANGO_SETTINGS_MODULE="skatclub.settings",
                      SECRET_KEY=secrets.token_urlsafe(50), DEBUG="1")
    done = subprocess.run([sys.executable, "-c", RUN], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def sqlite_races(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The races' results, run once per test run: the process takes some 18 s (its gates wait
    by design), and when make test's two processes share this module's tests each asked for
    it. Under pytest-xdist the first asks, under a lock in the folder the processes share; the
    other reads its answer (the file is named after this run: an earlier run's never counts)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:  # one process: nobody to share with
        return dict(json.loads(_race_process(tmp_path_factory)))
    shared = tmp_path_factory.getbasetemp().parent  # each process's own folder lies in it
    answer = shared / f"admin-races-{run}.json"
    with open(shared / f"admin-races-{run}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not answer.exists():
            answer.write_text(_race_process(tmp_path_factory))
    return dict(json.loads(answer.read_text()))


def races(request: pytest.FixtureRequest, name: str, gate: bool) -> list[tuple[int, list[str]]]:
    if connection.vendor == "sqlite":
        results: dict[str, Any] = request.getfixturevalue("sqlite_races")
        return [(left, said) for left, said in results["plain" if not gate else name]]
    if gate:
        return [run_scenario(name, gate=True)]
    return all_races()["plain"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", SCENARIOS)
def test_two_admins_at_the_same_instant_leave_one_admin(request: pytest.FixtureRequest,
                                                        name: str) -> None:
    """Gated: both requests reach their write together unless a lock holds one back."""
    for left, said in races(request, name, gate=True):
        check(left, said)


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_the_race_without_a_gate_many_times(request: pytest.FixtureRequest) -> None:
    """The plain race, repeated (demote each other, remove each other)."""
    for left, said in races(request, "plain", gate=False):
        check(left, said)


@pytest.mark.django_db(transaction=True)
def test_an_admin_who_was_demoted_meanwhile_changes_nothing() -> None:
    """Three admins: A demotes B; B's request, checked as admin before, then demotes C. Under
    the lock B is no longer an admin: refused, C stays admin."""
    club, a, b, _ma, mb = two_admins()
    c = make_user(club, "admin", "admin-c")
    mc = Membership.objects.get(user=c)
    onboarding.membership_role(mb, "scorer", by=a)
    with translation.override("en"), pytest.raises(onboarding.Refused,
                                                   match="no longer a club admin"):
        onboarding.membership_role(mc, "scorer", by=b)
    mc.refresh_from_db()
    assert mc.role == "admin"
