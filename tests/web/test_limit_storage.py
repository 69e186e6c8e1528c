"""The failure counts of the limits live where no other traffic evicts them (issue 26, item
4): in the database (scoring.models.FailureCount), not in the shared cache. The database
cache culls the alphabetically first third of its keys beyond MAX_ENTRIES, Redis under
``maxmemory`` + ``allkeys-lru`` evicts, and a Redis without persistence forgets everything on
a restart: none of it hands out fresh tries. And a query string nobody reads (``?x=<uuid>``)
creates no cache entries (the season table keys its body on its own parameters only), nor
does a made-up board key. IPv6 clients are counted by their /64 (item 5), user names as
Django's sign-in reads them (item 10)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import Settings

from scoring.models import FailureCount

from .factories import make_club, make_user
from .seasons import make_season

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-only"


@pytest.fixture(autouse=True)
def _limits(settings: Settings) -> None:
    settings.LOGIN_FREE_FAILURES = 3
    settings.LOGIN_FREE_FAILURES_PER_ADDRESS = 30
    settings.LOGIN_DELAY = 600  # long enough that no test outlives a wait
    settings.LOGIN_MAX_DELAY = 900
    settings.LOGIN_FAILURE_WINDOW = 3600


def sign_in(username: str, password: str, address: str = "10.0.0.1") -> int:
    return Client().post("/accounts/login/", {"username": username, "password": password},
                         REMOTE_ADDR=address).status_code


def slow_down(username: str) -> None:
    """Three wrong passwords: the fourth attempt, even with the right password, waits."""
    for _ in range(3):
        assert sign_in(username, "wrong") == 200
    assert sign_in(username, PASSWORD) == 429


# ---------------------------------------------------------------- the database cache

def test_culling_the_database_cache_keeps_the_counts() -> None:
    """The attack run: 45,855 season pages with a new query string each culled the database
    cache, ``limit:*`` among the first third, and the counts were gone."""
    user = make_user(make_club())
    database = {alias: {"BACKEND": "django.core.cache.backends.db.DatabaseCache",
                        "LOCATION": f"skatclub_pressure_{alias}", "KEY_PREFIX": "pressure",
                        "OPTIONS": {"MAX_ENTRIES": 30, "CULL_FREQUENCY": 3}}
                for alias in settings.CACHES}
    with override_settings(CACHES=database):
        call_command("createcachetable", verbosity=0)
        cache = caches["default"]
        cache.clear()
        slow_down(user.username)
        # other traffic: entries that sort after "limit:" (the polled pages' "polled:…"),
        # until culling has run many times over
        for n in range(300):
            cache.set(f"polled:season:{n}:{uuid.uuid4().hex}", "x" * 100, 300)
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM skatclub_pressure_default")
            (entries,) = cursor.fetchone()
        assert entries <= 31  # culled
        assert sign_in(user.username, PASSWORD) == 429
        assert sign_in(user.username, PASSWORD, "10.0.0.2") == 302


# ---------------------------------------------------------------- Redis

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThrowawayRedis:
    """A redis-server of this test's own on loopback, without persistence (like a Redis
    that loses everything on a restart), that the test may stop and start again."""

    def __init__(self, directory: Path, maxmemory: str) -> None:
        self.port = free_port()
        self.directory = directory
        self.maxmemory = maxmemory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port),
             "--dir", str(self.directory), "--save", "", "--appendonly", "no",
             "--maxmemory", self.maxmemory, "--maxmemory-policy", "allkeys-lru",
             "--protected-mode", "yes", "--logfile", str(self.directory / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:  # until it answers
            try:
                if self.client().ping():
                    return
            except redis.exceptions.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((self.directory / "redis.log").read_text()) from None
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        self.process = None


@contextmanager
def throwaway_redis(tmp_path: Path, maxmemory: str = "2mb") -> Iterator[ThrowawayRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = ThrowawayRedis(tmp_path, maxmemory)
    server.start()
    try:
        on_it = {alias: {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                         "LOCATION": server.url, "KEY_PREFIX": f"skatclub:{alias}",
                         "TIMEOUT": config.get("TIMEOUT", 300)}
                 for alias, config in settings.CACHES.items()}
        with override_settings(CACHES=on_it):
            yield server
    finally:
        server.stop()


def test_redis_evicting_under_maxmemory_keeps_the_counts(tmp_path: Path) -> None:
    """The attack run: with maxmemory + allkeys-lru as docs/operators/deployment.md
    recommends, 600 season pages with new query strings evicted every limit key."""
    user = make_user(make_club())
    with throwaway_redis(tmp_path) as server:
        slow_down(user.username)
        cache = caches["default"]
        client = server.client()
        payload = "x" * 16_000
        n = 0
        # flood it until it has evicted several times what it can hold
        while int(client.info("stats")["evicted_keys"]) < 400:
            cache.set(f"polled:season:{n}", payload, 300)
            n += 1
            assert n < 10_000
        assert sign_in(user.username, PASSWORD) == 429


def test_a_redis_restart_hands_out_no_fresh_tries(tmp_path: Path) -> None:
    user = make_user(make_club())
    with throwaway_redis(tmp_path) as server:
        slow_down(user.username)
        server.stop()
        server.start()
        assert server.client().dbsize() == 0  # it forgot everything
        assert sign_in(user.username, PASSWORD) == 429
        assert sign_in(user.username, PASSWORD, "10.0.0.2") == 302


# ---------------------------------------------------------------- query strings

def polled_entries() -> int:
    store: dict[str, Any] = caches["default"]._cache  # type: ignore[attr-defined]
    return sum(1 for key in store if ":polled:" in key)


def test_a_flood_of_unknown_query_strings_adds_no_cache_entries() -> None:
    club = make_club()
    season = make_season(club)
    client = Client()
    client.force_login(make_user(club, role="viewer"))
    memory = {alias: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "LOCATION": f"flood-{alias}"} for alias in settings.CACHES}
    url = reverse("scoring:season", args=[season.pk])
    with override_settings(CACHES=memory):
        for alias in memory:
            caches[alias].clear()
        assert client.get(url).status_code == 200
        before = polled_entries()
        assert before > 0
        for _ in range(50):
            assert client.get(url, {"x": uuid.uuid4().hex}).status_code == 200
        assert polled_entries() == before
        # the table's own parameter still counts (a sorted table is another body), once
        for _ in range(3):
            html = client.get(url, {"sort": "-name", "x": uuid.uuid4().hex}).content.decode()
            assert "x=" not in html.split("<table", 1)[-1]  # the sort links carry no junk
        assert polled_entries() == before + 2


def test_made_up_board_keys_add_no_cache_entries() -> None:
    memory = {alias: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "LOCATION": f"board-{alias}"} for alias in settings.CACHES}
    with override_settings(CACHES=memory):
        for alias in memory:
            caches[alias].clear()
        for _ in range(20):
            assert Client().get(f"/board/{uuid.uuid4().hex[:16]}/").status_code == 404
        store: dict[str, Any] = caches["default"]._cache  # type: ignore[attr-defined]
        assert not [key for key in store if "board" in key]


# ---------------------------------------------------------------- addresses and names

def test_forty_addresses_of_one_ipv6_64_count_as_one_address() -> None:
    """The attack run: 40 wrong passwords from 40 addresses of one /64 were never slowed."""
    make_club()
    answers = [sign_in(f"someone-{n}", "guess", f"2001:db8:1:2::{n + 1:x}")
               for n in range(40)]
    assert answers[:30] == [200] * 30 and set(answers[30:]) == {429}
    # another /64 is another address; an IPv4-mapped address is its IPv4 address
    assert sign_in("someone", "guess", "2001:db8:1:3::1") == 200
    for n in range(30):
        assert sign_in(f"other-{n}", "guess", "10.9.9.9") == 200
    assert sign_in("other", "guess", "::ffff:10.9.9.9") == 429


def test_a_fullwidth_user_name_counts_with_the_plain_one() -> None:
    """``ｂ_viewer`` signs in as ``b_viewer`` (Django's form NFKC-normalises): it must not
    get a count of its own."""
    club = make_club()
    user = make_user(club, role="viewer", username="b_viewer")
    assert sign_in("ｂ_viewer", "wrong") == 200
    assert sign_in("B_VIEWER", "wrong") == 200
    assert sign_in("b_viewer", "wrong") == 200
    assert sign_in("ｂ_ｖｉｅｗｅｒ", PASSWORD) == 429
    assert FailureCount.objects.filter(key__startswith="limit:login:").count() == 1
    assert sign_in(user.username, PASSWORD, "10.0.0.2") == 302
